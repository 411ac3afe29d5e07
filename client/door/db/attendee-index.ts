/**
 * The door's attendee list in memory (docs/api.md#sync): built once per page load from the stored
 * download chunks (one IndexedDB record per download page), the attendees changed since (pull
 * deltas and walk-ins, the `attendees` table) and the deletions laid over them (`attendeeGone`).
 * A scan's verdict then needs no IndexedDB read: SHA-256, a Map get, and — only for an attendee
 * this device has scanned before — its local check-ins (the `checkins` table stays their source
 * of truth, across reloads).
 *
 * Every write of the cache goes through `cacheWrite`: the IndexedDB transaction first, then the
 * same change in memory; readers wait for writes in flight, so a reader never sees memory behind
 * the database. Other tabs are told to rebuild (BroadcastChannel).
 *
 * Only a database with the chunk stores (`isChunked`, the door's version 2) has an index; the
 * admin's offline copy keeps one record per attendee and reads it with Dexie.
 */
import type { AttendeeTuple } from '../../../shared/checkin';
import { countsAsCheckedIn, statusAdmits } from '../../../shared/checkin-rules';
import { searchTerms, type DoorDb } from './door-db';

/** An attendee's seats (the tuple's quantity): what the door counts, as the admin dashboard does. */
const seatsOf = (t: AttendeeTuple): number => t[5] ?? 1;

/** Overlay rows (attendees changed since the download) past which they are folded back into chunks. */
export const OVERLAY_COMPACT_AT = 5000;
/** Tuples per chunk written by a compaction (a download writes one chunk per page). */
export const COMPACT_CHUNK_SIZE = 10_000;

export class AttendeeIndex {
  /** Every cached attendee by id, as its download tuple (code hash lower-cased). */
  readonly rows = new Map<number, AttendeeTuple>();
  readonly byHash = new Map<string, number>();
  /** Ids of server attendees held by the `attendees` overlay (pull deltas), to know when to compact. */
  readonly overlay = new Set<number>();
  /**
   * Name search: the search text of every server attendee (` word word …`) in ONE string, rows
   * apart by a newline, with each row's start offset and id, so a keystroke is one `indexOf` scan
   * of a flat string. Rows changed since it was made are in `dirty` and checked one by one.
   */
  private text: { body: string; starts: Int32Array; ids: Int32Array } | null = null;
  private readonly dirty = new Set<number>();
  /** Search text of attendees not in `text` yet (made ahead by `warmSearch`, or for dirty rows). */
  private readonly hay = new Map<number, string>();

  constructor(
    /** Attendee ids with at least one local check-in row: only these read `checkins` on a scan (a superset is safe). */
    readonly localIds: Set<number>,
  ) {}

  put(t: AttendeeTuple): void {
    const hash = t[6].toLowerCase();
    if (hash !== t[6]) t = [...t.slice(0, 6), hash, ...t.slice(7)] as AttendeeTuple;
    const old = this.rows.get(t[0]);
    if (old) {
      if (old[6] !== hash && this.byHash.get(old[6]) === t[0]) this.byHash.delete(old[6]);
      if (old[2] !== t[2] || old[3] !== t[3]) this.hay.delete(t[0]);
    }
    if (this.text) this.dirty.add(t[0]);
    this.rows.set(t[0], t);
    this.byHash.set(hash, t[0]);
  }

  delete(id: number): void {
    const old = this.rows.get(id);
    if (!old) return;
    this.rows.delete(id);
    this.hay.delete(id);
    if (this.text) this.dirty.add(id);
    this.overlay.delete(id);
    if (this.byHash.get(old[6]) === id) this.byHash.delete(old[6]);
  }

  deleteEvent(eventId: number): void {
    for (const [id, t] of this.rows) if (t[1] === eventId) this.delete(id);
  }

