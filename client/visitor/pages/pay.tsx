/**
 * `/pay/{id}` (docs/api.md#payments): what is being paid, how much, and how long the slot or
 * seats are held. The local provider pays here (Pay, or Cancel after an inline question); the
 * server then processes the payment in a job, so the page asks again every second until the
 * booking or order is settled. Stripe: the page waits for the hosted checkout's address and goes
 * there; coming back (`?returned=1`) it waits for the confirmation the same way.
 */
import { createEffect, createMemo, createResource, createSignal, on, onCleanup, Show, type JSX } from 'solid-js';
import { ApiError, errorMessage } from '../../ui/errors';
import { FormError } from '../../ui/form-error';
import { isoDateTime } from '../../ui/format';
import NotFoundPage from '../../ui/not-found';
import { Page } from '../../ui/page';
import { A, searchParams, type RouteProps } from '../../router';
import { call, rpc } from '../../ui/trpc';
import type { CheckoutDto } from '../../../shared/payments';
import { ErrorState } from '../components/states';
import { fetchCheckout, isFinished, pollCheckout, returnPath } from '../payment';
import { dateTimeInZone, detectTimeZone, formatPrice } from '../time';
import '../../styles/visitor.css';

type View = 'pay' | 'redirecting' | 'confirming' | 'paid' | 'released' | 'refunded';

