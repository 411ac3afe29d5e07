/**
 * Asks the browser not to evict this origin's IndexedDB under storage pressure: data kept for
 * days offline (the door's list and unsynced scans, docs/api.md#sync) must not vanish. Answers whether
 * storage is persistent; false when the browser declines or cannot say.
 */
export async function requestPersistentStorage(): Promise<boolean> {
  try {
    if (await navigator.storage?.persisted?.()) return true;
    return (await navigator.storage?.persist?.()) ?? false;
  } catch {
    return false;
  }
}