  clear(): void {
    this.rows.clear();
    this.byHash.clear();
    this.hay.clear();
    this.overlay.clear();
    this.text = null;
    this.dirty.clear();
  }

  byCode(codeHash: string): AttendeeTuple | undefined {
    const id = this.byHash.get(codeHash);
    return id === undefined ? undefined : this.rows.get(id);
  }

  /**
   * Seats of the event whose status admits, and those of them checked in (the server's rule,
   * `countsAsCheckedIn`): seats, as the admin dashboard counts them; `total` is attendees.
   */
  counts(eventId: number): { going: number; checkedIn: number; total: number } {
    let going = 0;
    let checkedIn = 0;
    let total = 0;
    for (const t of this.rows.values()) {
      if (t[1] !== eventId) continue;
      total++;
      if (statusAdmits(t[4])) going += seatsOf(t);
      if (countsAsCheckedIn({ status: t[4], checkinCount: t[7] })) checkedIn += seatsOf(t);
    }
    return { going, checkedIn, total };
  }

  /** `counts`' seats per ticket category (null: attendees without one). */
  countsByCategory(eventId: number): Map<number | null, { going: number; checkedIn: number }> {
    const byCategory = new Map<number | null, { going: number; checkedIn: number }>();
    for (const t of this.rows.values()) {
      if (t[1] !== eventId) continue;
      const categoryId = t[11] ?? null;
      let c = byCategory.get(categoryId);
      if (!c) byCategory.set(categoryId, (c = { going: 0, checkedIn: 0 }));
      if (statusAdmits(t[4])) c.going += seatsOf(t);
      if (countsAsCheckedIn({ status: t[4], checkinCount: t[7] })) c.checkedIn += seatsOf(t);
    }
    return byCategory;
  }

  private hayOf(t: AttendeeTuple): string {
    let h = this.hay.get(t[0]);
    if (h === undefined) {
      h = ` ${searchTerms(t[2], t[3]).join(' ')}`;
      this.hay.set(t[0], h);
    }
    return h;
  }

  /** One flat string of every server attendee's search text: the old one's rows reused, changed rows made again. */
  private searchText(): { body: string; starts: Int32Array; ids: Int32Array } {
    if (this.text && this.dirty.size <= 2000) return this.text;
    const old = this.text;
    const oldRow = new Map<number, number>();
    if (old) for (let r = 0; r < old.ids.length; r++) oldRow.set(old.ids[r]!, r);
    const parts: string[] = [];
    const ids: number[] = [];
    for (const t of this.rows.values()) {
      if (t[0] < 0) continue;
      const r = this.dirty.has(t[0]) ? undefined : oldRow.get(t[0]);
      parts.push(r !== undefined ? old!.body.slice(old!.starts[r], (old!.starts[r + 1] ?? old!.body.length + 1) - 1) : this.hayOf(t));
      ids.push(t[0]);
    }
    const starts = new Int32Array(parts.length);
    let at = 0;
    for (let r = 0; r < parts.length; r++) {
      starts[r] = at;
      at += parts[r]!.length + 1;
    }
    this.text = { body: parts.join('\n'), starts, ids: Int32Array.from(ids) };
    this.dirty.clear();
    this.hay.clear();
    return this.text;
  }

