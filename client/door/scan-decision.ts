/**
 * What the door shows for a scan when its list may be incomplete (docs/decisions/025-door-incomplete-list.md):
 * a code not on the device while the guest list is still downloading is not `unknown` — the rest of
 * the list may hold it. Online, the server is asked for that one code (sync.lookup) and the usual verdict
 * is made from its answer; offline, or without an answer in time, the door says it is still
 * loading, with the real counts, and records nothing (staff scan again in a moment). A code the
 * cached list knows is answered from memory as before: nothing is added to the found path.
 */
import type { AttendeeTuple } from '../../shared/checkin';
import { t } from '../i18n/i18n';
import type { CheckinList, Verdict } from '../../shared/checkin-rules';
import { readDevice, readSyncState } from './db/attendee-cache';
import { cacheVersion, indexNow } from './db/attendee-index';
import type { DoorDb } from './db/door-db';
import { lookupScan, lookupServerAttendee, type ScanLookup } from './db/scans';

/** A verdict, or `loading`: no verdict yet because the list is incomplete and the server was not reached. */
export type DoorVerdict = Verdict | 'loading';

/** Attendees on the device so far and in the whole list (null: not known yet). */
export interface ListProgress {
  loaded: number;
  total: number | null;
}

/** How long a scan waits for the server's answer before saying "still loading". */
export const SERVER_LOOKUP_TIMEOUT_MS = 4000;

export interface ScanServer {
  online(): boolean;
  lookup(eventId: number, codeHash: string): Promise<AttendeeTuple | null>;
}

export type ScanDecision = { verdict: 'loading'; progress: ListProgress } | { verdict: Verdict; lookup: ScanLookup; askedServer: boolean };

/**
 * Per database, the cache version at which the list was last seen whole: an unknown code (a tenth
 * of a door's scans, in the benchmark) then needs no IndexedDB read. Any cache write (a download
 * page, a pull, a reset, the followed events changing) bumps the version; only an answer read with
 * no write in flight is kept.
 */
const wholeAt = new WeakMap<DoorDb, number>();

/** The download progress of the device's events when one of them is not complete; null when the list is whole. */
export async function incompleteList(db: DoorDb): Promise<ListProgress | null> {
  const version = cacheVersion(db);
  const settled = indexNow(db) !== null;
  if (settled && wholeAt.get(db) === version) return null;
  const progress = await readProgress(db);
  if (progress === null && settled && indexNow(db) !== null && cacheVersion(db) === version) wholeAt.set(db, version);
  return progress;
}

async function readProgress(db: DoorDb): Promise<ListProgress | null> {
  const device = await readDevice(db);
  // not paired (or forgotten): there is no list yet
  if (!device) return { loaded: 0, total: null };
  const { downloads } = await readSyncState(db, device.deviceId);
  let loaded = 0;
  let total: number | null = 0;
  let incomplete = false;
  for (const eventId of device.eventIds) {
    const d = downloads[eventId];
    if (!d?.done) incomplete = true;
    loaded += d?.count ?? 0;
    // a download whose first page has not come (or came before totals were sent) has no total yet
    const eventTotal = d?.done ? d.count : d?.total !== undefined ? Math.max(d.total, d.count) : null;
    total = total === null || eventTotal === null ? null : total + eventTotal;
  }
  return incomplete ? { loaded, total } : null;
}

function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The door's answer to a scan: from the cached list, or — only for a code it lacks while the list is incomplete — the server or "still loading". */
export async function decideScan(
  db: DoorDb,
  key: { codeHash: string } | { attendeeId: number },
  eventId: number,
  deviceName: string,
  server: ScanServer,
  timeoutMs = SERVER_LOOKUP_TIMEOUT_MS,
  list: CheckinList | null = null,
): Promise<ScanDecision> {
  const lookup = await lookupScan(db, key, eventId, deviceName, list);
  if (lookup.verdict !== 'unknown') return { verdict: lookup.verdict, lookup, askedServer: false };
  const progress = await incompleteList(db);
  if (!progress) return { verdict: 'unknown', lookup, askedServer: false };
  if ('codeHash' in key && server.online()) {
    try {
      const tuple = await within(server.lookup(eventId, key.codeHash), timeoutMs);
      const answered = await lookupServerAttendee(db, tuple, eventId, deviceName, list);
      return { verdict: answered.verdict, lookup: answered, askedServer: true };
    } catch {
      // not reached in time: say so rather than guess
    }
  }
  return { verdict: 'loading', progress };
}

/** "Still loading the guest list (62,000 of 100,000) — try again in a moment", numbers grouped in the reader's locale. */
export function loadingMessage(progress: ListProgress): string {
  return progress.total === null ? t('door.verdict.stillLoading') : t('door.verdict.stillLoadingCounts', { loaded: progress.loaded, total: progress.total });
}
