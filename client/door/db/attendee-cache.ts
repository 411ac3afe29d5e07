/**
 * Writes of the server's answers into the door database: download pages and pull deltas
 * (cache tables and cursor, each page in one transaction with its position), push results
 * (outbox and local log), reset. None of these touches a queued scan.
 */
import type { AttendeeTuple, DownloadResult, PullResult, PushItemResult } from '../../../shared/checkin';
import { attendeeIndex, cacheWrite, COMPACT_CHUNK_SIZE, OVERLAY_COMPACT_AT, type AttendeeIndex } from './attendee-index';
import {
  attendeeFromTuple,
  isChunked,
  tupleFromAttendee,
  type AttendeeRecord,
  type DeviceRecord,
  type DoorDb,
  type LocalCheckin,
  type SyncStateRecord,
} from './door-db';
import { replaceWalkIn, type WalkInChange } from './walk-ins';

export function emptySyncState(deviceId: number): SyncStateRecord {
  return { deviceId, cursor: null, downloads: {}, lastSyncMs: null, lastAttemptMs: null, lastError: null };
}

export async function readDevice(db: DoorDb): Promise<DeviceRecord | undefined> {
  return db.device.get('self');
}

export async function readSyncState(db: DoorDb, deviceId: number): Promise<SyncStateRecord> {
  return (await db.syncState.get(deviceId)) ?? emptySyncState(deviceId);
}

/** The smaller of two `txid:id` cursors (null counts as "none yet"). */
export function earlierCursor(a: string | null, b: string | null): string | null {
  if (a === null) return b;
  if (b === null) return a;
  const [at, ai] = a.split(':').map(BigInt) as [bigint, bigint];
  const [bt, bi] = b.split(':').map(BigInt) as [bigint, bigint];
  return at < bt || (at === bt && ai <= bi) ? a : b;
}

/**
 * Marks local check-ins of these attendees that the server acknowledged before `sinceMs` as
 * carried by the cache (their count is in the attendee row now), and likewise their undos.
 */
async function markReflected(db: DoorDb, attendeeIds: number[], sinceMs: number): Promise<void> {
  if (attendeeIds.length === 0) return;
  // the acknowledged rows are few (a page may carry 10,000 ids): read those, then match the page
  const [scans, undos] = await Promise.all([db.checkins.where('state').equals('acked').toArray(), db.checkins.where('undo').equals('acked').toArray()]);
  const ids = new Set(attendeeIds);
  const rows = new Map(
    [...scans, ...undos]
      .filter((c) => c.attendeeId !== null && ids.has(c.attendeeId))
      .filter((c) => (c.state === 'acked' && c.ackedMs! < sinceMs) || (c.undo === 'acked' && c.undoAckedMs! < sinceMs))
      .map((c) => [c.clientId, c]),
  ).values();
  for (const c of rows) {
    const patch: Partial<LocalCheckin> = {};
    if (c.state === 'acked' && c.ackedMs! < sinceMs) patch.state = 'reflected';
    if (c.undo === 'acked' && c.undoAckedMs! < sinceMs) patch.undo = 'reflected';
    await db.checkins.update(c.clientId, patch);
  }
}

/**
 * Stores one download page and the position after it in one transaction, so an interrupted
 * download resumes at the page it lost and never leaves a page without its cursor.
 * `startedMs`: when the download's first page was requested.
 */
export async function applyDownloadPage(db: DoorDb, deviceId: number, page: DownloadResult, startedMs: number): Promise<void> {
  const chunked = isChunked(db);
  // the door stores the page as one chunk (JSON text: one value for IndexedDB to copy, parsed once at start)
  const rows = chunked ? [] : page.attendees.map(attendeeFromTuple);
  const tuples = chunked ? JSON.stringify(page.attendees) : '';
  const write = () =>
    db.transaction(
      'rw',
      chunked ? [db.events, db.attendees, db.syncState, db.checkins, db.attendeeChunks, db.attendeeGone] : [db.events, db.attendees, db.syncState, db.checkins],
      async () => {
        const state = await readSyncState(db, deviceId);
        const before = state.downloads[page.event.id];
        await db.events.put(page.event);
        if (chunked) {
          // an attendee a pull deleted that comes back in a download (its event followed again) shows again
          const ids = new Set(page.attendees.map((t) => t[0]));
          const back = (await db.attendeeGone.toCollection().primaryKeys()).filter((id) => ids.has(id));
          if (back.length) await db.attendeeGone.bulkDelete(back);
          if (page.attendees.length > 0) {
            await db.attendeeChunks.put({ key: `${page.event.id}:${page.nextAfterId}`, eventId: page.event.id, count: page.attendees.length, tuples });
          }
        } else {
          await db.attendees.bulkPut(rows);
        }
        await markReflected(
          db,
          page.attendees.map((t) => t[0]),
          startedMs,
        );
        await flagTwoDoors(db, page.attendees);
        const total = page.total ?? before?.total;
        state.downloads[page.event.id] = {
          nextAfterId: page.nextAfterId,
          done: !page.hasMore,
          count: (before?.count ?? 0) + page.attendees.length,
          ...(total !== undefined ? { total } : {}),
        };
        if (page.cursor !== null) state.cursor = earlierCursor(state.cursor, page.cursor);
        await db.syncState.put(state);
      },
    );
  if (!chunked) return write();
  await cacheWrite(db, write, (idx) => {
    // a row the overlay holds is newer than the download (never the case right after a reset)
    for (const t of page.attendees) if (!idx.overlay.has(t[0])) idx.put(t);
  });
}