  /**
   * Attendees of `eventId` with, for every word, a word of the name or email starting with it
   * (words already normalized). A local walk-in (negative id) is not searchable (walk-ins.ts).
   */
  search(eventId: number, words: string[], limit: number): AttendeeTuple[] {
    const { body, starts, ids } = this.searchText();
    // scan with the rarest word (counted in the first 256 KB), so "guest 4711" walks the hits of "4711", not of "guest"
    const sample = body.length > 262_144 ? body.slice(0, 262_144) : body;
    const hits = (n: string) => {
      let c = 0;
      for (let p = sample.indexOf(n); p !== -1 && c < 2000; p = sample.indexOf(n, p + n.length)) c++;
      return c;
    };
    const needles = words
      .map((w) => ({ n: ` ${w}`, c: hits(` ${w}`) }))
      .sort((a, b) => a.c - b.c || b.n.length - a.n.length)
      .map((x) => x.n);
    const found: AttendeeTuple[] = [];
    const matches = (h: string) => needles.every((n) => h.includes(n));
    // the first word through the flat string; the row it falls in is checked for the others
    let row = 0;
    for (let pos = body.indexOf(needles[0]!); pos !== -1 && found.length < limit;) {
      let lo = row;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid]! <= pos) lo = mid;
        else hi = mid - 1;
      }
      const end = lo + 1 < starts.length ? starts[lo + 1]! - 1 : body.length;
      const t = this.dirty.has(ids[lo]!) ? undefined : this.rows.get(ids[lo]!);
      if (t && t[1] === eventId && matches(body.slice(starts[lo], end))) found.push(t);
      pos = body.indexOf(needles[0]!, end);
      row = lo + 1;
    }
    for (const id of this.dirty) {
      if (found.length >= limit) break;
      const t = this.rows.get(id);
      if (t && t[0] > 0 && t[1] === eventId && matches(this.hayOf(t))) found.push(t);
    }
    return found;
  }

  /** Whether name search is ready without making search text first. */
  get searchWarm(): boolean {
    return this.text !== null && this.dirty.size <= 2000;
  }

  /** Makes the search text of up to `budget` attendees ahead of the first search, then the flat string; answers whether it is made. */
  warmSearch(budget: number): boolean {
    if (this.searchWarm) return true;
    for (const t of this.rows.values()) {
      if (t[0] < 0 || this.hay.has(t[0]) || (this.text && !this.dirty.has(t[0]))) continue;
      if (budget-- <= 0) return false;
      this.hayOf(t);
    }
    this.searchText();
    return true;
  }

  /** The event's tuples, for a compaction. */
  eventTuples(eventId: number): AttendeeTuple[] {
    const out: AttendeeTuple[] = [];
    for (const t of this.rows.values()) if (t[1] === eventId && t[0] > 0) out.push(t);
    return out;
  }
}

interface Handle {
  ready: Promise<AttendeeIndex>;
  /** Set once `ready` resolved: lets a reader skip the await. */
  index: AttendeeIndex | null;
  localIds: Set<number>;
  /** Writes in flight (database first, then memory). */
  writes: Set<Promise<unknown>>;
  /** Bumped when a write starts: a reader that also read IndexedDB checks nothing started meanwhile. */
  version: number;
}

const handles = new WeakMap<DoorDb, Handle>();
const localSets = new WeakMap<DoorDb, Set<number>>();
const channels = new WeakMap<DoorDb, BroadcastChannel | null>();

/** Tells the other tabs of this database that the cache changed (they rebuild on next use). */
function channelOf(db: DoorDb): BroadcastChannel | null {
  if (channels.has(db)) return channels.get(db)!;
  let channel: BroadcastChannel | null = null;
  if (typeof BroadcastChannel === 'function') {
    channel = new BroadcastChannel(`svc-door-cache:${db.name}`);
    (channel as { unref?: () => void }).unref?.();
    channel.onmessage = () => dropIndex(db);
  }
  channels.set(db, channel);
  return channel;
}

