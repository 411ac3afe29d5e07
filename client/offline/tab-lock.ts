/**
 * One tab at a time: runs work under a named Web Lock, and skips it (answers null) when
 * another tab of this origin holds the lock. Browsers without Web Locks just run it — one tab
 * is then all there is to coordinate. The door's sync engine, and the admin's offline sync and
 * edit flush, run under it.
 */
export function withTabLock<T>(name: string, fn: () => Promise<T>): Promise<T | null> {
  const locks = (globalThis as { navigator?: Navigator }).navigator?.locks;
  if (!locks) return fn();
  return locks.request(name, { ifAvailable: true }, (lock) => (lock ? fn() : null)) as Promise<T | null>;
}
