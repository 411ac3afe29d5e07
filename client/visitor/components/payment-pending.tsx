import { createResource, Match, Show, Switch, type Accessor, type JSX } from 'solid-js';
import type { CheckoutDto } from '../../../shared/payments';
import { A } from '../../router';
import { checkoutPath, fetchCheckout, holdHours, paymentIdOf } from '../payment';
import { dateTimeInZone, detectTimeZone, formatPrice } from '../time';
import { t, tx } from '../../i18n/i18n';

/** Where a held booking's or order's payment stands now (undefined while unknown or offline). */
export type PaymentState = 'pending' | 'paid' | 'released' | 'refunded';

/**
 * The checkout behind a `paymentUrl`, asked once when the page shows the result: the visitor may
 * have paid or given up on the payment page since. A failure (offline) leaves it unknown.
 */
export function createPaymentCheckout(paymentUrl: Accessor<string | null | undefined>): {
  checkout: Accessor<CheckoutDto | undefined>;
  state: Accessor<PaymentState | undefined>;
} {
  const [checkout] = createResource(
    () => paymentIdOf(paymentUrl()),
    (id) => fetchCheckout(id).catch(() => undefined),
  );
  // read only once ready: reading a loading resource would suspend the whole page
  const value = () => (checkout.state === 'ready' ? checkout() : undefined);
  const state = (): PaymentState | undefined => {
    const c = value();
    if (!c) return undefined;
    if (c.settled) return 'paid';
    if (c.status === 'cancelled' || c.status === 'expired') return 'released';
    if (c.status === 'refunding' || c.status === 'refunded') return 'refunded';
    return 'pending';
  };
  return { checkout: value, state };
}

/**
 * A booking or sign-up that waits for its payment, on the page that made it: the link to the
 * checkout stays here (the visitor may have closed the payment page) with how long the hold
 * lasts; once paid or released, it says so instead.
 */
export function PaymentPending(props: { paymentUrl: string; kind: 'booking' | 'order'; checkout: CheckoutDto | undefined; answeredAt?: number }): JSX.Element {
  const path = () => checkoutPath(props.paymentUrl);
  const tz = detectTimeZone();
  const linkText = () => (props.checkout ? t('pay.linkAmount', { amount: formatPrice(props.checkout.amountCents, props.checkout.currency) }) : t('pay.linkGo'));
  const link = (chunks: JSX.Element[]) => (
    <Show when={path()} fallback={<a href={props.paymentUrl}>{chunks}</a>}>
      {(p) => <A href={p()}>{chunks}</A>}
    </Show>
  );

  return (
    <Switch
      fallback={
        <>
          <p>
            <Show when={props.checkout} fallback={tx('pay.complete', { label: linkText(), link })}>
              {(c) =>
                tx('pay.completeHeld', {
                  label: linkText(),
                  link,
                  hours: holdHours(c().holdUntilUtc, props.answeredAt ?? Date.now()),
                  kind: props.kind,
                  until: dateTimeInZone(c().holdUntilUtc, tz),
                })
              }
            </Show>
          </p>
          <p class="v-hint">{t('pay.afterPaid', { kind: props.kind })}</p>
        </>
      }
    >
      <Match when={props.checkout?.settled}>
        <p>{t('pay.paid', { kind: props.kind })}</p>
      </Match>
      <Match when={props.checkout?.status === 'cancelled' || props.checkout?.status === 'expired'}>
        <p>{t('pay.released', { reason: props.checkout?.status === 'cancelled' ? 'cancelled' : 'expired', kind: props.kind })}</p>
      </Match>
      <Match when={props.checkout?.status === 'refunding' || props.checkout?.status === 'refunded'}>
        <p>{t('pay.refunded')}</p>
      </Match>
    </Switch>
  );
}
