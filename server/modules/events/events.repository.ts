import { and, asc, desc, eq, gte, ilike, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { builtOnce, type Db } from '../../db/client';
import { nowUtc } from '../../db/columns';
import { events, type EventStatus } from './events.sql';
import { attendees } from '../attendees/attendees.sql';
import { likePattern } from '../attendees/attendees.repository';
import { orders } from '../orders/payments.sql';

export type EventRow = typeof events.$inferSelect;
export type NewEventRow = typeof events.$inferInsert;

/** What a list keeps: a status, upcoming or past at `nowUtc`, words in the title. */
export interface EventListFilter {
  status?: EventStatus;
  when?: 'upcoming' | 'past';
  q?: string;
  nowUtc: string;
}

/** An event is over once its end, or its start when it has none, has passed. */
const endOrStart = sql`coalesce(${events.endsUtc}, ${events.startsUtc})`;

function listWhere(filter: EventListFilter): SQL | undefined {
  return and(
    filter.status ? eq(events.status, filter.status) : undefined,
    filter.when === 'upcoming' ? gte(endOrStart, filter.nowUtc) : undefined,
    filter.when === 'past' ? lt(endOrStart, filter.nowUtc) : undefined,
    filter.q ? ilike(events.title, likePattern(filter.q)) : undefined,
  );
}

/** Queries only; rules live in events.service.ts. */
/** One event by id (read on most requests about an event). */
const eventByIdQuery = builtOnce((db) =>
  db
    .select()
    .from(events)
    .where(eq(events.id, sql.placeholder('id')))
    .prepare('svc_event_by_id'),
);

/** The event row locked for the transaction (every sign-up of an event takes it). */
const eventLockQuery = builtOnce((db) =>
  db
    .select()
    .from(events)
    .where(eq(events.id, sql.placeholder('id')))
    .for('update')
    .prepare('svc_event_lock'),
);

export function eventsRepository(db: Db) {
  return {
    findById: async (id: number) => (await eventByIdQuery(db).execute({ id }))[0] ?? null,
    /** The event row locked until the transaction ends: sign-ups on one event decide seats one at a time. */
    lockById: async (id: number) => (await eventLockQuery(db).execute({ id }))[0] ?? null,
    /** By start time; past events the most recent first. */
    list: async (filter: EventListFilter, limit: number, offset: number) => {
      const where = listWhere(filter);
      const order = filter.when === 'past' ? [desc(events.startsUtc), desc(events.id)] : [asc(events.startsUtc), asc(events.id)];
      const [rows, [count]] = await Promise.all([
        db
          .select()
          .from(events)
          .where(where)
          .orderBy(...order)
          .limit(limit)
          .offset(offset),
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
