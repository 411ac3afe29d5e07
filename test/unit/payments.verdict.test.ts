/** The verdict over a payment's set of provider events (docs/decisions/024-payment-events-as-a-set.md). */
import { describe, expect, it } from 'vitest';
import { paymentVerdict, type StoredEventFacts } from '../../server/modules/orders/payment-verdict';

const owed = { amountCents: 4500, currency: 'USD' };
const paid = (amountCents = 4500, currency: string | null = null): StoredEventFacts => ({ kind: 'paid', amountCents, currency });
const refunded: StoredEventFacts = { kind: 'refunded', amountCents: 4500, currency: null };
const failed: StoredEventFacts = { kind: 'failed', amountCents: 4500, currency: null };

describe('paymentVerdict', () => {
  it('confirms only payments of what is owed, alone (currency compared without case, absent = not named)', () => {
    for (const events of [[paid()], [paid(4500, 'USD')], [paid(4500, 'usd'), paid()]])
      expect(paymentVerdict(owed, events)).toEqual({ action: 'confirm', attention: null, refundedAtProvider: false });
  });

  it.each<[string, StoredEventFacts[], ReturnType<typeof paymentVerdict>]>([
    ['a refund alone', [refunded], { action: 'refund', attention: 'refunded_at_provider', refundedAtProvider: true }],
    ['a payment and its refund', [paid(), refunded], { action: 'refund', attention: 'refunded_at_provider', refundedAtProvider: true }],
    ['a payment and a failure', [paid(), failed], { action: 'refund', attention: 'payment_failed', refundedAtProvider: false }],
    ['a payment short', [paid(4400)], { action: 'refund', attention: 'amount_mismatch', refundedAtProvider: false }],
    ['a payment in another currency', [paid(4500, 'EUR')], { action: 'refund', attention: 'amount_mismatch', refundedAtProvider: false }],
    ['a mismatch that was refunded', [refunded, paid(1)], { action: 'refund', attention: 'amount_mismatch', refundedAtProvider: true }],
    ['a failure alone', [failed], { action: 'release', attention: null, refundedAtProvider: false }],
    ['nothing', [], { action: null, attention: null, refundedAtProvider: false }],
  ])('%s', (_what, events, verdict) => {
    expect(paymentVerdict(owed, events)).toEqual(verdict);
    // the same set in the other order says the same
    expect(paymentVerdict(owed, [...events].reverse())).toEqual(verdict);
  });
});
