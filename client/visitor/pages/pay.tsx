/**
 * `/pay/{id}` (docs/api.md#payments): what is being paid, how much, and how long the slot or
 * seats are held. The local provider pays here (Pay, or Cancel after an inline question); the
 * server then processes the payment in a job, so the page asks again every second until the
 * booking or order is settled. Stripe: the page waits for the hosted checkout's address and goes
 * there; coming back (`?returned=1`) it waits for the confirmation the same way. A paid order's
 * page then shows its tickets (QR, PDF, Wallet, calendar), also after a reload.
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
import { PaidTickets } from '../components/paid-tickets';
import { fetchCheckout, isFinished, pollCheckout, returnPath } from '../payment';
import { dateTimeInZone, detectTimeZone, formatPrice } from '../time';
import { t, tx } from '../../i18n/i18n';
import '../../styles/visitor.css';

/** A document's address on this page's own origin (the server names it under its public address). */
const samePath = (url: string): string => {
  const at = new URL(url, location.href);
  return `${at.pathname}${at.search}`;
};

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
  const back = (c: CheckoutDto) => returnPath(c.id) ?? '/events';

  return (
    <Show when={!notFound()} fallback={<NotFoundPage />}>
      <Page title={t('pay.page.title')}>
        <Show when={checkout.state === 'pending' || checkout.state === 'unresolved'}>
          <p class="status-text" role="status">
            {t('pay.page.loading')}
          </p>
        </Show>
        <Show when={checkout.state === 'errored' && !notFound()}>
          <ErrorState message={errorMessage(checkout.error)} onRetry={() => void refetch()} />
        </Show>
        <Show when={current()}>
          {(c) => (
            <div class="v-stack">
              <dl class="v-facts">
                <dt>{t('pay.page.for')}</dt>
                <dd>{c().description}</dd>
                <dt>{t('pay.page.amount')}</dt>
                <dd class="v-amount">{amount(c())}</dd>
              </dl>
              <Show when={c().status === 'open' && view() !== 'confirming'}>
                <p class="v-hold">
                  {tx('pay.page.hold', {
                    kind: c().kind,
                    until: dateTimeInZone(c().holdUntilUtc, tz),
                    time: (chunks) => <time datetime={isoDateTime(c().holdUntilUtc)}>{chunks}</time>,
                  })}
                </p>
              </Show>

              {/* One polite live region, always present, so each new state is announced. */}
              <div role="status" aria-live="polite">
                <Show when={view() === 'confirming'}>
                  <div class="v-result waiting">
                    <h2 ref={stateHeading} tabindex="-1">
                      {t('pay.page.confirming')}
                    </h2>
                    <Show when={slow()} fallback={<p>{t('pay.page.fewSeconds')}</p>}>
                      <p>{t('pay.page.slowConfirm')}</p>
                    </Show>
                  </div>
                </Show>
                <Show when={view() === 'redirecting'}>
                  <div class="v-result waiting">
                    <h2 ref={stateHeading} tabindex="-1">
                      {t('pay.page.redirecting')}
                    </h2>
                    <Show when={slow()} fallback={<p>{t('pay.page.providerPage')}</p>}>
                      <p>{t('pay.page.notReady')}</p>
                    </Show>
                  </div>
                </Show>
                <Show when={view() === 'paid'}>
                  <div class="v-result">
                    <h2 ref={stateHeading} tabindex="-1">
                      {t('pay.page.complete')}
                    </h2>
                    <p>{t('pay.paid', { kind: c().kind })}</p>
                  </div>
                </Show>
                <Show when={view() === 'released'}>
                  <div class="v-result closed">
                    <h2 ref={stateHeading} tabindex="-1">
                      {t('pay.page.releasedHeading', { reason: c().status === 'cancelled' ? 'cancelled' : 'expired' })}
                    </h2>
                    <p>{t('pay.page.released', { reason: c().status === 'cancelled' ? 'cancelled' : 'expired', kind: c().kind })}</p>
                  </div>
                </Show>
                <Show when={view() === 'refunded'}>
                  <div class="v-result closed">
                    <h2 ref={stateHeading} tabindex="-1">
                      {t('pay.page.refundedHeading', { state: c().status === 'refunded' ? 'refunded' : 'refunding' })}
                    </h2>
                    <p>{t('pay.page.refundedText', { state: c().status === 'refunded' ? 'refunded' : 'refunding', amount: amount(c()) })}</p>
                  </div>
                </Show>
              </div>

              <Show when={view() === 'pay' && !asking()}>
                <div class="v-actions">
                  <button type="button" class="button v-pay-button" onClick={() => void pay()} aria-disabled={busy() !== null}>
                    {busy() === 'pay' ? t('pay.page.paying') : t('pay.linkAmount', { amount: amount(c()) })}
                  </button>
                  <button type="button" class="button button-quiet" onClick={askCancel}>
                    {t('pay.page.cancel')}
                  </button>
                </div>
              </Show>
              <Show when={view() === 'redirecting' && !asking()}>
                <div class="v-actions">
                  <Show when={slow()}>
                    <button type="button" class="button" onClick={lookAgain}>
                      {t('common.tryAgain')}
                    </button>
                  </Show>
                  <button type="button" class="button button-quiet" onClick={askCancel}>
                    {t('pay.page.cancel')}
                  </button>
                </div>
              </Show>
              <Show when={view() === 'confirming' && slow()}>
                <div class="v-actions">
                  <button type="button" class="button" onClick={lookAgain}>
                    {t('pay.page.checkAgain')}
                  </button>
                </div>
              </Show>

              <Show when={asking() && (view() === 'pay' || view() === 'redirecting')}>
                <section class="v-stack" aria-labelledby="pay-cancel-heading">
                  <h2 id="pay-cancel-heading" ref={askHeading} tabindex="-1">
                    {t('pay.page.askHeading')}
                  </h2>
                  <p>{t('pay.page.askText', { kind: c().kind })}</p>
                  <div class="v-actions">
                    <button type="button" class="button" onClick={() => void cancel()} aria-disabled={busy() !== null}>
                      {busy() === 'cancel' ? t('pay.page.cancelling') : t('pay.page.yesCancel')}
                    </button>
                    <button type="button" class="button button-quiet" onClick={() => setAsking(false)}>
                      {t('pay.page.keep')}
                    </button>
                  </div>
                </section>
              </Show>

              <FormError message={error()} />

              <Show when={view() === 'paid' && c().kind === 'order'}>
                <PaidTickets paymentId={id} />
              </Show>

              <Show when={view() === 'released' || view() === 'refunded'}>
                <p>
                  <A href={back(c())}>{t('pay.page.again', { kind: c().kind })}</A>
                  <Show when={back(c()) !== '/events'}>
                    {' · '}
                    <A href="/events">{t('book.allEvents')}</A>
                  </Show>
                </p>
              </Show>
              <Show when={c().receiptUrl || c().creditNoteUrl}>
                <p>
                  <Show when={c().receiptUrl}>
                    {(url) => (
                      <a href={samePath(url())} download="">
                        {t('pay.page.receipt')}
                      </a>
                    )}
                  </Show>
                  <Show when={c().receiptUrl && c().creditNoteUrl}>{' · '}</Show>
                  <Show when={c().creditNoteUrl}>
                    {(url) => (
                      <a href={samePath(url())} download="">
                        {t('pay.page.creditNote')}
                      </a>
                    )}
                  </Show>
                </p>
              </Show>
              <Show when={view() === 'paid'}>
                <p>
                  <A href="/events">{t('book.allEvents')}</A>
                </p>
              </Show>
            </div>
          )}
        </Show>
      </Page>
    </Show>
  );
}
