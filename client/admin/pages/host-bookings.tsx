/**
 * A host's bookings (docs/decisions/043-host-space.md): the host's own, or any host's for an
 * administrator. Upcoming first; a booking may be cancelled or moved to another free time, each
 * after a confirmation, and the visitor is mailed either way.
 */
import { createResource, createSignal, For, Show, type JSX } from 'solid-js';
import { ActionNoticeView, type ActionNotice } from '../components/action-notice';
import { AdminFrame } from '../components/admin-frame';
import { CalendarFeed } from '../components/calendar-feed';
import { DataTable } from '../components/data-table';
import { ready } from '../components/async-view';
import { createConfirm } from '../components/confirm';
import { BOOKING_STATUS_LABELS } from '../constants';
import { cancelBooking, getHostProfile, listBookingTypes, listHostBookings, listSlots, moveBooking, type BookingDto } from '../data';
import { viewerTimeZone } from '../forms';
import type { AdminUser } from '../session';
import type { Slot } from '../../../shared/booking/slots';
import { parseUtcString } from '../../../shared/time';
import { errorMessage } from '../../ui/errors';
import { formatUtcDateTime, isoDateTime } from '../../ui/format';
import { submitWith } from '../../ui/forms';
import type { RouteProps } from '../../router';
import { t, tx } from '../../i18n/i18n';

const isPast = (b: BookingDto): boolean => (parseUtcString(b.endUtc)?.getTime() ?? 0) <= Date.now();
const movable = (b: BookingDto): boolean => !isPast(b) && (b.status === 'confirmed' || b.status === 'pending_approval');
const hidden = (chunks: JSX.Element) => <span class="visually-hidden">{chunks}</span>;

/** `Y-m-d` of the reader's today. */
function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

export default function HostBookingsPage(props: RouteProps): JSX.Element {
  const userId = () => Number(props.params.userId);
  return (
    <AdminFrame title={t('admin.hostSpace.bookingsTitle')} area="host-space">
      {(user) => <HostBookings userId={userId()} user={user} />}
    </AdminFrame>
  );
}

function HostBookings(props: { userId: number; user: AdminUser }): JSX.Element {
  const own = () => props.user.id === props.userId;
  const [profile] = createResource(() => (own() ? null : props.userId), getHostProfile);
  const [types] = createResource(listBookingTypes);
  const [search, setSearch] = createSignal('');
  const [bookings, { refetch }] = createResource(
    () => ({ userId: props.userId, q: search() }),
    ({ userId, q }) => listHostBookings(userId, q ? { q } : {}),
  );
  const [notice, setNotice] = createSignal<ActionNotice | null>(null);
  const [moving, setMoving] = createSignal<BookingDto | null>(null);
  const confirm = createConfirm();
  const typeTitle = (id: number) => ready(types)?.find((type) => type.id === id)?.title ?? `#${id}`;

  return (
    <>
      <Show when={!own() && ready(profile)}>{(p) => <h2>{t('admin.hostSpace.bookingsOf', { name: p().displayName || p().email })}</h2>}</Show>
      <div class="toolbar" role="search" aria-label={t('admin.bookings.filter')}>
        <div class="field">
          <label for="hb-q">{t('admin.bookings.search')}</label>
          <input id="hb-q" type="search" value={search()} onChange={(e) => setSearch(e.currentTarget.value.trim())} />
        </div>
      </div>
      <ActionNoticeView notice={notice()} />
      <Show when={bookings.state === 'errored'}>
        <div class="notice notice-error" role="alert">
          <p>{t('admin.bookings.loadFailed', { reason: errorMessage(bookings.error) })}</p>
          <button type="button" class="button" onClick={() => void refetch()}>
            {t('admin.bookings.retry')}
          </button>
        </div>
      </Show>
      <Show
        when={ready(bookings)}
        fallback={
          <Show when={bookings.state !== 'errored'}>
            <p class="status-text" aria-busy="true">
              {t('admin.bookings.loading')}
            </p>
          </Show>
        }
      >
        {(listing) => (
          <Show when={listing().items.length > 0} fallback={<p class="status-text">{t('admin.bookings.noMatch')}</p>}>
            <DataTable
              label={t('admin.hostSpace.bookingsTitle')}
              columns={[
                t('admin.bookings.col.start'),
                t('admin.bookings.col.customer'),
                t('admin.bookings.col.type'),
                t('admin.bookings.col.status'),
                t('admin.bookings.col.actions'),
              ]}
              rows={listing().items}
            >
              {(b) => (
                <tr>
                  <td>
                    <time datetime={isoDateTime(b.startUtc)}>{formatUtcDateTime(b.startUtc)}</time>
                    <Show when={isPast(b)}>
                      <div class="muted">{t('admin.bookings.past')}</div>
                    </Show>
                  </td>
                  <td>
                    {b.customerName}
                    <div class="muted cell-email">{b.customerEmail}</div>
                  </td>
                  <td>{typeTitle(b.bookingTypeId)}</td>
                  <td>
                    <span class={`state state-${b.status}`}>{BOOKING_STATUS_LABELS[b.status]}</span>
                  </td>
                  <td>
                    <div class="row-actions">
                      <Show when={movable(b)}>
                        <button type="button" class="button button-small button-quiet" onClick={() => setMoving(b)}>
                          {tx('admin.hostSpace.move', { name: b.customerName, hidden })}
                        </button>
                      </Show>
                      <Show when={!isPast(b) && (b.status === 'confirmed' || b.status === 'pending_approval' || b.status === 'pending_payment')}>
                        <button
                          type="button"
                          class="button button-small button-quiet button-danger-text"
                          onClick={() =>
                            confirm.ask({
                              title: t('admin.bookings.cancelTitle', { name: b.customerName, when: formatUtcDateTime(b.startUtc) }),
                              detail: t('admin.hostSpace.cancelDetail', { type: typeTitle(b.bookingTypeId) }),
                              confirmLabel: t('admin.bookings.cancelConfirm'),
                              action: () => cancelBooking(b.bookingId),
                              onDone: () => {
                                setNotice({ ok: true, text: t('admin.hostSpace.cancelled', { name: b.customerName }) });
                                void refetch();
                              },
                            })
                          }
                        >
                          {tx('admin.bookings.cancel', { name: b.customerName, hidden })}
                        </button>
                      </Show>
                    </div>
                  </td>
                </tr>
              )}
            </DataTable>
          </Show>
        )}
      </Show>
      <Show when={moving()}>
        {(b) => (
          <MovePanel
            booking={b()}
            confirm={confirm}
            onClose={() => setMoving(null)}
            onMoved={(when) => {
              setNotice({ ok: true, text: t('admin.hostSpace.moved', { name: b().customerName, when }) });
              setMoving(null);
              void refetch();
            }}
          />
        )}
      </Show>
      <Show when={own()}>
        <CalendarFeed
          owner={{ scope: 'host', userId: props.userId }}
          heading={t('admin.hostSpace.feedHeading')}
          lead={t('admin.hostSpace.feedLead')}
          confirm={confirm}
        />
      </Show>
      {confirm.view()}
    </>
  );
}

