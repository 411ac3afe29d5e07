import { createResource, Match, Show, Switch, type Accessor, type JSX } from 'solid-js';
import type { CheckoutDto } from '../../../shared/payments';
import { A } from '../../router';
import { checkoutPath, fetchCheckout, holdHours, paymentIdOf } from '../payment';
import { dateTimeInZone, detectTimeZone, formatPrice } from '../time';

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
  const what = () => (props.kind === 'booking' ? 'the time' : 'the seats');
  const linkText = () => (props.checkout ? `Pay ${formatPrice(props.checkout.amountCents, props.checkout.currency)}` : 'Go to payment');

  return (
    <Switch
      fallback={
        <>
          <p>
            Complete your payment:{' '}
            <Show when={path()} fallback={<a href={props.paymentUrl}>{linkText()}</a>}>
              {(p) => <A href={p()}>{linkText()}</A>}
            </Show>
            <Show when={props.checkout} fallback=". Unpaid holds are released after a few hours.">
              {(c) => (
                <>
                  ; unpaid holds are released after {hoursText(holdHours(c().holdUntilUtc, props.answeredAt ?? Date.now()))}. We hold {what()} for you until{' '}
                  {dateTimeInZone(c().holdUntilUtc, tz)}.
                </>
              )}
            </Show>
          </p>
          <p class="v-hint">
            Once the payment is through, {props.kind === 'booking' ? 'the confirmation with a calendar invitation' : 'your tickets'} will come by email.
          </p>
        </>
      }
    >
      <Match when={props.checkout?.settled}>
        <p>
          {props.kind === 'booking'
            ? 'Paid — your booking is confirmed. We sent the confirmation to your email.'
            : 'Paid — your tickets are on their way to your email.'}
        </p>
      </Match>
      <Match when={props.checkout?.status === 'cancelled' || props.checkout?.status === 'expired'}>
        <p>
          This payment was {props.checkout?.status === 'cancelled' ? 'cancelled' : 'not completed in time'}; {what()}{' '}
          {props.kind === 'booking' ? 'was' : 'were'} released.
        </p>
      </Match>
      <Match when={props.checkout?.status === 'refunding' || props.checkout?.status === 'refunded'}>
        <p>This payment was refunded.</p>
      </Match>
    </Switch>
  );
}

const hoursText = (n: number) => `${n} hour${n === 1 ? '' : 's'}`;
