import { createMemo, createResource, createSignal, For, onCleanup, Show, type JSX } from 'solid-js';
import { ActionNoticeView, type ActionNotice } from '../components/action-notice';
import { AdminFrame } from '../components/admin-frame';
import { DataTable } from '../components/data-table';
import { ready } from '../components/async-view';
import { createConfirm } from '../components/confirm';
import { SaveStatus, SelectField, TextField } from '../components/fields';
import { calendarDays, groupByLocalDay, shiftAnchor, type CalendarView } from '../calendar';
import { attentionLabel, BOOKING_PAYMENT_LABELS, BOOKING_STATUS_LABELS, BOOKING_STATUSES } from '../constants';
import {
  approveBooking,
  cancelBooking,
  createAdminBooking,
  declineBooking,
  listBookings,
  listBookingTypes,
  listSlots,
  listUsers,
  type BookingDto,
  type BookingFilter,
} from '../data';
import { adminErrorMessage } from '../errors';
import { viewerTimeZone } from '../forms';
import type { BookingStatus, BookingTypeDto } from '../../../shared/booking';
import { parseUtcString } from '../../../shared/time';
import { errorMessage } from '../../ui/errors';
import { formatUtcDateTime, isoDateTime } from '../../ui/format';
import { submitWith } from '../../ui/forms';

type View = 'list' | CalendarView;

/** Ended: the list shows these after the upcoming ones (the server's order). */
const isPast = (b: BookingDto): boolean => (parseUtcString(b.endUtc)?.getTime() ?? 0) <= Date.now();

/** A booking's payment state in words; null for a free booking (nothing to pay). */
const paymentLabel = (b: BookingDto): string | null => (b.paymentStatus ? (BOOKING_PAYMENT_LABELS[b.paymentStatus] ?? b.paymentStatus) : null);

const dayHeading = new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long' });
/** Typing pauses this long before the list asks the server again. */
const SEARCH_DEBOUNCE_MS = 250;

/** `Y-m-d` of a local midnight, as a date input writes it: the list's `from`/`to` with `tz`. */
function localDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

export default function AdminBookingsPage(): JSX.Element {
  return (
    <AdminFrame title="Bookings" area="booking">
      {() => <Bookings />}
    </AdminFrame>
  );
}

