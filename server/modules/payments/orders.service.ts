/**
 * Paid sign-ups (docs/api.md#payments). A checkout order holds its seats while the visitor pays
 * (they count against the event's capacity under the event row's lock, so concurrent sign-ups
 * never oversell); paid, it becomes one attendee row per ticket, each with its own cancel token
 * and ticket code, `svc_rsvp_submitted` once per row and one email with every ticket; refunded
 * or reversed, every row is cancelled and `svc_rsvp_cancelled` fires once per row.
 */
import { AppError } from '../../../shared/errors';
import type { OrderDetailDto, OrderDto, OrderLine, OrderStatus } from '../../../shared/payments';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { queueMail } from '../../mail/mailer';
import { attendeesRepository, type AttendeeRecord } from '../attendees/attendees.repository';
import { ANNOUNCE_RSVP_SUBMITTED_JOB, newTicketSecrets, submittedPayload } from '../attendees/signup.service';
import { announce, holdAnnouncement } from '../../jobs/announcements';
import { eventsRepository, type EventRow } from '../events/events.repository';
import { buildOrderMail } from './orders.mail';
import { paymentsRepository as repo, type OrderRow, type PaymentRow } from './payments.repository';

export type SettleOutcome = 'fulfilled' | 'already' | 'released';

export function toOrderDto(order: OrderRow & { eventTitle: string }, payment: PaymentRow | null): OrderDto {
  return {
    id: order.id,
    eventId: order.eventId,
    eventTitle: order.eventTitle,
    lines: order.lines,
    email: order.email,
    name: order.name,
    quantity: order.quantity,
    amountCents: order.amountCents,
    currency: order.currency,
    status: order.status,
    source: order.source,
    externalId: order.externalId,
    provider: payment?.provider ?? null,
    paymentStatus: payment?.status ?? null,
    createdUtc: order.createdUtc,
    paidUtc: order.paidUtc,
  };
}