async function load(db: DoorDb, localIds: Set<number>): Promise<AttendeeIndex> {
  if (!db.isOpen()) await db.open();
  const idx = new AttendeeIndex(localIds);
  // one read-only transaction: chunks, overlay, deletions and the local check-ins' attendee ids agree
  const [chunks, overlay, gone, ids] = await db.transaction('r', [db.attendeeChunks, db.attendees, db.attendeeGone, db.checkins], () =>
    Promise.all([
      db.attendeeChunks.toArray(),
      db.attendees.toArray(),
      db.attendeeGone.toCollection().primaryKeys(),
      db.checkins.orderBy('attendeeId').uniqueKeys(),
    ]),
  );
  for (const chunk of chunks) for (const t of JSON.parse(chunk.tuples) as AttendeeTuple[]) idx.put(t);
  for (const a of overlay) {
    idx.put([a.id, a.eventId, a.displayName, a.email, a.status, a.quantity, a.codeHash, a.checkinCount, a.lastCheckinUtc, a.lastCheckinDevice, null]);
    if (a.id > 0) idx.overlay.add(a.id);
  }
  for (const id of gone) idx.delete(id);
  for (const id of ids) localIds.add(id as number);
  return idx;
}

function handleOf(db: DoorDb): Handle {
  let h = handles.get(db);
  if (!h) {
    // kept across rebuilds: a scan noted while an index is dropped and rebuilt is never lost (a superset is safe)
    let localIds = localSets.get(db);
    if (!localIds) localSets.set(db, (localIds = new Set<number>()));
    const handle: Handle = { ready: load(db, localIds), index: null, localIds, writes: new Set(), version: 0 };
    handle.ready.then(
      (idx) => (handle.index = idx),
      () => handles.get(db) === handle && handles.delete(db),
    );
    handles.set(db, handle);
    channelOf(db);
    h = handle;
  }
  return h;
}

/** The index of a chunked door database, built on first use and kept up to date by `cacheWrite`. */
export async function attendeeIndex(db: DoorDb): Promise<AttendeeIndex> {
  const h = handleOf(db);
  if (h.index && h.writes.size === 0) return h.index;
  const idx = await h.ready;
  // the writes in flight when asked (not later ones: a reader is never starved by a download)
  if (h.writes.size > 0) await Promise.allSettled([...h.writes]);
  return handles.get(db) === h ? idx : attendeeIndex(db);
}

/** The index when it is built and no write is in flight, without waiting (null otherwise). */
export function indexNow(db: DoorDb): AttendeeIndex | null {
  const h = handles.get(db);
  return h?.index && h.writes.size === 0 ? h.index : null;
}

/** The index if built, even with writes in flight (inside a write's own transaction, where waiting would deadlock). */
export function peekIndex(db: DoorDb): AttendeeIndex | null {
  return handles.get(db)?.index ?? null;
}

/** Whether the index of `db` is built (for "loading N attendees" on screen). */
export function indexLoaded(db: DoorDb): boolean {
  return handles.get(db)?.index != null;
}

/** Changes whenever a cache write starts (see `Handle.version`). */
export function cacheVersion(db: DoorDb): number {
  return handles.get(db)?.version ?? -1;
}

/** Notes that an attendee has a local check-in row now (before its transaction commits: a superset is safe). */
export function noteLocalCheckin(db: DoorDb, attendeeId: number | null): void {
  if (attendeeId === null) return;
  let ids = localSets.get(db);
  if (!ids) localSets.set(db, (ids = new Set<number>()));
  ids.add(attendeeId);
}

/** Forgets the index: the next use builds it again from the database. */
export function dropIndex(db: DoorDb): void {
  handles.delete(db);
}

/**
 * Writes the cache: `write` (an IndexedDB transaction) first, then `apply` of the same change to
 * the index. Readers wait for it (`attendeeIndex`). `apply` must be idempotent: an index built
 * while the write was in flight may already hold the change.
 */
export async function cacheWrite<T>(db: DoorDb, write: () => Promise<T>, apply: (idx: AttendeeIndex, result: T) => void): Promise<T> {
  const h = handleOf(db);
  h.version++;
  const run = (async () => {
    const result = await write();
    const idx = await h.ready.catch(() => null);
    if (idx && handles.get(db) === h) apply(idx, result);
    return result;
  })();
  h.writes.add(run);
  try {
    return await run;
  } finally {
    h.writes.delete(run);
    channelOf(db)?.postMessage('changed');
  }
}
