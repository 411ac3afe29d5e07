import { and, desc, eq, getTableColumns, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { Logger } from 'pino';
import { jsonInts, jsonTexts, queryRows, utcText, type Db } from '../../db/client';
import { nowUtc } from '../../db/columns';
import { attendees } from '../attendees/attendees.sql';
import { holdActionsSql, type CheckedIn } from './checkin.actions';
import { checkins, scanLog } from './checkin.sql';

/**
 * A re-entry: the attendee had an earlier check-in at the event, not annulled (scan time, then id).
 * Spelled with the table's name: drizzle leaves select-list columns unqualified, which the subquery would misread.
 */
const REPEAT_ENTRY = sql<boolean>`exists (select 1 from svc_checkins p
    where p.event_id = svc_checkins.event_id and p.attendee_id = svc_checkins.attendee_id and p.annulled_utc is null
      and (p.scanned_utc, p.id) < (svc_checkins.scanned_utc, svc_checkins.id))`.mapWith(Boolean);

export type CheckinRecord = typeof checkins.$inferSelect;

/** A check-in row to insert; `createdUtc` is the server's clock. */
export interface NewCheckin {
  attendeeId: number;
  eventId: number;
  scannedUtc: string;
  deviceId: number | null;
  userId: number | null;
  clientId: string;
  source: string;
  conflict: string | null;
  /** The door judged it a first entry (`ok`) while offline (docs/api.md#sync, again_elsewhere). */
  firstEntry?: boolean;
}

export interface NewScanLogEntry {
  eventId: number | null;
  attendeeId: number | null;
  deviceId: number | null;
  userId: number | null;
  codeHash: string | null;
  reason: string;
  verdictOnDevice: string | null;
  clientId: string;
  source: string;
  scannedUtc: string;
}

export interface AttendeeForPush {
  id: number;
  eventId: number;
  status: string;
  codeHash: string;
  updatedUtc: string;
  /** The ticket category; null = the event's implicit single category. */
  categoryId: number | null;
}

export interface LastCheckin {
  checkinId: number;
  scannedUtc: string;
  deviceId: number | null;
  deviceName: string | null;
}

export interface AttendeeCheckinStats {
  count: number;
  lastUtc: string | null;
}

/**
 * Both drivers: one JSON parameter carries a whole batch, each row an array in this column order
 * (half the bytes of keyed objects, and cheaper for PostgreSQL to take apart).
 */
function checkinJson(rows: NewCheckin[]): string {
  return JSON.stringify(
    rows.map((r) => [r.attendeeId, r.eventId, r.scannedUtc, r.deviceId, r.userId, r.clientId, r.source, r.conflict, r.firstEntry === true]),
  );
}

const sameDevice = (column: typeof checkins.deviceId | typeof scanLog.deviceId, deviceId: number | null): SQL =>
  deviceId === null ? isNull(column) : eq(column, deviceId);

/**
 * The statement's CTE that flags other doors' first entries (docs/api.md#sync, again_elsewhere):
 * two doors admitted one ticket while apart and the other door's first entry is later than this
 * push's earliest (the other order is caught before the insert). The update's snapshot does not
 * see the batch (`ins`), so it never touches the batch's own rows. The earliest times are one
 * JSON object probed per row, not a join: the planner cannot estimate the CTE's rows and joined
 * them in a nested loop, every pushed row × every earlier row of these attendees (125 ms a
 * batch of 500 once a door had scanned them twice).
 */
const againElsewhereSql = (deviceId: number): SQL => sql`elsewhere as (
    update ${checkins} c set conflict = 'again_elsewhere'
    from (select jsonb_object_agg(attendee_id, scanned_utc) as firsts
          from (select attendee_id, min(scanned_utc) as scanned_utc from ins where first_entry group by attendee_id) f) n
    where c.attendee_id = any(array(select attendee_id from ins where first_entry))
      and c.first_entry and c.annulled_utc is null and c.conflict is null
      and c.device_id is not null and c.device_id <> ${deviceId}
      and c.scanned_utc > (n.firsts ->> c.attendee_id::text)::timestamp
    returning c.id),`;

/** Queries only; the rules live in checkin.service.ts and sync.service.ts. */
export function checkinRepository(db: Db, logger?: Logger) {
  return {
    /**
     * Contract "check-in insert fails": the new row's id, or 0 when the insert fails — and 0
     * too when (device, clientId) already exists, so the caller looks the original up.
     */
    async insert(row: NewCheckin): Promise<number> {
      try {
        const inserted = await db
          .insert(checkins)
          .values(row)
          .onConflictDoNothing({ target: [checkins.deviceId, checkins.clientId] })
          .returning({ id: checkins.id });
        return inserted[0]?.id ?? 0;
      } catch (err) {
        logger?.error({ err, attendeeId: row.attendeeId, eventId: row.eventId }, 'check-in insert failed');
        return 0;
      }
    },

    /**
     * One statement for a whole batch of one author's rows (one push). Returns the rows actually
     * inserted (a clientId already stored, even by a concurrent push, is left out: the unique
     * constraint decides) and the job
     * holding their actions (checkin.actions.ts; null when none was inserted), or null when the
     * statement failed — then nothing of the batch was stored.
     */
    async insertMany(rows: NewCheckin[]): Promise<{ inserted: Array<{ id: number; clientId: string }>; jobId: number | null } | null> {
      if (rows.length === 0) return { inserted: [], jobId: null };
      const deviceId = rows[0]!.deviceId;
      if (rows.some((r) => r.deviceId !== deviceId)) throw new Error('insertMany takes one author’s rows');
      try {
        const result = await queryRows<{ id: number; clientId: string; jobId: number | null }>(
          db,
          sql`with ins as (
                insert into ${checkins} (attendee_id, event_id, scanned_utc, device_id, user_id, client_id, source, conflict, first_entry)
                select (r->>0)::int, (r->>1)::int, (r->>2)::timestamp, (r->>3)::int, (r->>4)::int, (r->>5)::uuid, r->>6, r->>7, (r->>8)::boolean
                from jsonb_array_elements(${checkinJson(rows)}::jsonb) as r
                on conflict on constraint svc_checkins_device_client do nothing
                returning id, client_id, attendee_id, event_id, scanned_utc, device_id, first_entry),
              ${deviceId === null ? sql`` : againElsewhereSql(deviceId)}
              held as (${holdActionsSql(sql`(select jsonb_agg(jsonb_build_array(id, attendee_id, event_id) order by id) from ins)`, sql`exists (select 1 from ins)`)})
              select ins.id, ins.client_id::text as "clientId", (select id from held) as "jobId" from ins`,
        );
        return { inserted: result.map(({ id, clientId }) => ({ id, clientId })), jobId: result[0]?.jobId ?? null };
      } catch (err) {
        logger?.error({ err, rows: rows.length }, 'check-in batch insert failed');
        return null;
      }
    },

    /** The job holding these rows' actions, written with them (in their transaction). */
    async holdActions(rows: CheckedIn[]): Promise<number> {
      const [held] = await queryRows<{ id: number }>(db, holdActionsSql(sql`${JSON.stringify(rows)}::jsonb`));
      return held!.id;
    },

    /** Existing check-ins of one device (null = no device) for these client ids. */
    async findByClientIds(deviceId: number | null, clientIds: string[]): Promise<Array<{ id: number; clientId: string }>> {
      if (clientIds.length === 0) return [];
      return queryRows<{ id: number; clientId: string }>(
        db,
        sql`select id, client_id::text as "clientId" from ${checkins}
            where ${sameDevice(checkins.deviceId, deviceId)}
              and client_id in (select value::uuid from jsonb_array_elements_text(${JSON.stringify(clientIds)}::jsonb))`,
      );
    },

    findById: async (id: number) => (await db.select().from(checkins).where(eq(checkins.id, id)))[0] ?? null,

    /** The attendee a scanned code belongs to (by the unique SHA-256 of the code). */
    findAttendeeByCodeHash: async (codeHash: string) => (await db.select().from(attendees).where(eq(attendees.ticketCodeHash, codeHash)))[0] ?? null,

    /** The attendee's latest check-in not annulled, optionally before a given row. */
    async lastForAttendee(attendeeId: number, beforeId?: number): Promise<LastCheckin | null> {
      const rows = await queryRows<LastCheckin>(
        db,
        sql`select c.id as "checkinId", to_char(c.scanned_utc, 'YYYY-MM-DD HH24:MI:SS') as "scannedUtc", c.device_id as "deviceId",
                   coalesce(d.name, nullif(u.display_name, ''), u.email) as "deviceName"
            from ${checkins} c
            left join svc_devices d on d.id = c.device_id
            left join svc_users u on u.id = c.user_id
            where c.attendee_id = ${attendeeId} and c.annulled_utc is null ${beforeId === undefined ? sql`` : sql`and c.id < ${beforeId}`}
            order by c.id desc limit 1`,
      );
      return rows[0] ?? null;
    },

    /** Count and latest scan time of check-ins not annulled, for many attendees in one query. */
    async statsForAttendees(attendeeIds: number[]): Promise<Map<number, AttendeeCheckinStats>> {
      const stats = new Map<number, AttendeeCheckinStats>();
      if (attendeeIds.length === 0) return stats;
      const rows = await queryRows<{ attendeeId: number; count: number; lastUtc: string | null }>(
        db,
        sql`select attendee_id as "attendeeId", count(*)::int as count, to_char(max(scanned_utc), 'YYYY-MM-DD HH24:MI:SS') as "lastUtc"
            from ${checkins}
            where annulled_utc is null
              and attendee_id in (select value::int from jsonb_array_elements_text(${JSON.stringify(attendeeIds)}::jsonb))
            group by attendee_id`,
      );
      for (const r of rows) stats.set(r.attendeeId, { count: r.count, lastUtc: r.lastUtc });
      return stats;
    },

    /** Per-attendee figures for the admin table; only rows of `eventId` count. */
    async statsOfEventAttendees(eventId: number, attendeeIds: number[]) {
      if (attendeeIds.length === 0) return [];
      return queryRows<{ attendeeId: number; checkinCount: number; lastCheckinUtc: string | null; conflicts: number }>(
        db,
        sql`select attendee_id as "attendeeId", count(*)::int as "checkinCount",
                   to_char(max(scanned_utc), 'YYYY-MM-DD HH24:MI:SS') as "lastCheckinUtc",
                   count(*) filter (where conflict is not null)::int as conflicts
            from ${checkins}
            where event_id = ${eventId} and annulled_utc is null
              and attendee_id in (select value::int from jsonb_array_elements_text(${JSON.stringify(attendeeIds)}::jsonb))
            group by attendee_id`,
      );
    },

    /** Check-ins not annulled per `bucketMinutes` of scan time, the latest `maxBuckets` non-empty buckets, oldest first. */
    async arrivals(eventId: number, bucketMinutes: number, maxBuckets: number) {
      const width = bucketMinutes * 60;
      // floor(epoch / width): the same bucket on PostgreSQL 15 and PGlite, no date_bin origin to agree on
      return queryRows<{ startUtc: string; scans: number }>(
        db,
        sql`select to_char(to_timestamp(b.bucket * ${width}) at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') as "startUtc", b.scans
            from (
              select floor(extract(epoch from scanned_utc) / ${width})::bigint as bucket, count(*)::int as scans
              from ${checkins}
              where event_id = ${eventId} and annulled_utc is null
              group by 1 order by 1 desc limit ${maxBuckets}
            ) b
            order by b.bucket`,
      );
    },

    /**
     * Going and checked-in figures per ticket category of the event (its categories in their order,
     * each even without attendees), then one row (category null) for going attendees without a
     * category when the event has categories. Nothing for an event without categories.
     */
    async countsByCategory(eventId: number) {
      const rows = await queryRows<{
        categoryId: number | null;
        name: string | null;
        attendeesGoing: number;
        seatsGoing: number;
        checkedIn: number;
        seatsCheckedIn: number;
        pos: number | null;
      }>(
        db,
        sql`with going as (
              select a.ticket_category_id as category_id, a.quantity,
                     exists (select 1 from ${checkins} c where c.attendee_id = a.id and c.annulled_utc is null) as checked_in
              from svc_attendees a where a.event_id = ${eventId} and a.status in ('going', '')),
            cats as (select id, name, position from svc_ticket_categories where event_id = ${eventId}),
            figures as (
              select category_id, count(*)::int as "attendeesGoing", coalesce(sum(quantity), 0)::int as "seatsGoing",
                     count(*) filter (where checked_in)::int as "checkedIn",
                     coalesce(sum(quantity) filter (where checked_in), 0)::int as "seatsCheckedIn"
              from going group by category_id)
            select k.id as "categoryId", k.name, coalesce(f."attendeesGoing", 0) as "attendeesGoing", coalesce(f."seatsGoing", 0) as "seatsGoing",
                   coalesce(f."checkedIn", 0) as "checkedIn", coalesce(f."seatsCheckedIn", 0) as "seatsCheckedIn", k.position as pos
            from cats k left join figures f on f.category_id = k.id
            union all
            select null, null, sum(f."attendeesGoing")::int, sum(f."seatsGoing")::int, sum(f."checkedIn")::int, sum(f."seatsCheckedIn")::int, null
            from figures f where (f.category_id is null or f.category_id not in (select id from cats)) and exists (select 1 from cats)
            having count(*) > 0
            order by pos nulls last, "categoryId"`,
      );
      return rows.map(({ pos: _pos, ...row }) => row);
    },

    async counts(eventId: number) {
      const [row] = await queryRows<{
        attendeesGoing: number;
        seatsGoing: number;
        checkedIn: number;
        seatsCheckedIn: number;
        seatsWaitlisted: number;
        scans: number;
        conflicts: number;
        annulled: number;
        rejectedScans: number;
      }>(
        db,
        sql`select
              (select count(*)::int from svc_attendees where event_id = ${eventId} and status in ('going', '')) as "attendeesGoing",
              (select coalesce(sum(quantity), 0)::int from svc_attendees where event_id = ${eventId} and status in ('going', '')) as "seatsGoing",
              -- the same people on both sides of "checked in / going": going attendees with a check-in
              (select count(*)::int from svc_attendees a where a.event_id = ${eventId} and a.status in ('going', '')
                 and exists (select 1 from ${checkins} c where c.attendee_id = a.id and c.annulled_utc is null)) as "checkedIn",
              -- the dashboard's figures are seats: the same going attendees, each counted with its quantity
              (select coalesce(sum(a.quantity), 0)::int from svc_attendees a where a.event_id = ${eventId} and a.status in ('going', '')
                 and exists (select 1 from ${checkins} c where c.attendee_id = a.id and c.annulled_utc is null)) as "seatsCheckedIn",
              (select coalesce(sum(quantity), 0)::int from svc_attendees where event_id = ${eventId} and status = 'waitlist') as "seatsWaitlisted",
              count(*) filter (where annulled_utc is null)::int as scans,
              count(*) filter (where annulled_utc is null and conflict is not null)::int as conflicts,
              count(*) filter (where annulled_utc is not null)::int as annulled,
              (select count(*)::int from ${scanLog} where event_id = ${eventId}) as "rejectedScans"
            from ${checkins} where event_id = ${eventId}`,
      );
      return row!;
    },

    async list(filter: { eventId: number; attendeeId?: number; conflicts?: boolean }, limit: number, offset: number) {
      const where = and(
        eq(checkins.eventId, filter.eventId),
        filter.attendeeId !== undefined ? eq(checkins.attendeeId, filter.attendeeId) : undefined,
        filter.conflicts === true ? isNotNull(checkins.conflict) : filter.conflicts === false ? isNull(checkins.conflict) : undefined,
      );
      const [rows, [count]] = await Promise.all([
        db
          .select({ ...getTableColumns(checkins), repeat: REPEAT_ENTRY })
          .from(checkins)
          .where(where)
          .orderBy(desc(checkins.id))
          .limit(limit)
          .offset(offset),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(checkins)
          .where(where),
      ]);
      return { rows, total: count!.n };
    },

    /** Marks a check-in annulled (kept, no longer counted); null when missing or already annulled. */
    annul: async (id: number, userId: number | null) =>
      (
        await db
          .update(checkins)
          .set({ annulledUtc: nowUtc, annulledBy: userId })
          .where(and(eq(checkins.id, id), isNull(checkins.annulledUtc)))
          .returning()
      )[0] ?? null,

    /** Refused scans; a resent one (same device and clientId) is kept once. */
    async logRejected(entries: NewScanLogEntry[]): Promise<void> {
      if (entries.length === 0) return;
      await db
        .insert(scanLog)
        .values(entries)
        .onConflictDoNothing({ target: [scanLog.deviceId, scanLog.clientId] });
    },

    /** Attendees matching the scanned code hashes or the ids the device sent (one index look-up per value). */
    /** The events of these ticket categories (a check-in list's events, docs/decisions/029-check-in-lists.md). */
    async eventsOfCategories(categoryIds: number[]): Promise<number[]> {
      if (categoryIds.length === 0) return [];
      const rows = await queryRows<{ eventId: number }>(
        db,
        sql`select distinct event_id as "eventId" from svc_ticket_categories where id in ${jsonInts(categoryIds)}`,
      );
      return rows.map((r) => Number(r.eventId));
    },

    async attendeesForPush(codeHashes: string[], ids: number[]): Promise<AttendeeForPush[]> {
      const select = (where: SQL) =>
        sql`select id, event_id as "eventId", status, ticket_code_hash as "codeHash", ${utcText(sql`updated_utc`)} as "updatedUtc",
                   ticket_category_id as "categoryId" from svc_attendees where ${where}`;
      const byHash = select(sql`ticket_code_hash in ${jsonTexts(codeHashes)}`);
      const byId = select(sql`id in ${jsonInts(ids)}`);
      if (codeHashes.length === 0 && ids.length === 0) return [];
      // a union, not an OR: each side stays an index look-up
      return queryRows<AttendeeForPush>(db, ids.length === 0 ? byHash : codeHashes.length === 0 ? byId : sql`${byHash} union ${byId}`);
    },

    /**
     * After a push committed: flags the later of two doors' first entries of these attendees that
     * concurrent pushes left unflagged (docs/api.md#sync, again_elsewhere). Each push decided with
     * a snapshot that could not see the other's uncommitted rows; this statement runs after its own
     * push's commit, so the push committing last sees both. The two rules of the push, with ids for
     * "synced first": a first entry is flagged when another door's check-in stored before it is not
     * later, or another door's first entry stored after it is earlier. Answers the flagged ids.
     */
    async flagConcurrentTwoDoors(attendeeIds: number[]): Promise<number[]> {
      if (attendeeIds.length === 0) return [];
      // The attendees' live door check-ins once, through the attendee index by an id array (a join
      // on the JSON list was planned as a scan of the whole table per row); pairs are looked for
      // only among attendees that more than one door let in, none in the common case.
      const rows = await queryRows<{ id: number }>(
        db,
        sql`with cand as materialized (
              select id, attendee_id, device_id, scanned_utc, first_entry, conflict from ${checkins}
              where attendee_id = any(array(select value::int from jsonb_array_elements_text(${JSON.stringify(attendeeIds)}::jsonb)))
                and annulled_utc is null and device_id is not null),
            two_doors as materialized (select attendee_id from cand group by attendee_id having min(device_id) <> max(device_id)),
            later as (
              select c.id from cand c join two_doors using (attendee_id)
              where c.first_entry and c.conflict is null
                and exists (select 1 from cand o
                            where o.attendee_id = c.attendee_id and o.device_id <> c.device_id
                              and ((o.id < c.id and o.scanned_utc <= c.scanned_utc)
                                or (o.id > c.id and o.first_entry and o.scanned_utc < c.scanned_utc))))
            update ${checkins} t set conflict = 'again_elsewhere' from later
            where t.id = later.id and t.conflict is null and t.annulled_utc is null
            returning t.id`,
      );
      return rows.map((r) => Number(r.id));
    },

    /**
     * Per attendee, the earliest check-in (not annulled) made on a door other than `deviceId`:
     * an offline first entry at or after it means two doors admitted one ticket while apart.
     */
    async earliestElsewhere(attendeeIds: number[], deviceId: number): Promise<Map<number, string>> {
      const found = new Map<number, string>();
      if (attendeeIds.length === 0) return found;
      const rows = await queryRows<{ attendeeId: number; scannedUtc: string }>(
        db,
        sql`select attendee_id as "attendeeId", ${utcText(sql`min(scanned_utc)`)} as "scannedUtc" from ${checkins}
            where attendee_id in ${jsonInts(attendeeIds)} and annulled_utc is null and device_id is not null and device_id <> ${deviceId}
            group by attendee_id`,
      );
      for (const r of rows) found.set(r.attendeeId, r.scannedUtc);
      return found;
    },

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
export type CheckinRepository = ReturnType<typeof checkinRepository>;