/** Picks a free time on a chosen day (the slots a visitor would see, this booking not blocking), then asks to confirm. */
function MovePanel(props: {
  booking: BookingDto;
  confirm: ReturnType<typeof createConfirm>;
  onClose: () => void;
  onMoved: (when: string) => void;
}): JSX.Element {
  const tz = viewerTimeZone();
  const [day, setDay] = createSignal(today());
  const [chosen, setChosen] = createSignal('');
  const [slots] = createResource(
    () => day(),
    async (d): Promise<Slot[]> =>
      (await listSlots(props.booking.bookingTypeId, { from: d, to: d, tz })).filter((s) => s.hosts.includes(props.booking.hostUserId)),
  );
  const submit = () => {
    const startUtc = chosen();
    if (!startUtc) return;
    const when = formatUtcDateTime(startUtc);
    props.confirm.ask({
      title: t('admin.hostSpace.moveTitle', { name: props.booking.customerName, when }),
      detail: t('admin.hostSpace.moveDetail'),
      confirmLabel: t('admin.hostSpace.moveConfirm'),
      action: () => moveBooking(props.booking.bookingId, startUtc),
      onDone: () => props.onMoved(when),
    });
  };
  return (
    <section class="panel" aria-labelledby="move-heading">
      <h2 id="move-heading">{t('admin.hostSpace.moveHeading', { name: props.booking.customerName })}</h2>
      <form onSubmit={submitWith(submit)}>
        <div class="field">
          <label for="move-day">{t('admin.hostSpace.moveDay')}</label>
          <input id="move-day" type="date" value={day()} min={today()} onChange={(e) => setDay(e.currentTarget.value)} />
        </div>
        <Show when={slots.state === 'errored'}>
          <p class="form-error" role="alert">
            {errorMessage(slots.error)}
          </p>
        </Show>
        <Show
          when={ready(slots)}
          fallback={
            <p class="status-text" aria-busy="true">
              {t('admin.hostSpace.moveLoading')}
            </p>
          }
        >
          {(list) => (
            <Show when={list().length > 0} fallback={<p class="status-text">{t('admin.hostSpace.moveNoSlots')}</p>}>
              <fieldset class="field">
                <legend>{t('admin.hostSpace.moveSlots')}</legend>
                <div class="slot-choices">
                  <For each={list()}>
                    {(slot) => (
                      <label class="slot-choice">
                        <input
                          type="radio"
                          name="move-slot"
                          value={slot.start_utc}
                          checked={chosen() === slot.start_utc}
                          onChange={() => setChosen(slot.start_utc)}
                        />{' '}
                        <time datetime={isoDateTime(slot.start_utc)}>{formatUtcDateTime(slot.start_utc)}</time>
                      </label>
                    )}
                  </For>
                </div>
              </fieldset>
            </Show>
          )}
        </Show>
        <div class="button-row">
          <button type="submit" class="button" aria-disabled={!chosen()}>
            {t('admin.hostSpace.moveChoose')}
          </button>
          <button type="button" class="button button-quiet" onClick={() => props.onClose()}>
            {t('admin.hostSpace.moveClose')}
          </button>
        </div>
      </form>
    </section>
  );
}
