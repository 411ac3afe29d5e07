/**
 * `/admin/orders/{id}` (extended edition): one order, its payment and its tickets, and the refund
 * of a paid checkout order (every ticket cancelled, the money back through the provider) after a
 * confirmation that names the amount and the tickets.
 */
import { ItemStatus } from '../components/async-view';
import { createResource, createSignal, For, Show, type JSX } from 'solid-js';
import { ActionNoticeView, type ActionNotice } from '../components/action-notice';
import { AdminFrame } from '../components/admin-frame';
import { createConfirm } from '../components/confirm';
import { DataTable } from '../components/data-table';
import { attentionLabel, ORDER_STATUS_LABELS, PAYMENT_STATUS_LABELS } from '../constants';
import { getOrder, refundOrder, type OrderDetailDto } from '../data';
import { ExtendedOnly } from '../components/extended-only';
import { ApiError } from '../../ui/errors';
import { formatMoney, formatUtcDateTime, isoDateTime } from '../../ui/format';
import { A, type RouteProps } from '../../router';
import { t, tx } from '../../i18n/i18n';

export default function AdminOrderPage(props: RouteProps): JSX.Element {
  const id = Number(props.params.id);
  return (
    <AdminFrame title={t('admin.order.title', { id: props.params.id })} area="orders">
      {() => (
        <ExtendedOnly what={t('admin.order.extendedWhat')}>
          <OrderView id={id} />
        </ExtendedOnly>
      )}
    </AdminFrame>
  );
}

/** A ticket's attendee status in words (an unknown one as the server says it). */
function ticketStatus(status: string): string {
  if (status === 'waitlist') return t('admin.order.ticketWaitlist');
  if (status === 'cancelled') return t('admin.order.ticketCancelled');
  if (status === 'going' || !status) return t('admin.order.ticketGoing');
  return status;
}

/** How the money goes back, in the reader's words. */
const refundPath = (provider: string | null | undefined): string =>
  provider === 'local' ? t('admin.order.refundPathLocal') : provider === 'stripe' ? t('admin.order.refundPathStripe') : t('admin.order.refundPathOther');

