/**
 * Walk-ins at the door (docs/api.md#sync): door staff register a person on the spot, offline, and
 * check them in at once. The device writes a local attendee, its check-in and ONE outbox item (a
 * `walk_in` push item with both client ids) in one transaction. The local attendee has a negative
 * id (server ids are positive) and no ticket code, so no scan can reach it; until the server's
 * answer replaces it with the real attendee (`replaceWalkIn`) it only counts as going and
 * checked in. It is not searchable by name before that: a re-scan of it could not be pushed.
 */
import type { PushItemResult, WalkInPushItem } from '../../../shared/checkin';
import { toUtcString } from '../../../shared/time';
import { cacheWrite, noteLocalCheckin, peekIndex } from './attendee-index';
import { isChunked, searchTerms, tupleFromAttendee, type AttendeeRecord, type DoorDb, type LocalCheckin } from './door-db';

export interface NewWalkIn {
  /** The check-in's client id (also the outbox key, as a scan's). */
  clientId: string;
  /** The attendee's client id. */
  attendeeClientId: string;
  eventId: number;
  displayName: string;
  /** '' when none was given. */
  email: string;
  quantity: number;
  scannedMs: number;
}

/** The local attendee's id: negative, so it never meets a server id, and fixed by its client id. */
export function localAttendeeId(attendeeClientId: string): number {
  return -(parseInt(attendeeClientId.replace(/-/g, '').slice(0, 12), 16) + 1);
}

/** A placeholder in the `codeHash` index that no SHA-256 hex of a scanned code can equal. */
const localCodeHash = (attendeeClientId: string) => `walk-in:${attendeeClientId}`;

/** The name as the server stores it (trimmed). */
export function cleanWalkInName(name: string): string {
  return name.trim();
}

/** Stores a walk-in and queues it, all or nothing: an OK on screen is always queued. */
export async function recordWalkIn(db: DoorDb, walkIn: NewWalkIn): Promise<LocalCheckin> {
  const displayName = cleanWalkInName(walkIn.displayName);
  const email = walkIn.email.trim();
  if (!displayName) throw new Error('A walk-in needs a name.');
  const scannedUtc = toUtcString(walkIn.scannedMs);
  const attendeeId = localAttendeeId(walkIn.attendeeClientId);
  const attendee: AttendeeRecord = {
    id: attendeeId,
    eventId: walkIn.eventId,
    displayName,
    email,
    status: 'going',
    quantity: walkIn.quantity,
    codeHash: localCodeHash(walkIn.attendeeClientId),
    checkinCount: 0,
    lastCheckinUtc: null,
    lastCheckinDevice: null,
    checkedIn: 0,
    going: 1,
    terms: [],
    // registered at the door: no ticket category (the door's list does not apply to a walk-in)
    categoryId: null,
  };
  const checkin: LocalCheckin = {
    clientId: walkIn.clientId,
    eventId: walkIn.eventId,
    attendeeId,
    codeHash: null,
    displayName,
    quantity: walkIn.quantity,
    verdict: 'ok',
    source: 'walk_in',
    scannedUtc,
    scannedMs: walkIn.scannedMs,
    state: 'queued',
    ackedMs: null,
    checkinId: null,
    conflict: null,
    reason: null,
    undo: null,
    undoAckedMs: null,
  };
  const item: WalkInPushItem = {
    kind: 'walk_in',
    clientId: walkIn.clientId,
    attendeeClientId: walkIn.attendeeClientId,
    eventId: walkIn.eventId,
    scannedUtc,
    displayName,
    email,
    quantity: walkIn.quantity,
  };
  const write = () =>
    db.transaction('rw', db.attendees, db.checkins, db.outbox, async () => {
      await db.attendees.add(attendee);
      await db.checkins.add(checkin);
      await db.outbox.add({ clientId: walkIn.clientId, kind: 'walk_in', status: 'queued', item, attempts: 0, createdMs: walkIn.scannedMs, reason: null });
    });
  if (!isChunked(db)) await write();
  else {
    noteLocalCheckin(db, attendeeId);
    await cacheWrite(db, write, (idx) => idx.put(tupleFromAttendee(attendee)));
  }
  return checkin;
}

/** What `replaceWalkIn` changed in the cache, for the in-memory index once the transaction commits. */
export interface WalkInChange {
  localId: number;
  /** The server's attendee that took its place (null: none, or the cache already had it). */
  record: AttendeeRecord | null;
}

/**
 * Inside applyPushResults' transaction, for a walk-in's answer: stored (`inserted`/`duplicate`
 * with the server's attendee) → the local attendee becomes the server's one, same id and code
 * hash as the next pull carries, so the person is never listed twice; refused → the local
 * attendee goes (the server has none). The check-in then points at the server's attendee.
 */
export async function replaceWalkIn(db: DoorDb, item: WalkInPushItem, result: PushItemResult): Promise<WalkInChange | null> {
  const localId = localAttendeeId(item.attendeeClientId);
  const local = await db.attendees.get(localId);
  if (result.status === 'failed') return null;
  if (local) await db.attendees.delete(localId);
  if (result.status === 'rejected' || !result.walkIn) return { localId, record: null };
  const { attendeeId, codeHash } = result.walkIn;
  noteLocalCheckin(db, attendeeId);
  let record: AttendeeRecord | null = null;
  // a pull (or a download, on the door: its chunks are in memory) may already have brought the real row: it is newer than the local copy
  if (local && !(await db.attendees.get(attendeeId)) && !peekIndex(db)?.rows.has(attendeeId)) {
    record = { ...local, id: attendeeId, codeHash, terms: searchTerms(local.displayName, local.email) };
    await db.attendees.put(record);
  }
  await db.checkins.update(item.clientId, { attendeeId, codeHash });
  return { localId, record };
}

/**
 * Undo of a walk-in never sent: the local attendee goes with its check-in (inside undoScan's
 * transaction). Answers the id it dropped, for the in-memory index.
 */
export async function dropLocalWalkIn(db: DoorDb, row: LocalCheckin): Promise<number | null> {
  if (row.source !== 'walk_in' || row.attendeeId === null || row.attendeeId >= 0) return null;
  await db.attendees.delete(row.attendeeId);
  return row.attendeeId;
}
