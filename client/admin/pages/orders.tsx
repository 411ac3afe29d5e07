/**
 * `/admin/orders` (extended edition): paid sign-ups and shop orders, newest first, a page at a
 * time, filtered by event, ticket category (once an event is chosen), status, promo code and a
 * search over name, email and the shop's id. The filters and page live in the URL, so coming
 * back from an order finds the same list.
 */
import { createEffect, createMemo, createResource, createSignal, For, onCleanup, Show, type JSX } from 'solid-js';
import { AdminFrame } from '../components/admin-frame';
import { AsyncView, ready } from '../components/async-view';
import { DataTable } from '../components/data-table';
import { Pager } from '../components/pager';
import { attentionLabel, ORDER_STATUS_LABELS, ORDER_STATUSES, PAYMENT_STATUS_LABELS } from '../constants';
import { listEvents, listOrders, listTicketCategories, type OrderFilter } from '../data';
import { ExtendedOnly } from '../components/extended-only';
import type { OrderStatus } from '../../../shared/payments';
import { ZVoucherCode } from '../../../shared/vouchers';
import { formatMoney, formatUtcDateTime, isoDateTime } from '../../ui/format';
import { A, searchParams } from '../../router';
import { intlLocale, t, tx } from '../../i18n/i18n';

export const ORDERS_PER_PAGE = 50;
const SEARCH_DEBOUNCE_MS = 250;

