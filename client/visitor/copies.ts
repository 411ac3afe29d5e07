/**
 * The visitor pages' stored copies of answers (the events list, an event, a booking type, a
 * month's slots, the form nonce), kept in localStorage: synchronous and without a library, so a
 * visit that only reads never loads Dexie (about 31 KB gzip and the longest task after a public
 * page's first paint). Drafts and the outbox stay in IndexedDB. A copy the browser refuses (its
 * storage full even after the oldest copies made room) goes to IndexedDB instead
 * (client/visitor/cache.ts): a key is kept in one place only, so a newer copy is never hidden
 * behind an older one (docs/decisions/019-fast-first-paint.md).
 */

export interface Cached<T> {
  value: T;
  fetchedAt: number;
}

const PREFIX = 'svc-visitor-copy:';

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined; // storage disabled by the browser's settings
  }
}

/** What is stored of `key`: its copy; null when the server said it is gone (markGone); undefined when nothing is known here. */
export function copyState<T>(key: string): Cached<T> | null | undefined {
  const raw = storage()?.getItem(PREFIX + key);
  if (!raw) return undefined;
  try {
    const copy = JSON.parse(raw) as Cached<T> & { gone?: true };
    if (copy?.gone) return null;
    return typeof copy?.fetchedAt === 'number' ? copy : undefined;
  } catch {
    return undefined; // unreadable: the next answer replaces it
  }
}

/** The stored copy of `key`, if this device keeps one in localStorage. */
export function storedCopy<T>(key: string): Cached<T> | undefined {
  return copyState<T>(key) ?? undefined;
}

/** Every copy's key and age, oldest first. */
function copiesByAge(store: Storage): Array<{ key: string; fetchedAt: number }> {
  const found: Array<{ key: string; fetchedAt: number }> = [];
  for (let i = 0; i < store.length; i += 1) {
    const key = store.key(i);
    if (!key?.startsWith(PREFIX)) continue;
    const at = storedCopy(key.slice(PREFIX.length))?.fetchedAt ?? 0;
    found.push({ key, fetchedAt: at });
  }
  return found.sort((a, b) => a.fetchedAt - b.fetchedAt);
}

/**
 * Keeps `value` as the copy of `key`. When the storage is full the oldest half of the copies
 * make room and it is tried once more; false when it is still refused (nothing of `key` is left
 * in localStorage then).
 */
export function storeCopy(key: string, value: unknown, fetchedAt = Date.now(), gone = false): boolean {
  const store = storage();
  if (!store) return false;
  const raw = JSON.stringify(gone ? { gone, fetchedAt } : ({ value, fetchedAt } satisfies Cached<unknown>));
  try {
    store.setItem(PREFIX + key, raw);
    return true;
  } catch {
    const old = copiesByAge(store);
    for (const copy of old.slice(0, Math.ceil(old.length / 2))) store.removeItem(copy.key);
  }
  try {
    store.setItem(PREFIX + key, raw);
    return true;
  } catch {
    store.removeItem(PREFIX + key);
    return false;
  }
}

/**
 * The server said `key` is gone (404): its copy is forgotten, and the mark stands in front of any
 * copy an older version of the app kept in IndexedDB, so that one is never shown and the database
 * need not be opened to delete it. The next answer replaces the mark.
 */
export function markGone(key: string): void {
  if (!storeCopy(key, null, Date.now(), true)) storage()?.removeItem(PREFIX + key);
}
