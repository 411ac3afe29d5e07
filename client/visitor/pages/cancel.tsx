/**
 * `/cancel/{token}` from the sign-up email: opening it only shows what would be cancelled
 * (mail scanners open links); the button does it. A going sign-up's page is its ticket page too:
 * it offers the Google Calendar and Outlook.com links, with this link in the entry's notes.
 */
import { createResource, createSignal, Show, type JSX } from 'solid-js';
import { ApiError, errorMessage } from '../../ui/errors';
import { FormError } from '../../ui/form-error';
import { Page } from '../../ui/page';
import type { RouteProps } from '../../router';
import { A } from '../../router';
import { call, rpc } from '../../ui/trpc';
import { ErrorState } from '../components/states';
import { WhenLines } from '../components/when-lines';
import { CalendarLinks } from '../components/calendar-links';
import { detectTimeZone } from '../time';
import { t } from '../../i18n/i18n';
import { formatWhenHere } from '../when';
import { ticketPassUrl, ticketPdfUrl } from '../links';
import { TicketLinks } from '../components/ticket-links';
import '../../styles/visitor.css';

export default function CancelPage(props: RouteProps): JSX.Element {
  const token = props.params.token ?? '';
  const tz = detectTimeZone();
  const [preview, { refetch }] = createResource(() => call(rpc().attendees.cancelPreview.query({ token })));
  // the answer, never the error: a failed resource's `latest` throws, which left an unknown link on "Loading…"
  const shown = () => (preview.state === 'ready' || preview.state === 'refreshing' ? preview.latest : undefined);
  // the end time comes with the event; without it (unpublished since) the start is shown alone
  const [event] = createResource(
    () => shown()?.eventId,
    (id) => call(rpc().events.get.query({ id })).catch(() => null),
  );
  const [busy, setBusy] = createSignal(false);
  const [done, setDone] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);

  const cancel = async () => {
    if (busy()) return;
    setBusy(true);
    setError(null);
    try {
      await call(rpc().attendees.cancel.mutate({ token }));
      setDone(true);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const notFound = () => preview.error instanceof ApiError && preview.error.status === 404;

  return (
    <Page title={t('cancel.title')}>
      <Show when={preview.loading}>
        <p class="status-text" role="status">
          {t('cancel.loading')}
        </p>
      </Show>
      <Show when={preview.error}>
        <Show when={notFound()} fallback={<ErrorState message={errorMessage(preview.error)} onRetry={() => void refetch()} />}>
          <ErrorState message={t('cancel.notFound')} />
          <p>
            <A href="/events">{t('book.allEvents')}</A>
          </p>
        </Show>
      </Show>
      <Show when={!preview.loading && shown()}>
        {(p) => (
          <div class="v-stack">
            <dl class="v-facts">
              <dt>{t('cancel.event')}</dt>
              <dd>{p().eventTitle}</dd>
              <dt>{t('event.when')}</dt>
              <dd>
                <WhenLines when={formatWhenHere({ startUtc: p().eventStartsUtc, endUtc: event.latest?.endsUtc, zone: p().eventTimezone, viewerZone: tz })} />
              </dd>
              <dt>{t('cancel.name')}</dt>
              <dd>{p().displayName}</dd>
              <dt>{t('signup.seats')}</dt>
              <dd>{p().quantity}</dd>
              <dt>{t('cancel.status')}</dt>
              <dd>
                {done() || p().status === 'cancelled'
                  ? t('cancel.statusCancelled')
                  : p().status === 'waitlist'
                    ? t('cancel.statusWaitlist')
                    : t('cancel.statusGoing')}
              </dd>
            </dl>
            <Show when={p().refund}>
              {(refund) => (
                <p class="v-refund">
                  {done() || p().status === 'cancelled' ? t('cancel.refundState', { state: refund() }) : t('cancel.refundBefore', { state: refund() })}
                </p>
              )}
            </Show>
            <Show when={!done() && p().status !== 'cancelled' && p().status !== 'waitlist'}>
              <CalendarLinks
                event={{
                  title: p().eventTitle,
                  startUtc: p().eventStartsUtc,
                  endUtc: event.latest?.endsUtc,
                  location: event.latest?.venue,
                  // the mailed event.ics's words: this page's own link is the one to cancel with
                  details: t('cancel.calendarDetails', { url: `${window.location.origin}/cancel/${encodeURIComponent(token)}` }),
                }}
              />
            </Show>
            <Show
              when={!done() && p().status !== 'cancelled'}
              fallback={
                <div class="v-result" role="status">
                  <h2>{done() ? t('cancel.doneHeading') : t('cancel.alreadyHeading')}</h2>
                  <p>
                    {done() ? `${t('cancel.seatsFree')} ` : ''}
                    <A href={`/events/${p().eventId}`}>{t('cancel.backToEvent')}</A>
                  </p>
                </div>
              }
            >
              <Show when={p().status === 'going' || p().status === ''}>
                <TicketLinks pdfHref={ticketPdfUrl(token)} walletHref={p().walletAvailable ? ticketPassUrl(token) : undefined} />
              </Show>
              <p>{t('cancel.explain', { seats: p().quantity, event: p().eventTitle })}</p>
              <div class="v-actions">
                <button type="button" class="button" onClick={cancel} aria-disabled={busy()} aria-describedby={error() ? 'cancel-error' : undefined}>
                  {busy() ? t('cancel.cancelling') : t('cancel.submit')}
                </button>
              </div>
              <FormError message={error()} id="cancel-error" />
            </Show>
          </div>
        )}
      </Show>
    </Page>
  );
}