export default function AdminOrdersPage(): JSX.Element {
  return (
    <AdminFrame title={t('admin.orders.title')} area="orders">
      {() => (
        <ExtendedOnly what={t('admin.orders.title')}>
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
  const [categoryId, setCategoryId] = createSignal(initial.get('category') ?? '');
  const [searchText, setSearchText] = createSignal(initial.get('q') ?? '');
  const [search, setSearch] = createSignal(searchText().trim());
  const [codeText, setCodeText] = createSignal(initial.get('code') ?? '');
  const [code, setCode] = createSignal(codeText().trim());
  const [page, setPage] = createSignal(Math.max(1, Number(initial.get('page')) || 1));
  // the chosen event's categories: the category filter offers only these
  const [categories] = createResource(
    () => (Number(eventId()) > 0 ? Number(eventId()) : null),
    (id) => listTicketCategories([id]),
  );
  // a code no voucher can have is not sent: the field says why instead of the list failing
  const codeValid = () => code() === '' || ZVoucherCode.safeParse(code()).success;

  // one timer per field: typing in one does not drop the other's pending value
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const debounced = (field: string, apply: () => void) => {
    clearTimeout(timers.get(field));
    timers.set(
      field,
      setTimeout(() => {
        apply();
        setPage(1);
      }, SEARCH_DEBOUNCE_MS),
    );
  };
  const onSearch = (value: string) => {
    setSearchText(value);
    debounced('search', () => setSearch(value.trim()));
  };
  const onCode = (value: string) => {
    setCodeText(value);
    debounced('code', () => setCode(value.trim()));
  };
  onCleanup(() => timers.forEach((timer) => clearTimeout(timer)));

  const query = createMemo(() => {
    const filter: OrderFilter = {
      ...(Number(eventId()) > 0 ? { eventId: Number(eventId()) } : {}),
      ...(status() ? { status: status() as OrderStatus } : {}),
      ...(search() ? { search: search() } : {}),
      ...(Number(eventId()) > 0 && Number(categoryId()) > 0 ? { ticketCategoryId: Number(categoryId()) } : {}),
      ...(code() && codeValid() ? { voucherCode: code() } : {}),
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
    if (filter.ticketCategoryId) params.set('category', String(filter.ticketCategoryId));
    if (filter.voucherCode) params.set('code', filter.voucherCode);
    if (n > 1) params.set('page', String(n));
    const qs = params.toString();
    window.history.replaceState(window.history.state, '', `/admin/orders${qs ? `?${qs}` : ''}`);
  });

  const filtered = () => Boolean(eventId() || status() || search() || code());
  let tableTop: HTMLParagraphElement | undefined;
  const toPage = (n: number) => {
    setPage(n);
    tableTop?.focus();
  };

  return (
    <section aria-labelledby="orders-heading">
      <h2 id="orders-heading">{t('admin.orders.heading')}</h2>
      <div class="toolbar" role="search" aria-label={t('admin.orders.filter')}>
        <div class="field">
          <label for="order-event">{t('admin.orders.event')}</label>
          <select
            id="order-event"
            onChange={(e) => {
              setEventId(e.currentTarget.value);
              // another event's category would match nothing
              setCategoryId('');
              setPage(1);
            }}
          >
            <option value="">{t('admin.orders.allEvents')}</option>
            <For each={ready(events) ?? []}>
              {(ev) => (
                <option value={ev.id} selected={String(ev.id) === eventId()}>
                  {ev.title}
                </option>
              )}
            </For>
          </select>
        </div>
        <Show when={(ready(categories) ?? []).length > 0}>
          <div class="field">
            <label for="order-category">{t('admin.orders.category')}</label>
            <select
              id="order-category"
              onChange={(e) => {
                setCategoryId(e.currentTarget.value);
                setPage(1);
              }}
            >
              <option value="">{t('admin.orders.allCategories')}</option>
              <For each={ready(categories) ?? []}>
                {(c) => (
                  <option value={c.id} selected={String(c.id) === categoryId()}>
                    {c.name}
                  </option>
                )}
              </For>
            </select>
          </div>
        </Show>
        <div class="field">
          <label for="order-status">{t('admin.orders.status')}</label>
          <select
            id="order-status"
            onChange={(e) => {
              setStatus(e.currentTarget.value as OrderStatus | '');
              setPage(1);
            }}
          >
            <option value="">{t('admin.orders.allStatuses')}</option>
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
          <label for="order-search">{t('admin.orders.search')}</label>
          <input id="order-search" type="search" autocomplete="off" value={searchText()} onInput={(e) => onSearch(e.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="order-code">{t('admin.orders.voucherCode')}</label>
          <input
            id="order-code"
            type="search"
            autocomplete="off"
            spellcheck={false}
            value={codeText()}
            aria-invalid={codeValid() ? undefined : 'true'}
            aria-describedby={codeValid() ? undefined : 'order-code-error'}
            onInput={(e) => onCode(e.currentTarget.value)}
          />
          <Show when={!codeValid()}>
            <p id="order-code-error" class="field-hint" role="alert">
              {t('admin.orders.voucherCodeInvalid')}
            </p>
          </Show>
        </div>
      </div>
      <AsyncView
        resource={orders}
        retry={() => void refetch()}
        what={t('admin.orders.title')}
        isEmpty={(listing) => listing.total === 0}
        empty={<p class="status-text">{filtered() ? t('admin.orders.noMatch') : t('admin.orders.empty')}</p>}
      >
        {(listing) => (
          <>
            <p class="status-text" role="status" tabindex="-1" ref={tableTop}>
              {listing().total > ORDERS_PER_PAGE
                ? t('admin.orders.countShown', {
                    count: listing().total,
                    first: (page() - 1) * ORDERS_PER_PAGE + 1,
                    last: Math.min(page() * ORDERS_PER_PAGE, listing().total),
                  })
                : t('admin.orders.count', { count: listing().total })}
            </p>
            <DataTable
              label={t('admin.orders.title')}
              columns={[
                t('admin.orders.col.order'),
                t('admin.orders.col.created'),
                t('admin.orders.col.event'),
                t('admin.orders.col.customer'),
                t('admin.orders.col.tickets'),
                t('admin.orders.col.amount'),
                t('admin.orders.col.status'),
                t('admin.orders.col.payment'),
              ]}
              rows={listing().items}
            >
              {(o) => (
                <tr data-order-id={o.id}>
                  <td>
                    <A href={`/admin/orders/${o.id}`}>
                      {tx('admin.orders.orderLink', { id: o.id, hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })}
                    </A>
                    <Show when={o.source === 'commerce'}>
                      <div class="muted">{o.externalId ? t('admin.orders.shopId', { externalId: o.externalId }) : t('admin.orders.shop')}</div>
                    </Show>
                  </td>
                  <td>
                    <time datetime={isoDateTime(o.createdUtc)}>{formatUtcDateTime(o.createdUtc)}</time>
                  </td>
                  <td>
                    <A href={`/admin/events/${o.eventId}`}>{o.eventTitle || t('admin.orders.eventNumber', { id: o.eventId })}</A>
                  </td>
                  <td>
                    {o.name}
                    <div class="muted cell-email">{o.email}</div>
                  </td>
                  <td>{o.quantity.toLocaleString(intlLocale())}</td>
                  <td>{formatMoney(o.amountCents, o.currency)}</td>
                  <td>
                    <span class={`state state-${o.status}`}>{ORDER_STATUS_LABELS[o.status]}</span>
                  </td>
                  <td>
                    <Show when={o.paymentStatus} fallback={<span class="muted">{o.source === 'commerce' ? t('admin.orders.inShop') : '—'}</span>}>
                      {(p) => <span class={`state state-${p()}`}>{PAYMENT_STATUS_LABELS[p()]}</span>}
                    </Show>
                    <Show when={attentionLabel(o.paymentAttention)}>{(flag) => <span class="state state-attention"> {flag()}</span>}</Show>
                  </td>
                </tr>
              )}
            </DataTable>
            <Pager page={page()} perPage={ORDERS_PER_PAGE} total={listing().total} what={t('admin.orders.pagerWhat')} onPage={toPage} />
          </>
        )}
      </AsyncView>
    </section>
  );
}
