/**
 * `/manage/{token}` from the booking email: opening it only shows the booking (`booking.byToken`);
 * buttons cancel it (`booking.cancelByToken`) or move it to another free time
 * (`booking.reschedule`). A time taken meanwhile is answered with fresh times and a notice beside
 * them. Times read in the host's zone first (the booking type's), the visitor's second.
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
import { formatPrice } from '../time';
import { formatWhen } from '../../../shared/time-format';
import '../../styles/visitor.css';

const STATUS_WORDS: Record<string, string> = {
  confirmed: 'Confirmed',
  pending_approval: 'Waiting for the host’s approval',
  pending_payment: 'Waiting for payment',
  cancelled: 'Cancelled',
  abandoned: 'Released (payment not completed)',
};

export default function ManagePage(props: RouteProps): JSX.Element {
  const token = props.params.token ?? '';
  const [booking, { mutate, refetch }] = createResource(() => call(rpc().booking.byToken.query({ token })));
  const saved = localStorage.getItem(TZ_STORAGE_KEY);
  const [tz, setTz] = createSignal<string | null>(saved && isValidTimeZone(saved) ? saved : null);
  const zone = () => tz() ?? booking()?.customerTz ?? 'UTC';
  // the type gives the host's zone and its seats; a type no longer published leaves the visitor's zone alone
  const [bookingType] = createResource(
    () => booking.latest?.bookingTypeId,
    (id) => call(rpc().booking.type.query({ id })).catch(() => null),
  );
  const when = (startUtc: string, endUtc: string | null) => formatWhen({ startUtc, endUtc, zone: bookingType.latest?.timezone ?? zone(), viewerZone: zone() });
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
      const current = booking();
      if (current) mutate({ ...current, status: 'cancelled', canCancel: false, canReschedule: false });
      setMode('view');
      setMessage('Your booking is cancelled. A confirmation email is on its way.');
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const reschedule = async () => {
    const chosen = slot();
    if (busy() || !chosen) {
      if (!chosen) setError('Please pick a new time first.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const moved = await call(rpc().booking.reschedule.mutate({ token, startUtc: chosen.start_utc }));
      mutate(moved);
      setSlot(null);
      setMode('view');
      setMessage(`Moved to ${when(moved.startUtc, moved.endUtc).text}. An updated calendar invitation is on its way by email.`);
    } catch (err) {
      if (err instanceof ApiError && isSlotTaken(err.code)) {
        setSlot(null);
        setTaken('Sorry, that time was just taken. Here are the times that are still free — please pick another.');
        void picker?.refresh();
      } else setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const notFound = () => booking.error instanceof ApiError && booking.error.status === 404;

  return (
    <Page title="Your booking">
      <Show when={booking.loading && !booking.latest}>
        <p class="status-text" role="status">
          Loading your booking…
        </p>
      </Show>
      <Show when={booking.error}>
        <Show when={notFound()} fallback={<ErrorState message={errorMessage(booking.error)} onRetry={() => void refetch()} />}>
          <ErrorState message="This link is not valid. It may be mistyped, or the booking no longer exists." />
        </Show>
      </Show>
      <Show when={!booking.error && booking.latest}>
        {(b) => (
          <div class="v-stack">
            <Show when={message()}>
              <div class="v-result" role="status">
                <p style={{ margin: 0 }}>{message()}</p>
              </div>
            </Show>
            <dl class="v-facts">
              <dt>What</dt>
              <dd>{b().bookingTypeTitle}</dd>
              <dt>When</dt>
              <dd>
                <WhenLines when={when(b().startUtc, b().endUtc)} />
              </dd>
              <Show when={b().hostName}>
                <dt>With</dt>
                <dd>{b().hostName}</dd>
              </Show>
              <Show when={b().location}>
                <dt>Where</dt>
                <dd>{b().location}</dd>
              </Show>
              <Show when={b().quantity > 1}>
                <dt>Seats</dt>
                <dd>{b().quantity}</dd>
              </Show>
              <Show when={b().priceCents > 0}>
                <dt>Price</dt>
                <dd>
                  {formatPrice(b().priceCents, b().currency)}
                  {b().paymentStatus === 'on_site' ? ' — paid on site' : ''}
                </dd>
              </Show>
              <dt>Status</dt>
              <dd>{STATUS_WORDS[b().status] ?? b().status}</dd>
            </dl>

            <Show when={!b().canCancel && !b().canReschedule && b().status !== 'cancelled'}>
              <p class="muted">This booking can no longer be changed here.</p>
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
                    Change the time
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
                    Cancel this booking
                  </button>
                </Show>
              </div>
            </Show>

            <Show when={mode() === 'confirm-cancel'}>
              <section class="v-stack" aria-labelledby="confirm-heading">
                <h2 id="confirm-heading">Cancel this booking?</h2>
                <p>
                  {b().bookingTypeTitle} on {when(b().startUtc, b().endUtc).text} will be cancelled and the time given to someone else.
                </p>
                <div class="v-actions">
                  <button type="button" class="button" onClick={cancel} aria-disabled={busy()}>
                    {busy() ? 'Cancelling…' : 'Yes, cancel it'}
                  </button>
                  <button type="button" class="button button-quiet" onClick={() => setMode('view')}>
                    Keep my booking
                  </button>
                </div>
              </section>
            </Show>

            <Show when={mode() === 'reschedule'}>
              <section class="v-stack" aria-labelledby="move-heading">
                <h2 id="move-heading">Pick a new time</h2>
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
                      ? 'Moving…'
                      : slot()
                        ? `Move to ${formatWhen({ startUtc: slot()!.start_utc, endUtc: slot()!.end_utc, zone: zone() }).place}`
                        : 'Pick a new time above'}
                  </button>
                  <button
                    type="button"
                    class="button button-quiet"
                    onClick={() => {
                      setSlot(null);
                      setMode('view');
                    }}
                  >
                    Keep the current time
                  </button>
                </div>
              </section>
            </Show>

            <FormError message={error()} />
            <p>
              <A href={`/book/${b().bookingTypeId}`}>Book another time</A>
            </p>
          </div>
        )}
      </Show>
    </Page>
  );
}
