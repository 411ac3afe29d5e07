import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import type { AttendeeTuple } from '../../../shared/checkin';

/** A position in the change log; txid is an xid8 carried as decimal text (PGlite answers int8 as BigInt). */
export interface ChangePosition {
  txid: string;
  id: number;
}

export interface ChangeRow extends ChangePosition {
  entity: 'event' | 'attendee';
  entityId: number;
  eventId: number;
  op: 'upsert' | 'delete';
}

export interface AttendeeForPush {
  id: number;
  eventId: number;
  status: string;
  codeHash: string;
  updatedUtc: string;
}

export interface EventState {
  id: number;
  title: string;
  startsUtc: string;
  endsUtc: string | null;
  timezone: string;
  venue: string;
  status: string;
  capacity: number | null;
}

const jsonInts = (values: number[]) => sql`(select value::int from jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;
const jsonTexts = (values: string[]) => sql`(select value from jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;
const utcText = (column: SQL) => sql`to_char(${column}, 'YYYY-MM-DD HH24:MI:SS')`;

interface AttendeeStateRow {
  id: number;
  eventId: number;
  displayName: string;
  email: string;
  status: string;
  quantity: number;
  codeHash: string;
  checkinCount: number;
  lastCheckinUtc: string | null;
  lastCheckinDevice: string | null;
}

/**
 * Attendees of `page` (a subquery of svc_attendees rows) with their check-in count and last
 * check-in (time, device or user name), in one statement. `checkinScope` narrows the check-ins
 * read to those that can belong to the page (the event's, or the page's attendee ids).
 */
function attendeeState(page: SQL, checkinScope: SQL): SQL {
  return sql`with page as (${page}),
    counted as (
      select attendee_id, count(*)::int as n from svc_checkins c where c.annulled_utc is null and ${checkinScope} group by attendee_id),
    latest as (
      select distinct on (attendee_id) attendee_id, scanned_utc, device_id, user_id from svc_checkins c
      where c.annulled_utc is null and ${checkinScope} order by attendee_id, scanned_utc desc, id desc)
    select p.id, p.event_id as "eventId", p.display_name as "displayName", p.email, p.status, p.quantity, p.ticket_code_hash as "codeHash",
           coalesce(counted.n, 0) as "checkinCount", ${utcText(sql`latest.scanned_utc`)} as "lastCheckinUtc",
           coalesce(d.name, nullif(u.display_name, ''), u.email) as "lastCheckinDevice"
    from page p
    left join counted on counted.attendee_id = p.id
    left join latest on latest.attendee_id = p.id
    left join svc_devices d on d.id = latest.device_id
    left join svc_users u on u.id = latest.user_id
    order by p.id`;
}

const toTuple = (r: AttendeeStateRow): AttendeeTuple => [
  r.id,
  r.eventId,
  r.displayName,
  r.email,
  r.status,
  r.quantity,
  r.codeHash,
  r.checkinCount,
  r.lastCheckinUtc,
  r.lastCheckinDevice,
];

/** Queries only; the sync rules live in sync.service.ts. */
export function syncRepository(db: Db) {
  return {
    /**
     * The oldest transaction still running (xid8 as text): every change with a smaller txid is
     * committed or rolled back, so reading below it can never skip a row that commits later.
     */
    async snapshotXmin(): Promise<string> {
      const [row] = await queryRows<{ xmin: string }>(db, sql`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin`);
      return row!.xmin;
    },

    /** Changes of these events after `after`, in commit-safe order, only from finished transactions (below `xmin`). */
    changesAfter: (eventIds: number[], after: ChangePosition, xmin: string, limit: number) =>
      queryRows<ChangeRow>(
        db,
        sql`select txid::text as txid, id::int8 as id, entity, entity_id as "entityId", event_id as "eventId", op
            from svc_changes
            where event_id in ${jsonInts(eventIds)}
              and (txid, id) > (${after.txid}::xid8, ${after.id}::int8)
              and txid < ${xmin}::xid8
            order by txid, id
            limit ${limit}`,
      ).then((rows) => rows.map((r) => ({ ...r, id: Number(r.id), entityId: Number(r.entityId), eventId: Number(r.eventId) }))),

    /** True when changes after `position` were pruned: the caller must re-download. */
    async isBeforePruned(position: ChangePosition): Promise<boolean> {
      const [row] = await queryRows<{ before: boolean }>(
        db,
        sql`select (${position.txid}::xid8, ${position.id}::int8) < (pruned_txid, pruned_id) as before from svc_sync_state where id = 1`,
      );
      return row?.before === true;
    },

    /**
     * Deletes changes created before `cutoffUtc` (from finished transactions only) and raises
     * the pruned watermark to the newest deleted position, in one statement.
     */
    async prune(cutoffUtc: string): Promise<number> {
      const [row] = await queryRows<{ deleted: number }>(
        db,
        sql`with gone as (
              delete from svc_changes where created_utc < ${cutoffUtc} and txid < pg_snapshot_xmin(pg_current_snapshot()) returning txid, id),
            top as (select txid, id from gone order by txid desc, id desc limit 1),
            raised as (
              update svc_sync_state s set pruned_txid = top.txid, pruned_id = top.id from top
              where s.id = 1 and (top.txid, top.id) > (s.pruned_txid, s.pruned_id) returning 1)
            select (select count(*)::int from gone) as deleted`,
      );
      return Number(row?.deleted ?? 0);
    },

    /** Current state of these attendees (missing ids are simply absent). */
    async attendeesByIds(ids: number[]): Promise<AttendeeTuple[]> {
      if (ids.length === 0) return [];
      const rows = await queryRows<AttendeeStateRow>(
        db,
        attendeeState(sql`select * from svc_attendees where id in ${jsonInts(ids)}`, sql`c.attendee_id in ${jsonInts(ids)}`),
      );
      return rows.map(toTuple);
    },

    /** One keyset page of an event's attendees for the first download. */
    async attendeePage(eventId: number, afterId: number, limit: number): Promise<AttendeeTuple[]> {
      const rows = await queryRows<AttendeeStateRow>(
        db,
        attendeeState(
          sql`select * from svc_attendees where event_id = ${eventId} and id > ${afterId} order by id limit ${limit}`,
          sql`c.event_id = ${eventId} and c.attendee_id in (select id from page)`,
        ),
      );
      return rows.map(toTuple);
    },

    eventsByIds: (ids: number[]) =>
      ids.length === 0
        ? Promise.resolve([] as EventState[])
        : queryRows<EventState>(
            db,
            sql`select id, title, ${utcText(sql`starts_utc`)} as "startsUtc", ${utcText(sql`ends_utc`)} as "endsUtc", timezone, venue, status, capacity
                from svc_events where id in ${jsonInts(ids)} order by id`,
          ),

    /** Attendees matching the scanned code hashes or the ids the device sent, in two index look-ups. */
    attendeesForPush: (codeHashes: string[], ids: number[]) =>
      queryRows<AttendeeForPush>(
        db,
        sql`select id, event_id as "eventId", status, ticket_code_hash as "codeHash", ${utcText(sql`updated_utc`)} as "updatedUtc"
            from svc_attendees where ticket_code_hash in ${jsonTexts(codeHashes)}
            union
            select id, event_id, status, ticket_code_hash, ${utcText(sql`updated_utc`)}
            from svc_attendees where id in ${jsonInts(ids)}`,
      ),

    /** Deleted attendees among these ids, per the change log's tombstones (id → event). */
    async deletedAttendees(ids: number[]): Promise<Map<number, number>> {
      const deleted = new Map<number, number>();
      if (ids.length === 0) return deleted;
      const rows = await queryRows<{ id: number; eventId: number }>(
        db,
        sql`select distinct entity_id as id, event_id as "eventId" from svc_changes
            where entity = 'attendee' and op = 'delete' and entity_id in ${jsonInts(ids)}`,
      );
      for (const r of rows) deleted.set(Number(r.id), Number(r.eventId));
      return deleted;
    },

    async existingEventIds(ids: number[]): Promise<Set<number>> {
      if (ids.length === 0) return new Set();
      const rows = await queryRows<{ id: number }>(db, sql`select id from svc_events where id in ${jsonInts(ids)}`);
      return new Set(rows.map((r) => r.id));
    },
  };
}
export type SyncRepository = ReturnType<typeof syncRepository>;
