/** Queries of payments, provider events and orders; no rules here (STYLE §2). */
import { and, desc, eq, inArray, isNotNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import { nowUtc } from '../../db/columns';
import type { OrderStatus, PaymentStatus } from '../../../shared/payments';
import { attendees } from '../attendees/attendees.sql';
import { events } from '../events/events.sql';
import { orders, paymentEvents, payments } from './payments.sql';
import { vouchers } from './tickets.sql';

export type PaymentRow = typeof payments.$inferSelect;
export type PaymentInsert = typeof payments.$inferInsert;
export type PaymentEventRow = typeof paymentEvents.$inferSelect;
export type PaymentEventInsert = typeof paymentEvents.$inferInsert;
export type OrderRow = typeof orders.$inferSelect;
export type OrderInsert = typeof orders.$inferInsert;

export interface OrderFilter {
  eventId?: number;
  status?: OrderStatus;
  search?: string;
  ticketCategoryId?: number;
  /** Matched as its upper-case key (`voucherCodeKey`). */
  voucherCodeKey?: string;
  page: number;
  perPage: number;
}

const likePattern = (text: string) => `%${text.replace(/[%_\\]/g, '\\$&')}%`;

export const paymentsRepository = {
  // Payments

  async insertPayment(db: Db, values: PaymentInsert): Promise<PaymentRow> {
    const [row] = await db.insert(payments).values(values).returning();
    return row!;
  },

  async findPayment(db: Db, id: string, opts: { forUpdate?: boolean } = {}): Promise<PaymentRow | null> {
    const query = db.select().from(payments).where(eq(payments.id, id));
    const [row] = opts.forUpdate ? await query.for('update') : await query;
    return row ?? null;
  },

  /** The payment a provider event is about: by our reference, else the checkout id, else the captured payment's id. */
  async findPaymentFor(
    db: Db,
    provider: string,
    ref: { reference?: string | null; sessionId?: string | null; paymentRef?: string | null },
  ): Promise<PaymentRow | null> {
    const tries: SQL[] = [];
    if (ref.reference) tries.push(eq(payments.id, ref.reference));
    if (ref.sessionId) tries.push(eq(payments.providerSessionId, ref.sessionId));
    if (ref.paymentRef) tries.push(eq(payments.paymentRef, ref.paymentRef));
    for (const where of tries) {
      const [row] = await db
        .select()
        .from(payments)
        .where(and(eq(payments.provider, provider as PaymentRow['provider']), where));
      if (row) return row;
    }
    return null;
  },

  async latestPaymentOf(db: Db, target: { bookingId?: number; orderId?: number }): Promise<PaymentRow | null> {
    const where = target.bookingId !== undefined ? eq(payments.bookingId, target.bookingId) : eq(payments.orderId, target.orderId!);
    const [row] = await db.select().from(payments).where(where).orderBy(desc(payments.createdUtc)).limit(1);
    return row ?? null;
  },

  async paymentsOfOrders(db: Db, orderIds: number[]): Promise<Map<number, PaymentRow>> {
    if (orderIds.length === 0) return new Map();
    const rows = await db.select().from(payments).where(inArray(payments.orderId, orderIds)).orderBy(payments.createdUtc);
    return new Map(rows.map((r) => [r.orderId!, r]));
  },

  /** The flag of each of these bookings' flagged payments (the admin list shows it). */
  async attentionOfBookings(db: Db, bookingIds: number[]): Promise<Map<number, string>> {
    if (bookingIds.length === 0) return new Map();
    const rows = await db
      .select({ bookingId: payments.bookingId, attention: payments.attention })
      .from(payments)
      .where(and(inArray(payments.bookingId, bookingIds), isNotNull(payments.attention)));
    return new Map(rows.map((r) => [r.bookingId!, r.attention!]));
  },

  async updatePayment(db: Db, id: string, patch: Partial<Omit<PaymentInsert, 'id'>>): Promise<PaymentRow | null> {
    const [row] = await db
      .update(payments)
      .set({ ...patch, updatedUtc: nowUtc })
      .where(eq(payments.id, id))
      .returning();
    return row ?? null;
  },

  /** Moves open payments of these bookings or orders to `status` (their hold was released). */
  async closeOpenPayments(db: Db, target: { bookingIds?: number[]; orderIds?: number[] }, status: PaymentStatus): Promise<void> {
    const where = target.bookingIds ? inArray(payments.bookingId, target.bookingIds) : inArray(payments.orderId, target.orderIds ?? []);
    if ((target.bookingIds ?? target.orderIds ?? []).length === 0) return;
    await db
      .update(payments)
      .set({ status, updatedUtc: nowUtc })
      .where(and(where, eq(payments.status, 'open')));
  },

  /** Open payments of bookings that no longer wait for payment (released by the booking sweeper). */
  async expireOrphanedBookingPayments(db: Db): Promise<number> {
    const rows = await queryRows<{ id: string }>(
      db,
      sql`update svc_payments p set status = 'expired', updated_utc = ${nowUtc}
          from svc_bookings b
          where p.booking_id = b.booking_id and p.status = 'open' and b.status <> 'pending_payment'
          returning p.id`,
    );
    return rows.length;
  },

  // Provider events

  /** Stores a verified event once; null when this provider event id was stored before. */
  async insertEvent(db: Db, values: PaymentEventInsert): Promise<PaymentEventRow | null> {
    const [row] = await db.insert(paymentEvents).values(values).onConflictDoNothing().returning();
    return row ?? null;
  },

  async findEvent(db: Db, id: number, opts: { forUpdate?: boolean } = {}): Promise<PaymentEventRow | null> {
    const query = db.select().from(paymentEvents).where(eq(paymentEvents.id, id));
    const [row] = opts.forUpdate ? await query.for('update') : await query;
    return row ?? null;
  },

  /**
   * Every stored event of one payment, processed or not, matched as `findPaymentFor` matches
   * them: by our reference, the checkout id or the captured payment's id (an event that came
   * before the one naming that id was stored as `unknown_payment`, and counts from then on).
   */
  async eventsOfPayment(db: Db, provider: string, ref: { id: string; sessionId: string | null; paymentRef: string | null }): Promise<PaymentEventRow[]> {
    const matches: SQL[] = [eq(paymentEvents.reference, ref.id)];
    if (ref.sessionId) matches.push(eq(paymentEvents.sessionId, ref.sessionId));
    if (ref.paymentRef) matches.push(eq(paymentEvents.paymentRef, ref.paymentRef));
    return db
      .select()
      .from(paymentEvents)
      .where(and(eq(paymentEvents.provider, provider), or(...matches)))
      .orderBy(paymentEvents.id);
  },

  async markEventProcessed(db: Db, id: number, outcome: string): Promise<void> {
    await db.update(paymentEvents).set({ outcome, processedUtc: nowUtc }).where(eq(paymentEvents.id, id));
  },

  // Orders

  async insertOrder(db: Db, values: OrderInsert): Promise<OrderRow> {
    const [row] = await db.insert(orders).values(values).returning();
    return row!;
  },

  async findOrder(db: Db, id: number, opts: { forUpdate?: boolean } = {}): Promise<OrderRow | null> {
    const query = db.select().from(orders).where(eq(orders.id, id));
    const [row] = opts.forUpdate ? await query.for('update') : await query;
    return row ?? null;
  },

  /** Stores a shop order once: null when its id is stored already (the unique index decides, also under concurrency). */
  async insertCommerceOrder(db: Db, values: OrderInsert): Promise<OrderRow | null> {
    const [row] = await db.insert(orders).values(values).onConflictDoNothing().returning();
    return row ?? null;
  },

  async findCommerceOrder(db: Db, externalId: string, opts: { forUpdate?: boolean } = {}): Promise<OrderRow | null> {
    const query = db
      .select()
      .from(orders)
      .where(and(eq(orders.source, 'commerce'), eq(orders.externalId, externalId)));
    const [row] = opts.forUpdate ? await query.for('update') : await query;
    return row ?? null;
  },

  async setOrderStatus(db: Db, id: number, status: OrderStatus, extra: { paid?: boolean } = {}): Promise<OrderRow | null> {
    const [row] = await db
      .update(orders)
      .set({ status, updatedUtc: nowUtc, ...(extra.paid ? { paidUtc: nowUtc } : {}) })
      .where(eq(orders.id, id))
      .returning();
    return row ?? null;
  },

  /** Unpaid orders created before `cutoffUtc` become expired; answers their ids. */
  async expireOrders(db: Db, cutoffUtc: string): Promise<number[]> {
    const rows = await db
      .update(orders)
      .set({ status: 'expired', updatedUtc: nowUtc })
      .where(and(eq(orders.status, 'pending_payment'), lt(orders.createdUtc, cutoffUtc)))
      .returning({ id: orders.id });
    return rows.map((r) => r.id);
  },

  async listOrders(db: Db, f: OrderFilter): Promise<{ items: Array<OrderRow & { eventTitle: string }>; total: number }> {
    const where = and(
      f.eventId !== undefined ? sql`${orders.lines} @> ${JSON.stringify([{ eventId: f.eventId }])}::jsonb` : undefined,
      f.status ? eq(orders.status, f.status) : undefined,
      f.search
        ? sql`(${orders.email} ilike ${likePattern(f.search)} or ${orders.name} ilike ${likePattern(f.search)} or ${orders.externalId} ilike ${likePattern(f.search)})`
        : undefined,
      f.ticketCategoryId !== undefined ? sql`${orders.lines} @> ${JSON.stringify([{ categoryId: f.ticketCategoryId }])}::jsonb` : undefined,
      f.voucherCodeKey !== undefined ? sql`upper(${orders.voucherCode}) = ${f.voucherCodeKey}` : undefined,
    );
    const [rows, [count]] = await Promise.all([
      db
        .select({ order: orders, eventTitle: events.title })
        .from(orders)
        .innerJoin(events, eq(events.id, orders.eventId))
        .where(where)
        .orderBy(desc(orders.createdUtc), desc(orders.id))
        .limit(f.perPage)
        .offset((f.page - 1) * f.perPage),
      db
        .select({ n: sql<number>`count(*)::int` })
        .from(orders)
        .where(where),
    ]);
    return { items: rows.map((r) => ({ ...r.order, eventTitle: r.eventTitle })), total: count!.n };
  },

  /** Paid orders with a line of `eventId`, each with the terms of the voucher it used (null without one). */
  async paidOrdersOfEvent(db: Db, eventId: number) {
    return db
      .select({
        amountCents: orders.amountCents,
        lines: orders.lines,
        voucherKind: vouchers.kind,
        voucherValue: vouchers.value,
        voucherCategoryIds: vouchers.categoryIds,
      })
      .from(orders)
      .leftJoin(vouchers, eq(vouchers.id, orders.voucherId))
      .where(and(eq(orders.status, 'paid'), sql`${orders.lines} @> ${JSON.stringify([{ eventId }])}::jsonb`))
      .orderBy(orders.id);
  },

  async ticketsOf(db: Db, orderId: number) {
    return db.select().from(attendees).where(eq(attendees.orderId, orderId)).orderBy(attendees.id);
  },

  /** Cancels the order's tickets that are not cancelled yet; answers the rows it changed. */
  async cancelTickets(db: Db, orderId: number): Promise<number[]> {
    const rows = await db
      .update(attendees)
      .set({ status: 'cancelled', updatedUtc: nowUtc })
      .where(and(eq(attendees.orderId, orderId), sql`${attendees.status} <> 'cancelled'`))
      .returning({ id: attendees.id });
    return rows.map((r) => r.id).sort((a, b) => a - b);
  },
};

export type PaymentsRepository = typeof paymentsRepository;
