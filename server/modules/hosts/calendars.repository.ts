import { and, asc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import { users } from '../../auth/auth.sql';
import type { BusyBooking } from '../../../shared/booking/slots';
import { hostBusy, hostCalendars } from './calendars.sql';

export type HostCalendarRow = typeof hostCalendars.$inferSelect;
export type NewHostCalendarRow = typeof hostCalendars.$inferInsert;
/** What a refresh learned about the calendar besides its busy time. */
export type CalendarSyncState = Pick<HostCalendarRow, 'collectionUrl' | 'ctag' | 'syncToken' | 'etag'>;

/** Calendar busy time never matches a booking type (ids start at 1): it blocks the host entirely. */
const EXTERNAL_BUSY_TYPE_ID = 0;

/** Queries only; the rules live in calendars.service.ts. */
export const calendarsRepository = {
  async user(db: Db, userId: number) {
    const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
    return row ?? null;
  },

  /** The zone of the first booking type (by id) the user hosts, or null when they host none. */
  async hostedTypeZone(db: Db, userId: number): Promise<string | null> {
    const [row] = await queryRows<{ timezone: string }>(
      db,
      sql`select timezone from svc_booking_types where hosts @> ${JSON.stringify([userId])}::jsonb order by id limit 1`,
    );
    return row?.timezone ?? null;
  },

  listForUser(db: Db, userId: number): Promise<HostCalendarRow[]> {
    return db.select().from(hostCalendars).where(eq(hostCalendars.userId, userId)).orderBy(asc(hostCalendars.id));
  },

  listForUsers(db: Db, userIds: number[]): Promise<HostCalendarRow[]> {
    if (userIds.length === 0) return Promise.resolve([]);
    return db.select().from(hostCalendars).where(inArray(hostCalendars.userId, userIds)).orderBy(asc(hostCalendars.id));
  },

  /** Calendars whose last attempt is older than `beforeUtc` (or that were never read), oldest first. */
  listDue(db: Db, beforeUtc: string, limit: number): Promise<HostCalendarRow[]> {
    return db
      .select()
      .from(hostCalendars)
      .where(sql`${hostCalendars.lastRefreshedUtc} is null or ${hostCalendars.lastRefreshedUtc} < ${beforeUtc}`)
      .orderBy(sql`${hostCalendars.lastRefreshedUtc} asc nulls first`, asc(hostCalendars.id))
      .limit(limit);
  },

  async find(db: Db, id: number): Promise<HostCalendarRow | null> {
    const [row] = await db.select().from(hostCalendars).where(eq(hostCalendars.id, id));
    return row ?? null;
  },

  /** Locks the calendar's row for a refresh's transaction (two refreshes of one calendar take turns); null when it was removed. */
  async lock(tx: Db, id: number): Promise<{ id: number } | null> {
    const [row] = await tx.select({ id: hostCalendars.id }).from(hostCalendars).where(eq(hostCalendars.id, id)).for('update');
    return row ?? null;
  },

  async insert(db: Db, row: NewHostCalendarRow): Promise<HostCalendarRow> {
    const [made] = await db.insert(hostCalendars).values(row).returning();
    return made!;
  },

  async remove(db: Db, id: number): Promise<void> {
    await db.delete(hostCalendars).where(eq(hostCalendars.id, id));
  },

  async busyCounts(db: Db, calendarIds: number[]): Promise<Map<number, number>> {
    if (calendarIds.length === 0) return new Map();
    const rows = await db
      .select({ id: hostBusy.calendarId, n: sql<number>`count(*)::int` })
      .from(hostBusy)
      .where(inArray(hostBusy.calendarId, calendarIds))
      .groupBy(hostBusy.calendarId);
    return new Map(rows.map((r) => [r.id, Number(r.n)]));
  },

  /** The calendar's stored busy time, by start. */
  busyOf(db: Db, calendarId: number): Promise<Array<{ startUtc: string; endUtc: string }>> {
    return db
      .select({ startUtc: hostBusy.startUtc, endUtc: hostBusy.endUtc })
      .from(hostBusy)
      .where(eq(hostBusy.calendarId, calendarId))
      .orderBy(asc(hostBusy.startUtc), asc(hostBusy.endUtc));
  },

  /** Replaces the calendar's busy time with `intervals`; call inside a transaction. */
  async replaceBusy(tx: Db, calendarId: number, hostUserId: number, intervals: Array<{ startUtc: string; endUtc: string }>): Promise<void> {
    await tx.delete(hostBusy).where(eq(hostBusy.calendarId, calendarId));
    for (let i = 0; i < intervals.length; i += 1000) {
      await tx.insert(hostBusy).values(intervals.slice(i, i + 1000).map((b) => ({ calendarId, hostUserId, ...b })));
    }
  },

  async markRead(tx: Db, id: number, state: CalendarSyncState, atUtc: string): Promise<void> {
    await tx
      .update(hostCalendars)
      .set({ ...state, status: 'ok', lastError: null, lastRefreshedUtc: atUtc, lastSuccessUtc: atUtc })
      .where(eq(hostCalendars.id, id));
  },

  async markUnreachable(db: Db, id: number, message: string, atUtc: string): Promise<void> {
    await db.update(hostCalendars).set({ status: 'unreachable', lastError: message, lastRefreshedUtc: atUtc }).where(eq(hostCalendars.id, id));
  },

  /**
   * The hosts' calendar busy time overlapping [fromUtc, toUtc), as agenda entries of no booking
   * type (so they block the host for every type, with the asking type's buffers around its slot).
   */
  async busyForHosts(db: Db, hostIds: number[], fromUtc: string, toUtc: string): Promise<BusyBooking[]> {
    if (hostIds.length === 0) return [];
    const [row] = await queryRows<{ packed: string | null }>(
      db,
      sql`select string_agg(concat_ws(',', host_user_id, date_part('epoch', start_utc)::int8, date_part('epoch', end_utc)::int8), ';' order by start_utc) as packed
          from svc_host_busy
          where host_user_id in (${sql.join(
            hostIds.map((id) => sql`${id}`),
            sql`, `,
          )})
            and start_utc < ${toUtc}::timestamp and end_utc > ${fromUtc}::timestamp`,
    );
    if (!row?.packed) return [];
    return row.packed.split(';').map((entry) => {
      const [h, s, e] = entry.split(',');
      return { hostUserId: Number(h), bookingTypeId: EXTERNAL_BUSY_TYPE_ID, startMs: Number(s) * 1000, endMs: Number(e) * 1000, quantity: 1 };
    });
  },

  /** Busy rows of a host over a span (tests and the admin's overview). */
  busyOfHost(db: Db, hostUserId: number, fromUtc: string, toUtc: string) {
    return db
      .select({ startUtc: hostBusy.startUtc, endUtc: hostBusy.endUtc })
      .from(hostBusy)
      .where(and(eq(hostBusy.hostUserId, hostUserId), lt(hostBusy.startUtc, toUtc), gt(hostBusy.endUtc, fromUtc)))
      .orderBy(asc(hostBusy.startUtc));
  },
};
