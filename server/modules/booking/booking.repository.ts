/** Queries of the booking domain; no rules here (STYLE §2). */
import { and, asc, desc, eq, gte, ilike, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import { nowUtc } from '../../db/columns';
import { heldAnnouncementValues } from '../../jobs/announcements';
import { jobs } from '../../jobs/jobs.sql';
import { users } from '../../auth/auth.sql';
import type { BookingStatus } from '../../../shared/booking';
import type { BusyBooking } from '../../../shared/booking/slots';
import type { BookingRowStrings } from '../../hooks/types';
import { hostProfiles } from '../hosts/profiles.sql';
import { bookingMeetings, bookings, bookingTypes, slotEpochs } from './booking.sql';

export type BookingTypeRow = typeof bookingTypes.$inferSelect;
export type BookingTypeInsert = typeof bookingTypes.$inferInsert;
export type BookingRow = typeof bookings.$inferSelect;
export type BookingInsert = typeof bookings.$inferInsert;

const HOLDING = sql`('confirmed', 'pending_approval', 'pending_payment')`;
/** Any constant works; it keeps our per-host locks apart from other advisory locks. */
const HOST_LOCK_NAMESPACE = 1_400_000_004;

/**
 * A new booking's meeting link (docs/decisions/044-meeting-links.md): a type's pattern with `{org}`
 * and `{token}` filled in (`{id}` is filled in by the insert), or the host's own link.
 */
export type NewMeeting = { pattern: string } | { hostLink: true };

export interface BookingListFilter {
  bookingTypeId?: number;
  /** One host's bookings (their own space). */
  hostUserId?: number;
  status?: BookingStatus;
  fromUtc?: string;
  toUtc?: string;
  /** Part of the customer's name or email, any case. */
  q?: string;
  /** Bookings that have not ended by this time come first, soonest first; the rest follow, latest first. */
  nowUtc: string;
  page: number;
  perPage: number;
}

export const bookingRepository = {
  // Booking types

  async insertType(db: Db, values: BookingTypeInsert): Promise<BookingTypeRow> {
    const [row] = await db.insert(bookingTypes).values(values).returning();
    return row!;
  },

  async updateType(db: Db, id: number, values: Partial<BookingTypeInsert>): Promise<BookingTypeRow | null> {
    const [row] = await db
      .update(bookingTypes)
      .set({ ...values, version: sql`${bookingTypes.version} + 1`, updatedUtc: nowUtc })
      .where(eq(bookingTypes.id, id))
      .returning();
    return row ?? null;
  },

  async deleteType(db: Db, id: number): Promise<boolean> {
    const rows = await db.delete(bookingTypes).where(eq(bookingTypes.id, id)).returning({ id: bookingTypes.id });
    return rows.length > 0;
  },

  async findType(db: Db, id: number): Promise<BookingTypeRow | null> {
    const [row] = await db.select().from(bookingTypes).where(eq(bookingTypes.id, id));
    return row ?? null;
  },

  async listTypes(db: Db, opts: { publishedOnly: boolean; page: number; perPage: number }): Promise<{ items: BookingTypeRow[]; total: number }> {
    const where = opts.publishedOnly ? eq(bookingTypes.status, 'published') : undefined;
    const [items, [count]] = await Promise.all([
      db
        .select()
        .from(bookingTypes)
        .where(where)
        .orderBy(asc(bookingTypes.id))
        .limit(opts.perPage)
        .offset((opts.page - 1) * opts.perPage),
      db
        .select({ n: sql<number>`count(*)::int` })
        .from(bookingTypes)
        .where(where),
    ]);
    return { items, total: count!.n };
  },

  async slugTaken(db: Db, slug: string, exceptId?: number): Promise<boolean> {
    const rows = await db
      .select({ id: bookingTypes.id })
      .from(bookingTypes)
      .where(and(eq(bookingTypes.slug, slug), exceptId ? sql`${bookingTypes.id} <> ${exceptId}` : undefined));
    return rows.length > 0;
  },

  async hasBookings(db: Db, typeId: number): Promise<boolean> {
    const rows = await db.select({ id: bookings.bookingId }).from(bookings).where(eq(bookings.bookingTypeId, typeId)).limit(1);
    return rows.length > 0;
  },

  // Users

  /** The ids of `ids` that are real users. */
  async existingUserIds(db: Db, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await db.select({ id: users.id }).from(users).where(inArray(users.id, ids));
    return new Set(rows.map((r) => r.id));
  },

  async findUser(db: Db, id: number): Promise<{ id: number; email: string; displayName: string } | null> {
    const [row] = await db.select({ id: users.id, email: users.email, displayName: users.displayName }).from(users).where(eq(users.id, id));
    return row ?? null;
  },

  // Locks, agenda and cache epochs

  /**
   * Transaction-scoped advisory locks on hosts, always in ascending id order so two
   * bookings that share hosts can never wait on each other in a cycle.
   */
  async lockHosts(tx: Db, hostIds: number[]): Promise<void> {
    const ids = [...new Set(hostIds)].sort((a, b) => a - b);
    if (ids.length === 0) return;
    // One round trip for the whole set, taken in ascending id order (the subquery's sort), so a
    // booking never waits on the network between two of its locks.
    await tx.execute(
      sql`select count(pg_advisory_xact_lock(${HOST_LOCK_NAMESPACE}::int4, h)) from (select unnest(array[${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )}]::int4[]) as h order by h) as ordered`,
    );
  },

  /**
   * Slot-holding bookings of these hosts (any type) whose occupation (their own type's buffers
   * included) overlaps [fromUtc, toUtc), ordered by
   * start. Packed into one text value: row-by-row transfer of a few thousand rows costs PGlite
   * about 5× more than one aggregated string (see test/bench/booking.bench.ts).
   */
  async busyForHosts(db: Db, hostIds: number[], fromUtc: string, toUtc: string, excludeBookingId?: number): Promise<BusyBooking[]> {
    if (hostIds.length === 0) return [];
    const [row] = await queryRows<{ packed: string | null }>(
      db,
      // concat_ws and date_part (a double, not extract's numeric) are the cheapest spelling on PGlite.
      // A booking occupies its host with its own type's buffers (at most a day each): the index
      // narrows by start and end a day wide, then the exact spans decide.
      sql`select string_agg(concat_ws(',', b.host_user_id, b.booking_type_id, date_part('epoch', b.start_utc)::int8,
                                      date_part('epoch', b.end_utc)::int8, b.quantity,
                                      t.buffer_before_minutes, t.buffer_after_minutes), ';' order by b.start_utc) as packed
          from svc_bookings b join svc_booking_types t on t.id = b.booking_type_id
          where b.host_user_id in (${sql.join(
            hostIds.map((id) => sql`${id}`),
            sql`, `,
          )})
            and b.status in ${HOLDING}
            and b.start_utc < ${toUtc}::timestamp + interval '1 day' and b.end_utc > ${fromUtc}::timestamp - interval '1 day'
            and b.start_utc - make_interval(mins => t.buffer_before_minutes) < ${toUtc}::timestamp
            and b.end_utc + make_interval(mins => t.buffer_after_minutes) > ${fromUtc}::timestamp
            ${excludeBookingId ? sql`and b.booking_id <> ${excludeBookingId}` : sql``}`,
    );
    if (!row?.packed) return [];
    return row.packed.split(';').map((entry) => {
      const [h, t, s, e, q, bb, ba] = entry.split(',');
      return {
        hostUserId: Number(h),
        bookingTypeId: Number(t),
        startMs: Number(s) * 1000,
        endMs: Number(e) * 1000,
        quantity: Number(q),
        bufferBeforeMs: Number(bb) * 60_000,
        bufferAfterMs: Number(ba) * 60_000,
      };
    });
  },

  /** Raises the slot-cache epoch of each host; call inside the transaction that changes its agenda. */
  async bumpEpochs(tx: Db, hostIds: number[]): Promise<void> {
    const ids = [...new Set(hostIds)].sort((a, b) => a - b);
    if (ids.length === 0) return;
    await tx
      .insert(slotEpochs)
      .values(ids.map((id) => ({ hostUserId: id, epoch: 1 })))
      .onConflictDoUpdate({ target: slotEpochs.hostUserId, set: { epoch: sql`${slotEpochs.epoch} + 1` } });
  },

  /** Sum of the hosts' epochs: every bump raises it, so it identifies the agendas' state. */
  async epochSum(db: Db, hostIds: number[]): Promise<number> {
    if (hostIds.length === 0) return 0;
    const [row] = await db
      .select({ n: sql<string>`coalesce(sum(${slotEpochs.epoch}), 0)::text` })
      .from(slotEpochs)
      .where(inArray(slotEpochs.hostUserId, hostIds));
    return Number(row?.n ?? 0);
  },

  /** Upcoming slot-holding bookings per host (least-loaded assignment). */
  async upcomingCounts(db: Db, hostIds: number[], fromUtc: string): Promise<Map<number, number>> {
    if (hostIds.length === 0) return new Map();
    const rows = await db
      .select({ host: bookings.hostUserId, n: sql<number>`count(*)::int` })
      .from(bookings)
      .where(and(inArray(bookings.hostUserId, hostIds), sql`${bookings.status} in ${HOLDING}`, gte(bookings.startUtc, fromUtc)))
      .groupBy(bookings.hostUserId);
    return new Map(rows.map((r) => [r.host, Number(r.n)]));
  },

  // Bookings

  /**
   * The row and its held announcement job (`holdAnnouncement`, payload { bookingId, status }) in
   * one statement: one round trip less while the hosts are locked.
   */
  async insertBookingHeld(
    tx: Db,
    values: BookingInsert,
    announcementType: string,
    meeting: NewMeeting | null = null,
  ): Promise<{ bookingId: number; announcement: number }> {
    // Returning renders the columns by name (ins.booking_id, ins.status); drizzle wraps the embedded insert in parentheses.
    const insert = tx.insert(bookings).values(values).returning({ bookingId: bookings.bookingId, status: bookings.status, hostUserId: bookings.hostUserId });
    // The meeting link goes in with the row, in the same statement: the confirmation mail reads it.
    const meetingStep = !meeting
      ? sql``
      : 'pattern' in meeting
        ? sql`meeting as (
            insert into ${bookingMeetings} (booking_id, url)
            select ins.booking_id, replace(${meeting.pattern}::text, '{id}', ins.booking_id::text) from ins
          ),`
        : sql`meeting as (
            insert into ${bookingMeetings} (booking_id, url)
            select ins.booking_id, p.meeting_url from ins join ${hostProfiles} p on p.user_id = ins.host_user_id where p.meeting_url <> ''
          ),`;
    const [row] = await queryRows<{ booking_id: number; job_id: number }>(
      tx,
      sql`with ins as ${insert},
          ${meetingStep}
          job as (
            insert into ${jobs} (type, payload, state, attempts, locked_until_utc)
            select ${heldAnnouncementValues(announcementType, sql`jsonb_build_object('bookingId', ins.booking_id, 'status', ins.status)`)} from ins
            returning id
          )
          select ins.booking_id, job.id as job_id from ins, job`,
    );
    return { bookingId: Number(row!.booking_id), announcement: Number(row!.job_id) };
  },

  /** The contract's plain row select: every column as a string, NULL as ''. */
  async readBackRow(db: Db, id: number): Promise<BookingRowStrings | null> {
    const [row] = await queryRows<BookingRowStrings>(
      db,
      sql`select booking_id::text as booking_id, booking_type_id::text as booking_type_id,
                 host_user_id::text as host_user_id, coalesce(customer_user_id::text, '') as customer_user_id,
                 customer_email, customer_name, customer_tz,
                 to_char(start_utc, 'YYYY-MM-DD HH24:MI:SS') as start_utc,
                 to_char(end_utc, 'YYYY-MM-DD HH24:MI:SS') as end_utc,
                 status, quantity::text as quantity, coalesce(payment_status, '') as payment_status,
                 coalesce(order_id, '') as order_id, coalesce(custom_fields, '') as custom_fields,
                 coalesce(to_char(rescheduled_from, 'YYYY-MM-DD HH24:MI:SS'), '') as rescheduled_from,
                 cancel_token,
                 to_char(created_utc, 'YYYY-MM-DD HH24:MI:SS') as created_utc,
                 to_char(updated_utc, 'YYYY-MM-DD HH24:MI:SS') as updated_utc
          from svc_bookings where booking_id = ${id}`,
    );
    return row ?? null;
  },

  async findBooking(db: Db, id: number, opts: { forUpdate?: boolean } = {}): Promise<BookingRow | null> {
    const query = db.select().from(bookings).where(eq(bookings.bookingId, id));
    const [row] = opts.forUpdate ? await query.for('update') : await query;
    return row ?? null;
  },

  async findBookingByToken(db: Db, token: string, opts: { forUpdate?: boolean } = {}): Promise<BookingRow | null> {
    const query = db.select().from(bookings).where(eq(bookings.cancelToken, token));
    const [row] = opts.forUpdate ? await query.for('update') : await query;
    return row ?? null;
  },

  /** Switches the status only if it is still `from`; null when no row changed. */
  async updateStatus(tx: Db, id: number, from: BookingStatus[], to: BookingStatus): Promise<BookingRow | null> {
    const [row] = await tx
      .update(bookings)
      .set({ status: to, revision: sql`${bookings.revision} + 1`, updatedUtc: nowUtc })
      .where(and(eq(bookings.bookingId, id), inArray(bookings.status, from)))
      .returning();
    return row ?? null;
  },

  /**
   * A held booking released before its payment landed: `abandoned`, and its payment status says
   * why (`cancelled` when the visitor or the provider gave the checkout up; `expired` is the sweeper's).
   */
  async abandonHold(tx: Db, id: number, paymentStatus: 'cancelled' | 'expired'): Promise<BookingRow | null> {
    const [row] = await tx
      .update(bookings)
      .set({ status: 'abandoned', paymentStatus, revision: sql`${bookings.revision} + 1`, updatedUtc: nowUtc })
      .where(and(eq(bookings.bookingId, id), eq(bookings.status, 'pending_payment')))
      .returning();
    return row ?? null;
  },

  /** A held booking's payment landed: pending_payment → confirmed, payment_status paid; null when it was not held. */
  async markPaid(tx: Db, id: number): Promise<BookingRow | null> {
    const [row] = await tx
      .update(bookings)
      .set({ status: 'confirmed', paymentStatus: 'paid', revision: sql`${bookings.revision} + 1`, updatedUtc: nowUtc })
      .where(and(eq(bookings.bookingId, id), eq(bookings.status, 'pending_payment')))
      .returning();
    return row ?? null;
  },

  async setPaymentStatus(tx: Db, id: number, paymentStatus: string): Promise<void> {
    await tx.update(bookings).set({ paymentStatus, updatedUtc: nowUtc }).where(eq(bookings.bookingId, id));
  },

  async moveBooking(tx: Db, id: number, startUtc: string, endUtc: string, rescheduledFrom: string): Promise<BookingRow | null> {
    const [row] = await tx
      .update(bookings)
      .set({ startUtc, endUtc, rescheduledFrom, revision: sql`${bookings.revision} + 1`, updatedUtc: nowUtc })
      .where(eq(bookings.bookingId, id))
      .returning();
    return row ?? null;
  },

  async listBookings(db: Db, f: BookingListFilter): Promise<{ items: BookingRow[]; total: number }> {
    const conditions: SQL[] = [];
    if (f.bookingTypeId) conditions.push(eq(bookings.bookingTypeId, f.bookingTypeId));
    if (f.hostUserId) conditions.push(eq(bookings.hostUserId, f.hostUserId));
    if (f.status) conditions.push(eq(bookings.status, f.status));
    if (f.fromUtc) conditions.push(gte(bookings.startUtc, f.fromUtc));
    if (f.toUtc) conditions.push(lt(bookings.startUtc, f.toUtc));
    if (f.q) {
      const pattern = `%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      conditions.push(or(ilike(bookings.customerName, pattern), ilike(bookings.customerEmail, pattern))!);
    }
    const where = conditions.length ? and(...conditions) : undefined;
    const past = sql`${bookings.endUtc} <= ${f.nowUtc}::timestamp`;
    const [items, [count]] = await Promise.all([
      db
        .select()
        .from(bookings)
        .where(where)
        // upcoming (not yet ended) first, soonest first; then past, latest first
        .orderBy(past, sql`case when ${past} then null else ${bookings.startUtc} end asc`, desc(bookings.startUtc), desc(bookings.bookingId))
        .limit(f.perPage)
        .offset((f.page - 1) * f.perPage),
      db
        .select({ n: sql<number>`count(*)::int` })
        .from(bookings)
        .where(where),
    ]);
    return { items, total: count!.n };
  },

  /** A booking's own meeting link, or null when it has none. */
  async meetingUrl(db: Db, bookingId: number): Promise<string | null> {
    const [row] = await db.select({ url: bookingMeetings.url }).from(bookingMeetings).where(eq(bookingMeetings.bookingId, bookingId));
    return row?.url ?? null;
  },

  /** Releases unpaid holds created before `cutoffUtc`; returns the released rows. */
  async abandonExpiredHolds(tx: Db, cutoffUtc: string): Promise<Array<{ bookingId: number; hostUserId: number }>> {
    return tx
      .update(bookings)
      .set({ status: 'abandoned', paymentStatus: 'expired', revision: sql`${bookings.revision} + 1`, updatedUtc: nowUtc })
      .where(and(eq(bookings.status, 'pending_payment'), lt(bookings.createdUtc, cutoffUtc)))
      .returning({ bookingId: bookings.bookingId, hostUserId: bookings.hostUserId });
  },
};

export type BookingRepository = typeof bookingRepository;
