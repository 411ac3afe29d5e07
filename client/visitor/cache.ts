/**
 * Cached reads for the visitor pages. Online, the network answers first and its answer is then
 * kept (copies.ts: localStorage); offline — or when the network fails — the stored copy shows and
 * says how old it is; with no copy the page shows the error. IndexedDB (and Dexie) is opened only
 * for a copy localStorage refused, or to find one an older version of the app kept there.
 */
import { createEffect, createMemo, createSignal, on, onCleanup, type Accessor } from 'solid-js';
import { ApiError, errorMessage } from '../ui/errors';
import type { VisitorDb } from './db';
import { openVisitorDb } from './open-db';
import { copyState, markGone, storeCopy, type Cached } from './copies';

export type { Cached };

export async function readCache<T>(db: VisitorDb, key: string): Promise<Cached<T> | undefined> {
  const entry = await db.cache.get(key);
  return entry ? { value: entry.value as T, fetchedAt: entry.fetchedAt } : undefined;
}

export async function writeCache<T>(db: VisitorDb, key: string, value: T, fetchedAt = Date.now()): Promise<void> {
  await db.cache.put({ key, value, fetchedAt });
}

/** localStorage key of the copies a page left before the database was open (see keepCopy). */
export const UNSAVED_COPIES_KEY = 'svc-visitor-unsaved';

/** Copies answered this visit and not yet in IndexedDB (Dexie still loading), by key. */
const unsaved = new Map<string, Cached<unknown>>();
/** Copies an earlier visit left in localStorage, read once; moved into IndexedDB when it opens. */
let leftovers: Map<string, Cached<unknown>> | undefined;

function readLeftovers(): Map<string, Cached<unknown>> {
  if (!leftovers) {
    leftovers = new Map();
    try {
      const raw = localStorage.getItem(UNSAVED_COPIES_KEY);
      for (const [k, copy] of Object.entries((raw ? JSON.parse(raw) : {}) as Record<string, Cached<unknown>>)) leftovers.set(k, copy);
    } catch {
      /* unreadable: the next answer replaces it */
    }
  }
  return leftovers;
}

/** Writes the copies an earlier visit left into IndexedDB, then forgets them. */
async function moveLeftovers(db: VisitorDb): Promise<void> {
  const left = readLeftovers();
  if (left.size === 0) return;
  for (const [k, copy] of left) {
    const stored = await readCache(db, k);
    if (!stored || stored.fetchedAt < copy.fetchedAt) await writeCache(db, k, copy.value, copy.fetchedAt);
  }
  left.clear();
  localStorage.removeItem(UNSAVED_COPIES_KEY);
}

/** A copy the server says is gone (404): dropped wherever it still waits. */
function forgetCopy(k: string): void {
  markGone(k);
  unsaved.delete(k);
  const left = readLeftovers();
  if (!left.delete(k)) return;
  if (left.size === 0) localStorage.removeItem(UNSAVED_COPIES_KEY);
  else localStorage.setItem(UNSAVED_COPIES_KEY, JSON.stringify(Object.fromEntries(left)));
}

let leaveHooked = false;

/**
 * Keeps an answer for offline: in localStorage (copies.ts), at once. A copy localStorage refuses
 * goes to IndexedDB as soon as the database is open; a page left before that (a reload right
 * after the answer showed, while Dexie was still loading) puts the copies still waiting into
 * localStorage's `svc-visitor-unsaved` on `pagehide`, and the next visit shows them and moves
 * them into IndexedDB.
 */
function keepCopy(k: string, value: unknown, fetchedAt: number): void {
  if (storeCopy(k, value, fetchedAt)) return;
  unsaved.set(k, { value, fetchedAt });
  if (!leaveHooked) {
    leaveHooked = true;
    window.addEventListener('pagehide', () => {
      if (unsaved.size === 0) return;
      try {
        const all = Object.fromEntries([...readLeftovers(), ...unsaved]);
        localStorage.setItem(UNSAVED_COPIES_KEY, JSON.stringify(all));
      } catch {
        /* storage full or refused: the copy is lost, as IndexedDB would have lost it */
      }
    });
  }
  void openVisitorDb()
    .then(async (db) => {
      await writeCache(db, k, value, fetchedAt);
      if (unsaved.get(k)?.fetchedAt === fetchedAt) unsaved.delete(k);
      await moveLeftovers(db);
    })
    .catch(() => undefined);
}

/**
 * The newest stored copy of `k`: localStorage's (the database is not opened then), else one an
 * earlier visit left waiting, else IndexedDB's.
 */
async function readStored<T>(k: string): Promise<Cached<T> | undefined> {
  const copy = copyState<T>(k);
  if (copy !== undefined) return copy ?? undefined;
  const left = readLeftovers().get(k) as Cached<T> | undefined;
  const db = await openVisitorDb().catch(() => undefined);
  const stored = db ? await readCache<T>(db, k).catch(() => undefined) : undefined;
  if (db) void moveLeftovers(db).catch(() => undefined);
  return left && (!stored || stored.fetchedAt < left.fetchedAt) ? left : stored;
}

