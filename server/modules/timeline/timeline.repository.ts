import { desc, eq, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import { nowUtc } from '../../db/columns';
import type { TimelineKind } from '../../../shared/timeline';
import { attendees } from '../attendees/attendees.sql';
import { checkins } from '../checkin/checkin.sql';
import { devices } from '../devices/devices.sql';
import { timelineEntries } from './timeline.sql';

export type TimelineRow = typeof timelineEntries.$inferSelect;

export function timelineRepository(db: Db) {
  return {
    async append(attendeeId: number, kind: TimelineKind, data: Record<string, unknown>): Promise<void> {
      await db.insert(timelineEntries).values({ attendeeId, kind, data });
    },

    /** One entry per ticket row of an order (paid, refunded), in one statement. */
    async appendForOrder(orderId: number, kind: TimelineKind): Promise<void> {
      await db.execute(
        sql`insert into ${timelineEntries} (attendee_id, kind, data)
            select id, ${kind}, jsonb_build_object('orderId', ${orderId}::int) from ${attendees} where order_id = ${orderId} order by id`,
      );
    },

    /**
     * A check-in, at the time of the scan, with the device's name. Held check-in actions fire at
     * least once (decision 009): a check-in already in the history is not written twice.
     */
    async appendCheckin(checkinId: number, attendeeId: number): Promise<void> {
      await db.execute(
        sql`insert into ${timelineEntries} (attendee_id, at_utc, kind, data)
            select ${attendeeId}, coalesce(c.scanned_utc, ${nowUtc}), 'checked_in',
              jsonb_build_object('checkinId', ${checkinId}::int, 'device', d.name, 'source', coalesce(c.source, ''))
            from (select 1) one
            left join ${checkins} c on c.id = ${checkinId}
            left join ${devices} d on d.id = c.device_id
            where not exists (
              select 1 from ${timelineEntries} t
              where t.attendee_id = ${attendeeId} and t.kind = 'checked_in' and t.data->>'checkinId' = ${String(checkinId)})`,
      );
    },

    /** The attendee's row (for the submitted entry's data), or null. */
    async attendee(id: number) {
      const [row] = await db.select({ status: attendees.status, quantity: attendees.quantity }).from(attendees).where(eq(attendees.id, id));
      return row ?? null;
    },

    /** Newest first: by the time it happened, then by insertion. */
    async list(attendeeId: number, limit: number, offset: number): Promise<{ rows: TimelineRow[]; total: number }> {
      const where = eq(timelineEntries.attendeeId, attendeeId);
      const [rows, [count]] = await Promise.all([
        db.select().from(timelineEntries).where(where).orderBy(desc(timelineEntries.atUtc), desc(timelineEntries.id)).limit(limit).offset(offset),
        queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${timelineEntries} where ${where}`),
      ]);
      return { rows, total: count!.n };
    },

    async wipe(attendeeId: number): Promise<void> {
      await db.delete(timelineEntries).where(eq(timelineEntries.attendeeId, attendeeId));
    },
  };
}
export type TimelineRepository = ReturnType<typeof timelineRepository>;