/** Applies one pull page: events and attendees upserted, tombstones deleted, cursor moved — one transaction. */
export async function applyPullPage(db: DoorDb, deviceId: number, page: Exclude<PullResult, { reset: true }>, startedMs: number): Promise<void> {
  const rows = page.attendees.map(attendeeFromTuple);
  const chunked = isChunked(db);
  // the door lays the changed rows over its chunks (the `attendees` table) and notes deletions
  const write = () =>
    db.transaction(
      'rw',
      chunked ? [db.events, db.attendees, db.syncState, db.checkins, db.attendeeChunks, db.attendeeGone] : [db.events, db.attendees, db.syncState, db.checkins],
      async () => {
        if (page.events.length) await db.events.bulkPut(page.events);
        if (rows.length) await db.attendees.bulkPut(rows);
        if (rows.length && chunked) await db.attendeeGone.bulkDelete(rows.map((r) => r.id));
        if (page.tombstones.events.length) {
          await db.events.bulkDelete(page.tombstones.events);
          await db.attendees.where('eventId').anyOf(page.tombstones.events).delete();
          if (chunked) await db.attendeeChunks.where('eventId').anyOf(page.tombstones.events).delete();
        }
        if (page.tombstones.attendees.length) {
          await db.attendees.bulkDelete(page.tombstones.attendees);
          if (chunked) await db.attendeeGone.bulkPut(page.tombstones.attendees.map((id) => ({ id })));
        }
        await markReflected(
          db,
          rows.map((r) => r.id),
          startedMs,
        );
        await flagTwoDoors(db, page.attendees);
        const state = await readSyncState(db, deviceId);
        state.cursor = page.cursor;
        await db.syncState.put(state);
      },
    );
  if (!chunked) return write();
  await cacheWrite(db, write, (idx) => {
    for (const t of page.attendees) {
      idx.put(t);
      if (t[0] > 0) idx.overlay.add(t[0]);
    }
    for (const eventId of page.tombstones.events) idx.deleteEvent(eventId);
    for (const id of page.tombstones.attendees) idx.delete(id);
  });
}

/**
 * Folds the overlay back into chunks once it holds OVERLAY_COMPACT_AT attendees (every scan comes
 * back in a pull, so it grows all evening): each event's chunks are written again from memory and
 * the overlay's server rows and the deletions go, in one transaction. Keeps reload-to-ready short.
 */
export async function compactCache(db: DoorDb, threshold = OVERLAY_COMPACT_AT): Promise<boolean> {
  if (!isChunked(db)) return false;
  const idx = await attendeeIndex(db);
  if (idx.overlay.size < threshold) return false;
  const events = new Set<number>();
  for (const t of idx.rows.values()) if (t[0] > 0) events.add(t[1]);
  const chunks = [...events].flatMap((eventId) => {
    const tuples = idx.eventTuples(eventId).sort((a, b) => a[0] - b[0]);
    const out = [];
    for (let i = 0; i < tuples.length; i += COMPACT_CHUNK_SIZE) {
      const part = tuples.slice(i, i + COMPACT_CHUNK_SIZE);
      out.push({ key: `${eventId}:${part.at(-1)![0]}`, eventId, count: part.length, tuples: JSON.stringify(part) });
    }
    return out;
  });
  await cacheWrite(
    db,
    () =>
      db.transaction('rw', [db.attendees, db.attendeeChunks, db.attendeeGone], async () => {
        await db.attendeeChunks.clear();
        await db.attendeeChunks.bulkPut(chunks);
        await db.attendees.where('id').above(0).delete();
        await db.attendeeGone.clear();
      }),
    (i) => i.overlay.clear(),
  );
  return true;
}

