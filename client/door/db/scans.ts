/**
 * The device's side of a scan: the verdict from the cached list plus the device's own
 * unreflected check-ins (the SAME `checkinVerdict` the server runs), the scan written to the
 * local log and the outbox in one transaction, undo, name search and the event's counts.
 */
import type { AttendeeTuple, PushItem } from '../../../shared/checkin';
import { checkinVerdict, countsAsCheckedIn, isAdmitted, type CheckinList, type CheckinSource, type Verdict } from '../../../shared/checkin-rules';
import { toUtcString } from '../../../shared/time';
import { attendeeIndex, cacheVersion, cacheWrite, indexNow, noteLocalCheckin, type AttendeeIndex } from './attendee-index';
import { attendeeFromTuple, isChunked, normalizeSearch, type AttendeeRecord, type DoorDb, type LocalCheckin, type OutboxItem } from './door-db';
import { dropLocalWalkIn } from './walk-ins';

/** Door staff may undo their own scan for this long (UX "Undo"; the server's STAFF_UNDO_MINUTES). */
export const UNDO_WINDOW_MS = 15 * 60_000;

/** How a local check-in changes the server's count until a pull carries it (see door-db.ts). */
export function localDelta(c: Pick<LocalCheckin, 'state' | 'undo'>): number {
  const scan = c.state === 'queued' || c.state === 'acked' ? 1 : 0;
  const undo = c.undo === 'queued' || c.undo === 'acked' ? 1 : 0;
  return scan - undo;
}

/** Whether a local check-in still stands (counts as a visit on the device). */
function stands(c: LocalCheckin): boolean {
  if (!isAdmitted(c.verdict)) return false;
  if (c.state === 'undone' || c.state === 'rejected' || c.state === 'refused') return false;
  return c.undo === null || c.undo === 'rejected';
}

export interface LastCheckin {
  scannedUtc: string;
  /** The door that scanned it: a device name, or null when the server did not say. */
  device: string | null;
}

export interface ScanLookup {
  verdict: Verdict;
  attendee: AttendeeRecord | null;
  /** For `again`: the latest earlier check-in, here or elsewhere. */
  last: LastCheckin | null;
}

/**
 * One record per attendee (the version-1 layout the admin's copy keeps): reads an attendee and
 * the device's own scans of it in ONE read-only IndexedDB transaction, both requests in flight
 * at once: plain IndexedDB on Dexie's open connection, because Dexie's promise zones doubled the
 * time of these two reads in Chromium. The door answers from memory (`readScanRowsFromIndex`).
 */
