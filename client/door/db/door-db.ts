/**
 * The door device's IndexedDB database (Dexie, docs/api.md#sync). Two kinds of data live apart:
 *
 * - the server's state, a cache the device may wipe and download again: `events`,
 *   `attendees`, and the pull position in `syncState`;
 * - the device's own writes, which only the server's acknowledgement may remove: `outbox`
 *   (what still has to be sent) and `checkins` (every scan made here, with its sync state).
 *
 * A pull writes only the cache tables, so it can never overwrite an unsent scan; the verdict
 * adds the device's unreflected check-ins to the cached counts (`localCheckinDelta`).
 * Ticket codes are never stored: attendees are keyed by SHA-256 of the code.
 */
import Dexie, { type EntityTable, type Table } from 'dexie';
import type { AttendeeCore } from '../../../shared/attendees';
import type { AttendeeTuple, CheckinSource, Conflict, PushItem, SyncEvent, Verdict, WalkInPushItem } from '../../../shared/checkin';

export const DOOR_DB_NAME = 'svc-door';

/** The paired device (one row, key `self`): its Bearer token and the events it follows. */
export interface DeviceRecord {
  key: 'self';
  deviceId: number;
  name: string;
  token: string;
  eventIds: number[];
  pairedMs: number;
  /** Set when the server answered svc_device_revoked: sync stops, unsynced scans stay listed. */
  revokedMs: number | null;
  /** The administrator lets this device register walk-ins (absent on a device paired before walk-ins existed). */
  walkIns?: boolean;
}

export type EventRecord = SyncEvent;

/** An attendee as the server last told it (cache). */
export interface AttendeeRecord extends AttendeeCore {
  codeHash: string;
  checkinCount: number;
  lastCheckinUtc: string | null;
  lastCheckinDevice: string | null;
  /** 1 when the server counts a check-in (indexed with eventId for the "checked in" count). */
  checkedIn: 0 | 1;
  /** 1 when the status admits (going or the old empty status), for the "going" count. */
  going: 0 | 1;
  /** Lower-cased words of the name and the email, for offline name search by prefix. */
  terms: string[];
}

/**
 * Where a local scan is in its life: `queued` (in the outbox), `acked` (the server stored it,
 * the cached attendee may not show it yet), `reflected` (a later pull or download carried it),
 * `rejected` (the server refused it: listed for staff), `undone` (undone before it was sent),
 * `refused` (a red verdict: logged, creates no check-in).
 */
export type LocalCheckinState = 'queued' | 'acked' | 'reflected' | 'rejected' | 'undone' | 'refused';
/** Undo of a scan the server already stored: queued, sent, then carried by a pull; or refused. */
export type UndoState = 'queued' | 'acked' | 'reflected' | 'rejected';

export interface LocalCheckin {
  clientId: string;
  eventId: number;
  attendeeId: number | null;
  codeHash: string | null;
  displayName: string;
  quantity: number;
  verdict: Verdict;
  source: Exclude<CheckinSource, 'rest'>;
  scannedUtc: string;
  scannedMs: number;
  state: LocalCheckinState;
  /** When the server acknowledged it (to tell which pulls already carry it). */
  ackedMs: number | null;
  checkinId: number | null;
  conflict: Conflict | null;
  /** Why the server refused it (state `rejected`) or refused its undo. */
  reason: string | null;
  undo: UndoState | null;
  undoAckedMs: number | null;
}

export type OutboxStatus = 'queued' | 'rejected';

/**
 * An item still to send: a scan or a walk-in registered here (sync.push), or the undo of a stored
 * scan (checkin.annul). `sent`: pushed at least once, so the server may hold it even though no
 * answer came back (an undo must then annul it, not drop it).
 */
export type OutboxItem =
  | {
      seq?: number;
      clientId: string;
      kind: 'scan';
      status: OutboxStatus;
      item: PushItem;
      attempts: number;
      createdMs: number;
      reason: string | null;
      sent?: true;
    }
  | {
      seq?: number;
      clientId: string;
      kind: 'walk_in';
      status: OutboxStatus;
      item: WalkInPushItem;
      attempts: number;
      createdMs: number;
      reason: string | null;
      sent?: true;
    }
  | { seq?: number; clientId: string; kind: 'annul'; status: OutboxStatus; checkinId: number; attempts: number; createdMs: number; reason: string | null };

/** Progress of the first download of one event. */
export interface DownloadProgress {
  nextAfterId: number;
  done: boolean;
  count: number;
}

/** Per device: the pull cursor, download progress, last sync. */
export interface SyncStateRecord {
  deviceId: number;
  cursor: string | null;
  downloads: Record<number, DownloadProgress>;
  lastSyncMs: number | null;
  lastAttemptMs: number | null;
  lastError: string | null;
}

export type DoorDb = Dexie & {
  device: EntityTable<DeviceRecord, 'key'>;
  events: EntityTable<EventRecord, 'id'>;
  attendees: EntityTable<AttendeeRecord, 'id'>;
  checkins: EntityTable<LocalCheckin, 'clientId'>;
  /** A union row type: Table rather than EntityTable, whose insert type cannot spread a union. */
  outbox: Table<OutboxItem, number>;
  syncState: EntityTable<SyncStateRecord, 'deviceId'>;
};

/** The door schema (version 1); the admin's offline database reuses it (decision 012). */
export const DOOR_STORES = {
  device: 'key',
  events: 'id',
  attendees: 'id, eventId, codeHash, *terms, [eventId+going], [eventId+checkedIn]',
  checkins: 'clientId, attendeeId, codeHash, eventId, state, scannedMs, undo, conflict',
  outbox: '++seq, &clientId, status',
  syncState: 'deviceId',
} as const;

/** Opens (creating or upgrading) the door database. `name` lets tests keep databases apart. */
export function openDoorDb(name = DOOR_DB_NAME): DoorDb {
  const db = new Dexie(name) as DoorDb;
  db.version(1).stores(DOOR_STORES);
  return db;
}

const WORD_SPLIT = /[\s@._+\-,;:'"()]+/u;

/** Lower-cased words of a name and an email, for prefix search (accents folded). */
export function searchTerms(displayName: string, email: string): string[] {
  const folded = `${displayName} ${email}`
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
  const words = new Set(folded.split(WORD_SPLIT).filter((w) => w.length > 0));
  const mail = email.toLowerCase();
  if (mail) words.add(mail);
  return [...words];
}

export function normalizeSearch(query: string): string {
  return query
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .trim();
}

export function attendeeFromTuple(t: AttendeeTuple): AttendeeRecord {
  const [id, eventId, displayName, email, status, quantity, codeHash, checkinCount, lastCheckinUtc, lastCheckinDevice] = t;
  return {
    id,
    eventId,
    displayName,
    email,
    status,
    quantity,
    codeHash: codeHash.toLowerCase(),
    checkinCount,
    lastCheckinUtc,
    lastCheckinDevice,
    checkedIn: checkinCount > 0 ? 1 : 0,
    going: status === 'going' || status === '' ? 1 : 0,
    terms: searchTerms(displayName, email),
  };
}