export default function PayPage(props: RouteProps): JSX.Element {
  const id = props.params.id ?? '';
  const returned = searchParams().get('returned') === '1';
  const tz = detectTimeZone();
  const [checkout, { mutate, refetch }] = createResource(() => fetchCheckout(id));

  /** Pay was pressed (or the visitor came back from the provider): wait for the server's job. */
  const [confirming, setConfirming] = createSignal(returned);
  /** The last wait ran out of time: say so and offer to look again. */
  const [slow, setSlow] = createSignal(false);
  const [asking, setAsking] = createSignal(false);
  const [busy, setBusy] = createSignal<'pay' | 'cancel' | null>(null);
  const [error, setError] = createSignal<string | null>(null);
  /** The provider's hosted page, once it exists (Stripe). */
  const [hostedUrl, setHostedUrl] = createSignal<string | null>(null);
  let acted = false;
  let stateHeading: HTMLHeadingElement | undefined;
  let askHeading: HTMLHeadingElement | undefined;

  let generation = 0;
  let disposed = false;
  onCleanup(() => {
    disposed = true;
  });

  const current = (): CheckoutDto | undefined => (checkout.state === 'ready' || checkout.state === 'refreshing' ? checkout.latest : undefined);
  const notFound = () => checkout.state === 'errored' && checkout.error instanceof ApiError && checkout.error.status === 404;

  const view = createMemo<View | null>(() => {
    const c = current();
    if (!c) return null;
    if (c.settled) return 'paid';
    if (c.status === 'cancelled' || c.status === 'expired') return 'released';
    if (c.status === 'refunding' || c.status === 'refunded') return 'refunded';
    if (c.status === 'paid' || confirming()) return 'confirming';
    return c.provider === 'stripe' ? 'redirecting' : 'pay';
  });

  /** Asks again every second until `done` (or the checkout is over); a wait that runs out shows "taking longer". */
  const watch = async (done: (c: CheckoutDto) => boolean): Promise<void> => {
    const mine = ++generation;
    setSlow(false);
    try {
      const { reached } = await pollCheckout(id, (c) => done(c) || isFinished(c), {
        onUpdate: (c) => mutate(c),
        stopped: () => disposed || mine !== generation,
      });
      if (!reached && !disposed && mine === generation) setSlow(true);
    } catch (err) {
      if (!disposed && mine === generation) setError(errorMessage(err));
    }
  };

  const reload = async () => {
    try {
      mutate(await fetchCheckout(id));
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  const waitForHostedPage = () => {
    const c = current();
    if (c?.checkoutUrl) setHostedUrl(c.checkoutUrl);
    else
      void watch((next) => next.checkoutUrl !== null).then(() => {
        const url = current()?.checkoutUrl;
        if (url) setHostedUrl(url);
      });
  };

  // Once loaded: a return from the provider waits for the confirmation; Stripe otherwise waits for its page.
  let started = false;
  createEffect(() => {
    const c = current();
    if (!c || started) return;
    started = true;
    if (c.status !== 'open') return;
    if (returned) void watch(() => false);
    else if (c.provider === 'stripe') waitForHostedPage();
  });

  // To the provider's page, unless the visitor is answering "cancel this payment?" meanwhile.
  createEffect(() => {
    const url = hostedUrl();
    if (url && view() === 'redirecting' && !asking() && busy() === null) window.location.assign(url);
  });

  // After Pay or Cancel, the outcome takes the focus (screen readers hear it; nobody hunts for it).
  createEffect(
    on(
      view,
      (v) => {
        if (acted && v && v !== 'pay' && v !== 'redirecting') queueMicrotask(() => stateHeading?.focus());
      },
      { defer: true },
    ),
  );

  const pay = async () => {
    if (busy()) return;
    acted = true;
    setBusy('pay');
    setError(null);
    try {
      await call(rpc().payments.localPay.mutate({ sessionId: id }));
      setConfirming(true);
      void watch(() => false);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'svc_payment_closed') {
        // paid, released or run out meanwhile: show where it stands
        await reload();
        if (view() === 'pay') setError(errorMessage(err));
      } else setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };

  const askCancel = () => {
    setError(null);
    setAsking(true);
    queueMicrotask(() => askHeading?.focus());
  };

  const cancel = async () => {
    const c = current();
    if (busy() || !c) return;
    acted = true;
    generation += 1; // no more waiting for the provider's page
    setBusy('cancel');
    setError(null);
    try {
      if (c.provider === 'local') {
        await call(rpc().payments.localCancel.mutate({ sessionId: id }));
        await reload();
      } else mutate(await call(rpc().payments.cancelCheckout.mutate({ id })));
      setAsking(false);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'svc_payment_closed') {
        setAsking(false);
        await reload();
      } else setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };

  const lookAgain = () => {
    setError(null);
    if (view() === 'redirecting') waitForHostedPage();
    else void watch(() => false);
  };

  const amount = (c: CheckoutDto) => formatPrice(c.amountCents, c.currency);
  const held = (c: CheckoutDto) => (c.kind === 'booking' ? 'the time slot' : 'the seats');
  const back = (c: CheckoutDto) => returnPath(c.id) ?? '/events';

  return (
    <Show when={!notFound()} fallback={<NotFoundPage />}>
      <Page title="Payment">
        <Show when={checkout.state === 'pending' || checkout.state === 'unresolved'}>
          <p class="status-text" role="status">
            Loading the payment…
          </p>
        </Show>
        <Show when={checkout.state === 'errored' && !notFound()}>
          <ErrorState message={errorMessage(checkout.error)} onRetry={() => void refetch()} />
        </Show>
        <Show when={current()}>
          {(c) => (
            <div class="v-stack">
              <dl class="v-facts">
                <dt>For</dt>
                <dd>{c().description}</dd>
                <dt>Amount</dt>
                <dd class="v-amount">{amount(c())}</dd>
              </dl>
              <Show when={c().status === 'open' && view() !== 'confirming'}>
                <p class="v-hold">
                  We hold {held(c())} for you until <time datetime={isoDateTime(c().holdUntilUtc)}>{dateTimeInZone(c().holdUntilUtc, tz)}</time>. Unpaid, it is
                  released for someone else.
                </p>
              </Show>

              {/* One polite live region, always present, so each new state is announced. */}
              <div role="status" aria-live="polite">
                <Show when={view() === 'confirming'}>
                  <div class="v-result waiting">
                    <h2 ref={stateHeading} tabindex="-1">
                      Confirming your payment…
                    </h2>
                    <Show when={slow()} fallback={<p>This takes a few seconds. Please keep this page open.</p>}>
                      <p>This is taking longer than usual. You can close this page: the confirmation comes by email once the payment is through.</p>
                    </Show>
                  </div>
                </Show>
                <Show when={view() === 'redirecting'}>
                  <div class="v-result waiting">
                    <h2 ref={stateHeading} tabindex="-1">
                      Taking you to secure checkout…
                    </h2>
                    <Show when={slow()} fallback={<p>You pay on the payment provider’s page, then come back here.</p>}>
                      <p>The payment page is not ready yet.</p>
                    </Show>
                  </div>
                </Show>
                <Show when={view() === 'paid'}>
                  <div class="v-result">
                    <h2 ref={stateHeading} tabindex="-1">
                      Payment complete
                    </h2>
                    <p>
                      {c().kind === 'booking'
                        ? 'Paid — your booking is confirmed. We sent the confirmation to your email.'
                        : 'Paid — your tickets are on their way to your email.'}
                    </p>
                  </div>
                </Show>
                <Show when={view() === 'released'}>
                  <div class="v-result closed">
                    <h2 ref={stateHeading} tabindex="-1">
                      {c().status === 'cancelled' ? 'Payment cancelled' : 'Time to pay ran out'}
                    </h2>
                    <p>
                      {c().status === 'cancelled' ? 'This payment was cancelled' : 'This payment was not completed in time'};{' '}
                      {c().kind === 'booking' ? 'the slot was released.' : 'the seats were released.'} Nothing was charged.
                    </p>
                  </div>
                </Show>
                <Show when={view() === 'refunded'}>
                  <div class="v-result closed">
                    <h2 ref={stateHeading} tabindex="-1">
                      {c().status === 'refunded' ? 'Payment refunded' : 'Refund under way'}
                    </h2>
                    <p>
                      {c().status === 'refunded'
                        ? `This payment of ${amount(c())} was refunded.`
                        : `This payment of ${amount(c())} is being refunded; the money goes back the way it was paid.`}
                    </p>
                  </div>
                </Show>
              </div>

              <Show when={view() === 'pay' && !asking()}>
                <div class="v-actions">
                  <button type="button" class="button v-pay-button" onClick={() => void pay()} aria-disabled={busy() !== null}>
                    {busy() === 'pay' ? 'Paying…' : `Pay ${amount(c())}`}
                  </button>
                  <button type="button" class="button button-quiet" onClick={askCancel}>
                    Cancel
                  </button>
                </div>
              </Show>
              <Show when={view() === 'redirecting' && !asking()}>
                <div class="v-actions">
                  <Show when={slow()}>
                    <button type="button" class="button" onClick={lookAgain}>
                      Try again
                    </button>
                  </Show>
                  <button type="button" class="button button-quiet" onClick={askCancel}>
                    Cancel
                  </button>
                </div>
              </Show>
              <Show when={view() === 'confirming' && slow()}>
                <div class="v-actions">
                  <button type="button" class="button" onClick={lookAgain}>
                    Check again
                  </button>
                </div>
              </Show>

              <Show when={asking() && (view() === 'pay' || view() === 'redirecting')}>
                <section class="v-stack" aria-labelledby="pay-cancel-heading">
                  <h2 id="pay-cancel-heading" ref={askHeading} tabindex="-1">
                    Cancel this payment?
                  </h2>
                  <p>Nothing is charged, and {held(c())} you chose will be released for someone else.</p>
                  <div class="v-actions">
                    <button type="button" class="button" onClick={() => void cancel()} aria-disabled={busy() !== null}>
                      {busy() === 'cancel' ? 'Cancelling…' : 'Yes, cancel'}
                    </button>
                    <button type="button" class="button button-quiet" onClick={() => setAsking(false)}>
                      Keep it and pay
                    </button>
                  </div>
                </section>
              </Show>

              <FormError message={error()} />

              <Show when={view() === 'released' || view() === 'refunded'}>
                <p>
                  <A href={back(c())}>{c().kind === 'booking' ? 'Pick another time' : 'Back to the event'}</A>
                  <Show when={back(c()) !== '/events'}>
                    {' · '}
                    <A href="/events">All events and appointments</A>
                  </Show>
                </p>
              </Show>
              <Show when={view() === 'paid'}>
                <p>
                  <A href="/events">All events and appointments</A>
                </p>
              </Show>
            </div>
          )}
        </Show>
      </Page>
    </Show>
  );
}
