/**
 * The admin's offline store (issue 8 item 6, decision 012): one Dexie database per signed-in
 * user, `svc-admin-offline-<userId>`, apart from the door device's `svc-door`. It uses the
 * door's schema (events, attendees, syncState, … filled by the door's sync engine with a
 * session transport) plus two admin tables:
 *
 * - `kept`: the events this administrator chose to keep offline;
 * - `edits`: attendee edits waiting for the server (client UUID, the fields changed, the
 *   values the admin saw before editing = the base), and, once reconciled, the ones the admin
 *   must be told about (`attention`: a field the server kept, or an edit the server refused).
 *
 * The list queries here run over the cache the way the server runs them (search, status
 * filter, sort, offset paging), with queued edits laid over the cached rows.
 */
import Dexie, { type EntityTable } from 'dexie';
import { DOOR_STORES, normalizeSearch, searchTerms, type AttendeeRecord, type DoorDb, type EventRecord } from '../door/db/door-db';
import type { AttendeeCore, AttendeeSortKey } from '../../shared/attendees';
import { EDIT_FIELDS, mergeEdits, type EditField, type FieldValues, type KeptField } from './reconcile';

export const ADMIN_OFFLINE_DB_PREFIX = 'svc-admin-offline';

export interface KeptEvent {
  eventId: number;
  keptMs: number;
}

/** `queued`: waiting for the server. `attention`: reconciled or refused; listed until dismissed. */
export type EditState = 'queued' | 'attention';

export type EditRefusal = 'deleted' | 'refused';

export interface QueuedEdit {
  clientId: string;
  attendeeId: number;
  eventId: number;
  /** The attendee's name when edited, to name the row in notices. */
  label: string;
  changes: FieldValues;
  base: FieldValues;
  state: EditState;
  createdMs: number;
  attempts: number;
  /** Fields the server kept (changed there since the base). */
  kept: KeptField[];
  /** Fields the server took from this edit. */
  sent: EditField[];
  /**
   * Why the edit was not saved (attention without kept fields), as a code worded when drawn, so a
   * language switch changes it: `deleted` (the attendee is gone), `refused` (`reason` says why).
   * Edits settled before codes were stored have only their English `reason`.
   */
  refusal?: EditRefusal | null;
  /** The server's own words when it refused the edit. */
  reason: string | null;
  settledMs: number | null;
}

export type AdminOfflineDb = DoorDb & {
  kept: EntityTable<KeptEvent, 'eventId'>;
  edits: EntityTable<QueuedEdit, 'clientId'>;
};

export function adminOfflineDbName(userId: number): string {
  return `${ADMIN_OFFLINE_DB_PREFIX}-${userId}`;
}

export function openAdminOfflineDb(name: string): AdminOfflineDb {
  const db = new Dexie(name) as AdminOfflineDb;
  db.version(1).stores({ ...DOOR_STORES, kept: 'eventId', edits: 'clientId, attendeeId, eventId, state, createdMs' });
  return db;
}

// ---- kept events --------------------------------------------------------------------------

export async function keptEventIds(db: AdminOfflineDb): Promise<number[]> {
  return ((await db.kept.toCollection().primaryKeys()) as number[]).sort((a, b) => a - b);
}

/** Adds or removes an event; stopping drops its cached rows now (queued edits stay). */
export async function setKept(db: AdminOfflineDb, eventId: number, keep: boolean, nowMs = Date.now()): Promise<void> {
  await db.transaction('rw', [db.kept, db.events, db.attendees, db.syncState], async () => {
    if (keep) {
      await db.kept.put({ eventId, keptMs: nowMs });
      return;
    }
    await db.kept.delete(eventId);
    await db.events.delete(eventId);
    await db.attendees.where('eventId').equals(eventId).delete();
    for (const state of await db.syncState.toArray()) {
      if (state.downloads[eventId]) {
        delete state.downloads[eventId];
        await db.syncState.put(state);
      }
    }
  });
}

/** When the cache of `eventId` was last brought up to date (null: not downloaded yet). */
export async function cacheAsOf(db: AdminOfflineDb, eventId: number): Promise<number | null> {
  const states = await db.syncState.toArray();
  const state = states.find((s) => s.downloads[eventId]?.done);
  return state?.lastSyncMs ?? null;
}

// ---- the edit queue -------------------------------------------------------------------------

function newClientId(): string {
  return globalThis.crypto.randomUUID();
}

/**
 * Queues an edit of one attendee. A second offline edit of the same attendee is folded into the
 * queued one (the oldest base per field is kept); an edit that undoes itself leaves nothing.
 */
export async function queueEdit(
  db: AdminOfflineDb,
  edit: { attendeeId: number; eventId: number; label: string; changes: FieldValues; base: FieldValues },
  nowMs = Date.now(),
): Promise<QueuedEdit | null> {
  return db.transaction('rw', db.edits, async () => {
    const queued = await db.edits
      .where('attendeeId')
      .equals(edit.attendeeId)
      .filter((e) => e.state === 'queued')
      .first();
    if (queued) {
      const merged = mergeEdits(queued, edit);
      if (Object.keys(merged.changes).length === 0) {
        await db.edits.delete(queued.clientId);
        return null;
      }
      const next = { ...queued, ...merged, label: edit.label };
      await db.edits.put(next);
      return next;
    }
    const row: QueuedEdit = {
      clientId: newClientId(),
      attendeeId: edit.attendeeId,
      eventId: edit.eventId,
      label: edit.label,
      changes: edit.changes,
      base: edit.base,
      state: 'queued',
      createdMs: nowMs,
      attempts: 0,
      kept: [],
      sent: [],
      reason: null,
      settledMs: null,
    };
    await db.edits.add(row);
    return row;
  });
}

