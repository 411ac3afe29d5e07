/**
 * Cached reads for the visitor pages: the stored copy shows at once (with its age), the
 * network answer replaces it when it comes. Offline, the stored copy stays on screen and
 * says how old it is; with no copy the page shows the error.
 */
import { createEffect, createMemo, createSignal, on, type Accessor } from 'solid-js';
import { createLiveValue } from '../offline/live';
import { ApiError, errorMessage } from '../ui/errors';
import { visitorDb, type VisitorDb } from './db';

export interface Cached<T> {
  value: T;
  fetchedAt: number;
}

export async function readCache<T>(db: VisitorDb, key: string): Promise<Cached<T> | undefined> {
  const entry = await db.cache.get(key);
  return entry ? { value: entry.value as T, fetchedAt: entry.fetchedAt } : undefined;
}

export async function writeCache<T>(db: VisitorDb, key: string, value: T, fetchedAt = Date.now()): Promise<void> {
  await db.cache.put({ key, value, fetchedAt });
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
export function createCachedResource<T>(key: Accessor<string | null>, fetcher: (key: string) => Promise<T>): CachedResource<T> {
  const db = visitorDb();
  const [value, setValue] = createSignal<T>();
  const [fetchedAt, setFetchedAt] = createSignal<number>();
  const [stale, setStale] = createSignal(false);
  const [loading, setLoading] = createSignal(true);
  const [error, setError] = createSignal<string | null>(null);
  const [notFound, setNotFound] = createSignal(false);
  let generation = 0;

  async function load(k: string, useStored: boolean): Promise<void> {
    const mine = ++generation;
    setLoading(true);
    setError(null);
    setNotFound(false);
    if (useStored) {
      const stored = await readCache<T>(db, k).catch(() => undefined);
      if (mine !== generation) return;
      if (stored) {
        setValue(() => stored.value);
        setFetchedAt(stored.fetchedAt);
        setStale(true);
      } else {
        setValue(undefined);
        setFetchedAt(undefined);
      }
    }
    try {
      const fresh = await fetcher(k);
      if (mine !== generation) return;
      const at = Date.now();
      setValue(() => fresh);
      setFetchedAt(at);
      setStale(false);
      await writeCache(db, k, fresh, at).catch(() => undefined);
    } catch (err) {
      if (mine !== generation) return;
      setError(errorMessage(err));
      if (err instanceof ApiError && err.status === 404) {
        setNotFound(true);
        setValue(undefined);
        await db.cache.delete(k).catch(() => undefined);
      }
    } finally {
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
 * A Dexie live query as a Solid signal (`createLiveValue`, undefined until the first answer);
 * re-subscribes when `source()` changes. A failure is logged and the last value stays.
 */
export function createLiveQuery<K, T>(source: Accessor<K>, querier: (key: K) => Promise<T>): Accessor<T | undefined> {
  const live = createLiveValue<T | undefined, K>(querier, undefined, source);
  createEffect(() => {
    const err = live.error();
    if (err !== null) console.warn('[svc] live query failed', err);
  });
  // a memo: readers are told only when the value is another one (createLiveValue tells on every answer)
  return createMemo(() => live.value());
}
