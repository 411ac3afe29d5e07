/**
 * The door sync protocol (docs/api.md#sync): push (queued scans, idempotent per device and clientId),
 * pull (deltas from the commit-ordered change log) and the compact first download.
 * Why the cursor never skips a late commit: docs/decisions/009-checkin-sync.md.
 * What a pushed scan becomes (stored, conflict, refused, duplicate) is the check-in module's
 * decision (`checkinService.recordOfflineScans`, and `walkInService.recordWalkIns` for walk-ins
 * registered at the door); this module only carries the batch.
 */
import { metricsOf } from '../../metrics';
import { AppError } from '../../../shared/errors';
import type {
  DownloadInput,
  DownloadResult,
  LookupInput,
  LookupResult,
  ParsedPullInput,
  SlotSnapshot,
  PullResult,
  PushInput,
  PushInputItem,
  PushItem,
  PushItemResult,
  PushResult,
  SyncEvent,
  WalkInPushItem,
} from '../../../shared/checkin';
import { toUtcDate, toUtcString } from '../../../shared/time';
import { bookingTypeService } from '../booking/booking-type.service';
import { slotService } from '../booking/slot.service';
import { assertEventAccess, type Principal } from '../../auth/principal';
import type { AppContext } from '../../context';
import { canScan, checkinService } from '../checkin/checkin.service';
import { walkInService } from '../checkin/walk-in.service';
import { devicesRepository } from '../devices/devices.repository';
import { syncRepository, type ChangePosition, type ChangeRow } from './sync.repository';

export function parseCursor(cursor: string): ChangePosition {
  const [txid, id] = cursor.split(':');
  return { txid: txid!, id: Number(id) };
}
export const formatCursor = (p: ChangePosition) => `${p.txid}:${p.id}`;

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
  const { db } = ctx;
  const repo = syncRepository(db);

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
    return {
      id: e.id,
      title: e.title,
      startsUtc: e.startsUtc,
      endsUtc: e.endsUtc,
      timezone: e.timezone,
      venue: e.venue,
      status: e.status,
      capacity: e.capacity,
    };
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
     * A batch of queued scans (≤ MAX_PUSH_BATCH): the check-in module decides and stores them,
     * one result per item in the order sent. The device's unsynced count is written beside
     * them (in parallel with the scans' look-ups), not after the batch.
     */
    async push(input: PushInput, principal: Principal): Promise<PushResult> {
      // walk-ins first: a walk-in is registered before anything else the door did after it
      const walkIns = input.items.filter((i): i is WalkInPushItem => i.kind === 'walk_in');
      const scans = input.items.filter((i): i is PushItem => i.kind !== 'walk_in');
      const walkInResults = await walkInService(ctx).recordWalkIns(walkIns, principal);
      const [scanResults] = await Promise.all([
        scans.length > 0 ? checkinService(ctx).recordOfflineScans(scans, principal) : [],
        reportPending(principal, input.pending),
      ]);
      const byItem = new Map<PushInputItem, PushItemResult>();
      walkIns.forEach((item, i) => byItem.set(item, walkInResults[i]!));
      scans.forEach((item, i) => byItem.set(item, scanResults[i]!));
      const results = input.items.map((item) => byItem.get(item)!);
      const counted = metricsOf(ctx).syncPushRows;
      for (const r of results) counted.inc({ result: r.status });
      return { results };
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
      const [bookingTypes, slots, categories] = await Promise.all([
        input.bookingTypes ? publishedBookingTypes() : undefined,
        input.slotTypeIds.length > 0 ? slotSnapshots(input.slotTypeIds, input.slotDays, input.slotTz) : undefined,
        repo.categoriesOfEvents(eventIds),
        reportPending(principal, input.pending),
      ]);
      return {
        reset: false,
        // snapshots, like booking types: a handful of rows, and the list works offline from the last one
        categories,
        checkinList: principal.categoryIds ?? null,
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
      const first = input.afterId === 0;
      const cursor = first ? formatCursor({ txid: await repo.snapshotXmin(), id: 0 }) : null;
      const [[event], total] = await Promise.all([repo.eventsByIds([input.eventId]), first ? repo.attendeeCount(input.eventId) : undefined]);
      if (!event) throw new AppError('svc_not_found', 'No such event.');
      const rows = await repo.attendeePage(input.eventId, input.afterId, input.limit);
      const hasMore = rows.length === input.limit;
      return {
        cursor,
        ...(total !== undefined ? { total } : {}),
        event: toSyncEvent(event),
        attendees: rows,
        nextAfterId: rows.length > 0 ? rows[rows.length - 1]![0] : input.afterId,
        hasMore,
      };
    },

    /**
     * One attendee by code hash, for a door whose list is still downloading: its tuple when the
     * caller may scan at its event, else null (an event the door does not follow is as unknown as
     * it would be on the door's complete list). Read-only: the door records the scan itself, so a
     * lookup answered or lost never adds or loses a check-in.
     */
    async lookup(input: LookupInput, principal: Principal): Promise<LookupResult> {
      assertEventAccess(principal, input.eventId);
      const attendee = await repo.attendeeByCodeHash(input.codeHash);
      return { attendee: attendee && canScan(principal, attendee[1]) ? attendee : null };
    },

    /** Retention job: drops changes older than `retentionDays`. */
    pruneChanges: (retentionDays: number, nowMs = Date.now()) => repo.prune(toUtcString(nowMs - retentionDays * 86_400_000)),
  };
}
export type SyncService = ReturnType<typeof syncService>;
