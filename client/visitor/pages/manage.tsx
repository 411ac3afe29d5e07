/**
 * `/manage/{token}` from the booking email: opening it only shows the booking (`booking.byToken`);
 * buttons cancel it (`booking.cancelByToken`) or move it to another free time
 * (`booking.reschedule`). A time taken meanwhile is answered with fresh times and a notice beside
 * them. Times read in the host's zone first (the booking type's), the visitor's second. A
 * confirmed booking offers the Google Calendar and Outlook.com links (its new time after a move).
 */
import { createResource, createSignal, Show, type JSX } from 'solid-js';
import { ApiError, errorMessage } from '../../ui/errors';
import { FormError } from '../../ui/form-error';
import { Page } from '../../ui/page';
import type { RouteProps } from '../../router';
import { A } from '../../router';
import { call, rpc } from '../../ui/trpc';
import { isValidTimeZone } from '../../../shared/time';
import { isSlotTaken, TZ_STORAGE_KEY, type Slot } from '../booking';
import { SlotPicker, type SlotPickerHandle } from '../components/slot-picker';
import { ErrorState } from '../components/states';
import { WhenLines } from '../components/when-lines';
import { MeetingLinkFact } from '../components/meeting-link';
import { CalendarLinks } from '../components/calendar-links';
import { TicketLinks } from '../components/ticket-links';
import { bookingPassUrl } from '../links';
import { formatPrice } from '../time';
import { t } from '../../i18n/i18n';
import { formatWhenHere } from '../when';
import '../../styles/visitor.css';

/** A booking's status in the reader's words; an unknown one is shown as the server sent it. */
function statusWords(status: string): string {
  const words: Record<string, () => string> = {
    confirmed: () => t('manage.statusConfirmed'),
    pending_approval: () => t('manage.statusPendingApproval'),
    pending_payment: () => t('manage.statusPendingPayment'),
    cancelled: () => t('manage.statusCancelled'),
    abandoned: () => t('manage.statusAbandoned'),
  };
  return words[status]?.() ?? status;
}

