/**
 * The door sync protocol (SPEC §6): push (queued scans, idempotent per device and clientId),
 * pull (deltas from the commit-ordered change log) and the compact first download.
 * Why the cursor never skips a late commit: docs/decisions/009-checkin-sync.md.
 */
import { AppError } from '../../../shared/errors';
import {
  isAdmitted,
  type Conflict,
  type DownloadInput,
  type DownloadResult,
  type ParsedPullInput,
  type SlotSnapshot,
  type PullResult,
  type PushInput,
  type PushItem,
  type PushItemResult,
  type SyncEvent,
} from '../../../shared/checkin';
import { toUtcDate, toUtcString } from '../../../shared/time';
import { bookingTypeService } from '../booking/booking-type.service';
import { slotService } from '../booking/slot.service';
import { assertEventAccess, type Principal } from '../../auth/principal';
import type { AppContext } from '../../context';
import { checkinRepository, type NewCheckin, type NewScanLogEntry } from '../checkin/checkin.repository';
import { fireCheckedIn, type CheckedIn } from '../checkin/checkin.actions';
import { checkinAuthor } from '../checkin/checkin.service';
import { devicesRepository } from '../devices/devices.repository';
import { syncRepository, type AttendeeForPush, type ChangePosition, type ChangeRow } from './sync.repository';

/** Changes older than this are pruned; a cursor from before the pruned range answers `reset`. */
export const DEFAULT_CHANGE_RETENTION_DAYS = 30;

export function parseCursor(cursor: string): ChangePosition {
  const [txid, id] = cursor.split(':');
  return { txid: txid!, id: Number(id) };
}
export const formatCursor = (p: ChangePosition) => `${p.txid}:${p.id}`;

function canScan(principal: Principal, eventId: number): boolean {
  return principal.role === 'administrator' || principal.eventIds === null || principal.eventIds.includes(eventId);
}

/** Conflict of an offline-admitted scan with the server's current row (null: none). */
function conflictOf(attendee: AttendeeForPush, scannedUtc: string): Conflict | null {
  if (attendee.status === 'going' || attendee.status === '') return null;
  if (attendee.status === 'waitlist') return 'waitlist';
  // No status-change time is stored; a row unchanged since before the scan was surely cancelled before it.
  return attendee.updatedUtc <= scannedUtc ? 'cancelled_before_scan' : 'cancelled';
}

/**
 * The leading changes of a page that stand for at most `limit` rows, and always at least one: a
 * `checkins` range stands for up to as many attendees as it spans, so a page of ranges stays
 * about `limit` attendees however many scans each push carried.
 */
function withinBudget(changes: ChangeRow[], limit: number): ChangeRow[] {
  let weight = 0;
  for (let i = 0; i < changes.length; i++) {
    const ch = changes[i]!;
    weight += ch.entity === 'checkins' ? ch.lastId! - ch.entityId + 1 : 1;
    if (weight > limit && i > 0) return changes.slice(0, i);
  }
  return changes;
}

