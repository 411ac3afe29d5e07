import { createMemo, createResource, createSignal, For, onCleanup, Show, type JSX } from 'solid-js';
import { ActionNoticeView, type ActionNotice } from '../components/action-notice';
import { AdminFrame } from '../components/admin-frame';
import { CalendarFeed } from '../components/calendar-feed';
import { DataTable } from '../components/data-table';
import { ready } from '../components/async-view';
import { createConfirm } from '../components/confirm';
import { SaveButtons, SelectField, TextField } from '../components/fields';
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
import { createSaveAction, viewerTimeZone } from '../forms';
import type { BookingStatus, BookingTypeDto } from '../../../shared/booking';
import { parseUtcString } from '../../../shared/time';
import { errorMessage } from '../../ui/errors';
import { formatUtcDateTime, isoDateTime } from '../../ui/format';
import { submitWith } from '../../ui/forms';
import { intlLocale, t, tx } from '../../i18n/i18n';

type View = 'list' | CalendarView;

/** Ended: the list shows these after the upcoming ones (the server's order). */
const isPast = (b: BookingDto): boolean => (parseUtcString(b.endUtc)?.getTime() ?? 0) <= Date.now();

/** A booking's payment state in words; null for a free booking (nothing to pay). */
const paymentLabel = (b: BookingDto): string | null => (b.paymentStatus ? (BOOKING_PAYMENT_LABELS[b.paymentStatus] ?? b.paymentStatus) : null);

/** The calendar's day headings and clock, in the reader's locale (its own clock: 3:00 PM or 15:00). */
const dayHeading = (ms: number): string => new Intl.DateTimeFormat(intlLocale(), { weekday: 'long', day: 'numeric', month: 'long' }).format(ms);
/** Typing pauses this long before the list asks the server again. */
const SEARCH_DEBOUNCE_MS = 250;

/** `Y-m-d` of a local midnight, as a date input writes it: the list's `from`/`to` with `tz`. */
function localDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
const timeRange = (startMs: number, endMs: number): string => new Intl.DateTimeFormat(intlLocale(), { timeStyle: 'short' }).formatRange(startMs, endMs);