export default function ManagePage(props: RouteProps): JSX.Element {
  const token = props.params.token ?? '';
  const [booking, { mutate, refetch }] = createResource(() => call(rpc().booking.byToken.query({ token })));
  // the answer, never the error: a failed resource's `latest` throws, which left an unknown link on "Loading…"
  const shown = () => (booking.state === 'ready' || booking.state === 'refreshing' ? booking.latest : undefined);
  const saved = localStorage.getItem(TZ_STORAGE_KEY);
  const [tz, setTz] = createSignal<string | null>(saved && isValidTimeZone(saved) ? saved : null);
  const zone = () => tz() ?? shown()?.customerTz ?? 'UTC';
  // the type gives the host's zone and its seats; a type no longer published leaves the visitor's zone alone
  const [bookingType] = createResource(
    () => shown()?.bookingTypeId,
    (id) => call(rpc().booking.type.query({ id })).catch(() => null),
  );
  const when = (startUtc: string, endUtc: string | null) =>
    formatWhenHere({ startUtc, endUtc, zone: bookingType.latest?.timezone ?? zone(), viewerZone: zone() });
  const [taken, setTaken] = createSignal<string | null>(null);
  const [mode, setMode] = createSignal<'view' | 'confirm-cancel' | 'reschedule'>('view');
  const [slot, setSlot] = createSignal<Slot | null>(null);
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const [message, setMessage] = createSignal<string | null>(null);
  let picker: SlotPickerHandle | undefined;

  const cancel = async () => {
    if (busy()) return;
    setBusy(true);
    setError(null);
    try {
      await call(rpc().booking.cancelByToken.mutate({ token }));
      const current = shown();
      if (current) mutate({ ...current, status: 'cancelled', canCancel: false, canReschedule: false });
      setMode('view');
      setMessage(t('manage.cancelled'));
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const reschedule = async () => {
    const chosen = slot();
    if (busy() || !chosen) {
      if (!chosen) setError(t('manage.pickFirst'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const moved = await call(rpc().booking.reschedule.mutate({ token, startUtc: chosen.start_utc }));
      mutate(moved);
      setSlot(null);
      setMode('view');
      setMessage(t('manage.moved', { when: when(moved.startUtc, moved.endUtc).text }));
    } catch (err) {
      if (err instanceof ApiError && isSlotTaken(err.code)) {
        setSlot(null);
        setTaken(t('manage.taken'));
        void picker?.refresh();
      } else setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const notFound = () => booking.error instanceof ApiError && booking.error.status === 404;

  return (
    <Page title={t('manage.title')}>
      <Show when={booking.loading && !shown()}>
        <p class="status-text" role="status">
          {t('manage.loading')}
        </p>
      </Show>
      <Show when={booking.error}>
        <Show when={notFound()} fallback={<ErrorState message={errorMessage(booking.error)} onRetry={() => void refetch()} />}>
          <ErrorState message={t('manage.notFound')} />
          <p>
            <A href="/events">{t('book.allEvents')}</A>
          </p>
        </Show>
      </Show>
      <Show when={!booking.error && shown()}>
        {(b) => (
          <div class="v-stack">
            <Show when={message()}>
              <div class="v-result" role="status">
                <p style={{ margin: 0 }}>{message()}</p>
              </div>
            </Show>
            <dl class="v-facts">
              <dt>{t('manage.what')}</dt>
              <dd>{b().bookingTypeTitle}</dd>
              <dt>{t('event.when')}</dt>
              <dd>
                <WhenLines when={when(b().startUtc, b().endUtc)} />
              </dd>
              <Show when={b().hostName}>
                <dt>{t('manage.with')}</dt>
                <dd>{b().hostName}</dd>
              </Show>
              <Show when={b().location}>
                <dt>{t('event.where')}</dt>
                <dd>{b().location}</dd>
              </Show>
              <MeetingLinkFact url={b().meetingUrl} />
              <Show when={b().quantity > 1}>
                <dt>{t('signup.seats')}</dt>
                <dd>{b().quantity}</dd>
              </Show>
              <Show when={b().priceCents > 0}>
                <dt>{t('event.price')}</dt>
                <dd>
                  {formatPrice(b().priceCents, b().currency)}
                  {b().paymentStatus === 'on_site' ? ` ${t('manage.paidOnSite')}` : ''}
                </dd>
              </Show>
              <dt>{t('cancel.status')}</dt>
              <dd>{statusWords(b().status)}</dd>
            </dl>

            {/* a request is not in anyone's calendar yet: its calendar links come once the host confirms it */}
            <Show when={b().status === 'pending_approval'}>
              <p class="muted">{t('manage.pendingApprovalNote')}</p>
            </Show>

            <Show when={!b().canCancel && !b().canReschedule && b().status !== 'cancelled'}>
              <p class="muted">{t('manage.noChanges')}</p>
            </Show>

            <Show when={mode() === 'view' && (b().canCancel || b().canReschedule)}>
              <div class="v-actions">
                <Show when={b().canReschedule}>
                  <button
                    type="button"
                    class="button"
                    onClick={() => {
                      setError(null);
                      setMessage(null);
                      setTaken(null);
                      setMode('reschedule');
                    }}
                  >
                    {t('manage.changeTime')}
                  </button>
                </Show>
                <Show when={b().canCancel}>
                  <button
                    type="button"
                    class="button button-quiet"
                    onClick={() => {
                      setError(null);
                      setMessage(null);
                      setMode('confirm-cancel');
                    }}
                  >
                    {t('manage.cancelBooking')}
                  </button>
                </Show>
              </div>
            </Show>

            <Show when={b().status === 'confirmed' && mode() === 'view'}>
              <CalendarLinks
                event={{
                  title: b().bookingTypeTitle,
                  startUtc: b().startUtc,
                  endUtc: b().endUtc,
                  location: b().meetingUrl || b().location,
                  // the mailed invite's words: this page's own link is the one to manage it with
                  details: t('manage.calendarDetails', { url: `${window.location.origin}/manage/${encodeURIComponent(token)}` }),
                }}
              />
              <Show when={b().walletAvailable}>
                <TicketLinks walletHref={bookingPassUrl(token)} />
              </Show>
            </Show>

            <Show when={mode() === 'confirm-cancel'}>
              <section class="v-stack" aria-labelledby="confirm-heading">
                <h2 id="confirm-heading">{t('manage.confirmHeading')}</h2>
                <p>{t('manage.confirmText', { what: b().bookingTypeTitle, when: when(b().startUtc, b().endUtc).text })}</p>
                <div class="v-actions">
                  <button type="button" class="button" onClick={cancel} aria-disabled={busy()}>
                    {busy() ? t('cancel.cancelling') : t('manage.yesCancel')}
                  </button>
                  <button type="button" class="button button-quiet" onClick={() => setMode('view')}>
                    {t('manage.keep')}
                  </button>
                </div>
              </section>
            </Show>

            <Show when={mode() === 'reschedule'}>
              <section class="v-stack" aria-labelledby="move-heading">
                <h2 id="move-heading">{t('manage.pickHeading')}</h2>
                <SlotPicker
                  idPrefix="move"
                  typeId={b().bookingTypeId}
                  tz={zone()}
                  onTzChange={(z) => {
                    setTz(z);
                    localStorage.setItem(TZ_STORAGE_KEY, z);
                  }}
                  selected={slot()?.start_utc ?? null}
                  onSelect={(s) => {
                    setSlot(s);
                    if (s) {
                      setError(null);
                      setTaken(null);
                    }
                  }}
                  quantity={b().quantity}
                  seatsPerSlot={bookingType.latest?.capacity ?? 1}
                  notice={taken()}
                  exclude={b().startUtc}
                  ref={(handle) => (picker = handle)}
                />
                <div class="v-actions">
                  <button type="button" class="button" onClick={reschedule} aria-disabled={busy() || !slot()}>
                    {busy()
                      ? t('manage.moving')
                      : slot()
                        ? t('manage.moveTo', { when: formatWhenHere({ startUtc: slot()!.start_utc, endUtc: slot()!.end_utc, zone: zone() }).place })
                        : t('manage.pickAbove')}
                  </button>
                  <button
                    type="button"
                    class="button button-quiet"
                    onClick={() => {
                      setSlot(null);
                      setMode('view');
                    }}
                  >
                    {t('manage.keepTime')}
                  </button>
                </div>
              </section>
            </Show>

            <FormError message={error()} />
            <p>
              <A href={`/book/${b().bookingTypeId}`}>{t('manage.bookAnother')}</A>
            </p>
          </div>
        )}
      </Show>
    </Page>
  );
}