export function syncService(ctx: AppContext) {
  const { db, logger } = ctx;
  const repo = syncRepository(db);
  const checkins = checkinRepository(db, logger);

  /** Per change index: the attendees whose check-ins a `checkins` range holds. */
  async function checkinRangeAttendees(changes: ChangeRow[]): Promise<Map<number, number[]>> {
    const ranges = changes.flatMap((ch, index) => (ch.entity === 'checkins' ? [{ index, eventId: ch.eventId, firstId: ch.entityId, lastId: ch.lastId! }] : []));
    const byIndex = new Map<number, number[]>();
    for (const { index, attendeeId } of await repo.attendeesOfCheckinRanges(ranges)) {
      const list = byIndex.get(index);
      if (list) list.push(attendeeId);
      else byIndex.set(index, [attendeeId]);
    }
    return byIndex;
  }

  async function reportPending(principal: Principal, pending: number | undefined): Promise<void> {
    if (principal.deviceId !== undefined && pending !== undefined) await devicesRepository(db).reportPending(principal.deviceId, pending);
  }

  function toSyncEvent(e: SyncEvent): SyncEvent {
    return { id: e.id, title: e.title, startsUtc: e.startsUtc, endsUtc: e.endsUtc, timezone: e.timezone, venue: e.venue, status: e.status, capacity: e.capacity };
  }

  // Booking types and slots are few and change with every booking anywhere, so pull answers
  // them as snapshots when asked (offline booking pages show their age), not as deltas.
  async function publishedBookingTypes() {
    const types = bookingTypeService(ctx);
    const items = [];
    for (let page = 1; ; page++) {
      const { items: batch, total } = await types.list({ publicView: true, page, perPage: 500 });
      items.push(...batch);
      if (items.length >= total || batch.length === 0) return items;
    }
  }

  async function slotSnapshots(typeIds: number[], days: number, tz: string | undefined): Promise<SlotSnapshot[]> {
    const types = bookingTypeService(ctx);
    const slotsOf = slotService(ctx);
    const nowMs = Date.now();
    const from = toUtcDate(nowMs);
    const to = toUtcDate(nowMs + (days - 1) * 86_400_000);
    const snapshots: SlotSnapshot[] = [];
    for (const bookingTypeId of [...new Set(typeIds)]) {
      const type = await types.getRow(bookingTypeId, { publicView: true }).catch((err: unknown) => {
        if (err instanceof AppError && err.code === 'svc_not_found') return null;
        throw err;
      });
      if (!type) continue;
      snapshots.push({ bookingTypeId, asOfUtc: toUtcString(nowMs), slots: await slotsOf.listForDisplay(type, { from, to, tz }, nowMs) });
    }
    return snapshots;
  }

  return {
    /**
     * Stores a batch of queued scans in a handful of statements. Offline-admitted scans are
     * stored "forced" — with `conflict` set when the server disagrees — so nobody who got in
     * is lost; refusals go to the scan log. Idempotent on (device, clientId): a resent or
     * concurrently pushed item answers `duplicate` with the original checkinId (the unique
     * constraint decides). svc_pro_attendee_checked_in fires once per inserted row, after commit.
     */
    async push(input: PushInput, principal: Principal): Promise<{ results: PushItemResult[] }> {
      const author = checkinAuthor(principal);
      const firstOf = new Map<string, PushItem>();
      for (const item of input.items) if (!firstOf.has(item.clientId)) firstOf.set(item.clientId, item);
      const items = [...firstOf.values()];

      // No look-up of already stored scans first: the insert's ON CONFLICT finds them, and only
      // the items it did not insert (or refused) are looked up — none in the common case.
      const settled = new Map<string, PushItemResult>();

      // The door sends the attendee's id beside the code hash: the hash says who it is; an id is
      // looked up only for items without a hash, and for the rest it tells a deleted attendee
      // from an unknown code.
      const hashes = [...new Set(items.flatMap((i) => (i.codeHash !== undefined ? [i.codeHash] : [])))];
      const ids = [...new Set(items.flatMap((i) => (i.codeHash === undefined && i.attendeeId !== undefined ? [i.attendeeId] : [])))];
      // the device's unsynced count is written beside the look-up, not after the batch
      const [found] = await Promise.all([repo.attendeesForPush(hashes, ids), reportPending(principal, input.pending)]);
      const byHash = new Map(found.map((a) => [a.codeHash, a]));
      const byId = new Map(found.map((a) => [a.id, a]));
      const attendeeOf = (i: PushItem) => (i.codeHash !== undefined ? byHash.get(i.codeHash) : byId.get(i.attendeeId!));
      // An attendee found in the item's event proves the event exists (attendees go with their
      // event), so in the common case no event is looked up at all.
      const liveEvents = new Set(items.filter((i) => attendeeOf(i)?.eventId === i.eventId).map((i) => i.eventId));
      const unprovenEvents = [...new Set(items.map((i) => i.eventId))].filter((id) => !liveEvents.has(id));
      const missingIds = items.filter((i) => isAdmitted(i.verdictOnDevice) && !attendeeOf(i) && i.attendeeId !== undefined).map((i) => i.attendeeId!);
      const [otherEvents, deleted] = await Promise.all([repo.existingEventIds(unprovenEvents), repo.deletedAttendees([...new Set(missingIds)])]);
      for (const id of otherEvents) liveEvents.add(id);

      const toInsert: NewCheckin[] = [];
      const rejected: NewScanLogEntry[] = [];
      const reject = (item: PushItem, reason: NewScanLogEntry['reason'], attendeeId: number | null) => {
        settled.set(item.clientId, { clientId: item.clientId, status: 'rejected', reason: reason as never });
        rejected.push({
          eventId: item.eventId,
          attendeeId,
          ...author,
          codeHash: item.codeHash ?? null,
          reason,
          verdictOnDevice: item.verdictOnDevice,
          clientId: item.clientId,
          source: item.source,
          scannedUtc: item.scannedUtc,
        });
      };
      for (const item of items) {
        const attendee = attendeeOf(item);
        if (!canScan(principal, item.eventId)) reject(item, 'forbidden', attendee?.id ?? null);
        else if (!liveEvents.has(item.eventId)) reject(item, 'unknown', null);
        else if (!isAdmitted(item.verdictOnDevice)) reject(item, item.verdictOnDevice, attendee?.id ?? null);
        else if (attendee && attendee.eventId !== item.eventId) reject(item, 'wrong_event', attendee.id);
        else if (attendee) toInsert.push(newCheckin(item, attendee.id, conflictOf(attendee, item.scannedUtc)));
        else if (item.attendeeId !== undefined && deleted.get(item.attendeeId) === item.eventId) toInsert.push(newCheckin(item, item.attendeeId, 'deleted'));
        else reject(item, 'unknown', null);
      }
      function newCheckin(item: PushItem, attendeeId: number, conflict: Conflict | null): NewCheckin {
        return { attendeeId, eventId: item.eventId, scannedUtc: item.scannedUtc, ...author, clientId: item.clientId, source: item.source, conflict };
      }

      async function settleDuplicates(clientIds: string[]): Promise<void> {
        for (const seen of await checkins.findByClientIds(author.deviceId, clientIds)) {
          settled.set(seen.clientId, { clientId: seen.clientId, status: 'duplicate', checkinId: seen.id });
        }
      }

      const stored = await checkins.insertMany(toInsert);
      const fired: CheckedIn[] = [];
      if (stored === null) {
        for (const row of toInsert) settled.set(row.clientId, { clientId: row.clientId, status: 'failed' });
      } else {
        const insertedIds = new Map(stored.inserted.map((r) => [r.clientId, r.id]));
        for (const row of toInsert) {
          const checkinId = insertedIds.get(row.clientId);
          if (checkinId === undefined) continue;
          settled.set(row.clientId, { clientId: row.clientId, status: 'inserted', checkinId, conflict: row.conflict as Conflict | null });
          fired.push([checkinId, row.attendeeId, row.eventId]);
        }
        // Not inserted: stored before (a resent batch) or by a concurrent push of the same scans.
        const notInserted = toInsert.filter((r) => !insertedIds.has(r.clientId)).map((r) => r.clientId);
        for (const clientId of notInserted) settled.set(clientId, { clientId, status: 'failed' });
        await settleDuplicates([...notInserted, ...rejected.map((r) => r.clientId)]);
      }
      // A refused item that was stored earlier (resent after the attendee was deleted, say) is a duplicate.
      const stillRejected = rejected.filter((r) => settled.get(r.clientId)?.status !== 'duplicate');
      await checkins.logRejected(stillRejected);

      // in checkinId order, as the held job lists them
      fired.sort((a, b) => a[0] - b[0]);
      await fireCheckedIn(ctx, stored?.jobId ?? null, fired);
      return { results: input.items.map((i) => settled.get(i.clientId)!) };
    },

    /**
     * Deltas since `cursor` for the followed events, state-based: the current row of every
     * changed event and attendee, and tombstones for rows that are gone. Only changes of
     * finished transactions are read (below the snapshot's xmin), so a transaction that
     * commits late is delayed, never skipped. A cursor from before the pruned history → reset.
     */
    async pull(input: ParsedPullInput, principal: Principal): Promise<PullResult> {
      for (const eventId of input.eventIds) assertEventAccess(principal, eventId);
      const after = parseCursor(input.cursor);
      const [pruned, xmin] = await Promise.all([repo.isBeforePruned(after), repo.snapshotXmin()]);
      if (pruned) return { reset: true };
      const eventIds = [...new Set(input.eventIds)];
      const fetched = await repo.changesAfter(eventIds, after, xmin, input.limit);
      const changes = withinBudget(fetched, input.limit);
      const hasMore = changes.length < fetched.length || fetched.length === input.limit;
      // Everything below xmin after the cursor was just read, so with no more pages the cursor
      // may jump to (xmin, 0): an idle device's cursor stays younger than the pruned history.
      const cursor = hasMore ? changes[changes.length - 1]! : BigInt(xmin) > BigInt(after.txid) ? { txid: xmin, id: 0 } : after;

      const eventChanges = new Map<number, 'upsert' | 'delete'>();
      const attendeeChanges = new Map<number, 'upsert' | 'delete'>();
      const checkedIn = await checkinRangeAttendees(changes);
      changes.forEach((ch, index) => {
        if (ch.entity === 'event') eventChanges.set(ch.entityId, ch.op);
        else if (ch.entity === 'attendee') attendeeChanges.set(ch.entityId, ch.op);
        else for (const attendeeId of checkedIn.get(index) ?? []) attendeeChanges.set(attendeeId, 'upsert');
      });
      const [events, attendees] = await Promise.all([
        repo.eventsByIds([...eventChanges].filter(([, op]) => op === 'upsert').map(([id]) => id)),
        repo.attendeesByIds([...attendeeChanges].filter(([, op]) => op === 'upsert').map(([id]) => id)),
      ]);
      const followed = new Set(eventIds);
      const liveEvents = new Set(events.map((e) => e.id));
      const liveAttendees = attendees.filter((a) => followed.has(a[1]));
      const liveAttendeeIds = new Set(liveAttendees.map((a) => a[0]));
      const [bookingTypes, slots] = await Promise.all([
        input.bookingTypes ? publishedBookingTypes() : undefined,
        input.slotTypeIds.length > 0 ? slotSnapshots(input.slotTypeIds, input.slotDays, input.slotTz) : undefined,
        reportPending(principal, input.pending),
      ]);
      return {
        reset: false,
        ...(bookingTypes ? { bookingTypes } : {}),
        ...(slots ? { slots } : {}),
        cursor: formatCursor(cursor),
        hasMore,
        events: events.map(toSyncEvent),
        attendees: liveAttendees,
        tombstones: {
          events: [...eventChanges.keys()].filter((id) => !liveEvents.has(id)),
          attendees: [...attendeeChanges.keys()].filter((id) => !liveAttendeeIds.has(id)),
        },
      };
    },

    /**
     * The compact first download of one event, page by page (attendees as tuples in
     * ATTENDEE_TUPLE_COLUMNS order). The first page carries the pull cursor, taken BEFORE the
     * page is read: whatever changes while the device pages through reaches it by pull
     * (possibly twice — the device upserts).
     */
    async download(input: DownloadInput, principal: Principal): Promise<DownloadResult> {
      assertEventAccess(principal, input.eventId);
      const cursor = input.afterId === 0 ? formatCursor({ txid: await repo.snapshotXmin(), id: 0 }) : null;
      const [event] = await repo.eventsByIds([input.eventId]);
      if (!event) throw new AppError('svc_not_found', 'No such event.');
      const rows = await repo.attendeePage(input.eventId, input.afterId, input.limit);
      const hasMore = rows.length === input.limit;
      return { cursor, event: toSyncEvent(event), attendees: rows, nextAfterId: rows.length > 0 ? rows[rows.length - 1]![0] : input.afterId, hasMore };
    },

    /** Retention job: drops changes older than `retentionDays`. */
    pruneChanges: (retentionDays: number, nowMs = Date.now()) => repo.prune(toUtcString(nowMs - retentionDays * 86_400_000)),
  };
}
export type SyncService = ReturnType<typeof syncService>;