function Bookings(): JSX.Element {
  const [types] = createResource(listBookingTypes);
  const [users] = createResource(listUsers);
  const [view, setView] = createSignal<View>('list');
  const [anchor, setAnchor] = createSignal(Date.now());
  const [typeId, setTypeId] = createSignal('');
  const [status, setStatus] = createSignal<BookingStatus | ''>('');
  const [from, setFrom] = createSignal('');
  const [to, setTo] = createSignal('');
  const [searchText, setSearchText] = createSignal('');
  const [search, setSearch] = createSignal('');
  const [notice, setNotice] = createSignal<ActionNotice | null>(null);
  const confirm = createConfirm();
  // the date inputs and the calendar's days are the admin's own days, sent with their zone
  const tz = viewerTimeZone();

  let debounce: ReturnType<typeof setTimeout> | undefined;
  const onSearch = (value: string) => {
    setSearchText(value);
    clearTimeout(debounce);
    debounce = setTimeout(() => setSearch(value.trim()), SEARCH_DEBOUNCE_MS);
  };
  onCleanup(() => clearTimeout(debounce));

  const days = createMemo(() => (view() === 'list' ? [] : calendarDays(view() as CalendarView, anchor())));
  const filter = createMemo<BookingFilter>(() => {
    const range = view() === 'list' ? { from: from() || undefined, to: to() || undefined } : { from: localDay(days()[0]!), to: localDay(days().at(-1)!) };
    return {
      ...(typeId() ? { bookingTypeId: Number(typeId()) } : {}),
      ...(status() ? { status: status() as BookingStatus } : {}),
      ...(search() ? { q: search() } : {}),
      ...range,
      tz,
    };
  });
  const [bookings, { refetch }] = createResource(filter, (f) => listBookings(f, 1, 500));

  const typeTitle = (id: number) => ready(types)?.find((t) => t.id === id)?.title ?? `Type #${id}`;
  const hostName = (id: number) => {
    const u = ready(users)?.find((x) => x.id === id);
    return u ? u.displayName || u.email : `User #${id}`;
  };

  const act = async (label: string, action: () => Promise<unknown>) => {
    setNotice(null);
    try {
      await action();
      setNotice({ ok: true, text: label });
      void refetch();
    } catch (err) {
      setNotice({ ok: false, text: adminErrorMessage(err) });
    }
  };

  const actions = (b: BookingDto) => (
    <div class="cell-actions">
      <Show when={b.status === 'pending_approval'}>
        <button
          type="button"
          class="button button-small"
          onClick={() => void act(`Approved the booking of ${b.customerName}.`, () => approveBooking(b.bookingId))}
        >
          Approve<span class="visually-hidden"> {b.customerName}</span>
        </button>
        <button
          type="button"
          class="button button-small button-quiet"
          onClick={() =>
            confirm.ask({
              title: `Decline the request of ${b.customerName} (${formatUtcDateTime(b.startUtc)})?`,
              detail: 'The slot becomes free again and the customer is told.',
              confirmLabel: 'Decline request',
              action: () => declineBooking(b.bookingId),
              onDone: () => void refetch(),
            })
          }
        >
          Decline<span class="visually-hidden"> {b.customerName}</span>
        </button>
      </Show>
      <Show when={b.status === 'confirmed' || b.status === 'pending_payment'}>
        <button
          type="button"
          class="button button-small button-quiet button-danger-text"
          onClick={() =>
            confirm.ask({
              title: `Cancel the booking of ${b.customerName} (${formatUtcDateTime(b.startUtc)})?`,
              detail: `${typeTitle(b.bookingTypeId)} with ${hostName(b.hostUserId)}. The customer is told.`,
              confirmLabel: 'Cancel booking',
              action: () => cancelBooking(b.bookingId),
              onDone: () => void refetch(),
            })
          }
        >
          Cancel<span class="visually-hidden"> booking of {b.customerName}</span>
        </button>
      </Show>
    </div>
  );

  return (
    <>
      <div class="toolbar" role="search" aria-label="Filter bookings">
        <div class="field">
          <label for="bk-type">Booking type</label>
          <select id="bk-type" onChange={(e) => setTypeId(e.currentTarget.value)}>
            <option value="">All</option>
            <For each={ready(types) ?? []}>{(t) => <option value={t.id}>{t.title}</option>}</For>
          </select>
        </div>
        <div class="field">
          <label for="bk-status">Status</label>
          <select id="bk-status" onChange={(e) => setStatus(e.currentTarget.value as BookingStatus | '')}>
            <option value="">All</option>
            <For each={BOOKING_STATUSES}>{(s) => <option value={s}>{BOOKING_STATUS_LABELS[s]}</option>}</For>
          </select>
        </div>
        <div class="field">
          <label for="bk-q">Search name or email</label>
          <input id="bk-q" type="search" autocomplete="off" value={searchText()} onInput={(e) => onSearch(e.currentTarget.value)} />
        </div>
        <Show when={view() === 'list'}>
          <div class="field">
            <label for="bk-from">From</label>
            <input id="bk-from" type="date" value={from()} onChange={(e) => setFrom(e.currentTarget.value)} aria-describedby="bk-days-hint" />
          </div>
          <div class="field">
            <label for="bk-to">To</label>
            <input id="bk-to" type="date" value={to()} onChange={(e) => setTo(e.currentTarget.value)} aria-describedby="bk-days-hint" />
          </div>
        </Show>
      </div>
      <p id="bk-days-hint" class="field-hint">
        Days and times in your zone ({tz}). Upcoming bookings first, soonest first; past ones after them.
      </p>
      <div class="segmented" role="group" aria-label="View">
        <For each={['list', 'day', 'week'] as View[]}>
          {(v) => (
            <button
              type="button"
              class="button button-small"
              classList={{ 'button-quiet': view() !== v }}
              aria-pressed={view() === v}
              onClick={() => setView(v)}
            >
              {v === 'list' ? 'List' : v === 'day' ? 'Day' : 'Week'}
            </button>
          )}
        </For>
        <Show when={view() !== 'list'}>
          <button type="button" class="button button-small button-quiet" onClick={() => setAnchor(shiftAnchor(view() as CalendarView, anchor(), -1))}>
            ‹ Previous {view()}
          </button>
          <button type="button" class="button button-small button-quiet" onClick={() => setAnchor(Date.now())}>
            Today
          </button>
          <button type="button" class="button button-small button-quiet" onClick={() => setAnchor(shiftAnchor(view() as CalendarView, anchor(), 1))}>
            Next {view()} ›
          </button>
        </Show>
      </div>
      <ActionNoticeView notice={notice()} />
      <Show when={bookings.state === 'errored'}>
        <div class="notice notice-error" role="alert">
          <p>Bookings could not be loaded. {errorMessage(bookings.error)}</p>
          <button type="button" class="button" onClick={() => void refetch()}>
            Try again
          </button>
        </div>
      </Show>
      <Show
        when={ready(bookings)}
        fallback={
          <Show when={bookings.state !== 'errored'}>
            <p class="status-text" aria-busy="true">
              Loading bookings…
            </p>
          </Show>
        }
      >
        {(listing) => (
          <>
            <p class="status-text">
              {listing().total} booking{listing().total === 1 ? '' : 's'}
              {listing().total > listing().items.length ? ` (showing ${listing().items.length}; narrow the filters)` : ''}
            </p>
            <Show when={view() === 'list'}>
              <Show when={listing().items.length > 0} fallback={<p class="status-text">No bookings match.</p>}>
                <DataTable label="Bookings" columns={['Start', 'Customer', 'Type', 'Host', 'Status', 'Payment', 'Actions']} rows={listing().items}>
                  {(b) => (
                    <tr>
                      <td>
                        <time datetime={isoDateTime(b.startUtc)}>{formatUtcDateTime(b.startUtc)}</time>
                        <Show when={isPast(b)}>
                          <div class="muted">Past</div>
                        </Show>
                      </td>
                      <td>
                        {b.customerName}
                        <div class="muted cell-email">{b.customerEmail}</div>
                      </td>
                      <td>{typeTitle(b.bookingTypeId)}</td>
                      <td>{hostName(b.hostUserId)}</td>
                      <td>
                        <span class={`state state-${b.status}`}>{BOOKING_STATUS_LABELS[b.status]}</span>
                      </td>
                      <td>
                        <Show when={paymentLabel(b)} fallback={<span class="muted">Free</span>}>
                          {(label) => <span class={`state state-pay-${b.paymentStatus}`}>{label()}</span>}
                        </Show>
                        <Show when={attentionLabel(b.paymentAttention)}>{(flag) => <span class="state state-attention"> {flag()}</span>}</Show>
                      </td>
                      <td>{actions(b)}</td>
                    </tr>
                  )}
                </DataTable>
              </Show>
            </Show>
            <Show when={view() !== 'list'}>
              <div class="calendar" classList={{ 'calendar-week': view() === 'week' }}>
                <For each={[...groupByLocalDay(listing().items, days()).entries()]}>
                  {([day, items]) => (
                    <section class="calendar-day" aria-labelledby={`cal-${day}`}>
                      <h3 id={`cal-${day}`}>{dayHeading.format(day)}</h3>
                      <Show when={items.length > 0} fallback={<p class="muted">No bookings</p>}>
                        <ul class="calendar-items">
                          <For each={items}>
                            {(b) => (
                              <li class={`calendar-item state-box-${b.status}`}>
                                <strong>
                                  {timeFormat.format(parseUtcString(b.startUtc) ?? 0)}–{timeFormat.format(parseUtcString(b.endUtc) ?? 0)}
                                </strong>{' '}
                                {b.customerName}
                                <div class="muted">
                                  {typeTitle(b.bookingTypeId)} · {hostName(b.hostUserId)} · {BOOKING_STATUS_LABELS[b.status]}
                                  {paymentLabel(b) ? ` · ${paymentLabel(b)}` : ''}
                                </div>
                                {actions(b)}
                              </li>
                            )}
                          </For>
                        </ul>
                      </Show>
                    </section>
                  )}
                </For>
              </div>
            </Show>
          </>
        )}
      </Show>
      <NewBooking types={ready(types) ?? []} onCreated={() => void refetch()} />
      {confirm.view()}
    </>
  );
}