export default function AdminBookingsPage(): JSX.Element {
  return (
    <AdminFrame title={t('admin.bookings.title')} area="booking">
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

  const typeTitle = (id: number) => ready(types)?.find((type) => type.id === id)?.title ?? t('admin.bookings.typeNumber', { id });
  const hostName = (id: number) => {
    const u = ready(users)?.find((x) => x.id === id);
    return u ? u.displayName || u.email : t('admin.bookings.userNumber', { id });
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
          onClick={() => void act(t('admin.bookings.approved', { name: b.customerName }), () => approveBooking(b.bookingId))}
        >
          {tx('admin.bookings.approve', { name: b.customerName, hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })}
        </button>
        <button
          type="button"
          class="button button-small button-quiet"
          onClick={() =>
            confirm.ask({
              title: t('admin.bookings.declineTitle', { name: b.customerName, when: formatUtcDateTime(b.startUtc) }),
              detail: t('admin.bookings.declineDetail'),
              confirmLabel: t('admin.bookings.declineConfirm'),
              action: () => declineBooking(b.bookingId),
              onDone: () => void refetch(),
            })
          }
        >
          {tx('admin.bookings.decline', { name: b.customerName, hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })}
        </button>
      </Show>
      <Show when={b.status === 'confirmed' || b.status === 'pending_payment'}>
        <button
          type="button"
          class="button button-small button-quiet button-danger-text"
          onClick={() =>
            confirm.ask({
              title: t('admin.bookings.cancelTitle', { name: b.customerName, when: formatUtcDateTime(b.startUtc) }),
              detail: t('admin.bookings.cancelDetail', { type: typeTitle(b.bookingTypeId), host: hostName(b.hostUserId) }),
              confirmLabel: t('admin.bookings.cancelConfirm'),
              action: () => cancelBooking(b.bookingId),
              onDone: () => void refetch(),
            })
          }
        >
          {tx('admin.bookings.cancel', { name: b.customerName, hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })}
        </button>
      </Show>
    </div>
  );

  return (
    <>
      <div class="toolbar" role="search" aria-label={t('admin.bookings.filter')}>
        <div class="field">
          <label for="bk-type">{t('admin.bookings.type')}</label>
          <select id="bk-type" onChange={(e) => setTypeId(e.currentTarget.value)}>
            <option value="">{t('admin.bookings.all')}</option>
            <For each={ready(types) ?? []}>{(type) => <option value={type.id}>{type.title}</option>}</For>
          </select>
        </div>
        <div class="field">
          <label for="bk-status">{t('admin.bookings.status')}</label>
          <select id="bk-status" onChange={(e) => setStatus(e.currentTarget.value as BookingStatus | '')}>
            <option value="">{t('admin.bookings.all')}</option>
            <For each={BOOKING_STATUSES}>{(s) => <option value={s}>{BOOKING_STATUS_LABELS[s]}</option>}</For>
          </select>
        </div>
        <div class="field">
          <label for="bk-q">{t('admin.bookings.search')}</label>
          <input id="bk-q" type="search" autocomplete="off" value={searchText()} onInput={(e) => onSearch(e.currentTarget.value)} />
        </div>
        <Show when={view() === 'list'}>
          <div class="field">
            <label for="bk-from">{t('admin.bookings.from')}</label>
            <input id="bk-from" type="date" value={from()} onChange={(e) => setFrom(e.currentTarget.value)} aria-describedby="bk-days-hint" />
          </div>
          <div class="field">
            <label for="bk-to">{t('admin.bookings.to')}</label>
            <input id="bk-to" type="date" value={to()} onChange={(e) => setTo(e.currentTarget.value)} aria-describedby="bk-days-hint" />
          </div>
        </Show>
      </div>
      <p id="bk-days-hint" class="field-hint">
        {t('admin.bookings.daysHint', { tz })}
      </p>
      <div class="segmented" role="group" aria-label={t('admin.bookings.view')}>
        <For each={['list', 'day', 'week'] as View[]}>
          {(v) => (
            <button
              type="button"
              class="button button-small"
              classList={{ 'button-quiet': view() !== v }}
              aria-pressed={view() === v}
              onClick={() => setView(v)}
            >
              {v === 'list' ? t('admin.bookings.viewList') : v === 'day' ? t('admin.bookings.viewDay') : t('admin.bookings.viewWeek')}
            </button>
          )}
        </For>
        <Show when={view() !== 'list'}>
          <button type="button" class="button button-small button-quiet" onClick={() => setAnchor(shiftAnchor(view() as CalendarView, anchor(), -1))}>
            {view() === 'day' ? t('admin.bookings.previousDay') : t('admin.bookings.previousWeek')}
          </button>
          <button type="button" class="button button-small button-quiet" onClick={() => setAnchor(Date.now())}>
            {t('admin.bookings.today')}
          </button>
          <button type="button" class="button button-small button-quiet" onClick={() => setAnchor(shiftAnchor(view() as CalendarView, anchor(), 1))}>
            {view() === 'day' ? t('admin.bookings.nextDay') : t('admin.bookings.nextWeek')}
          </button>
        </Show>
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
          <>
            <p class="status-text">
              {listing().total > listing().items.length
                ? t('admin.bookings.countPartial', { count: listing().total, shown: listing().items.length })
                : t('admin.bookings.count', { count: listing().total })}
            </p>
            <Show when={view() === 'list'}>
              <Show when={listing().items.length > 0} fallback={<p class="status-text">{t('admin.bookings.noMatch')}</p>}>
                <DataTable
                  label={t('admin.bookings.title')}
                  columns={[
                    t('admin.bookings.col.start'),
                    t('admin.bookings.col.customer'),
                    t('admin.bookings.col.type'),
                    t('admin.bookings.col.host'),
                    t('admin.bookings.col.status'),
                    t('admin.bookings.col.payment'),
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
                      <td>{hostName(b.hostUserId)}</td>
                      <td>
                        <span class={`state state-${b.status}`}>{BOOKING_STATUS_LABELS[b.status]}</span>
                      </td>
                      <td>
                        <Show when={paymentLabel(b)} fallback={<span class="muted">{t('admin.bookings.free')}</span>}>
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
                      <h3 id={`cal-${day}`}>{dayHeading(day)}</h3>
                      <Show when={items.length > 0} fallback={<p class="muted">{t('admin.bookings.noneThisDay')}</p>}>
                        <ul class="calendar-items">
                          <For each={items}>
                            {(b) => (
                              <li class={`calendar-item state-box-${b.status}`}>
                                <strong>{timeRange(parseUtcString(b.startUtc)?.getTime() ?? 0, parseUtcString(b.endUtc)?.getTime() ?? 0)}</strong>{' '}
                                {b.customerName}
                                <div class="muted">
                                  {[typeTitle(b.bookingTypeId), hostName(b.hostUserId), BOOKING_STATUS_LABELS[b.status], paymentLabel(b)]
                                    .filter(Boolean)
                                    .join(' · ')}
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
      <CalendarFeed owner={{ scope: 'all' }} heading={t('admin.feed.allHeading')} lead={t('admin.feed.allLead')} confirm={confirm} />
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
  const saving = createSaveAction();
  const [slots] = createResource(
    () => (typeId() ? Number(typeId()) : null),
    (id) => listSlots(id, { tz }),
  );

  const submit = async () => {
    if (saving.busy()) return;
    if (!typeId() || !start()) return saving.fail(t('admin.bookings.chooseTypeAndSlot'));
    await saving.run(async () => {
      await createAdminBooking({
        bookingTypeId: Number(typeId()),
        startUtc: start(),
        quantity: Number(quantity()) || 1,
        customerName: name().trim(),
        customerEmail: email().trim(),
        customerTz: tz,
      });
      setName('');
      setEmail('');
      setStart('');
      props.onCreated();
    });
  };

  return (
    <section class="section" aria-labelledby="new-booking-heading">
      <h2 id="new-booking-heading">{t('admin.bookings.newHeading')}</h2>
      <p class="field-hint">{t('admin.bookings.newHint')}</p>
      <form class="form form-wide" onSubmit={submitWith(submit)}>
        <SelectField
          id="nb-type"
          label={t('admin.bookings.type')}
          value={typeId()}
          options={[{ value: '', label: t('admin.bookings.choose') }, ...props.types.map((type) => ({ value: String(type.id), label: type.title }))]}
          onChange={(v) => {
            setTypeId(v);
            setStart('');
          }}
        />
        <div class="field">
          <label for="nb-slot">{t('admin.bookings.slot')}</label>
          <select id="nb-slot" onChange={(e) => setStart(e.currentTarget.value)} aria-describedby="nb-slot-hint">
            <option value="">
              {!typeId()
                ? t('admin.bookings.chooseTypeFirst')
                : slots.loading
                  ? t('admin.bookings.loadingSlots')
                  : (ready(slots)?.length ?? 0) === 0
                    ? t('admin.bookings.noSlots')
                    : t('admin.bookings.choose')}
            </option>
            <For each={ready(slots) ?? []}>
              {(s) => (
                <option value={s.start_utc} selected={s.start_utc === start()}>
                  {t('admin.bookings.slotOption', { when: formatUtcDateTime(s.start_utc), left: s.capacity_left })}
                </option>
              )}
            </For>
          </select>
          <p id="nb-slot-hint" class="field-hint">
            {t('admin.bookings.slotHint', { tz })}
          </p>
          <Show when={slots.error}>
            <p class="form-error">{errorMessage(slots.error)}</p>
          </Show>
        </div>
        <TextField id="nb-name" label={t('admin.bookings.customerName')} value={name()} onInput={setName} required autocomplete="off" />
        <TextField id="nb-email" label={t('admin.bookings.customerEmail')} type="email" value={email()} onInput={setEmail} required autocomplete="off" />
        <TextField id="nb-quantity" label={t('admin.bookings.seats')} type="number" min="1" value={quantity()} onInput={setQuantity} />
        <SaveButtons action={saving} label={t('admin.bookings.book')} />
      </form>
    </section>
  );
}