export async function queuedEdits(db: AdminOfflineDb, eventId?: number): Promise<QueuedEdit[]> {
  const rows = await db.edits.where('state').equals('queued').sortBy('createdMs');
  return eventId === undefined ? rows : rows.filter((r) => r.eventId === eventId);
}

export async function attentionEdits(db: AdminOfflineDb, eventId?: number): Promise<QueuedEdit[]> {
  const rows = await db.edits.where('state').equals('attention').sortBy('createdMs');
  return eventId === undefined ? rows : rows.filter((r) => r.eventId === eventId);
}

export async function dismissEdit(db: AdminOfflineDb, clientId: string): Promise<void> {
  await db.edits.delete(clientId);
}

/** The cached attendee after the server answered: the list shows the server's values at once. */
export async function storeServerAttendee(db: AdminOfflineDb, a: AttendeeCore): Promise<void> {
  const cached = await db.attendees.get(a.id);
  if (!cached) return;
  await db.attendees.put({
    ...cached,
    displayName: a.displayName,
    email: a.email,
    status: a.status,
    quantity: a.quantity,
    going: a.status === 'going' || a.status === '' ? 1 : 0,
    terms: searchTerms(a.displayName, a.email),
  });
}

// ---- list queries over the cache ----------------------------------------------------------

export interface CachedAttendee extends AttendeeCore {
  checkinCount: number;
  lastCheckinUtc: string | null;
  /** Fields with a queued edit laid over the cached value. */
  pending: EditField[];
}

export interface CacheQuery {
  eventId: number;
  search?: string;
  status?: string;
  sort?: AttendeeSortKey;
  order?: 'asc' | 'desc';
  page: number;
  perPage: number;
}

/** Lays queued edits over rows (server or cache): what the admin will see once they are sent. */
export function overlayEdits<T extends Omit<AttendeeCore, 'eventId'>>(rows: T[], edits: QueuedEdit[]): Array<T & { pending: EditField[] }> {
  const byAttendee = new Map(edits.filter((e) => e.state === 'queued').map((e) => [e.attendeeId, e]));
  return rows.map((row) => {
    const edit = byAttendee.get(row.id);
    if (!edit) return { ...row, pending: [] };
    const pending = EDIT_FIELDS.filter((f) => edit.changes[f] !== undefined);
    return { ...row, ...edit.changes, pending } as T & { pending: EditField[] };
  });
}

function compareBy(sort: AttendeeSortKey): (a: CachedAttendee, b: CachedAttendee) => number {
  // created/updated times are not in the synced tuples: those sorts fall back to id (= creation order)
  if (sort === 'quantity') return (a, b) => a.quantity - b.quantity;
  if (sort === 'displayName' || sort === 'email' || sort === 'status') {
    return (a, b) => {
      const x = a[sort];
      const y = b[sort];
      return x < y ? -1 : x > y ? 1 : 0;
    };
  }
  return () => 0;
}

/**
 * One page of an event's cached attendees, searched (name or email contains the text, accents
 * and case folded, like the server), filtered by status and sorted (ties by id) locally.
 */
export async function queryCachedAttendees(db: AdminOfflineDb, q: CacheQuery): Promise<{ items: CachedAttendee[]; total: number }> {
  const [records, edits] = await Promise.all([db.attendees.where('eventId').equals(q.eventId).toArray(), queuedEdits(db, q.eventId)]);
  let rows: CachedAttendee[] = overlayEdits(
    records.map((r: AttendeeRecord) => ({
      id: r.id,
      eventId: r.eventId,
      displayName: r.displayName,
      email: r.email,
      status: r.status,
      quantity: r.quantity,
      checkinCount: r.checkinCount,
      lastCheckinUtc: r.lastCheckinUtc,
    })),
    edits,
  );
  const needle = normalizeSearch(q.search ?? '');
  if (needle) rows = rows.filter((r) => normalizeSearch(`${r.displayName}\n${r.email}`).includes(needle));
  if (q.status) rows = rows.filter((r) => (r.status === '' ? 'going' : r.status) === q.status);
  const compare = compareBy(q.sort ?? 'id');
  const sign = q.order === 'desc' ? -1 : 1;
  rows.sort((a, b) => sign * (compare(a, b) || a.id - b.id));
  const start = (q.page - 1) * q.perPage;
  return { items: rows.slice(start, start + q.perPage), total: rows.length };
}

export async function cachedEvents(db: AdminOfflineDb): Promise<EventRecord[]> {
  return (await db.events.toArray()).sort((a, b) => (a.startsUtc < b.startsUtc ? -1 : a.startsUtc > b.startsUtc ? 1 : a.id - b.id));
}
