/**
 * Dexie `liveQuery` as Solid state: subscribed inside an effect (so a query that reads
 * signals re-subscribes when they change), lists reconciled by key into a store (rows that did
 * not change keep their identity, so the DOM does not re-render them), unsubscribed on
 * cleanup, and errors surfaced instead of swallowed.
 */
import { liveQuery } from 'dexie';
import { createEffect, createSignal, onCleanup, type Accessor } from 'solid-js';
import { createStore, reconcile } from 'solid-js/store';

export interface LiveState {
  loading: Accessor<boolean>;
  error: Accessor<unknown>;
}

/** Subscribes `query` in an effect (re-subscribed when `deps` change); each answer goes to `onValue`. */
function subscribeLive<T, D>(query: (deps: D) => Promise<T>, deps: () => D, onValue: (value: T) => void): LiveState {
  const [loading, setLoading] = createSignal(true);
  const [error, setError] = createSignal<unknown>(null);
  createEffect(() => {
    const d = deps();
    const subscription = liveQuery(() => query(d)).subscribe({
      next(value) {
        onValue(value);
        setError(null);
        setLoading(false);
      },
      error(err: unknown) {
        setError(err);
        setLoading(false);
      },
    });
    onCleanup(() => subscription.unsubscribe());
  });
  return { loading, error };
}

/**
 * A live list, reconciled by `key`. Signals the query depends on go in `deps` (read in the
 * effect, so a change re-subscribes); the query itself runs inside Dexie's zone, untracked.
 */
export function createLiveList<T extends object, D = undefined>(
  query: (deps: D) => Promise<T[]>,
  key: keyof T & string,
  deps: () => D = () => undefined as D,
): LiveState & { items: T[] } {
  const [state, setState] = createStore<{ items: T[] }>({ items: [] });
  const { loading, error } = subscribeLive(query, deps, (rows) => setState('items', reconcile(rows, { key })));
  return {
    get items() {
      return state.items;
    },
    loading,
    error,
  };
}

/** A live single value (a count, a record); `initial` until the first answer. */
export function createLiveValue<T, D = undefined>(
  query: (deps: D) => Promise<T>,
  initial: T,
  deps: () => D = () => undefined as D,
): LiveState & { value: Accessor<T> } {
  const [value, setValue] = createSignal<T>(initial, { equals: false });
  return { value, ...subscribeLive(query, deps, (v) => setValue(() => v)) };
}
