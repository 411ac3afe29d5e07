/**
 * The visitor database behind a dynamic import. Dexie is the largest module a visitor page
 * would otherwise load (about 31 KB gzip, ~100 KB to parse); the pages render from the network,
 * keep their copies in localStorage (copies.ts) and open `svc-visitor` only for a draft or a
 * queued submission, or for a copy localStorage refused.
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
