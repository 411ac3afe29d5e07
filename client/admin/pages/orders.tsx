/**
 * `/admin/orders` (extended edition): paid sign-ups and shop orders, newest first, a page at a
 * time, filtered by event, status and a search over name, email and the shop's id. The filters
 * and page live in the URL, so coming back from an order finds the same list.
 */
import { createEffect, createMemo, createResource, createSignal, For, onCleanup, Show, type JSX } from 'solid-js';
import { AdminFrame } from '../components/admin-frame';
import { AsyncView, ready } from '../components/async-view';
import { DataTable } from '../components/data-table';
import { Pager } from '../components/pager';
import { attentionLabel, ORDER_STATUS_LABELS, ORDER_STATUSES, PAYMENT_STATUS_LABELS } from '../constants';
import { listEvents, listOrders, type OrderFilter } from '../data';
import { ExtendedOnly } from '../components/extended-only';
import type { OrderStatus } from '../../../shared/payments';
import { formatMoney, formatUtcDateTime, isoDateTime } from '../../ui/format';
import { A, searchParams } from '../../router';

export const ORDERS_PER_PAGE = 50;
const SEARCH_DEBOUNCE_MS = 250;

export default function AdminOrdersPage(): JSX.Element {
  return (
    <AdminFrame title="Orders" area="orders">
      {() => (
        <ExtendedOnly what="Orders">
          <Orders />
        </ExtendedOnly>
      )}
    </AdminFrame>
  );
}

const isOrderStatus = (value: string | null): value is OrderStatus => ORDER_STATUSES.includes(value as OrderStatus);

