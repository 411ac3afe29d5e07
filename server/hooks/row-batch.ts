/**
 * Per-page prefetch for filters that run once per row (svc_rest_attendee_response runs for
 * every row of a 100,000-row export). The serializer announces the rows of a page with
 * `withRowBatch`; a listener asks `batchLoad` for its data and gets ONE load for the whole
 * page instead of one query per row. Outside a batch (a single GET) it loads just that row.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

interface RowBatch {
  ids: readonly number[];
  members: ReadonlySet<number>;
  loads: Map<string, Promise<unknown>>;
}

const storage = new AsyncLocalStorage<RowBatch>();

/** Runs `fn` (which serializes the rows `ids`) with the page announced to batchLoad. */
export function withRowBatch<T>(ids: readonly number[], fn: () => Promise<T>): Promise<T> {
  return storage.run({ ids, members: new Set(ids), loads: new Map() }, fn);
}

/**
 * `load(ids)` once per key and page: with the page's ids inside a batch that holds `id`,
 * with `[id]` otherwise. `key` names the data (one listener may load several kinds).
 */
export function batchLoad<T>(key: string, id: number, load: (ids: readonly number[]) => Promise<T>): Promise<T> {
  const batch = storage.getStore();
  if (!batch?.members.has(id)) return load([id]);
  let pending = batch.loads.get(key) as Promise<T> | undefined;
  if (!pending) {
    pending = load(batch.ids);
    batch.loads.set(key, pending);
  }
  return pending;
}