async function readScanRows(
  db: DoorDb,
  key: { codeHash: string } | { attendeeId: number },
): Promise<{ attendee: AttendeeRecord | undefined; local: LocalCheckin[] }> {
  if (!db.isOpen()) await db.open();
  const idb = db.backendDB();
  return new Promise((resolve, reject) => {
    const tx = idb.transaction(['attendees', 'checkins'], 'readonly');
    const attendees = tx.objectStore('attendees');
    const checkins = tx.objectStore('checkins');
    let attendee: AttendeeRecord | undefined;
    let local: LocalCheckin[] = [];
    if ('codeHash' in key) {
      const a = attendees.index('codeHash').get(key.codeHash);
      a.onsuccess = () => (attendee = a.result as AttendeeRecord | undefined);
      const c = checkins.index('codeHash').getAll(key.codeHash);
      c.onsuccess = () => (local = c.result as LocalCheckin[]);
    } else {
      const a = attendees.get(key.attendeeId);
      a.onsuccess = () => (attendee = a.result as AttendeeRecord | undefined);
      const c = checkins.index('attendeeId').getAll(key.attendeeId);
      c.onsuccess = () => (local = c.result as LocalCheckin[]);
    }
    tx.oncomplete = () => resolve({ attendee, local });
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/** An attendee's local check-ins (plain IndexedDB, as `readScanRows`). */
function readLocalCheckins(db: DoorDb, attendeeId: number): Promise<LocalCheckin[]> {
  const idb = db.backendDB();
  return new Promise((resolve, reject) => {
    const req = idb.transaction('checkins', 'readonly').objectStore('checkins').index('attendeeId').getAll(attendeeId);
    req.onsuccess = () => resolve(req.result as LocalCheckin[]);
    req.onerror = () => reject(req.error);
  });
}

/**
 * On the door (a chunked database): the attendee from the in-memory index, and its local
 * check-ins from IndexedDB only when it has any (`localIds`): a first scan touches no database.
 */
async function readScanRowsFromIndex(
  db: DoorDb,
  idx: AttendeeIndex,
  key: { codeHash: string } | { attendeeId: number },
): Promise<{ attendee: AttendeeRecord | undefined; local: LocalCheckin[] }> {
  const t = 'codeHash' in key ? idx.byCode(key.codeHash.toLowerCase()) : idx.rows.get(key.attendeeId);
  if (!t) return { attendee: undefined, local: [] };
  const attendee = attendeeFromTuple(t);
  if (!idx.localIds.has(t[0])) return { attendee, local: [] };
  if (!db.isOpen()) await db.open();
  const version = cacheVersion(db);
  const local = await readLocalCheckins(db, t[0]);
  // a pull that committed meanwhile may have moved a local check-in into the cached count: read both again
  if (cacheVersion(db) !== version) return readScanRowsFromIndex(db, await attendeeIndex(db), key);
  return { attendee, local };
}

/**
 * The verdict for a code hash (or an attendee picked by name) at `eventId`: the shared rule on the
 * cache plus this device's scans, with the device's check-in list (null: every ticket).
 */
export async function lookupScan(
  db: DoorDb,
  key: { codeHash: string } | { attendeeId: number },
  eventId: number,
  deviceName: string,
  list: CheckinList | null = null,
): Promise<ScanLookup> {
  const { attendee, local } = isChunked(db) ? await readScanRowsFromIndex(db, indexNow(db) ?? (await attendeeIndex(db)), key) : await readScanRows(db, key);
  return verdictOf(attendee, local, eventId, deviceName, list);
}

/**
 * The verdict for an attendee the server answered (sync.lookup) while the list is still
 * downloading: the same rule, with this device's own scans of them added as for a cached one.
 */
export async function lookupServerAttendee(
  db: DoorDb,
  tuple: AttendeeTuple | null,
  eventId: number,
  deviceName: string,
  list: CheckinList | null = null,
): Promise<ScanLookup> {
  if (!tuple) return verdictOf(undefined, [], eventId, deviceName, list);
  if (!db.isOpen()) await db.open();
  return verdictOf(attendeeFromTuple(tuple), await readLocalCheckins(db, tuple[0]), eventId, deviceName, list);
}

function verdictOf(attendee: AttendeeRecord | undefined, local: LocalCheckin[], eventId: number, deviceName: string, list: CheckinList | null): ScanLookup {
  if (!attendee) return { verdict: 'unknown', attendee: null, last: null };
  // by code, the local scans are those of the code; drop any of another attendee (a reused hash)
  const mine = local.filter((c) => c.attendeeId === attendee.id);
  const count = attendee.checkinCount + mine.reduce((n, c) => n + localDelta(c), 0);
  let last: LastCheckin | null = attendee.lastCheckinUtc ? { scannedUtc: attendee.lastCheckinUtc, device: attendee.lastCheckinDevice } : null;
  for (const c of mine) {
    if (stands(c) && (!last || c.scannedUtc > last.scannedUtc)) last = { scannedUtc: c.scannedUtc, device: deviceName };
  }
  const verdict = checkinVerdict({ eventId: attendee.eventId, status: attendee.status, checkinCount: count, categoryId: attendee.categoryId }, eventId, list);
  return { verdict, attendee, last: verdict === 'again' ? last : null };
}

export interface NewScan {
  clientId: string;
  eventId: number;
  codeHash: string | null;
  lookup: ScanLookup;
  source: Exclude<CheckinSource, 'rest' | 'walk_in'>;
  scannedMs: number;
}

/**
 * Writes a scan to the local log and queues it for the server in ONE transaction: an
 * admitted scan is never shown green without being queued. Refusals are logged and queued
 * too (the server keeps them in its scan log) but create no check-in.
 */
export async function recordScan(db: DoorDb, scan: NewScan): Promise<LocalCheckin> {
  const { attendee, verdict } = scan.lookup;
  const scannedUtc = toUtcString(scan.scannedMs);
  const codeHash = scan.codeHash ?? attendee?.codeHash ?? null;
  const row: LocalCheckin = {
    clientId: scan.clientId,
    eventId: scan.eventId,
    attendeeId: attendee?.id ?? null,
    codeHash,
    displayName: attendee?.displayName ?? '',
    quantity: attendee?.quantity ?? 0,
    verdict,
    source: scan.source,
    scannedUtc,
    scannedMs: scan.scannedMs,
    state: isAdmitted(verdict) ? 'queued' : 'refused',
    ackedMs: null,
    checkinId: null,
    conflict: null,
    reason: null,
    undo: null,
    undoAckedMs: null,
  };
  const item: PushItem = {
    clientId: scan.clientId,
    eventId: scan.eventId,
    scannedUtc,
    verdictOnDevice: verdict,
    source: scan.source,
    ...(codeHash ? { codeHash } : {}),
    ...(attendee ? { attendeeId: attendee.id } : {}),
  };
  noteLocalCheckin(db, row.attendeeId);
  await db.transaction('rw', db.checkins, db.outbox, async () => {
    await db.checkins.add(row);
    await db.outbox.add({ clientId: scan.clientId, kind: 'scan', status: 'queued', item, attempts: 0, createdMs: scan.scannedMs, reason: null });
  });
  return row;
}

export type UndoResult = 'dropped' | 'queued' | 'too_late' | 'not_found';

/**
 * Undoes a mistaken admitted scan (or walk-in) within UNDO_WINDOW_MS: one never sent is dropped
 * from the outbox (the server never sees it; a walk-in's local attendee goes too); a stored one
 * gets an annul queued like a scan. One that was sent but not answered — in flight, or its answer
 * lost after the server committed it — stays queued, marked undone: its push answer (to the
 * resend, `duplicate`) queues the annul (see attendee-cache.ts).
 */
export async function undoScan(db: DoorDb, clientId: string, nowMs = Date.now()): Promise<UndoResult> {
  let dropped: number | null = null;
  const write = () => undoInTransaction(db, clientId, nowMs, (id) => (dropped = id));
  if (!isChunked(db)) return write();
  return cacheWrite(db, write, (idx) => {
    if (dropped !== null) idx.delete(dropped);
  });
}

function undoInTransaction(db: DoorDb, clientId: string, nowMs: number, droppedWalkIn: (id: number | null) => void): Promise<UndoResult> {
  return db.transaction('rw', db.checkins, db.outbox, db.attendees, async () => {
    const row = await db.checkins.get(clientId);
    if (!row || !isAdmitted(row.verdict) || !stands(row)) return 'not_found';
    if (nowMs - row.scannedMs > UNDO_WINDOW_MS) return 'too_late';
    if (row.state === 'queued') {
      const queued = await db.outbox.where('clientId').equals(clientId).first();
      await db.checkins.update(clientId, { state: 'undone' });
      if (queued && queued.kind !== 'annul' && queued.sent) return 'queued';
      await db.outbox.where('clientId').equals(clientId).delete();
      droppedWalkIn(await dropLocalWalkIn(db, row));
      return 'dropped';
    }
    await db.checkins.update(clientId, { undo: 'queued', undoAckedMs: null, reason: null });
    await db.outbox.add({
      clientId: `annul:${clientId}`,
      kind: 'annul',
      status: 'queued',
      checkinId: row.checkinId!,
      attempts: 0,
      createdMs: nowMs,
      reason: null,
    });
    return 'queued';
  });
}

/** Scans the server has not acknowledged yet (the "N not yet synced" badge). */
export function pendingCount(db: DoorDb): Promise<number> {
  return db.outbox.where('status').equals('queued').count();
}

/** Attendees of `eventId` whose name or email has a word starting with `query` (2+ characters). */
export async function searchAttendees(db: DoorDb, eventId: number, query: string, limit = 20): Promise<AttendeeRecord[]> {
  const words = normalizeSearch(query).split(/\s+/).filter(Boolean);
  if (words.join(' ').length < 2) return [];
  if (isChunked(db)) {
    await watchCache(db);
    const idx = indexNow(db) ?? (await attendeeIndex(db));
    return idx
      .search(eventId, words, limit)
      .map(attendeeFromTuple)
      .sort((a, b) => a.displayName.localeCompare(b.displayName));
  }
  const [first, ...rest] = words.sort((a, b) => b.length - a.length);
  const seen = new Set<number>();
  const found: AttendeeRecord[] = [];
  await db.attendees
    .where('terms')
    .startsWith(first!)
    .until(() => found.length >= limit)
    .each((a) => {
      if (a.eventId !== eventId || seen.has(a.id)) return;
      if (!rest.every((w) => a.terms.some((t) => t.startsWith(w)))) return;
      seen.add(a.id);
      found.push(a);
    });
  return found.sort((a, b) => a.displayName.localeCompare(b.displayName));
}

export interface EventCounts {
  /** Seats of the attendees whose status admits (seats, as the admin dashboard counts them). */
  going: number;
  /** Of those, the seats of attendees with at least one standing check-in, this device's unsynced scans included (the server's rule). */
  checkedIn: number;
}

/**
 * Inside a live query, reads what every change of the cache writes (the sync state, the overlay's
 * size), so the query runs again after it; the answer itself then comes from memory. Dexie reads
 * first: a live query tracks only what it reads before its first non-Dexie await.
 */
async function watchCache(db: DoorDb): Promise<void> {
  await Promise.all([db.syncState.toArray(), db.attendees.count()]);
}

/** The event's counts as the cached list has them (re-run only when the list changes). */
export async function cachedEventCounts(db: DoorDb, eventId: number): Promise<EventCounts> {
  if (isChunked(db)) {
    await watchCache(db);
    const { going, checkedIn } = (indexNow(db) ?? (await attendeeIndex(db))).counts(eventId);
    return { going, checkedIn };
  }
  // seats, as the admin dashboard counts them: an attendee with 3 seats is 3
  const seats = (rows: AttendeeRecord[]) => rows.reduce((n, a) => n + (a.quantity ?? 1), 0);
  const [going, checkedIn] = await Promise.all([
    db.attendees.where('[eventId+going]').equals([eventId, 1]).toArray().then(seats),
    db.attendees.where('[eventId+checkedIn]').equals([eventId, 1]).toArray().then(seats),
  ]);
  return { going, checkedIn };
}

/**
 * How many seats this device's not-yet-reflected scans and undos add to (or take from)
 * the cached "checked in" count. Reads only those few rows, so it is cheap after every scan.
 */
export async function localCheckedInAdjustment(db: DoorDb, eventId: number): Promise<number> {
  let adjust = 0;
  for (const n of (await localCheckedInByCategory(db, eventId)).values()) adjust += n;
  return adjust;
}

/** `localCheckedInAdjustment` per ticket category (null: attendees without one). */
export async function localCheckedInByCategory(db: DoorDb, eventId: number): Promise<Map<number | null, number>> {
  const [scans, undos] = await Promise.all([
    db.checkins.where('state').anyOf('queued', 'acked').toArray(),
    db.checkins.where('undo').anyOf('queued', 'acked').toArray(),
  ]);
  const delta = new Map<number, number>();
  const seen = new Set<string>();
  for (const c of [...scans, ...undos]) {
    if (c.eventId !== eventId || c.attendeeId === null || seen.has(c.clientId)) continue;
    seen.add(c.clientId);
    delta.set(c.attendeeId, (delta.get(c.attendeeId) ?? 0) + localDelta(c));
  }
  let attendees: (AttendeeRecord | undefined)[];
  if (isChunked(db)) {
    await watchCache(db);
    const idx = indexNow(db) ?? (await attendeeIndex(db));
    attendees = [...delta.keys()].map((id) => {
      const t = idx.rows.get(id);
      return t && attendeeFromTuple(t);
    });
  } else {
    attendees = await db.attendees.bulkGet([...delta.keys()]);
  }
  const adjust = new Map<number | null, number>();
  for (const a of attendees) {
    if (!a) continue;
    const count = a.checkinCount + delta.get(a.id)!;
    const change = Number(countsAsCheckedIn({ status: a.status, checkinCount: count })) - Number(countsAsCheckedIn(a));
    adjust.set(a.categoryId, (adjust.get(a.categoryId) ?? 0) + change * (a.quantity ?? 1));
  }
  return adjust;
}

/** Going and checked-in seats of one ticket category (null: without one) on the door. */
export interface CategoryCounts extends EventCounts {
  categoryId: number | null;
}

/** The event's counts per ticket category as the cached list has them (re-run only when the list changes). */
export async function cachedCategoryCounts(db: DoorDb, eventId: number): Promise<CategoryCounts[]> {
  const counts = new Map<number | null, EventCounts>();
  const add = (categoryId: number | null, seats: number, going: boolean, checkedIn: boolean) => {
    const c = counts.get(categoryId) ?? { going: 0, checkedIn: 0 };
    c.going += going ? seats : 0;
    c.checkedIn += checkedIn ? seats : 0;
    counts.set(categoryId, c);
  };
  if (isChunked(db)) {
    await watchCache(db);
    for (const [categoryId, c] of (indexNow(db) ?? (await attendeeIndex(db))).countsByCategory(eventId)) counts.set(categoryId, c);
  } else {
    await db.attendees
      .where('eventId')
      .equals(eventId)
      .each((a) => add(a.categoryId ?? null, a.quantity ?? 1, a.going === 1, a.checkedIn === 1));
  }
  return [...counts].map(([categoryId, c]) => ({ categoryId, ...c }));
}

/** The event's counts from the cache plus this device's check-ins the cache does not show yet. */
export async function eventCounts(db: DoorDb, eventId: number): Promise<EventCounts> {
  if (isChunked(db)) {
    const [cached, adjust] = await Promise.all([cachedEventCounts(db, eventId), localCheckedInAdjustment(db, eventId)]);
    return { going: cached.going, checkedIn: cached.checkedIn + adjust };
  }
  return db.transaction('r', db.attendees, db.checkins, async () => {
    const [cached, adjust] = await Promise.all([cachedEventCounts(db, eventId), localCheckedInAdjustment(db, eventId)]);
    return { going: cached.going, checkedIn: cached.checkedIn + adjust };
  });
}

/** Items the server refused (admitted scans or undos): listed for staff, never resent. */
export function rejectedItems(db: DoorDb): Promise<OutboxItem[]> {
  return db.outbox.where('status').equals('rejected').toArray();
}

/** Stored scans the server flagged with a conflict (e.g. cancelled before the scan). */
export function conflictScans(db: DoorDb): Promise<LocalCheckin[]> {
  // rows without a conflict are not in the `conflict` index (IndexedDB skips null keys)
  return db.checkins.orderBy('conflict').toArray();
}

/** The latest scans on this device, newest first. */
export function recentScans(db: DoorDb, limit = 20): Promise<LocalCheckin[]> {
  return db.checkins.orderBy('scannedMs').reverse().limit(limit).toArray();
}
