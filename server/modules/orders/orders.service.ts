/**
 * Paid sign-ups (docs/api.md#payments). A checkout order holds its seats while the visitor pays
 * (they count against the event's capacity under the event row's lock, so concurrent sign-ups
 * never oversell); paid, it becomes one attendee row per ticket, each with its own cancel token
 * and ticket code, `svc_rsvp_submitted` once per row and one email with every ticket; refunded
 * or reversed, every row is cancelled and `svc_rsvp_cancelled` fires once per row.
 */
import { AppError } from '../../../shared/errors';
import type { OrderDetailDto, OrderDto, OrderLine, OrderStatus } from '../../../shared/payments';
import type { OrderTotal } from '../../../shared/tickets';
import { voucherCodeKey } from '../../../shared/vouchers';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { queueMail } from '../../mail/mailer';
import { attendeesRepository, type AttendeeRecord } from '../attendees/attendees.repository';
import { announceSubmitted, newTicketSecrets, submittedPayload } from './tickets.service';
import { releaseVoucher } from './vouchers.service';
import { announce, holdAnnouncement } from '../../jobs/announcements';
import { eventsRepository, type EventRow } from '../events/events.repository';
import { buildOrderMail } from './orders.mail';
import { orderPriceOf, priceLinesOf } from './ticket-price.service';
import { recipientLanguage } from '../../mail/language';
import { paymentsRepository as repo, type OrderRow, type PaymentRow } from './payments.repository';
import { issueCreditNote, issueReceipt, orderDocumentsOf, receiptDue } from './receipts.service';
import { announcePromotedNow, lockEvent, promoteWaitlist, type HeldPromotion } from '../attendees/waitlist.service';

/** The held jobs behind a paid order's actions and a refunded (or reversed) one's (server/jobs/announcements.ts). */
export const ANNOUNCE_ORDER_PAID_JOB = 'announce.order_paid';
export const ANNOUNCE_ORDER_REFUNDED_JOB = 'announce.order_refunded';

/** What a payment's verdict did to its order, and the actions to run once that commits. */
export interface AppliedOrderPayment {
  outcome: 'fulfilled' | 'already' | 'released' | 'expired' | 'refunded' | 'unchanged';
  after: () => Promise<void>;
}

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
    netCents: order.netCents,
    taxCents: order.taxCents,
    voucherCode: order.voucherCode,
    discountCents: order.discountCents,
    currency: order.currency,
    status: order.status,
    source: order.source,
    externalId: order.externalId,
    provider: payment?.provider ?? null,
    paymentStatus: payment?.status ?? null,
    paymentAttention: payment?.attention ?? null,
    createdUtc: order.createdUtc,
    paidUtc: order.paidUtc,
  };
}

