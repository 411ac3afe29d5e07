/**
 * `/admin/orders/{id}` (extended edition): one order, its payment and its tickets, and the refund
 * of a paid checkout order (every ticket cancelled, the money back through the provider) after a
 * confirmation that names the amount and the tickets.
 */
import { ItemStatus } from '../components/async-view';
import { createResource, createSignal, Show, type JSX } from 'solid-js';
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

const PROVIDER_NAMES: Record<string, string> = { local: 'the built-in provider', stripe: 'Stripe' };

export default function AdminOrderPage(props: RouteProps): JSX.Element {
  const id = Number(props.params.id);
  return (
    <AdminFrame title={`Order #${props.params.id}`} area="orders">
      {() => (
        <ExtendedOnly what="Orders">
          <OrderView id={id} />
        </ExtendedOnly>
      )}
    </AdminFrame>
  );
}

const tickets = (n: number) => `${n} ticket${n === 1 ? '' : 's'}`;

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
      title: `Refund ${formatMoney(o.amountCents, o.currency)} and cancel ${tickets(o.tickets.length || o.quantity)}?`,
      detail: `Order #${o.id} of ${o.name} (${o.email}) for ${o.eventTitle}. Its tickets stop working at the door at once, and the money goes back through ${PROVIDER_NAMES[o.provider ?? ''] ?? 'the payment provider'}.`,
      confirmLabel: 'Refund order',
      action: async () => {
        const refunded = await refundOrder(o.id);
        mutate(refunded);
        const cancelled = refunded.tickets.filter((t) => t.status === 'cancelled').length;
        setNotice({
          ok: true,
          text: `Order #${refunded.id} refunded: ${tickets(cancelled)} cancelled. Payment: ${refunded.paymentStatus ? PAYMENT_STATUS_LABELS[refunded.paymentStatus].toLowerCase() : 'none'}.`,
        });
      },
      // the button that opened the dialog is gone: the outcome takes the focus
      onDone: () => queueMicrotask(() => noticeBox?.focus()),
    });

  return (
    <>
      <p>
        <A href="/admin/orders">‹ All orders</A>
      </p>
      <ItemStatus resource={order} retry={() => void refetch()} missing={missing()} what="order" id={props.id} />
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
                <dt>Status</dt>
                <dd>
                  <span class={`state state-${o().status}`}>{ORDER_STATUS_LABELS[o().status]}</span>
                </dd>
                <dt>Event</dt>
                <dd>
                  <A href={`/admin/events/${o().eventId}`}>{o().eventTitle || `Event #${o().eventId}`}</A>
                </dd>
                <dt>Customer</dt>
                <dd>
                  {o().name} (<span class="cell-email">{o().email}</span>)
                </dd>
                <dt>Tickets</dt>
                <dd>{o().quantity}</dd>
                <dt>Amount</dt>
                <dd>{formatMoney(o().amountCents, o().currency)}</dd>
                <dt>Payment</dt>
                <dd>
                  <Show when={o().paymentStatus} fallback={o().source === 'commerce' ? 'Paid in the shop' : '—'}>
                    {(p) => (
                      <>
                        <span class={`state state-${p()}`}>{PAYMENT_STATUS_LABELS[p()]}</span>
                        <Show when={o().provider}>{(provider) => <span class="muted"> ({provider() === 'local' ? 'built-in provider' : 'Stripe'})</span>}</Show>
                      </>
                    )}
                  </Show>
                  <Show when={attentionLabel(o().paymentAttention)}>{(flag) => <span class="state state-attention"> {flag()}</span>}</Show>
                </dd>
                <dt>Source</dt>
                <dd>{o().source === 'commerce' ? `Shop order${o().externalId ? ` ${o().externalId}` : ''}` : 'Sign-up with online payment'}</dd>
                <dt>Created</dt>
                <dd>
                  <time datetime={isoDateTime(o().createdUtc)}>{formatUtcDateTime(o().createdUtc)}</time>
                </dd>
                <Show when={o().paidUtc}>
                  {(paid) => (
                    <>
                      <dt>Paid</dt>
                      <dd>
                        <time datetime={isoDateTime(paid())}>{formatUtcDateTime(paid())}</time>
                      </dd>
                    </>
                  )}
                </Show>
              </dl>
              <Show when={refundable(o())}>
                <div class="button-row">
                  <button type="button" class="button button-danger-text button-quiet" onClick={() => askRefund(o())}>
                    Refund<span class="visually-hidden"> order #{o().id}</span>
                  </button>
                </div>
              </Show>
              <Show when={o().source === 'commerce' && o().status === 'paid'}>
                <p class="field-hint">This order came from the shop: refund it there, and the shop reverses it here.</p>
              </Show>
            </section>

            <section class="section" aria-labelledby="tickets-heading">
              <h2 id="tickets-heading">Tickets</h2>
              <Show
                when={o().tickets.length > 0}
                fallback={<p class="status-text">{o().status === 'pending_payment' ? 'Tickets are issued once the order is paid.' : 'No tickets.'}</p>}
              >
                <DataTable labelledBy="tickets-heading" columns={['Name', 'Email', 'Status', 'Attendee']} rows={o().tickets}>
                  {(t) => (
                    <tr>
                      <td>{t.displayName}</td>
                      <td class="cell-email">{t.email}</td>
                      <td>
                        <span class={`state state-${t.status || 'going'}`}>{t.status || 'going'}</span>
                      </td>
                      <td>
                        <A href={`/admin/events/${t.eventId}/attendees?search=${encodeURIComponent(t.email)}`}>
                          Attendee #{t.attendeeId}
                          <span class="visually-hidden"> ({t.displayName})</span>
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
