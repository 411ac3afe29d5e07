import { sql, type SQL } from 'drizzle-orm';
import { jsonInts, queryRows, utcText, type Db } from '../../db/client';
import type { AttendeeCore } from '../../../shared/attendees';
import type { AttendeeTuple, SyncCategory } from '../../../shared/checkin';

/** A position in the change log; txid is an xid8 carried as decimal text (PGlite answers int8 as BigInt). */
export interface ChangePosition {
  txid: string;
  id: number;
}

export interface ChangeRow extends ChangePosition {
  entity: 'event' | 'attendee' | 'checkins';
  entityId: number;
  /** For `checkins`: the last id of the range `entityId`..`lastId` one statement inserted. */
  lastId: number | null;
  eventId: number;
  op: 'upsert' | 'delete';
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

interface AttendeeRowState extends AttendeeCore {
  codeHash: string;
  categoryId: number | null;
}

interface CheckinState {
  attendeeId: number;
  n: number;
  lastUtc: string | null;
  lastDevice: string | null;
  /** A check-in of the attendee carries again_elsewhere. */
  twoDoors: boolean;
}

const ATTENDEE_COLUMNS = sql.raw(
  `id, event_id as "eventId", display_name as "displayName", email, status, quantity, ticket_code_hash as "codeHash", ticket_category_id as "categoryId"`,
);

/**
 * Check-in count and latest check-in (time, device or user name) per attendee, for the
 * check-ins matching `scope`. Kept apart from the attendee query on purpose: two single-table
 * scans merged in memory cannot be turned into a quadratic join by stale planner statistics
 * (a joined version took 10 s for 20,000 attendees right after a bulk load).
 */
function checkinState(scope: SQL): SQL {
  return sql`select distinct on (c.attendee_id) c.attendee_id as "attendeeId", count(*) over (partition by c.attendee_id)::int as n,
                    bool_or(c.conflict = 'again_elsewhere') over (partition by c.attendee_id) as "twoDoors",
                    ${utcText(sql`c.scanned_utc`)} as "lastUtc", coalesce(d.name, nullif(u.display_name, ''), u.email) as "lastDevice"
             from svc_checkins c
             left join svc_devices d on d.id = c.device_id
             left join svc_users u on u.id = c.user_id
             where c.annulled_utc is null and ${scope}
             order by c.attendee_id, c.scanned_utc desc, c.id desc`;
}

function toTuples(rows: AttendeeRowState[], states: CheckinState[]): AttendeeTuple[] {
  const byAttendee = new Map(states.map((s) => [Number(s.attendeeId), s]));
  return rows.map((r) => {
    const s = byAttendee.get(r.id);
    return [
      r.id,
      r.eventId,
      r.displayName,
      r.email,
      r.status,
      r.quantity,
      r.codeHash,
      s?.n ?? 0,
      s?.lastUtc ?? null,
      s?.lastDevice ?? null,
      s?.twoDoors ? 'again_elsewhere' : null,
      r.categoryId,
    ];
  });
}

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
        sql`select txid::text as txid, id::int8 as id, entity, entity_id as "entityId", last_id as "lastId", event_id as "eventId", op
            from svc_changes
            where event_id in ${jsonInts(eventIds)}
              and (txid, id) > (${after.txid}::xid8, ${after.id}::int8)
              and txid < ${xmin}::xid8
            order by txid, id
            limit ${limit}`,
      ).then((rows) =>
        rows.map((r) => ({
          ...r,
          id: Number(r.id),
          entityId: Number(r.entityId),
          lastId: r.lastId === null ? null : Number(r.lastId),
          eventId: Number(r.eventId),
        })),
      ),

    /** The attendees of the check-ins in each logged range (by `index` of the range), one primary-key range scan each. */
    async attendeesOfCheckinRanges(
      ranges: Array<{ index: number; eventId: number; firstId: number; lastId: number }>,
    ): Promise<Array<{ index: number; attendeeId: number }>> {
      if (ranges.length === 0) return [];
      const rows = await queryRows<{ index: number; attendeeId: number }>(
        db,
        sql`select distinct r.index, c.attendee_id as "attendeeId"
            from jsonb_to_recordset(${JSON.stringify(ranges)}::jsonb) as r(index int, "eventId" int, "firstId" int, "lastId" int)
            join svc_checkins c on c.id between r."firstId" and r."lastId" and c.event_id = r."eventId"`,
      );
      return rows.map((r) => ({ index: Number(r.index), attendeeId: Number(r.attendeeId) }));
    },

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
      const [rows, states] = await Promise.all([
        queryRows<AttendeeRowState>(db, sql`select ${ATTENDEE_COLUMNS} from svc_attendees where id in ${jsonInts(ids)} order by id`),
        queryRows<CheckinState>(db, checkinState(sql`c.attendee_id in ${jsonInts(ids)}`)),
      ]);
      return toTuples(rows, states);
    },

    /** The attendee with this ticket code hash (its state as pull answers it), or null. */
    async attendeeByCodeHash(codeHash: string): Promise<AttendeeTuple | null> {
      const rows = await queryRows<AttendeeRowState>(db, sql`select ${ATTENDEE_COLUMNS} from svc_attendees where ticket_code_hash = ${codeHash} limit 1`);
      if (rows.length === 0) return null;
      const states = await queryRows<CheckinState>(db, checkinState(sql`c.attendee_id = ${rows[0]!.id}`));
      return toTuples(rows, states)[0]!;
    },

    /** How many attendees an event has (the first download page says it). */
    async attendeeCount(eventId: number): Promise<number> {
      const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from svc_attendees where event_id = ${eventId}`);
      return Number(row!.n);
    },

    /** One keyset page of an event's attendees for the first download. */
    async attendeePage(eventId: number, afterId: number, limit: number): Promise<AttendeeTuple[]> {
      const rows = await queryRows<AttendeeRowState>(
        db,
        sql`select ${ATTENDEE_COLUMNS} from svc_attendees where event_id = ${eventId} and id > ${afterId} order by id limit ${limit}`,
      );
      if (rows.length === 0) return [];
      const states = await queryRows<CheckinState>(
        db,
        checkinState(sql`c.event_id = ${eventId} and c.attendee_id > ${afterId} and c.attendee_id <= ${rows[rows.length - 1]!.id}`),
      );
      return toTuples(rows, states);
    },

    /** The ticket categories of these events (the door names them on verdicts and counts by them). */
    categoriesOfEvents: (eventIds: number[]) =>
      eventIds.length === 0
        ? Promise.resolve([] as SyncCategory[])
        : queryRows<SyncCategory>(
            db,
            sql`select id, event_id as "eventId", name, position from svc_ticket_categories where event_id in ${jsonInts(eventIds)} order by event_id, position, id`,
          ),

    eventsByIds: (ids: number[]) =>
      ids.length === 0
        ? Promise.resolve([] as EventState[])
        : queryRows<EventState>(
            db,
            sql`select id, title, ${utcText(sql`starts_utc`)} as "startsUtc", ${utcText(sql`ends_utc`)} as "endsUtc", timezone, venue, status, capacity
                from svc_events where id in ${jsonInts(ids)} order by id`,
          ),
  };
}
export type SyncRepository = ReturnType<typeof syncRepository>;
