/**
 * What a payment's provider events, taken together, say should happen
 * (docs/decisions/024-payment-events-as-a-set.md). Providers promise no order: a refund may come
 * before the payment it refunds, a failure after a success. So the verdict is a function of the
 * SET of stored events, never of the one in hand, and every ordering of one set ends the same.
 */
import type { PaymentAttention } from '../../../shared/payments';
import type { ProviderEventKind } from './providers/provider';

export interface StoredEventFacts {
  kind: ProviderEventKind;
  amountCents: number;
  /** As the provider reported it; null when its event names none (the local provider's may not). */
  currency: string | null;
}

export interface PaymentVerdict {
  /**
   * confirm: the money landed as owed and nothing took it back; release: nothing was paid and the
   * checkout is over; refund: money landed (or was refunded already) and must not be kept;
   * null: nothing to do yet.
   */
  action: 'confirm' | 'release' | 'refund' | null;
  /** Why an administrator should look (money that confirmed nothing), or null. */
  attention: PaymentAttention | null;
  /** The provider itself reports the money back: svc asks for no refund of its own. */
  refundedAtProvider: boolean;
}

export function paymentVerdict(owed: { amountCents: number; currency: string }, events: StoredEventFacts[]): PaymentVerdict {
  const paid = events.filter((e) => e.kind === 'paid');
  const refundedAtProvider = events.some((e) => e.kind === 'refunded');
  const failed = events.some((e) => e.kind === 'failed');
  const mismatch = paid.some((e) => e.amountCents !== owed.amountCents || (e.currency !== null && e.currency.toUpperCase() !== owed.currency.toUpperCase()));
  if (mismatch) return { action: 'refund', attention: 'amount_mismatch', refundedAtProvider };
  if (refundedAtProvider) return { action: 'refund', attention: 'refunded_at_provider', refundedAtProvider };
  if (paid.length > 0)
    return failed ? { action: 'refund', attention: 'payment_failed', refundedAtProvider } : { action: 'confirm', attention: null, refundedAtProvider };
  return { action: failed ? 'release' : null, attention: null, refundedAtProvider };
}