/** The cached attendees (of one event, or all): memory on the door, Dexie on the admin's copy. */
export async function cachedAttendees(db: DoorDb, eventId?: number): Promise<AttendeeRecord[]> {
  if (!isChunked(db)) return eventId === undefined ? db.attendees.toArray() : db.attendees.where('eventId').equals(eventId).toArray();
  const idx = await attendeeIndex(db);
  return [...idx.rows.values()].filter((t) => eventId === undefined || t[1] === eventId).map(attendeeFromTuple);
}

/** One cached attendee by id (as `cachedAttendees`). */
export async function cachedAttendee(db: DoorDb, id: number): Promise<AttendeeRecord | undefined> {
  if (!isChunked(db)) return db.attendees.get(id);
  const t = (await attendeeIndex(db)).rows.get(id);
  return t && attendeeFromTuple(t);
}

/** Wipes every cached attendee (pairing another identity, forgetting the device); never the local scans. */
export async function clearAttendees(db: DoorDb): Promise<void> {
  if (!isChunked(db)) return db.attendees.clear();
  await cacheWrite(
    db,
    () => Promise.all([db.attendees.clear(), db.attendeeChunks.clear(), db.attendeeGone.clear()]),
    (idx) => idx.clear(),
  );
}

/** A tuple for the index from a record written locally (a walk-in). */
export function indexRecord(idx: AttendeeIndex, a: AttendeeRecord): void {
  idx.put(tupleFromAttendee(a));
}

/**
 * Two doors admitted one ticket while apart (docs/api.md#sync): the server flags one door's row,
 * and the pull tells every door holding the attendee, so this door's own scans of that person
 * show under "Needs attention" too. Only flagged attendees are looked at (an index look-up each).
 */
async function flagTwoDoors(db: DoorDb, tuples: AttendeeTuple[]): Promise<void> {
  const flagged = tuples.filter((t) => t[10] === 'again_elsewhere').map((t) => t[0]);
  if (flagged.length === 0) return;
  await db.checkins
    .where('attendeeId')
    .anyOf(flagged)
    .filter((c) => c.conflict === null && (c.state === 'acked' || c.state === 'reflected'))
    .modify({ conflict: 'again_elsewhere' });
}

/**
 * `reset` (a cursor too old for the server) or a re-download: wipes the cache tables and the
 * cursor — never the outbox or the local scans — so the next sync downloads everything again.
 */
export async function resetCache(db: DoorDb, deviceId: number): Promise<void> {
  const chunked = isChunked(db);
  const write = () =>
    db.transaction(
      'rw',
      chunked ? [db.events, db.attendees, db.syncState, db.attendeeChunks, db.attendeeGone] : [db.events, db.attendees, db.syncState],
      async () => {
        await db.events.clear();
        await db.attendees.clear();
        if (chunked) await Promise.all([db.attendeeChunks.clear(), db.attendeeGone.clear()]);
        const state = await readSyncState(db, deviceId);
        await db.syncState.put({ ...state, cursor: null, downloads: {} });
      },
    );
  if (!chunked) return write();
  await cacheWrite(db, write, (idx) => idx.clear());
}

/** Forgets cached events the device no longer follows. */
export async function dropUnfollowedEvents(db: DoorDb, deviceId: number, eventIds: number[]): Promise<void> {
  const follow = new Set(eventIds);
  const chunked = isChunked(db);
  const write = () =>
    db.transaction('rw', chunked ? [db.events, db.attendees, db.syncState, db.attendeeChunks] : [db.events, db.attendees, db.syncState], async () => {
      const gone = (await db.events.toCollection().primaryKeys()).filter((id) => !follow.has(id));
      const state = await readSyncState(db, deviceId);
      const staleDownloads = Object.keys(state.downloads)
        .map(Number)
        .filter((id) => !follow.has(id));
      if (gone.length === 0 && staleDownloads.length === 0) return [];
      await db.events.bulkDelete(gone);
      await db.attendees.where('eventId').anyOf(gone).delete();
      if (chunked) await db.attendeeChunks.where('eventId').anyOf(gone).delete();
      for (const id of staleDownloads) delete state.downloads[id];
      await db.syncState.put(state);
      return gone;
    });
  if (!chunked) {
    await write();
    return;
  }
  await cacheWrite(db, write, (idx, gone) => {
    for (const id of gone) idx.deleteEvent(id);
  });
}

export interface PushOutcome {
  /** Removed from the outbox: stored, stored before, or an expected refusal. */
  settled: number;
  /** Marked rejected and listed. */
  rejected: number;
  /** Left queued to send again. */
  retry: number;
  /** Scans undone while in flight that the server stored: annul them next. */
  annulQueued: number;
}

