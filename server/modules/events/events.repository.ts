import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { nowUtc } from '../../db/columns';
import { events, type EventStatus } from './events.sql';

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