export function ordersService(ctx: AppContext) {
  const { hooks } = ctx;

  /**
   * The order's event rows locked in ascending id order, as sign-ups and `issueTickets` lock them,
   * before any of its rows change: the seats it frees are then given to the waitlist in the same
   * transaction (docs/decisions/045-waitlist-promotion.md).
   */
  async function lockEventsOf(tx: Db, order: OrderRow): Promise<EventRow[]> {
    const ids = [...new Set([order.eventId, ...order.lines.map((l) => l.eventId)])].sort((a, b) => a - b);
    const locked: EventRow[] = [];
    for (const id of ids) {
      const event = await lockEvent(tx, id);
      if (event) locked.push(event);
    }
    return locked;
  }

  /** Each locked event's waitlist moved up (in `auto` mode) once the order's seats are free. */
  async function promoteEach(tx: Db, locked: EventRow[]): Promise<HeldPromotion[]> {
    const held: HeldPromotion[] = [];
    for (const event of locked) held.push(await promoteWaitlist(ctx, tx, event));
    return held;
  }

  async function announcePromotedEach(held: HeldPromotion[]): Promise<void> {
    for (const h of held) await announcePromotedNow(ctx, h);
  }

  /**
   * Inserts one `going` row per ticket of every line and queues one email with all of them, in
   * the caller's transaction (the mail is sent only if the rows commit). Event rows are locked
   * in ascending id order, as sign-ups lock them.
   */
  async function issueTickets(tx: Db, order: OrderRow, opts: { receipt?: boolean } = {}): Promise<AttendeeRecord[]> {
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
            ticketCategoryId: line.categoryId ?? null,
            // every ticket speaks the order's language: a later mail about one of them reads it from its row
            language: order.language,
            ...newTicketSecrets(),
          }),
        );
      }
    }
    rows.sort((a, b) => a.id - b.id);
    const locale = await recipientLanguage(tx, order.language, eventsById.get(order.eventId)?.language);
    const price = await orderPriceOf(tx, order);
    const priceText = price
      ? { lines: await priceLinesOf({ ...ctx, db: tx }, price, { locale, onlinePayment: true, currency: order.currency }), categoryNames: price.categoryNames }
      : null;
    const mail = await buildOrderMail(ctx.env.publicUrl, order, eventsById, rows, locale, priceText, { receipt: opts.receipt ?? false });
    await queueMail(tx, mail, { dedupeKey: `order-tickets:${order.id}` });
    return rows;
  }

  /** After commit: the contract's action once per ticket row, with that row's own data. */
  async function announceTickets(rows: AttendeeRecord[]): Promise<void> {
    for (const row of rows) await hooks.doAction('svc_rsvp_submitted', row.id, submittedPayload(row));
  }

  async function announceCancelled(ids: number[]): Promise<void> {
    for (const id of ids) await hooks.doAction('svc_rsvp_cancelled', id);
  }

  /** A paid order's actions: `svc_rsvp_submitted` once per ticket row (read by id), then `svc_order_paid`. */
  async function announcePaid(orderId: number, attendeeIds: number[]): Promise<void> {
    await announceSubmitted(ctx, attendeeIds);
    await hooks.doAction('svc_order_paid', orderId);
  }

  /** A refunded (or reversed) order's actions: `svc_rsvp_cancelled` once per row it cancelled, then `svc_order_refunded`. */
  async function announceRefunded(orderId: number, attendeeIds: number[], refunded = true): Promise<void> {
    await announceCancelled(attendeeIds);
    if (refunded) await hooks.doAction('svc_order_refunded', orderId);
  }

  async function detail(db: Db, order: OrderRow): Promise<OrderDetailDto> {
    const [event, payment, tickets, documents] = await Promise.all([
      eventsRepository(db).findById(order.eventId),
      repo.latestPaymentOf(db, { orderId: order.id }),
      repo.ticketsOf(db, order.id),
      orderDocumentsOf(db, order.id),
    ]);
    return {
      ...toOrderDto({ ...order, eventTitle: event?.title ?? '' }, payment),
      tickets: tickets.map((t) => ({ attendeeId: t.id, eventId: t.eventId, displayName: t.displayName, email: t.email, status: t.status })),
      documents,
    };
  }

  return {
    /**
     * A paid sign-up, inside the sign-up's transaction after its capacity check (the event row
     * is locked): the order holds `quantity` seats until it is paid or its hold runs out.
     */
    async hold(
      tx: Db,
      input: {
        event: EventRow;
        email: string;
        name: string;
        quantity: number;
        currency: string;
        customFields: string | null;
        language: string;
        /** Ticket categories' lines and their total (docs/api.md#tickets); without them, one line at the event's price. */
        tickets?: { lines: OrderLine[]; total: OrderTotal; voucher?: { id: number; code: string; discountCents: number } | null };
      },
    ): Promise<OrderRow> {
      const lines: OrderLine[] = input.tickets?.lines ?? [{ eventId: input.event.id, quantity: input.quantity }];
      return repo.insertOrder(tx, {
        eventId: input.event.id,
        lines,
        email: input.email,
        name: input.name,
        quantity: input.quantity,
        amountCents: input.tickets?.total.grossCents ?? input.event.priceCents * input.quantity,
        netCents: input.tickets?.total.netCents ?? null,
        taxCents: input.tickets?.total.taxCents ?? null,
        voucherId: input.tickets?.voucher?.id ?? null,
        voucherCode: input.tickets?.voucher?.code ?? null,
        discountCents: input.tickets?.voucher?.discountCents ?? 0,
        currency: input.currency,
        status: 'pending_payment',
        source: 'checkout',
        language: input.language,
        customFields: input.customFields,
      });
    },

    /**
     * A payment's verdict applied to its order, in the payment's transaction (the payment row is
     * locked first: docs/decisions/024-payment-events-as-a-set.md); the actions are held there as
     * a job and fired by `after` once it commits (or by a runner if the writer died first).
     * - `confirm`: pending_payment → paid, one row per ticket, one email and the receipt with
     *   its number (in this transaction; docs/api.md#receipts), then `svc_rsvp_submitted` per
     *   row and `svc_order_paid`. 'already' for a paid order;
     *   'released' when its hold ran out first (the caller refunds).
     * - `release` (nothing was paid): the seats go back, expired.
     * - `refund` (the money goes back): refunded; a paid order's rows are cancelled and its
     *   receipt gets a credit note (and its mail), then
     *   `svc_rsvp_cancelled` once per row and `svc_order_refunded`.
     */
    async applyPayment(tx: Db, orderId: number, verdict: 'confirm' | 'release' | 'refund'): Promise<AppliedOrderPayment> {
      const order = await repo.findOrder(tx, orderId, { forUpdate: true });
      const nothing = async () => {};
      if (!order) return { outcome: 'unchanged', after: nothing };
      if (verdict === 'confirm') {
        if (order.status === 'pending_payment') {
          const paid = (await repo.setOrderStatus(tx, order.id, 'paid', { paid: true }))!;
          // the mail names the receipt; it is issued (its number taken) last, after the tickets
          const rows = await issueTickets(tx, paid, { receipt: receiptDue(paid) });
          await issueReceipt(ctx, tx, paid);
          const attendeeIds = rows.map((r) => r.id);
          const job = await holdAnnouncement(tx, ANNOUNCE_ORDER_PAID_JOB, { orderId, attendeeIds });
          return { outcome: 'fulfilled', after: () => announce(ctx.db, ctx.logger, job, () => announcePaid(orderId, attendeeIds)) };
        }
        return { outcome: order.status === 'paid' ? 'already' : 'released', after: nothing };
      }
      if (order.status === 'pending_payment') {
        // the event rows first, as the sign-up locks them: the freed seats go to the waitlist (docs/decisions/045-waitlist-promotion.md)
        const locked = await lockEventsOf(tx, order);
        await repo.setOrderStatus(tx, orderId, verdict === 'refund' ? 'refunded' : 'expired');
        // the seats go back, and so do the code's uses
        await releaseVoucher(tx, { orderId });
        const promoted = await promoteEach(tx, locked);
        return { outcome: verdict === 'refund' ? 'refunded' : 'expired', after: () => announcePromotedEach(promoted) };
      }
      if (verdict === 'release') return { outcome: 'unchanged', after: nothing };
      if (order.status === 'paid') {
        const locked = await lockEventsOf(tx, order);
        await repo.setOrderStatus(tx, orderId, 'refunded');
        await releaseVoucher(tx, { orderId });
        const attendeeIds = await repo.cancelTickets(tx, orderId);
        await issueCreditNote(ctx, tx, order);
        const job = await holdAnnouncement(tx, ANNOUNCE_ORDER_REFUNDED_JOB, { orderId, attendeeIds });
        const promoted = await promoteEach(tx, locked);
        return {
          outcome: 'refunded',
          after: async () => {
            await announce(ctx.db, ctx.logger, job, () => announceRefunded(orderId, attendeeIds));
            await announcePromotedEach(promoted);
          },
        };
      }
      // An order whose hold ran out (or the visitor gave up) and whose late money went back.
      if (order.status === 'expired') await repo.setOrderStatus(tx, orderId, 'refunded');
      return { outcome: 'unchanged', after: nothing };
    },

    /**
     * Admin refund or shop reversal of a paid order: the order becomes `status` and every row of
     * it `cancelled`, then `svc_rsvp_cancelled` once per row (it may run with no one signed in),
     * held in the same transaction. false when the order was not paid (nothing changes, nothing fires).
     */
    async reverse(
      orderId: number,
      status: Extract<OrderStatus, 'refunded' | 'cancelled'>,
      alsoInTx: (tx: Db, order: OrderRow) => Promise<void>,
    ): Promise<boolean> {
      const reversed = await ctx.db.transaction(async (tx) => {
        const order = await repo.findOrder(tx, orderId, { forUpdate: true });
        if (order?.status !== 'paid') return null;
        const locked = await lockEventsOf(tx, order);
        await repo.setOrderStatus(tx, orderId, status);
        await releaseVoucher(tx, { orderId });
        const attendeeIds = await repo.cancelTickets(tx, orderId);
        await alsoInTx(tx, order);
        // a refunded order that had a receipt gets its credit note (docs/decisions/037-receipts.md)
        if (status === 'refunded') await issueCreditNote(ctx, tx, order);
        const job = await holdAnnouncement(tx, ANNOUNCE_ORDER_REFUNDED_JOB, { orderId, attendeeIds, refunded: status === 'refunded' });
        return { attendeeIds, job, promoted: await promoteEach(tx, locked) };
      });
      if (!reversed) return false;
      await announce(ctx.db, ctx.logger, reversed.job, () => announceRefunded(orderId, reversed.attendeeIds, status === 'refunded'));
      await announcePromotedEach(reversed.promoted);
      return true;
    },

    /**
     * Orders whose seats this transaction gave back (the hold sweeper's): their events locked in
     * ascending id order and each event's waitlist moved up (docs/decisions/045-waitlist-promotion.md);
     * answers what to run after the commit.
     */
    async promoteAfterRelease(tx: Db, released: OrderRow[]): Promise<() => Promise<void>> {
      const ids = [...new Set(released.flatMap((o) => [o.eventId, ...o.lines.map((l) => l.eventId)]))].sort((a, b) => a - b);
      const locked: EventRow[] = [];
      for (const id of ids) {
        const event = await lockEvent(tx, id);
        if (event) locked.push(event);
      }
      const promoted = await promoteEach(tx, locked);
      return () => announcePromotedEach(promoted);
    },

    issueTickets,
    announceTickets,
    announceCancelled,
    announcePaid,
    announceRefunded,

    async list(query: {
      eventId?: number;
      status?: OrderStatus;
      search?: string;
      ticketCategoryId?: number;
      voucherCode?: string;
      page: number;
      perPage: number;
    }): Promise<{ items: OrderDto[]; total: number }> {
      const { voucherCode, ...filter } = query;
      const { items, total } = await repo.listOrders(ctx.db, {
        ...filter,
        ...(voucherCode !== undefined ? { voucherCodeKey: voucherCodeKey(voucherCode) } : {}),
      });
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
