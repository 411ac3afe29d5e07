import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { nowUtc } from '../../db/columns';
import { events, type EventStatus } from './events.sql';
import { attendees } from '../attendees/attendees.sql';
import { orders } from '../orders/payments.sql';

export type EventRow = typeof events.$inferSelect;
export type NewEventRow = typeof events.$inferInsert;

/** Queries only; rules live in events.service.ts. */
export function eventsRepository(db: Db) {
  return {
    findById: async (id: number) => (await db.select().from(events).where(eq(events.id, id)))[0] ?? null,
    /** The event row locked until the transaction ends: sign-ups on one event decide seats one at a time. */
    lockById: async (id: number) => (await db.select().from(events).where(eq(events.id, id)).for('update'))[0] ?? null,
    list: async (filter: { status?: EventStatus }, limit: number, offset: number) => {
      const where = filter.status ? eq(events.status, filter.status) : undefined;
      const [rows, [count]] = await Promise.all([
        db.select().from(events).where(where).orderBy(asc(events.startsUtc), asc(events.id)).limit(limit).offset(offset),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(events)
          .where(where),
      ]);
      return { rows, total: count!.n };
    },
    /**
     * Seats taken per event, for a page of events in one query: the sign-up's rule (attendees
     * going or '' plus unpaid orders holding seats, signup.service.ts step 9). Absent ids took none.
     */
    seatsTaken: async (ids: number[]): Promise<Map<number, number>> => {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({
          id: events.id,
          // aliased: drizzle leaves a column in a select list unqualified, which a correlated subquery would misread
          n: sql<number>`(select coalesce(sum(a.quantity), 0) from ${attendees} a
                where a.event_id = ${events}.id and a.status in ('going', ''))::int
            + (select coalesce(sum(o.quantity), 0) from ${orders} o
                where o.event_id = ${events}.id and o.status = 'pending_payment')::int`.mapWith(Number),
        })
        .from(events)
        .where(inArray(events.id, ids));
      return new Map(rows.map((r) => [r.id, r.n]));
    },
    insert: async (row: NewEventRow) => (await db.insert(events).values(row).returning())[0]!,
    update: async (id: number, patch: Partial<NewEventRow>) =>
      (
        await db
          .update(events)
          .set({ ...patch, updatedUtc: nowUtc })
          .where(eq(events.id, id))
          .returning()
      )[0] ?? null,
    delete: async (id: number) => (await db.delete(events).where(eq(events.id, id)).returning({ id: events.id })).length > 0,
  };
}
export type EventsRepository = ReturnType<typeof eventsRepository>;
