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
 *
 * Version 2 (the door, 100,000 attendees): the download is kept as chunks, one record per page,
 * and answered from an in-memory index built at start (attendee-index.ts); `attendees` then holds
 * only what changed since (pull deltas, walk-ins). The admin's copy keeps version 1.
 */
import Dexie, { type EntityTable, type Table } from 'dexie';
import type { AttendeeCore } from '../../../shared/attendees';
import type { AttendeeTuple, CheckinSource, Conflict, PushItem, SyncCategory, SyncEvent, Verdict, WalkInPushItem } from '../../../shared/checkin';
import { countsAsCheckedIn, statusAdmits } from '../../../shared/checkin-rules';

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
  /** The ticket categories of the followed events, as the last pull answered them (absent before one did). */
  categories?: SyncCategory[];
  /** The check-in list: the categories this device admits; null or absent = every ticket (docs/decisions/029-check-in-lists.md). */
  checkinList?: number[] | null;
}

export type EventRecord = SyncEvent;

/** An attendee as the server last told it (cache). */
export interface AttendeeRecord extends AttendeeCore {
  codeHash: string;
  checkinCount: number;
  lastCheckinUtc: string | null;
  lastCheckinDevice: string | null;
  /** 1 when the server counts the attendee checked in (`countsAsCheckedIn`; indexed with eventId for the count). */
  checkedIn: 0 | 1;
  /** 1 when the status admits (going or the old empty status), for the "going" count. */
  going: 0 | 1;
  /** Lower-cased words of the name and the email, for offline name search by prefix. */
  terms: string[];
  /** The ticket category; null = the event's implicit single category (or a server before categories). */
  categoryId: number | null;
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
  /** The event's attendees as the first page said (absent on a download started before it was sent). */
  total?: number;
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

/**
 * One stored download page (version 2, the door only): its attendee tuples as the JSON text of an
 * array, one IndexedDB record per page instead of one per attendee (docs/api.md#sync). `key`:
 * `<eventId>:<nextAfterId>`.
 */
export interface AttendeeChunk {
  key: string;
  eventId: number;
  count: number;
  tuples: string;
}

/** An attendee a pull deleted that a chunk still holds (version 2): hidden until the next re-download. */
export interface GoneAttendee {
  id: number;
}

export type DoorDb = Dexie & {
  device: EntityTable<DeviceRecord, 'key'>;
  events: EntityTable<EventRecord, 'id'>;
  /**
   * The door (version 2): attendees changed since the download (pull deltas) and local walk-ins,
   * laid over `attendeeChunks`. The admin's offline database (version 1 schema): every attendee.
   */
  attendees: EntityTable<AttendeeRecord, 'id'>;
  checkins: EntityTable<LocalCheckin, 'clientId'>;
  /** A union row type: Table rather than EntityTable, whose insert type cannot spread a union. */
  outbox: Table<OutboxItem, number>;
  syncState: EntityTable<SyncStateRecord, 'deviceId'>;
  /** Present only where `isChunked(db)` (the door's version 2). */
  attendeeChunks: EntityTable<AttendeeChunk, 'key'>;
  attendeeGone: EntityTable<GoneAttendee, 'id'>;
};

/** The door schema version 1, one record per attendee; the admin's offline database reuses it (decision 012). */
export const DOOR_STORES = {
  device: 'key',
  events: 'id',
  attendees: 'id, eventId, codeHash, *terms, [eventId+going], [eventId+checkedIn]',
  checkins: 'clientId, attendeeId, codeHash, eventId, state, scannedMs, undo, conflict',
  outbox: '++seq, &clientId, status',
  syncState: 'deviceId',
} as const;

/** Version 2 adds the download chunks and the deletions laid over them (attendee-index.ts). */
export const DOOR_CHUNK_STORES = { attendeeChunks: 'key, eventId', attendeeGone: 'id' } as const;

/** Tuples per chunk when the upgrade to version 2 regroups the stored attendees. */
const UPGRADE_CHUNK_SIZE = 10_000;

/**
 * Opens (creating or upgrading) the door database. `name` lets tests keep databases apart.
 * The upgrade to version 2 moves the cached attendees into chunks (10,000 per record, by event
 * and id), so a device updated offline at the door keeps its list, its pull cursor, its outbox,
 * its local scans and its local walk-ins (negative ids stay in `attendees`).
 */
export function openDoorDb(name = DOOR_DB_NAME): DoorDb {
  const db = new Dexie(name) as DoorDb;
  db.version(1).stores(DOOR_STORES);
  db.version(2)
    .stores({ ...DOOR_STORES, ...DOOR_CHUNK_STORES })
    .upgrade(async (tx) => {
      const rows = (await tx.table('attendees').where('id').above(0).toArray()) as AttendeeRecord[];
      const byEvent = new Map<number, AttendeeTuple[]>();
      for (const a of rows.sort((x, y) => x.id - y.id)) {
        const list = byEvent.get(a.eventId) ?? [];
        list.push(tupleFromAttendee(a));
        byEvent.set(a.eventId, list);
      }
      const chunks: AttendeeChunk[] = [];
      for (const [eventId, tuples] of byEvent) {
        for (let i = 0; i < tuples.length; i += UPGRADE_CHUNK_SIZE) {
          const part = tuples.slice(i, i + UPGRADE_CHUNK_SIZE);
          chunks.push({ key: `${eventId}:${part.at(-1)![0]}`, eventId, count: part.length, tuples: JSON.stringify(part) });
        }
      }
      await tx.table('attendeeChunks').bulkPut(chunks);
      await tx.table('attendees').where('id').above(0).delete();
    });
  return db;
}

/** Whether `db` keeps downloads as chunks with an in-memory index (the door) or one record per attendee (the admin's copy). */
export function isChunked(db: Dexie): boolean {
  return db.tables.some((t) => t.name === 'attendeeChunks');
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

/** An attendee record back to the download's tuple (the in-memory index keeps tuples). */
export function tupleFromAttendee(a: AttendeeRecord): AttendeeTuple {
  return [
    a.id,
    a.eventId,
    a.displayName,
    a.email,
    a.status,
    a.quantity,
    a.codeHash,
    a.checkinCount,
    a.lastCheckinUtc,
    a.lastCheckinDevice,
    null,
    a.categoryId ?? null,
  ];
}

export function attendeeFromTuple(t: AttendeeTuple): AttendeeRecord {
  const [id, eventId, displayName, email, status, quantity, codeHash, checkinCount, lastCheckinUtc, lastCheckinDevice, , categoryId] = t;
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
    checkedIn: countsAsCheckedIn({ status, checkinCount }) ? 1 : 0,
    going: statusAdmits(status) ? 1 : 0,
    terms: searchTerms(displayName, email),
    categoryId: categoryId ?? null,
  };
}
