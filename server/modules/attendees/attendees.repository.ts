import { and, asc, desc, eq, gt, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { AttendeeSortKey } from '../../../shared/attendees';
import type { Db } from '../../db/client';
import { nowUtc } from '../../db/columns';
import { attendees } from './attendees.sql';

export type AttendeeRecord = typeof attendees.$inferSelect;
export type NewAttendeeRecord = typeof attendees.$inferInsert;

export interface AttendeeFilter {
  eventId?: number;
  /** Staff: only these events (null = no restriction). */
  eventIds?: number[] | null;
  status?: string;
  search?: string;
}

export interface AttendeeOrder {
  sort: AttendeeSortKey;
  order: 'asc' | 'desc';
}

const SORT_COLUMNS = {
  id: attendees.id,
  displayName: attendees.displayName,
  email: attendees.email,
  status: attendees.status,
  quantity: attendees.quantity,
  createdUtc: attendees.createdUtc,
  updatedUtc: attendees.updatedUtc,
} as const;

// id breaks ties so offset pages of an ordered list neither repeat nor skip rows
function orderOf({ sort, order }: AttendeeOrder): SQL[] {
  const by = order === 'desc' ? desc : asc;
  return sort === 'id' ? [by(attendees.id)] : [by(SORT_COLUMNS[sort]), by(attendees.id)];
}

function likePattern(text: string): string {
  return `%${text.replace(/[%_\\]/g, '\\$&')}%`;
}

function whereOf(filter: AttendeeFilter): SQL | undefined {
  return and(
    filter.eventId !== undefined ? eq(attendees.eventId, filter.eventId) : undefined,
    filter.eventIds ? (filter.eventIds.length > 0 ? inArray(attendees.eventId, filter.eventIds) : sql`false`) : undefined,
    filter.status !== undefined ? eq(attendees.status, filter.status) : undefined,
    filter.search
      ? or(sql`${attendees.displayName} ilike ${likePattern(filter.search)}`, sql`${attendees.email} ilike ${likePattern(filter.search)}`)
      : undefined,
  );
}

/** Queries only; rules live in the services. */
export function attendeesRepository(db: Db) {
  return {
    findById: async (id: number) => (await db.select().from(attendees).where(eq(attendees.id, id)))[0] ?? null,
    /** Exact-match lookup through the unique index; the caller compares in constant time. */
    findByCancelToken: async (token: string) => (await db.select().from(attendees).where(eq(attendees.cancelToken, token)))[0] ?? null,
    lockById: async (id: number) => (await db.select().from(attendees).where(eq(attendees.id, id)).for('update'))[0] ?? null,
    /** Seats held on an event: going rows, and old rows with an empty status (docs/api.md#errors). */
    seatsTaken: async (eventId: number) => {
      const [row] = await db
        .select({ n: sql<number>`coalesce(sum(${attendees.quantity}), 0)::int` })
        .from(attendees)
        .where(and(eq(attendees.eventId, eventId), inArray(attendees.status, ['going', ''])));
      return row!.n;
    },
    insert: async (row: NewAttendeeRecord) => (await db.insert(attendees).values(row).returning())[0]!,
    update: async (id: number, patch: Partial<Pick<AttendeeRecord, 'displayName' | 'email' | 'quantity' | 'status'>>) =>
      (
        await db
          .update(attendees)
          .set({ ...patch, updatedUtc: nowUtc })
          .where(eq(attendees.id, id))
          .returning()
      )[0] ?? null,
    delete: async (id: number) => (await db.delete(attendees).where(eq(attendees.id, id)).returning({ id: attendees.id })).length > 0,
    list: async (filter: AttendeeFilter, limit: number, offset: number, order: AttendeeOrder = { sort: 'id', order: 'asc' }) => {
      const where = whereOf(filter);
      const [rows, [count]] = await Promise.all([
        db
          .select()
          .from(attendees)
          .where(where)
          .orderBy(...orderOf(order))
          .limit(limit)
          .offset(offset),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(attendees)
          .where(where),
      ]);
      return { rows, total: count!.n };
    },
    /** One keyset page of an event's attendees after `afterId` (exports: constant memory at any size). */
    pageOfEvent: (eventId: number, afterId: number, limit: number) =>
      db
        .select()
        .from(attendees)
        .where(and(eq(attendees.eventId, eventId), gt(attendees.id, afterId)))
        .orderBy(asc(attendees.id))
        .limit(limit),
  };
}
export type AttendeesRepository = ReturnType<typeof attendeesRepository>;
