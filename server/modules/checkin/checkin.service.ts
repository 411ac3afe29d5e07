/**
 * Every check-in decision: online check-in (POST /checkins, the admin app, the door online) and
 * the door's offline scans that sync.push delivers (`recordOfflineScans`; the sync module keeps
 * only the protocol), annulment, counts and the check-in list.
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '../../../shared/errors';
import {
  ARRIVAL_BUCKET_MINUTES,
  MAX_ARRIVAL_BUCKETS,
  checkinVerdict,
  listAdmits,
  type Arrivals,
  type CheckinList,
  type AttendeeCheckinStats,
  type CheckinStatsQuery,
  isAdmitted,
  type CheckinCounts,
  type CheckinDto,
  type CheckinInput,
  type CheckinListItem,
  type CheckinListQuery,
  type CheckinResult,
  type CheckinSource,
  type Conflict,
  type PushItem,
  type PushItemResult,
  type RefusalVerdict,
} from '../../../shared/checkin';
import { nowUtcString, utcMs } from '../../../shared/time';
import { assertEventAccess, type Principal } from '../../auth/principal';
import type { AppContext } from '../../context';
import { sha256Hex } from '../../security/crypto';
import { attendeesRepository, type AttendeeRecord } from '../attendees/attendees.repository';
import { eventsRepository } from '../events/events.repository';
import { categorySalesOfEvent } from '../orders/category-sales.service';
import { settingsService } from '../settings/settings.service';
import { checkinRepository, type AttendeeForPush, type CheckinRecord, type NewCheckin, type NewScanLogEntry } from './checkin.repository';
import { fireCheckedIn, type CheckedIn } from './checkin.actions';

/** The error code a refused scan answers with (docs/api.md#rest). */
export const REFUSAL_CODES: Record<RefusalVerdict, string> = {
  unknown: 'svc_ticket_unknown',
  cancelled: 'svc_ticket_cancelled',
  waitlist: 'svc_ticket_waitlist',
  wrong_event: 'svc_ticket_wrong_event',
  wrong_category: 'svc_ticket_wrong_category',
};

/** Door staff may undo their own mistaken scan for this long (UX "Undo"); administrators always. */
export const STAFF_UNDO_MINUTES = 15;

/** Who stored a check-in: the device token, or the signed-in user when there is no device. */
export function checkinAuthor(principal: Principal): { deviceId: number | null; userId: number | null } {
  return principal.deviceId !== undefined ? { deviceId: principal.deviceId, userId: null } : { deviceId: null, userId: principal.userId };
}

export function toCheckinDto(r: CheckinRecord): CheckinDto {
  return {
    id: r.id,
    attendeeId: r.attendeeId,
    eventId: r.eventId,
    scannedUtc: r.scannedUtc,
    createdUtc: r.createdUtc,
    deviceId: r.deviceId,
    userId: r.userId,
    clientId: r.clientId,
    source: r.source,
    conflict: r.conflict,
    annulledUtc: r.annulledUtc,
    annulledBy: r.annulledBy,
  };
}

/** Whether the caller may check people in at `eventId` (a refusal of a pushed item is `forbidden`). */
export function canScan(principal: Principal, eventId: number): boolean {
  return principal.role === 'administrator' || principal.eventIds === null || principal.eventIds.includes(eventId);
}

/** Conflict of an offline-admitted scan with the server's current row (null: none). */
function conflictOf(attendee: AttendeeForPush, scannedUtc: string): Conflict | null {
  if (attendee.status === 'going' || attendee.status === '') return null;
  if (attendee.status === 'waitlist') return 'waitlist';
  // No status-change time is stored; a row unchanged since before the scan was surely cancelled before it.
  return attendee.updatedUtc <= scannedUtc ? 'cancelled_before_scan' : 'cancelled';
}

class CheckinInsertFailed extends Error {}

/** The caller's check-in list (a door device's categories and their events); null: every ticket. */
async function checkinListOf(repo: ReturnType<typeof checkinRepository>, principal: Principal): Promise<CheckinList | null> {
  const categoryIds = principal.categoryIds ?? null;
  if (categoryIds === null) return null;
  return { categoryIds, eventIds: await repo.eventsOfCategories(categoryIds) };
}