function Orders(): JSX.Element {
  const initial = searchParams();
  const [events] = createResource(listEvents);
  const [eventId, setEventId] = createSignal(initial.get('event') ?? '');
  const [status, setStatus] = createSignal<OrderStatus | ''>(isOrderStatus(initial.get('status')) ? (initial.get('status') as OrderStatus) : '');
  const [searchText, setSearchText] = createSignal(initial.get('q') ?? '');
  const [search, setSearch] = createSignal(searchText().trim());
  const [page, setPage] = createSignal(Math.max(1, Number(initial.get('page')) || 1));

  let debounce: ReturnType<typeof setTimeout> | undefined;
  const onSearch = (value: string) => {
    setSearchText(value);
    clearTimeout(debounce);
    debounce = setTimeout(() => {
      setSearch(value.trim());
      setPage(1);
    }, SEARCH_DEBOUNCE_MS);
  };
  onCleanup(() => clearTimeout(debounce));

  const query = createMemo(() => {
    const filter: OrderFilter = {
      ...(Number(eventId()) > 0 ? { eventId: Number(eventId()) } : {}),
      ...(status() ? { status: status() as OrderStatus } : {}),
      ...(search() ? { search: search() } : {}),
    };
    return { filter, page: page() };
  });

  const [orders, { refetch }] = createResource(query, (q) => listOrders(q.filter, q.page, ORDERS_PER_PAGE));

  // the list's place in the URL (replaced, not pushed: Back leaves the page, a reload keeps the list)
  createEffect(() => {
    const { filter, page: n } = query();
    const params = new URLSearchParams();
    if (filter.eventId) params.set('event', String(filter.eventId));
    if (filter.status) params.set('status', filter.status);
    if (filter.search) params.set('q', filter.search);
    if (n > 1) params.set('page', String(n));
    const qs = params.toString();
    window.history.replaceState(window.history.state, '', `/admin/orders${qs ? `?${qs}` : ''}`);
  });

  const filtered = () => Boolean(eventId() || status() || search());
  let tableTop: HTMLParagraphElement | undefined;
  const toPage = (n: number) => {
    setPage(n);
    tableTop?.focus();
  };

  return (
    <section aria-labelledby="orders-heading">
      <h2 id="orders-heading">All orders</h2>
      <div class="toolbar" role="search" aria-label="Filter orders">
        <div class="field">
          <label for="order-event">Event</label>
          <select
            id="order-event"
            onChange={(e) => {
              setEventId(e.currentTarget.value);
              setPage(1);
            }}
          >
            <option value="">All events</option>
            <For each={ready(events) ?? []}>
              {(ev) => (
                <option value={ev.id} selected={String(ev.id) === eventId()}>
                  {ev.title}
                </option>
              )}
            </For>
          </select>
        </div>
        <div class="field">
          <label for="order-status">Status</label>
          <select
            id="order-status"
            onChange={(e) => {
              setStatus(e.currentTarget.value as OrderStatus | '');
              setPage(1);
            }}
          >
            <option value="">All</option>
            <For each={ORDER_STATUSES}>
              {(s) => (
                <option value={s} selected={s === status()}>
                  {ORDER_STATUS_LABELS[s]}
                </option>
              )}
            </For>
          </select>
        </div>
        <div class="field">
          <label for="order-search">Search name, email or shop id</label>
          <input id="order-search" type="search" autocomplete="off" value={searchText()} onInput={(e) => onSearch(e.currentTarget.value)} />
        </div>
      </div>
      <AsyncView
        resource={orders}
        retry={() => void refetch()}
        what="Orders"
        isEmpty={(listing) => listing.total === 0}
        empty={<p class="status-text">{filtered() ? 'No order matches these filters.' : 'No orders yet. Paid sign-ups and shop orders appear here.'}</p>}
      >
        {(listing) => (
          <>
            <p class="status-text" role="status" tabindex="-1" ref={tableTop}>
              {listing().total.toLocaleString()} order{listing().total === 1 ? '' : 's'}
              {listing().total > ORDERS_PER_PAGE ? ` · ${(page() - 1) * ORDERS_PER_PAGE + 1}–${Math.min(page() * ORDERS_PER_PAGE, listing().total)} shown` : ''}
            </p>
            <DataTable label="Orders" columns={['Order', 'Created', 'Event', 'Customer', 'Tickets', 'Amount', 'Status', 'Payment']} rows={listing().items}>
              {(o) => (
                <tr data-order-id={o.id}>
                  <td>
                    <A href={`/admin/orders/${o.id}`}>
                      <span class="visually-hidden">Order </span>#{o.id}
                    </A>
                    <Show when={o.source === 'commerce'}>
                      <div class="muted">Shop{o.externalId ? ` ${o.externalId}` : ''}</div>
                    </Show>
                  </td>
                  <td>
                    <time datetime={isoDateTime(o.createdUtc)}>{formatUtcDateTime(o.createdUtc)}</time>
                  </td>
                  <td>
                    <A href={`/admin/events/${o.eventId}`}>{o.eventTitle || `Event #${o.eventId}`}</A>
                  </td>
                  <td>
                    {o.name}
                    <div class="muted cell-email">{o.email}</div>
                  </td>
                  <td>{o.quantity}</td>
                  <td>{formatMoney(o.amountCents, o.currency)}</td>
                  <td>
                    <span class={`state state-${o.status}`}>{ORDER_STATUS_LABELS[o.status]}</span>
                  </td>
                  <td>
                    <Show when={o.paymentStatus} fallback={<span class="muted">{o.source === 'commerce' ? 'In the shop' : '—'}</span>}>
                      {(p) => <span class={`state state-${p()}`}>{PAYMENT_STATUS_LABELS[p()]}</span>}
                    </Show>
                    <Show when={attentionLabel(o.paymentAttention)}>{(flag) => <span class="state state-attention"> {flag()}</span>}</Show>
                  </td>
                </tr>
              )}
            </DataTable>
            <Pager page={page()} perPage={ORDERS_PER_PAGE} total={listing().total} what="orders" onPage={toPage} />
          </>
        )}
      </AsyncView>
    </section>
  );
}