/** Admin-entered booking: confirmed at once, no approval, no payment hold (contract). */
function NewBooking(props: { types: BookingTypeDto[]; onCreated: () => void }): JSX.Element {
  const tz = viewerTimeZone();
  const [typeId, setTypeId] = createSignal('');
  const [start, setStart] = createSignal('');
  const [name, setName] = createSignal('');
  const [email, setEmail] = createSignal('');
  const [quantity, setQuantity] = createSignal('1');
  const [state, setState] = createSignal<'idle' | 'saving' | 'saved' | 'failed'>('idle');
  const [error, setError] = createSignal<string | null>(null);
  const [slots] = createResource(
    () => (typeId() ? Number(typeId()) : null),
    (id) => listSlots(id, { tz }),
  );

  const submit = async () => {
    if (state() === 'saving') return;
    setError(null);
    if (!typeId() || !start()) {
      setState('failed');
      setError('Choose a booking type and a slot.');
      return;
    }
    setState('saving');
    try {
      await createAdminBooking({
        bookingTypeId: Number(typeId()),
        startUtc: start(),
        quantity: Number(quantity()) || 1,
        customerName: name().trim(),
        customerEmail: email().trim(),
        customerTz: tz,
      });
      setState('saved');
      setName('');
      setEmail('');
      setStart('');
      props.onCreated();
    } catch (err) {
      setState('failed');
      setError(adminErrorMessage(err));
    }
  };

  return (
    <section class="section" aria-labelledby="new-booking-heading">
      <h2 id="new-booking-heading">Enter a booking</h2>
      <p class="field-hint">Confirmed at once: no approval step and no payment hold. The customer gets the confirmation email.</p>
      <form class="form form-wide" onSubmit={submitWith(submit)}>
        <SelectField
          id="nb-type"
          label="Booking type"
          value={typeId()}
          options={[{ value: '', label: 'Choose…' }, ...props.types.map((t) => ({ value: String(t.id), label: t.title }))]}
          onChange={(v) => {
            setTypeId(v);
            setStart('');
          }}
        />
        <div class="field">
          <label for="nb-slot">Slot</label>
          <select id="nb-slot" onChange={(e) => setStart(e.currentTarget.value)} aria-describedby="nb-slot-hint">
            <option value="">
              {!typeId() ? 'Choose a type first' : slots.loading ? 'Loading slots…' : (ready(slots)?.length ?? 0) === 0 ? 'No free slots' : 'Choose…'}
            </option>
            <For each={ready(slots) ?? []}>
              {(s) => (
                <option value={s.start_utc} selected={s.start_utc === start()}>
                  {formatUtcDateTime(s.start_utc)} ({s.capacity_left} left)
                </option>
              )}
            </For>
          </select>
          <p id="nb-slot-hint" class="field-hint">
            Times in your zone ({tz}).
          </p>
          <Show when={slots.error}>
            <p class="form-error">{errorMessage(slots.error)}</p>
          </Show>
        </div>
        <TextField id="nb-name" label="Customer name" value={name()} onInput={setName} required autocomplete="off" />
        <TextField id="nb-email" label="Customer email" type="email" value={email()} onInput={setEmail} required autocomplete="off" />
        <TextField id="nb-quantity" label="Seats" type="number" min="1" value={quantity()} onInput={setQuantity} />
        <div class="button-row">
          <button type="submit" class="button" aria-disabled={state() === 'saving'}>
            Book
          </button>
        </div>
        <SaveStatus state={state()} error={error()} />
      </form>
    </section>
  );
}