export function checkinService(ctx: AppContext) {
  const { db, logger } = ctx;
  const repo = checkinRepository(db, logger);
  const attendees = attendeesRepository(db);

  /** The answer for a clientId seen before: the original row, with the verdict it had then. */
  async function originalResult(original: { id: number }): Promise<CheckinResult> {
    const row = (await repo.findById(original.id))!;
    const [previous, attendee] = await Promise.all([repo.lastForAttendee(row.attendeeId, row.id), attendees.findById(row.attendeeId)]);
    return {
      checkinId: row.id,
      attendeeId: row.attendeeId,
      eventId: row.eventId,
      verdict: previous ? 'again' : 'ok',
      displayName: attendee?.displayName ?? '',
      quantity: attendee?.quantity ?? 0,
      previous,
      duplicate: true,
    };
  }

  async function findAttendee(input: CheckinInput): Promise<{ attendee: AttendeeRecord | null; codeHash: string | null }> {
    if (input.ticketCode !== undefined) {
      const codeHash = sha256Hex(input.ticketCode);
      return { attendee: await repo.findAttendeeByCodeHash(codeHash), codeHash };
    }
    return { attendee: await attendees.findById(input.attendeeId!), codeHash: null };
  }

  return {
    /**
     * One online scan, decided by the server: ok/again insert a row (201) and fire
     * svc_pro_attendee_checked_in after commit; a refusal goes to the scan log and answers
     * its svc_ticket_* code. The attendee row is locked while deciding, so two doors scanning
     * one ticket at once get `ok` and `again`, never two `ok`s. A repeated clientId answers
     * the original check-in (200).
     */
    async checkIn(input: CheckinInput, principal: Principal, source: CheckinSource = 'rest'): Promise<{ created: boolean; result: CheckinResult }> {
      assertEventAccess(principal, input.eventId);
      const author = checkinAuthor(principal);
      if (input.clientId !== undefined) {
        const [seen] = await repo.findByClientIds(author.deviceId, [input.clientId]);
        if (seen) return { created: false, result: await originalResult(seen) };
      }
      const clientId = input.clientId ?? randomUUID();
      const scannedUtc = input.scannedUtc ?? nowUtcString();
      const [{ attendee, codeHash }, list] = await Promise.all([findAttendee(input), checkinListOf(repo, principal)]);

      let outcome: { refused: RefusalVerdict; attendee: AttendeeRecord | null } | { refused: null; result: CheckinResult; jobId: number };
      try {
        outcome = await db.transaction(async (tx) => {
          const locked = attendee ? await attendeesRepository(tx).lockById(attendee.id) : null;
          const txRepo = checkinRepository(tx, logger);
          const previous = locked ? await txRepo.lastForAttendee(locked.id) : null;
          const verdict = checkinVerdict(
            locked && { eventId: locked.eventId, status: locked.status, checkinCount: previous ? 1 : 0, categoryId: locked.ticketCategoryId },
            input.eventId,
            list,
          );
          if (!isAdmitted(verdict)) return { refused: verdict, attendee: locked };
          const row: NewCheckin = { attendeeId: locked!.id, eventId: locked!.eventId, scannedUtc, ...author, clientId, source, conflict: null };
          const checkinId = await txRepo.insert(row);
          // 0: the insert failed (or the clientId raced in meanwhile). Roll back; nothing fires.
          if (checkinId === 0) throw new CheckinInsertFailed();
          const jobId = await txRepo.holdActions([[checkinId, row.attendeeId, row.eventId]]);
          return {
            refused: null,
            jobId,
            result: {
              checkinId,
              attendeeId: row.attendeeId,
              eventId: row.eventId,
              verdict,
              displayName: locked!.displayName,
              quantity: locked!.quantity,
              previous,
              duplicate: false,
            },
          };
        });
      } catch (err) {
        if (!(err instanceof CheckinInsertFailed)) throw err;
        const [raced] = input.clientId !== undefined ? await repo.findByClientIds(author.deviceId, [clientId]) : [];
        if (raced) return { created: false, result: await originalResult(raced) };
        throw new AppError('svc_internal', 'The check-in could not be saved.');
      }

      if (outcome.refused !== null) {
        await repo.logRejected([
          {
            eventId: input.eventId,
            attendeeId: outcome.attendee?.id ?? null,
            ...author,
            codeHash: codeHash ?? outcome.attendee?.ticketCodeHash ?? null,
            reason: outcome.refused,
            verdictOnDevice: null,
            clientId,
            source,
            scannedUtc,
          },
        ]);
        throw new AppError(REFUSAL_CODES[outcome.refused], undefined, { verdict: outcome.refused });
      }
      const { result, jobId } = outcome;
      await fireCheckedIn(ctx, jobId, [[result.checkinId, result.attendeeId, result.eventId]]);
      return { created: true, result };
    },

    /**
     * A door's queued offline scans (sync.push), stored in a handful of statements for the whole
     * batch, never one per item. Offline-admitted scans are stored "forced" — with `conflict`
     * set when the server disagrees — so nobody who got in is lost; refusals go to the scan log.
     * Idempotent on (device, clientId): a resent or concurrently pushed item answers `duplicate`
     * with the original checkinId (the unique constraint decides). svc_pro_attendee_checked_in
     * fires once per inserted row, after commit. One result per item, in the order given.
     */
    async recordOfflineScans(pushed: PushItem[], principal: Principal): Promise<PushItemResult[]> {
      const author = checkinAuthor(principal);
      const firstOf = new Map<string, PushItem>();
      for (const item of pushed) if (!firstOf.has(item.clientId)) firstOf.set(item.clientId, item);
      const items = [...firstOf.values()];

      // No look-up of already stored scans first: the insert's ON CONFLICT finds them, and only
      // the items it did not insert (or refused) are looked up — none in the common case.
      const settled = new Map<string, PushItemResult>();

      // The door sends the attendee's id beside the code hash: the hash says who it is; an id is
      // looked up only for items without a hash, and for the rest it tells a deleted attendee
      // from an unknown code.
      const hashes = [...new Set(items.flatMap((i) => (i.codeHash !== undefined ? [i.codeHash] : [])))];
      const ids = [...new Set(items.flatMap((i) => (i.codeHash === undefined && i.attendeeId !== undefined ? [i.attendeeId] : [])))];
      const [found, list] = await Promise.all([repo.attendeesForPush(hashes, ids), checkinListOf(repo, principal)]);
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
        // the device's list refuses it (a door admitting it offline had an older list): never checked in
        else if (attendee && !listAdmits(list, item.eventId, attendee.categoryId)) reject(item, 'wrong_category', attendee.id);
        else if (attendee) toInsert.push(newCheckin(item, attendee.id, conflictOf(attendee, item.scannedUtc)));
        else if (item.attendeeId !== undefined && deleted.get(item.attendeeId) === item.eventId) toInsert.push(newCheckin(item, item.attendeeId, 'deleted'));
        else reject(item, 'unknown', null);
      }
      function newCheckin(item: PushItem, attendeeId: number, conflict: Conflict | null): NewCheckin {
        return {
          attendeeId,
          eventId: item.eventId,
          scannedUtc: item.scannedUtc,
          ...author,
          clientId: item.clientId,
          source: item.source,
          conflict,
          firstEntry: item.verdictOnDevice === 'ok',
        };
      }
      // docs/api.md#sync: a first entry on this door after a check-in on another door (two doors
      // admitted one ticket while apart). Only door devices count: a staff session has no door.
      if (author.deviceId !== null) {
        const firstEntries = toInsert.filter((r) => r.firstEntry && r.conflict === null);
        const elsewhere = await repo.earliestElsewhere([...new Set(firstEntries.map((r) => r.attendeeId))], author.deviceId);
        for (const row of firstEntries) {
          const earliest = elsewhere.get(row.attendeeId);
          // In the same second as the other door's (times keep whole seconds), the one synced second is flagged.
          if (earliest !== undefined && earliest <= row.scannedUtc) row.conflict = 'again_elsewhere';
        }
      }

      async function settleDuplicates(clientIds: string[]): Promise<void> {
        for (const seen of await repo.findByClientIds(author.deviceId, clientIds)) {
          settled.set(seen.clientId, { clientId: seen.clientId, status: 'duplicate', checkinId: seen.id });
        }
      }

      const stored = await repo.insertMany(toInsert);
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
      await repo.logRejected(stillRejected);

      // Two doors pushing one ticket's entries at the same moment each decided without the other's
      // rows: settled again now this push committed (beside the actions, not after them).
      const firstEntries = author.deviceId === null ? [] : toInsert.filter((r) => r.firstEntry && settled.get(r.clientId)?.status === 'inserted');
      fired.sort((a, b) => a[0] - b[0]); // in checkinId order, as the held job lists them
      const [flagged] = await Promise.all([
        repo.flagConcurrentTwoDoors([...new Set(firstEntries.map((r) => r.attendeeId))]).catch((err: unknown) => {
          // a missed flag is a review item lost, never a scan: the push still answers for its rows
          logger.warn({ err }, 'two-doors check after a push failed');
          return [] as number[];
        }),
        fireCheckedIn(ctx, stored?.jobId ?? null, fired),
      ]);
      const flaggedIds = new Set(flagged);
      for (const row of firstEntries) {
        const result = settled.get(row.clientId);
        if (result?.status === 'inserted' && flaggedIds.has(result.checkinId)) settled.set(row.clientId, { ...result, conflict: 'again_elsewhere' });
      }
      return pushed.map((i) => settled.get(i.clientId)!);
    },

    /**
     * Annul a check-in: the row stays, marked, and no longer counts. Administrators may annul
     * any; door staff only their own (same device, or same user) within STAFF_UNDO_MINUTES.
     */
    async annul(id: number, principal: Principal, nowMs = Date.now()): Promise<CheckinDto> {
      const row = await repo.findById(id);
      if (!row) throw new AppError('svc_not_found', 'No such check-in.');
      assertEventAccess(principal, row.eventId);
      if (principal.role !== 'administrator') {
        const author = checkinAuthor(principal);
        const own = author.deviceId !== null ? row.deviceId === author.deviceId : row.deviceId === null && row.userId === author.userId;
        const recent = utcMs(row.createdUtc) >= nowMs - STAFF_UNDO_MINUTES * 60_000;
        if (!own || !recent) throw new AppError('svc_forbidden', `Only your own check-ins of the last ${STAFF_UNDO_MINUTES} minutes can be undone.`);
      }
      if (row.annulledUtc) throw new AppError('svc_conflict', 'This check-in was already annulled.');
      const annulled = await repo.annul(id, principal.userId);
      if (!annulled) throw new AppError('svc_conflict', 'This check-in was already annulled.');
      return toCheckinDto(annulled);
    },

    async counts(eventId: number, principal: Principal): Promise<CheckinCounts> {
      assertEventAccess(principal, eventId);
      const events = eventsRepository(db);
      const event = await events.findById(eventId);
      if (!event) throw new AppError('svc_not_found', 'No such event.');
      // places left the way the public event answers it (events.service.ts), so the two never disagree
      const [counts, categoryCounts, taken, currency] = await Promise.all([
        repo.counts(eventId),
        repo.countsByCategory(eventId),
        event.capacity === null ? null : events.seatsTaken([eventId]),
        settingsService(ctx).currency(),
      ]);
      const placesLeft = event.capacity === null ? null : Math.max(0, event.capacity - (taken?.get(eventId) ?? 0));
      // sales are per category: an event without categories (most of them) skips their queries
      const sales = categoryCounts.length > 0 ? await categorySalesOfEvent(db, eventId) : null;
      // money is the administrators': door staff and devices read seats, never revenue
      const seesMoney = principal.role === 'administrator';
      const categories = categoryCounts.map((row) => {
        const sold = row.categoryId === null ? undefined : sales?.byCategory.get(row.categoryId);
        const figures = sold ?? { quota: null, soldCount: row.seatsGoing, revenueCents: sales?.uncategorizedRevenueCents ?? 0, atDoorCents: 0 };
        return seesMoney ? { ...row, ...figures } : { ...row, ...figures, revenueCents: null, atDoorCents: null };
      });
      return { eventId, ...counts, placesLeft, categories, currency };
    },

    /** The admin table's check-in column when the serialization has none (free edition). */
    async statsOfAttendees(query: CheckinStatsQuery, principal: Principal): Promise<AttendeeCheckinStats[]> {
      assertEventAccess(principal, query.eventId);
      return repo.statsOfEventAttendees(query.eventId, query.attendeeIds);
    },

    /** Arrivals per 5 minutes for the dashboard chart. */
    async arrivals(eventId: number, principal: Principal): Promise<Arrivals> {
      assertEventAccess(principal, eventId);
      if (!(await eventsRepository(db).findById(eventId))) throw new AppError('svc_not_found', 'No such event.');
      const buckets = await repo.arrivals(eventId, ARRIVAL_BUCKET_MINUTES, MAX_ARRIVAL_BUCKETS);
      return { eventId, bucketMinutes: ARRIVAL_BUCKET_MINUTES, buckets };
    },

    async list(query: CheckinListQuery, principal: Principal): Promise<{ items: CheckinListItem[]; total: number }> {
      assertEventAccess(principal, query.eventId);
      const { rows, total } = await repo.list(query, query.perPage, (query.page - 1) * query.perPage);
      return { items: rows.map((r) => ({ ...toCheckinDto(r), repeat: r.repeat })), total };
    },
  };
}
export type CheckinService = ReturnType<typeof checkinService>;