export interface CachedResource<T> {
  value: Accessor<T | undefined>;
  /** When the shown value was fetched (epoch ms). */
  fetchedAt: Accessor<number | undefined>;
  /** True while the shown value is a stored copy the network has not confirmed this visit. */
  stale: Accessor<boolean>;
  loading: Accessor<boolean>;
  /** The last failure's message; shown alone only when there is nothing stored. */
  error: Accessor<string | null>;
  /** The last failure was the server saying "no such thing" (not a network problem). */
  notFound: Accessor<boolean>;
  refresh(): Promise<void>;
}

/**
 * A cached read: `key()` names the copy in `svc-visitor`, `fetcher()` asks the server. Both
 * are re-run when the reactive `key()` changes (another month, another timezone).
 */
/** How long a page waits for the network, online, before it shows its stored copy meanwhile. */
export const SLOW_NETWORK_MS = 2000;

export function createCachedResource<T>(key: Accessor<string | null>, fetcher: (key: string) => Promise<T>): CachedResource<T> {
  const [value, setValue] = createSignal<T>();
  const [fetchedAt, setFetchedAt] = createSignal<number>();
  const [stale, setStale] = createSignal(false);
  const [loading, setLoading] = createSignal(true);
  const [error, setError] = createSignal<string | null>(null);
  const [notFound, setNotFound] = createSignal(false);
  let generation = 0;

  /** Shows the stored copy of `k` if there is one (and `still()` holds once it is read); false when there is none (or no database). */
  async function showStored(k: string, mine: number, still: () => boolean = () => true): Promise<boolean> {
    const stored = await readStored<T>(k);
    if (mine !== generation || !stored || !still()) return false;
    setValue(() => stored.value);
    setFetchedAt(stored.fetchedAt);
    setStale(true);
    return true;
  }

  async function load(k: string, useStored: boolean): Promise<void> {
    const mine = ++generation;
    setLoading(true);
    setError(null);
    setNotFound(false);
    // another key (another month, another event): nothing of the last one stays on screen
    if (useStored) {
      setValue(undefined);
      setFetchedAt(undefined);
      setStale(false);
    }
    // offline, the stored copy at once; online, the network first and the copy only if it fails
    const storedFirst = useStored && !navigator.onLine;
    if (storedFirst) await showStored(k, mine);
    if (mine !== generation) return;
    // a slow network (a crowded venue): the stored copy after SLOW_NETWORK_MS, the answer replaces it when it comes
    let answered = false;
    const slow = useStored && !storedFirst ? setTimeout(() => void showStored(k, mine, () => !answered), SLOW_NETWORK_MS) : undefined;
    try {
      const fresh = await fetcher(k);
      answered = true;
      if (mine !== generation) return;
      const at = Date.now();
      setValue(() => fresh);
      setFetchedAt(at);
      setStale(false);
      // kept for the next visit offline, after the answer is on screen
      keepCopy(k, fresh, at);
    } catch (err) {
      answered = true;
      if (mine !== generation) return;
      const gone = err instanceof ApiError && err.status === 404;
      if (gone) {
        setNotFound(true);
        setValue(undefined);
        forgetCopy(k);
      } else if (useStored && !storedFirst) {
        await showStored(k, mine);
        if (mine !== generation) return;
      }
      setError(errorMessage(err));
    } finally {
      clearTimeout(slow);
      if (mine === generation) setLoading(false);
    }
  }

  createEffect(
    on(key, (k) => {
      if (k === null) {
        setLoading(false);
        return;
      }
      void load(k, true);
    }),
  );

  return {
    value,
    fetchedAt,
    stale,
    loading,
    error,
    notFound,
    refresh: async () => {
      const k = key();
      if (k !== null) await load(k, false);
    },
  };
}

/**
 * A Dexie live query on `svc-visitor` as a Solid signal: undefined while `source()` is null (no
 * database is opened for it) and until the first answer; re-subscribes when `source()` changes.
 * A failure is logged and the last value stays.
 */
export function createLiveQuery<K, T>(source: Accessor<K | null>, querier: (db: VisitorDb, key: K) => Promise<T>): Accessor<T | undefined> {
  const [value, setValue] = createSignal<T>();
  createEffect(
    on(source, (k) => {
      if (k === null) {
        setValue(undefined);
        return;
      }
      let subscription: { unsubscribe(): void } | undefined;
      let ended = false;
      onCleanup(() => {
        ended = true;
        subscription?.unsubscribe();
      });
      const failed = (err: unknown) => console.warn('[svc] live query failed', err);
      Promise.all([import('dexie'), openVisitorDb()]).then(([{ liveQuery }, db]) => {
        if (ended) return;
        subscription = liveQuery(() => querier(db, k)).subscribe({ next: (v) => setValue(() => v), error: failed });
      }, failed);
    }),
  );
  // a memo: readers are told only when the value is another one (Dexie tells on every answer)
  return createMemo(() => value());
}

/** Runs `fn` once, when `resource` first stops loading (its answer, stored copy or error is on screen). */
export function onceSettled(resource: Pick<CachedResource<unknown>, 'loading'>, fn: () => void): void {
  let done = false;
  createEffect(() => {
    if (done || resource.loading()) return;
    done = true;
    fn();
  });
}