export function ordersService(ctx: AppContext) {
  const { hooks } = ctx;

  /**
   * Inserts one `going` row per ticket of every line and queues one email with all of them, in
   * the caller's transaction (the mail is sent only if the rows commit). Event rows are locked
   * in ascending id order, as sign-ups lock them.
   */
  async function issueTickets(tx: Db, order: OrderRow): Promise<AttendeeRecord[]> {
    const lines = [...order.lines].sort((a, b) => a.eventId - b.eventId);
    const rows: AttendeeRecord[] = [];
    const eventsById = new Map<number, EventRow>();
    for (const line of lines) {
      const event = await eventsRepository(tx).lockById(line.eventId);
      if (!event) throw new AppError('svc_invalid_param', 'Invalid parameter(s): lines', { params: { lines: `no event ${line.eventId}` } });
      eventsById.set(event.id, event);
      for (let i = 0; i < line.quantity; i++) {
        rows.push(
          await attendeesRepository(tx).insert({
            eventId: event.id,
            email: order.email,
            displayName: order.name,
            quantity: 1,
            status: 'going',
            customFields: order.customFields,
            orderId: order.id,
            ...newTicketSecrets(),
          }),
        );
      }
    }
    rows.sort((a, b) => a.id - b.id);
    await queueMail(tx, await buildOrderMail(ctx.env.publicUrl, order, eventsById, rows), { dedupeKey: `order-tickets:${order.id}` });
    return rows;
  }

  /** After commit: the contract's action once per ticket row, with that row's own data. */
  async function announceTickets(rows: AttendeeRecord[]): Promise<void> {
    for (const row of rows) await hooks.doAction('svc_rsvp_submitted', row.id, submittedPayload(row));
  }

  async function announceCancelled(ids: number[]): Promise<void> {
    for (const id of ids) await hooks.doAction('svc_rsvp_cancelled', id);
  }

  async function detail(db: Db, order: OrderRow): Promise<OrderDetailDto> {
    const [event, payment, tickets] = await Promise.all([
      eventsRepository(db).findById(order.eventId),
      repo.latestPaymentOf(db, { orderId: order.id }),
      repo.ticketsOf(db, order.id),
    ]);
    return {
      ...toOrderDto({ ...order, eventTitle: event?.title ?? '' }, payment),
      tickets: tickets.map((t) => ({ attendeeId: t.id, eventId: t.eventId, displayName: t.displayName, email: t.email, status: t.status })),
    };
  }

  return {
    /**
     * A paid sign-up, inside the sign-up's transaction after its capacity check (the event row
     * is locked): the order holds `quantity` seats until it is paid or its hold runs out.
     */
    async hold(
      tx: Db,
      input: { event: EventRow; email: string; name: string; quantity: number; currency: string; customFields: string | null },
    ): Promise<OrderRow> {
      const line: OrderLine = { eventId: input.event.id, quantity: input.quantity };
      return repo.insertOrder(tx, {
        eventId: input.event.id,
        lines: [line],
        email: input.email,
        name: input.name,
        quantity: input.quantity,
        amountCents: input.event.priceCents * input.quantity,
        currency: input.currency,
        status: 'pending_payment',
        source: 'checkout',
        customFields: input.customFields,
      });
    },

    /**
     * The payment for a held order landed: paid, one row per ticket, one email. 'already' for a
     * repeated delivery; 'released' when the hold ran out first (the caller refunds).
     */
    async settlePayment(orderId: number, alsoInTx: (tx: Db, outcome: SettleOutcome) => Promise<void>): Promise<SettleOutcome> {
      const { outcome, rows, announcement } = await ctx.db.transaction(async (tx) => {
        const order = await repo.findOrder(tx, orderId, { forUpdate: true });
        let result: SettleOutcome = 'released';
        let issued: AttendeeRecord[] = [];
        let held: number | null = null;
        if (order?.status === 'pending_payment') {
          const paid = (await repo.setOrderStatus(tx, order.id, 'paid', { paid: true }))!;
          issued = await issueTickets(tx, paid);
          held = await holdAnnouncement(tx, ANNOUNCE_RSVP_SUBMITTED_JOB, { attendeeIds: issued.map((r) => r.id) });
          result = 'fulfilled';
        } else if (order && (order.status === 'paid' || order.status === 'refunded')) result = 'already';
        await alsoInTx(tx, result);
        return { outcome: result, rows: issued, announcement: held };
      });
      if (announcement !== null) await announce(ctx.db, ctx.logger, announcement, () => announceTickets(rows));
      if (outcome === 'fulfilled') await hooks.doAction('svc_order_paid', orderId);
      return outcome;
    },

    /** The visitor gave up (or the checkout failed): the seats go back at once. */
    async releaseHold(orderId: number, alsoInTx: (tx: Db) => Promise<void>): Promise<boolean> {
      return ctx.db.transaction(async (tx) => {
        const order = await repo.findOrder(tx, orderId, { forUpdate: true });
        const released = order?.status === 'pending_payment';
        if (released) await repo.setOrderStatus(tx, orderId, 'expired');
        await alsoInTx(tx);
        return released;
      });
    },

    /**
     * Refund or reversal: the order becomes `status` and every row of it `cancelled`, then
     * `svc_rsvp_cancelled` once per row (it may run with no one signed in). false when the
     * order was not paid (nothing changes, nothing fires).
     */
    async reverse(
      orderId: number,
      status: Extract<OrderStatus, 'refunded' | 'cancelled'>,
      alsoInTx: (tx: Db, order: OrderRow) => Promise<void>,
    ): Promise<boolean> {
      const cancelled = await ctx.db.transaction(async (tx) => {
        const order = await repo.findOrder(tx, orderId, { forUpdate: true });
        if (order?.status !== 'paid') return null;
        await repo.setOrderStatus(tx, orderId, status);
        const ids = await repo.cancelTickets(tx, orderId);
        await alsoInTx(tx, order);
        return ids;
      });
      if (!cancelled) return false;
      await announceCancelled(cancelled);
      if (status === 'refunded') await hooks.doAction('svc_order_refunded', orderId);
      return true;
    },

    issueTickets,
    announceTickets,
    announceCancelled,

    async list(query: {
      eventId?: number;
      status?: OrderStatus;
      search?: string;
      page: number;
      perPage: number;
    }): Promise<{ items: OrderDto[]; total: number }> {
      const { items, total } = await repo.listOrders(ctx.db, query);
      const paymentsByOrder = await repo.paymentsOfOrders(
        ctx.db,
        items.map((o) => o.id),
      );
      return { items: items.map((o) => toOrderDto(o, paymentsByOrder.get(o.id) ?? null)), total };
    },

    async get(orderId: number): Promise<OrderDetailDto> {
      const order = await repo.findOrder(ctx.db, orderId);
      if (!order) throw new AppError('svc_not_found', 'No such order.');
      return detail(ctx.db, order);
    },
  };
}

export type OrdersService = ReturnType<typeof ordersService>;
