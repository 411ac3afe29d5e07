/**
 * The visitor database behind a dynamic import. Dexie is the largest module a visitor page
 * would otherwise load (about 31 KB gzip, ~100 KB to parse); the pages render from the network
 * and open `svc-visitor` only when they need it: to keep a copy of the page's data for offline
 * (loaded after the first paint, while the data is on its way), when the network fails (to show
 * that copy), or for a draft or a queued submission.
 */
import type { VisitorDb } from './db';

let opening: Promise<VisitorDb> | undefined;

/** The page's database, its module loaded on first use; a failed load is tried again next time. */
export function openVisitorDb(): Promise<VisitorDb> {
  opening ??= import('./db').then(
    (m) => m.visitorDb(),
    (error: unknown) => {
      opening = undefined;
      throw error;
    },
  );
  return opening;
}

/**
 * Starts opening the database after the page's next paint, so that when the page's data comes
 * its copy is written at once (a reload right after still finds it), without Dexie standing
 * between the page and its first paint.
 */
export function openVisitorDbAfterPaint(): void {
  if (opening || typeof requestAnimationFrame === 'undefined') return;
  // the frame's callback runs before it paints; the timeout, after
  requestAnimationFrame(() => setTimeout(() => void openVisitorDb().catch(() => undefined), 0));
}