function OrderView(props: { id: number }): JSX.Element {
  const valid = Number.isInteger(props.id) && props.id > 0;
  const [order, { mutate, refetch }] = createResource(
    () => (valid ? props.id : null),
    (id) => getOrder(id),
  );
  const [notice, setNotice] = createSignal<ActionNotice | null>(null);
  const confirm = createConfirm();
  let noticeBox: HTMLDivElement | undefined;

  const current = () => (order.state === 'ready' || order.state === 'refreshing' ? order.latest : undefined);
  const missing = () => !valid || (order.state === 'errored' && order.error instanceof ApiError && order.error.status === 404);
  const refundable = (o: OrderDetailDto) => o.source === 'checkout' && o.status === 'paid';

  const askRefund = (o: OrderDetailDto) =>
    confirm.ask({
      title: t('admin.order.refundTitle', { amount: formatMoney(o.amountCents, o.currency), count: o.tickets.length || o.quantity }),
      detail: t('admin.order.refundDetail', { id: o.id, name: o.name, email: o.email, event: o.eventTitle, path: refundPath(o.provider) }),
      confirmLabel: t('admin.order.refundConfirm'),
      action: async () => {
        const refunded = await refundOrder(o.id);
        mutate(refunded);
        const cancelled = refunded.tickets.filter((t) => t.status === 'cancelled').length;
        setNotice({
          ok: true,
          text: t('admin.order.refunded', {
            id: refunded.id,
            count: cancelled,
            payment: refunded.paymentStatus ? PAYMENT_STATUS_LABELS[refunded.paymentStatus].toLowerCase() : t('admin.order.paymentNone'),
          }),
        });
      },
      // the button that opened the dialog is gone: the outcome takes the focus
      onDone: () => queueMicrotask(() => noticeBox?.focus()),
    });

  return (
    <>
      <p>
        <A href="/admin/orders">{t('admin.order.back')}</A>
      </p>
      <ItemStatus resource={order} retry={() => void refetch()} missing={missing()} what={t('admin.order.what')} id={props.id} />
      <div ref={noticeBox} tabindex="-1">
        <ActionNoticeView notice={notice()} />
      </div>
      <Show when={current()}>
        {(o) => (
          <>
            <section aria-labelledby="order-heading">
              <h2 id="order-heading">
                {o().name} · {formatMoney(o().amountCents, o().currency)}
              </h2>
              <dl class="facts">
                <dt>{t('admin.order.status')}</dt>
                <dd>
                  <span class={`state state-${o().status}`}>{ORDER_STATUS_LABELS[o().status]}</span>
                </dd>
                <dt>{t('admin.order.event')}</dt>
                <dd>
                  <A href={`/admin/events/${o().eventId}`}>{o().eventTitle || t('admin.order.eventNumber', { id: o().eventId })}</A>
                </dd>
                <dt>{t('admin.order.customer')}</dt>
                <dd>{tx('admin.order.customerValue', { name: o().name, email: o().email, mail: (chunks) => <span class="cell-email">{chunks}</span> })}</dd>
                <dt>{t('admin.order.tickets')}</dt>
                <dd>{t('admin.order.quantity', { count: o().quantity })}</dd>
                <dt>{t('admin.order.amount')}</dt>
                <dd>{formatMoney(o().amountCents, o().currency)}</dd>
                <dt>{t('admin.order.payment')}</dt>
                <dd>
                  <Show when={o().paymentStatus} fallback={o().source === 'commerce' ? t('admin.order.paidInShop') : '—'}>
                    {(p) => (
                      <>
                        <span class={`state state-${p()}`}>{PAYMENT_STATUS_LABELS[p()]}</span>
                        <Show when={o().provider}>
                          {(provider) => (
                            <span class="muted"> ({provider() === 'local' ? t('admin.order.providerLocal') : t('admin.order.providerStripe')})</span>
                          )}
                        </Show>
                      </>
                    )}
                  </Show>
                  <Show when={attentionLabel(o().paymentAttention)}>{(flag) => <span class="state state-attention"> {flag()}</span>}</Show>
                </dd>
                <dt>{t('admin.order.source')}</dt>
                <dd>
                  {o().source === 'commerce'
                    ? o().externalId
                      ? t('admin.order.sourceShopId', { externalId: o().externalId })
                      : t('admin.order.sourceShop')
                    : t('admin.order.sourceSignup')}
                </dd>
                <dt>{t('admin.order.created')}</dt>
                <dd>
                  <time datetime={isoDateTime(o().createdUtc)}>{formatUtcDateTime(o().createdUtc)}</time>
                </dd>
                <Show when={o().paidUtc}>
                  {(paid) => (
                    <>
                      <dt>{t('admin.order.paid')}</dt>
                      <dd>
                        <time datetime={isoDateTime(paid())}>{formatUtcDateTime(paid())}</time>
                      </dd>
                    </>
                  )}
                </Show>
                <Show when={o().documents.length > 0}>
                  <dt>{t('admin.order.documents')}</dt>
                  <dd>
                    <For each={o().documents}>
                      {(doc, i) => (
                        <>
                          {i() > 0 ? ' · ' : ''}
                          <a href={doc.url} download="">
                            {doc.kind === 'receipt'
                              ? t('admin.order.receiptLink', { number: doc.number })
                              : t('admin.order.creditNoteLink', { number: doc.number })}
                          </a>
                        </>
                      )}
                    </For>
                  </dd>
                </Show>
              </dl>
              <Show when={refundable(o())}>
                <div class="button-row">
                  <button type="button" class="button button-danger-text button-quiet" onClick={() => askRefund(o())}>
                    {tx('admin.order.refundButton', { id: o().id, hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })}
                  </button>
                </div>
              </Show>
              <Show when={o().source === 'commerce' && o().status === 'paid'}>
                <p class="field-hint">{t('admin.order.shopRefundHint')}</p>
              </Show>
            </section>

            <section class="section" aria-labelledby="tickets-heading">
              <h2 id="tickets-heading">{t('admin.order.tickets')}</h2>
              <Show
                when={o().tickets.length > 0}
                fallback={<p class="status-text">{o().status === 'pending_payment' ? t('admin.order.ticketsPending') : t('admin.order.noTickets')}</p>}
              >
                <DataTable
                  labelledBy="tickets-heading"
                  columns={[t('admin.order.col.name'), t('admin.order.col.email'), t('admin.order.col.status'), t('admin.order.col.attendee')]}
                  rows={o().tickets}
                >
                  {(ticket) => (
                    <tr>
                      <td>{ticket.displayName}</td>
                      <td class="cell-email">{ticket.email}</td>
                      <td>
                        <span class={`state state-${ticket.status || 'going'}`}>{ticketStatus(ticket.status)}</span>
                      </td>
                      <td>
                        <A href={`/admin/events/${ticket.eventId}/attendees?search=${encodeURIComponent(ticket.email)}`}>
                          {tx('admin.order.attendeeLink', {
                            id: ticket.attendeeId,
                            name: ticket.displayName,
                            hidden: (chunks) => <span class="visually-hidden">{chunks}</span>,
                          })}
                        </A>
                      </td>
                    </tr>
                  )}
                </DataTable>
              </Show>
            </section>
          </>
        )}
      </Show>
      {confirm.view()}
    </>
  );
}