/**
 * Applies sync.push results in one transaction. `inserted`/`duplicate`: the scan leaves the
 * outbox and waits for a pull to carry it (a walk-in's local attendee becomes the server's, walk-ins.ts). `rejected` of a refusal is its expected receipt
 * (logged on the server); of an admitted scan it is marked and listed, never resent.
 * `failed`: stays queued.
 */
export async function applyPushResults(db: DoorDb, results: PushItemResult[], nowMs = Date.now()): Promise<PushOutcome> {
  const outcome: PushOutcome = { settled: 0, rejected: 0, retry: 0, annulQueued: 0 };
  const walkIns: WalkInChange[] = [];
  const write = () =>
    db.transaction('rw', db.outbox, db.checkins, db.attendees, async () => {
      await pushResultsInTransaction(db, results, nowMs, outcome, walkIns);
    });
  if (!isChunked(db)) await write();
  else
    await cacheWrite(db, write, (idx) => {
      for (const w of walkIns) {
        idx.delete(w.localId);
        if (!w.record) continue;
        indexRecord(idx, w.record);
        idx.overlay.add(w.record.id);
        idx.localIds.add(w.record.id);
      }
    });
  return outcome;
}

async function pushResultsInTransaction(db: DoorDb, results: PushItemResult[], nowMs: number, outcome: PushOutcome, walkIns: WalkInChange[]): Promise<void> {
  {
    for (const r of results) {
      const queued = await db.outbox.where('clientId').equals(r.clientId).first();
      if (queued?.kind === 'walk_in') {
        const change = await replaceWalkIn(db, queued.item, r);
        if (change) walkIns.push(change);
      }
      const local = await db.checkins.get(r.clientId);
      if (r.status === 'failed') {
        if (queued) await db.outbox.update(queued.seq!, { attempts: queued.attempts + 1 });
        outcome.retry++;
        continue;
      }
      if (r.status === 'rejected') {
        // a refusal of a scan already refused on the door, or one undone since it was sent: nothing more to do
        const expected = local?.state === 'refused' || local?.state === 'undone';
        if (expected || !queued) {
          if (queued) await db.outbox.delete(queued.seq!);
          outcome.settled++;
        } else {
          await db.outbox.update(queued.seq!, { status: 'rejected', reason: r.reason });
          if (local && local.state !== 'undone') await db.checkins.update(r.clientId, { state: 'rejected', reason: r.reason });
          outcome.rejected++;
        }
        continue;
      }
      if (queued) await db.outbox.delete(queued.seq!);
      outcome.settled++;
      if (!local) continue;
      const conflict = r.status === 'inserted' ? r.conflict : local.conflict;
      if (local.state === 'undone') {
        // undone while its push was in flight: the server has it now, so annul it there
        await db.checkins.update(r.clientId, { state: 'acked', ackedMs: nowMs, checkinId: r.checkinId, conflict, undo: 'queued' });
        await db.outbox.add({
          clientId: `annul:${r.clientId}`,
          kind: 'annul',
          status: 'queued',
          checkinId: r.checkinId,
          attempts: 0,
          createdMs: nowMs,
          reason: null,
        });
        outcome.annulQueued++;
      } else if (local.state === 'queued') {
        await db.checkins.update(r.clientId, { state: 'acked', ackedMs: nowMs, checkinId: r.checkinId, conflict });
      }
    }
  }
}

/** Result of sending one queued annul. */
export type AnnulOutcome = { status: 'done' } | { status: 'rejected'; reason: string } | { status: 'retry' };

export async function applyAnnulResult(db: DoorDb, outboxClientId: string, outcome: AnnulOutcome, nowMs = Date.now()): Promise<void> {
  const scanClientId = outboxClientId.replace(/^annul:/, '');
  await db.transaction('rw', db.outbox, db.checkins, async () => {
    const queued = await db.outbox.where('clientId').equals(outboxClientId).first();
    if (!queued) return;
    if (outcome.status === 'retry') {
      await db.outbox.update(queued.seq!, { attempts: queued.attempts + 1 });
    } else if (outcome.status === 'done') {
      await db.outbox.delete(queued.seq!);
      await db.checkins.update(scanClientId, { undo: 'acked', undoAckedMs: nowMs });
    } else {
      await db.outbox.update(queued.seq!, { status: 'rejected', reason: outcome.reason });
      await db.checkins.update(scanClientId, { undo: 'rejected', reason: outcome.reason });
    }
  });
}
