/** Queries of vouchers and their redemptions; no rules here (STYLE §2): vouchers.service.ts holds them. */
import { and, asc, eq, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { jsonInts, queryRows, type Db } from '../../db/client';
import { nowUtc } from '../../db/columns';
import { attendees } from '../attendees/attendees.sql';
import { events } from '../events/events.sql';
import { orders } from './payments.sql';
import { ticketCategories, voucherRedemptions, vouchers } from './tickets.sql';

export type VoucherRow = typeof vouchers.$inferSelect;
export type VoucherInsert = typeof vouchers.$inferInsert;
export type VoucherRedemptionRow = typeof voucherRedemptions.$inferSelect;

/**
 * `left join lateral (…) sv`: the voucher a ticket row `a` (an svc_attendees alias) without an
 * order was signed up with — `sv.code`, `sv.kind`, `sv.value`, `sv.category_ids`. Its sign-up's
 * redemption names the sign-up's first row; the sign-up's other rows share that row's event,
 * email and creation time (one transaction; docs/decisions/032-category-sales.md). `held`: only a
 * redemption not given back (a cancelled sign-up gave its uses back).
 */
export function signupVoucherJoin(opts: { held: boolean }): SQL {
  return sql`left join lateral (
      select vo.code, vo.kind, vo.value, vo.category_ids
      from ${voucherRedemptions} r
      join ${attendees} f on f.id = r.attendee_id
      join ${vouchers} vo on vo.id = r.voucher_id
      where a.order_id is null and f.event_id = a.event_id and f.order_id is null
        and f.email = a.email and f.created_utc = a.created_utc ${opts.held ? sql`and r.released_utc is null` : sql``}
      order by r.id limit 1) sv on true`;
}

export const vouchersRepository = {
  async eventExists(db: Db, eventId: number): Promise<boolean> {
    const rows = await db.select({ id: events.id }).from(events).where(eq(events.id, eventId));
    return rows.length > 0;
  },

  /** The code each of these tickets was bought with (its order's, or its free sign-up's); tickets without one are left out. */
  async codesOfTickets(db: Db, attendeeIds: number[]): Promise<Map<number, string>> {
    if (attendeeIds.length === 0) return new Map();
    const rows = await queryRows<{ attendeeId: number; code: string }>(
      db,
      sql`select a.id as "attendeeId", coalesce(o.voucher_code, sv.code) as code
          from ${attendees} a
          left join ${orders} o on o.id = a.order_id
          ${signupVoucherJoin({ held: false })}
          where a.id in ${jsonInts(attendeeIds)} and coalesce(o.voucher_code, sv.code) is not null`,
    );
    return new Map(rows.map((r) => [Number(r.attendeeId), r.code]));
  },

  /** Which of `ids` are ticket categories of the event. */
  async categoryIdsOfEvent(db: Db, eventId: number, ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await db
      .select({ id: ticketCategories.id })
      .from(ticketCategories)
      .where(and(eq(ticketCategories.eventId, eventId), inArray(ticketCategories.id, ids)));
    return rows.map((r) => r.id);
  },

  async list(db: Db, eventId: number, opts: { page: number; perPage: number }): Promise<{ items: VoucherRow[]; total: number }> {
    const [items, [count]] = await Promise.all([
      db
        .select()
        .from(vouchers)
        .where(eq(vouchers.eventId, eventId))
        .orderBy(asc(vouchers.codeKey), asc(vouchers.id))
        .limit(opts.perPage)
        .offset((opts.page - 1) * opts.perPage),
      db
        .select({ n: sql<number>`count(*)::int` })
        .from(vouchers)
        .where(eq(vouchers.eventId, eventId)),
    ]);
    return { items, total: count!.n };
  },

  async find(db: Db, id: number): Promise<VoucherRow | null> {
    const [row] = await db.select().from(vouchers).where(eq(vouchers.id, id));
    return row ?? null;
  },

  async findByCode(db: Db, eventId: number, codeKey: string): Promise<VoucherRow | null> {
    const [row] = await db
      .select()
      .from(vouchers)
      .where(and(eq(vouchers.eventId, eventId), eq(vouchers.codeKey, codeKey)));
    return row ?? null;
  },

  async codeTaken(db: Db, eventId: number, codeKey: string, exceptId?: number): Promise<boolean> {
    const rows = await db
      .select({ id: vouchers.id })
      .from(vouchers)
      .where(and(eq(vouchers.eventId, eventId), eq(vouchers.codeKey, codeKey), exceptId === undefined ? undefined : ne(vouchers.id, exceptId)));
    return rows.length > 0;
  },

  async insert(db: Db, values: VoucherInsert): Promise<VoucherRow> {
    const [row] = await db.insert(vouchers).values(values).returning();
    return row!;
  },

  async update(db: Db, id: number, values: Partial<VoucherInsert>): Promise<VoucherRow | null> {
    const [row] = await db
      .update(vouchers)
      .set({ ...values, updatedUtc: nowUtc })
      .where(eq(vouchers.id, id))
      .returning();
    return row ?? null;
  },

  /** The row locked until the transaction ends (an edit or a delete against concurrent redemptions). */
  async lockOne(db: Db, id: number): Promise<VoucherRow | null> {
    const [row] = await db.select().from(vouchers).where(eq(vouchers.id, id)).for('update');
    return row ?? null;
  },

  async delete(db: Db, id: number): Promise<boolean> {
    return (await db.delete(vouchers).where(eq(vouchers.id, id)).returning({ id: vouchers.id })).length > 0;
  },

  /** Tickets `email` (lower case) holds with the voucher: redemptions not given back. */
  async usesByEmail(db: Db, voucherId: number, email: string): Promise<number> {
    const [row] = await db
      .select({ n: sql<number>`coalesce(sum(${voucherRedemptions.quantity}), 0)::int` })
      .from(voucherRedemptions)
      .where(and(eq(voucherRedemptions.voucherId, voucherId), eq(voucherRedemptions.email, email), isNull(voucherRedemptions.releasedUtc)));
    return row!.n;
  },

  /**
   * Counts `quantity` more uses in one statement that also checks the limit, so two redemptions
   * can never both take the last use: the row's lock orders them and the second re-reads the count.
   * The row after the update, or null when the limit would be passed.
   */
  async takeUses(db: Db, id: number, quantity: number): Promise<VoucherRow | null> {
    const [row] = await db
      .update(vouchers)
      .set({ usedCount: sql`${vouchers.usedCount} + ${quantity}` })
      .where(and(eq(vouchers.id, id), sql`(${vouchers.maxUses} is null or ${vouchers.usedCount} + ${quantity} <= ${vouchers.maxUses})`))
      .returning();
    return row ?? null;
  },

  /** Gives `quantity` uses back (never below 0). */
  async giveBackUses(db: Db, id: number, quantity: number): Promise<void> {
    await db
      .update(vouchers)
      .set({ usedCount: sql`greatest(${vouchers.usedCount} - ${quantity}, 0)` })
      .where(eq(vouchers.id, id));
  },

  async insertRedemption(db: Db, values: typeof voucherRedemptions.$inferInsert): Promise<VoucherRedemptionRow> {
    const [row] = await db.insert(voucherRedemptions).values(values).returning();
    return row!;
  },

  /** The code a free sign-up's ticket row redeemed (its own redemption), or null. */
  async redemptionOfAttendee(db: Db, attendeeId: number): Promise<{ voucherId: number; code: string } | null> {
    const [row] = await db
      .select({ voucherId: voucherRedemptions.voucherId, code: vouchers.code })
      .from(voucherRedemptions)
      .innerJoin(vouchers, eq(vouchers.id, voucherRedemptions.voucherId))
      .where(eq(voucherRedemptions.attendeeId, attendeeId))
      .limit(1);
    return row ?? null;
  },

  async linkRedemption(db: Db, id: number, link: { orderId?: number | null; attendeeId?: number | null; quantity?: number }): Promise<boolean> {
    return (await db.update(voucherRedemptions).set(link).where(eq(voucherRedemptions.id, id)).returning({ id: voucherRedemptions.id })).length > 0;
  },

  /** Marks the order's (or free sign-up's) redemptions not yet given back as given back now, and returns them. */
  async releaseRedemptions(db: Db, owner: { orderId: number } | { attendeeId: number }): Promise<VoucherRedemptionRow[]> {
    const whose = 'orderId' in owner ? eq(voucherRedemptions.orderId, owner.orderId) : eq(voucherRedemptions.attendeeId, owner.attendeeId);
    return db
      .update(voucherRedemptions)
      .set({ releasedUtc: nowUtc })
      .where(and(whose, isNull(voucherRedemptions.releasedUtc)))
      .returning();
  },
};

export type VouchersRepository = typeof vouchersRepository;
