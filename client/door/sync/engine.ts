/**
 * The door's sync engine (docs/api.md#sync): pairing, the first download in pages, then push-then-pull
 * on start, on `online`, when the page becomes visible, after each scan and on a timer; with
 * exponential backoff and jitter after a failure, and one tab at a time (Web Locks). The
 * transport is a parameter so tests run it against a real server.
 */
import { MAX_PUSH_BATCH } from '../../../shared/checkin-rules';
import { createKick } from '../../offline/kick';
import { onReconnect } from '../../offline/reconnect';
import { withTabLock } from '../../offline/tab-lock';
import {
  applyAnnulResult,
  applyDownloadPage,
  applyPullPage,
  applyPushResults,
  clearAttendees,
  compactCache,
  dropUnfollowedEvents,
  emptySyncState,
  readDevice,
  readSyncState,
  resetCache,
} from '../db/attendee-cache';
import { attendeeIndex } from '../db/attendee-index';
import type { AttendeeTuple, DownloadResult, SyncCategory } from '../../../shared/checkin';
import { isChunked, type DeviceRecord, type DoorDb, type OutboxItem } from '../db/door-db';
import { pendingCount } from '../db/scans';
import type { DoorTransport } from './transport';

export const SYNC_LOCK_NAME = 'svc-door-sync';
/** A `failed` push answer this many times in a row: the item is set aside and listed. */
export const MAX_FAILED_ATTEMPTS = 10;

export type SyncPhase = 'unpaired' | 'idle' | 'syncing' | 'error' | 'revoked';
export type SyncReason = 'start' | 'online' | 'visible' | 'scan' | 'timer' | 'manual' | 'reset';

export interface SyncStatus {
  phase: SyncPhase;
  lastSyncMs: number | null;
  /** Why the last attempt failed, in words for staff (null after a success). */
  lastError: string | null;
  lastErrorCode: string | null;
  /** When the next automatic attempt is due. */
  nextAttemptMs: number | null;
  /** The first download in progress: event and rows stored so far. */
  downloading: { eventId: number; count: number } | null;
}

export interface SyncEngineOptions {
  db: DoorDb;
  transport: DoorTransport;
  now?: () => number;
  random?: () => number;
  /** Attendees per download page. */
  downloadPageSize?: number;
  pushBatchSize?: number;
  pullPageSize?: number;
  /** Sync this often while all is well. */
  intervalMs?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Runs `fn` while holding the cross-tab sync lock, or answers null when another tab holds it. */
  withLock?: <T>(fn: () => Promise<T>) => Promise<T | null>;
  isOnline?: () => boolean;
}

class Revoked extends Error {}

/** What sync.push carries: scans and walk-ins, in the order they were made. */
type PushedItem = Extract<OutboxItem, { kind: 'scan' | 'walk_in' }>;

/** Web Locks when the browser has them; otherwise the one tab just runs. */
function webLock<T>(fn: () => Promise<T>): Promise<T | null> {
  return withTabLock(SYNC_LOCK_NAME, fn);
}

function mark(name: string): void {
  globalThis.performance?.mark?.(name);
}

const MESSAGES: Record<string, string> = {
  network: 'The server could not be reached.',
  svc_device_revoked: 'This device was revoked by an administrator.',
  svc_unauthorized: 'The server no longer accepts this device. Pair it again.',
  svc_forbidden: 'This device may not sync one of its events.',
  svc_rate_limited: 'The server is busy; trying again shortly.',
};

export function describeSyncError(code: string): string {
  return MESSAGES[code] ?? `The server answered with an error (${code}).`;
}

export function createSyncEngine(opts: SyncEngineOptions) {
  const { db, transport } = opts;
  const now = opts.now ?? Date.now;
  const random = opts.random ?? Math.random;
  const downloadPageSize = opts.downloadPageSize ?? 10_000;
  const pushBatchSize = Math.min(opts.pushBatchSize ?? 500, MAX_PUSH_BATCH);
  const pullPageSize = opts.pullPageSize ?? 2000;
  const intervalMs = opts.intervalMs ?? 30_000;
  const backoffBaseMs = opts.backoffBaseMs ?? 2000;
  const backoffMaxMs = opts.backoffMaxMs ?? 5 * 60_000;
  const withLock = opts.withLock ?? webLock;
  const isOnline = opts.isOnline ?? (() => (globalThis as { navigator?: Navigator }).navigator?.onLine ?? true);

  let status: SyncStatus = { phase: 'unpaired', lastSyncMs: null, lastError: null, lastErrorCode: null, nextAttemptMs: null, downloading: null };
  const listeners = new Set<(s: SyncStatus) => void>();
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let started = false;

  function setStatus(patch: Partial<SyncStatus>): void {
    status = { ...status, ...patch };
    for (const fn of listeners) fn(status);
  }

  /** Delay before the next attempt after `n` failures in a row: exponential, capped, half of it random. */
  function backoffDelay(n: number): number {
    const full = Math.min(backoffMaxMs, backoffBaseMs * 2 ** Math.max(0, n - 1));
    return Math.round(full / 2 + (random() * full) / 2);
  }

  function schedule(delayMs: number): void {
    if (!started) return;
    clearTimeout(timer);
    setStatus({ nextAttemptMs: now() + delayMs });
    timer = setTimeout(() => void requestSync('timer'), delayMs);
  }

  async function call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (transport.errorCode(error) === 'svc_device_revoked') throw new Revoked();
      throw error;
    }
  }

  // ---- push --------------------------------------------------------------------------------

  async function sendScans(items: PushedItem[]): Promise<void> {
    const pending = Math.max(0, (await pendingCount(db)) - items.length);
    let results: Awaited<ReturnType<DoorTransport['push']>>['results'];
    // from now on the server may hold them even if no answer comes back: an undo must annul, not drop
    const unsent = items.filter((i) => !i.sent).map((i) => i.seq!);
    if (unsent.length > 0)
      await db.outbox
        .where('seq')
        .anyOf(unsent)
        .modify((i) => {
          if (i.kind !== 'annul') i.sent = true;
        });
    try {
      results = (await call(() => transport.push({ items: items.map((i) => i.item), pending }))).results;
    } catch (error) {
      // one malformed item must not block the queue: send one by one, set aside the bad one
      if (transport.errorCode(error) !== 'svc_invalid_param') throw error;
      if (items.length > 1) {
        for (const item of items) await sendScans([item]);
        return;
      }
      await db.outbox.update(items[0]!.seq!, { status: 'rejected', reason: 'invalid' });
      await db.checkins.update(items[0]!.clientId, { state: 'rejected', reason: 'invalid' });
      return;
    }
    await applyPushResults(db, results, now());
    // a scan the server keeps failing to store is set aside and listed, not resent forever
    await db.outbox
      .where('status')
      .equals('queued')
      .filter((i) => i.attempts >= MAX_FAILED_ATTEMPTS)
      .modify({ status: 'rejected', reason: 'server_failed' });
  }

  async function sendAnnul(item: Extract<OutboxItem, { kind: 'annul' }>): Promise<void> {
    try {
      await call(() => transport.annul(item.checkinId));
      await applyAnnulResult(db, item.clientId, { status: 'done' }, now());
    } catch (error) {
      if (error instanceof Revoked) throw error;
      const code = transport.errorCode(error);
      if (code === 'svc_conflict') await applyAnnulResult(db, item.clientId, { status: 'done' }, now());
      else if (code === 'svc_forbidden' || code === 'svc_not_found') await applyAnnulResult(db, item.clientId, { status: 'rejected', reason: code }, now());
      else throw error;
    }
  }

  async function push(): Promise<void> {
    for (;;) {
      const queued = await db.outbox.where('status').equals('queued').limit(pushBatchSize).toArray();
      if (queued.length === 0) return;
      queued.sort((a, b) => a.seq! - b.seq!);
      const scans = queued.filter((i): i is PushedItem => i.kind === 'scan' || i.kind === 'walk_in');
      const annuls = queued.filter((i): i is Extract<OutboxItem, { kind: 'annul' }> => i.kind === 'annul');
      if (scans.length) await sendScans(scans);
      for (const a of annuls) await sendAnnul(a);
      // `failed` answers stay queued: stop this round rather than spin on them. Items queued meanwhile
      // (an annul of a scan undone in flight) go in the next pass.
      const unsettled = await db.outbox
        .where('seq')
        .anyOf(queued.map((i) => i.seq!))
        .filter((i) => i.status === 'queued')
        .count();
      if (unsettled === queued.length) return;
    }
  }

  // ---- download and pull ---------------------------------------------------------------------

  async function download(device: DeviceRecord): Promise<void> {
    for (const eventId of device.eventIds) {
      let progress = (await readSyncState(db, device.deviceId)).downloads[eventId];
      if (progress?.done) continue;
      mark(`svc-door-download-start:${eventId}`);
      setStatus({ downloading: { eventId, count: progress?.count ?? 0 } });
      // pipelined: the next page is on its way while this one is stored
      const fetchPage = (afterId: number): Promise<{ page: DownloadResult; startedMs: number }> => {
        const startedMs = now();
        const request = call(() => transport.download({ eventId, afterId, limit: downloadPageSize })).then((page) => ({ page, startedMs }));
        request.catch(() => {}); // awaited below; a store failing first must not leave it unhandled
        return request;
      };
      let next = fetchPage(progress?.nextAfterId ?? 0);
      for (;;) {
        const { page, startedMs } = await next;
        if (page.hasMore) next = fetchPage(page.nextAfterId);
        await applyDownloadPage(db, device.deviceId, page, startedMs);
        progress = (await readSyncState(db, device.deviceId)).downloads[eventId]!;
        setStatus({ downloading: { eventId, count: progress.count } });
        if (!page.hasMore) break;
      }
      // ready to scan: the door's in-memory index holds every page
      if (isChunked(db)) await attendeeIndex(db);
      mark(`svc-door-download-end:${eventId}`);
      globalThis.performance?.measure?.(`svc-door-download:${eventId}`, `svc-door-download-start:${eventId}`, `svc-door-download-end:${eventId}`);
    }
    setStatus({ downloading: null });
  }

  /** Pulls until caught up; answers false when the server said the cursor is too old (reset). */
  async function pull(device: DeviceRecord): Promise<boolean> {
    if (device.eventIds.length === 0) return true;
    for (;;) {
      const state = await readSyncState(db, device.deviceId);
      if (state.cursor === null) return true;
      const startedMs = now();
      const page = await call(async () =>
        transport.pull({ cursor: state.cursor!, eventIds: device.eventIds, limit: pullPageSize, pending: await pendingCount(db) }),
      );
      if (page.reset) return false;
      await applyPullPage(db, device.deviceId, page, startedMs);
      await keepCategories(page.categories, page.checkinList);
      if (!page.hasMore) {
        await compactCache(db);
        return true;
      }
    }
  }

  /**
   * The ticket categories and the check-in list a pull answered, kept on the device record: the
   * door names categories and applies its list offline from the last ones (decision 029). A server
   * before categories answers neither, and the device keeps admitting every ticket.
   */
  async function keepCategories(categories: SyncCategory[] | undefined, checkinList: number[] | null | undefined): Promise<void> {
    if (categories === undefined && checkinList === undefined) return;
    const current = await readDevice(db);
    if (!current) return;
    const next = { categories: categories ?? current.categories ?? [], checkinList: checkinList ?? null };
    if (JSON.stringify(next) !== JSON.stringify({ categories: current.categories ?? [], checkinList: current.checkinList ?? null }))
      await db.device.update('self', next);
  }

  async function refreshDevice(device: DeviceRecord): Promise<DeviceRecord> {
    const me = await call(() => transport.me());
    if (me.name !== device.name || me.eventIds.join() !== device.eventIds.join() || me.walkIns !== (device.walkIns ?? false)) {
      device = { ...device, name: me.name, eventIds: me.eventIds, walkIns: me.walkIns };
      await db.device.put(device);
    }
    await dropUnfollowedEvents(db, device.deviceId, device.eventIds);
    return device;
  }

  /** One full round: push, then download what is missing, then pull. */
  async function cycle(): Promise<void> {
    let device = await readDevice(db);
    if (!device) return setStatus({ phase: 'unpaired' });
    if (device.revokedMs !== null) return setStatus({ phase: 'revoked' });
    setStatus({ phase: 'syncing' });
    const attemptMs = now();
    try {
      await push();
      device = await refreshDevice(device);
      await download(device);
      if (!(await pull(device))) {
        await resetCache(db, device.deviceId);
        await download(device);
        await pull(device);
      }
      const state = await readSyncState(db, device.deviceId);
      await db.syncState.put({ ...state, lastAttemptMs: attemptMs, lastSyncMs: now(), lastError: null });
      failures = 0;
      setStatus({ phase: 'idle', lastSyncMs: now(), lastError: null, lastErrorCode: null, downloading: null });
      schedule(intervalMs);
    } catch (error) {
      if (error instanceof Revoked) {
        await db.device.update('self', { revokedMs: now() });
        clearTimeout(timer);
        return setStatus({
          phase: 'revoked',
          lastError: describeSyncError('svc_device_revoked'),
          lastErrorCode: 'svc_device_revoked',
          downloading: null,
          nextAttemptMs: null,
        });
      }
      const code = transport.errorCode(error);
      const state = await readSyncState(db, device.deviceId);
      await db.syncState.put({ ...state, lastAttemptMs: attemptMs, lastError: code });
      failures++;
      setStatus({ phase: 'error', lastError: describeSyncError(code), lastErrorCode: code, downloading: null });
      schedule(backoffDelay(failures));
    }
  }

  /** Runs a round now (or right after the one in progress); skipped when another tab holds the lock. */
  const syncNow = createKick(() => withLock(cycle));

  let scanTimer: ReturnType<typeof setTimeout> | undefined;

  /**
   * Asks for a round. After a scan, while backing off from failures, the backoff decides;
   * `online`, `visible` and `manual` try at once. Offline, nothing is tried until `online`.
   */
  function requestSync(reason: SyncReason): void {
    if (!isOnline() && reason !== 'manual') return;
    if (reason === 'scan') {
      if (failures > 0 && status.nextAttemptMs !== null && now() < status.nextAttemptMs) return;
      clearTimeout(scanTimer);
      scanTimer = setTimeout(() => void syncNow(), 200); // a burst of scans goes in one push
      return;
    }
    void syncNow();
  }

  let stopListening: (() => void) | undefined;

  return {
    get status(): SyncStatus {
      return status;
    },
    subscribe(fn: (s: SyncStatus) => void): () => void {
      listeners.add(fn);
      fn(status);
      return () => listeners.delete(fn);
    },
    syncNow,
    requestSync,
    backoffDelay,

    /**
     * Asks the server for one attendee by code hash (sync.lookup), beside any sync in progress:
     * the scan path uses it while the list is still downloading. Throws when not answered.
     */
    async lookup(eventId: number, codeHash: string): Promise<AttendeeTuple | null> {
      return (await transport.lookup({ eventId, codeHash })).attendee;
    },

    /** Exchanges a pairing code (typed, or from the QR's `#pair=` fragment) for the device token. */
    async pair(code: string): Promise<DeviceRecord> {
      const { token, device } = await transport.pair(code.trim().toUpperCase());
      const record: DeviceRecord = {
        key: 'self',
        deviceId: device.id,
        name: device.name,
        token,
        eventIds: device.eventIds,
        pairedMs: now(),
        revokedMs: null,
        walkIns: device.walkIns,
      };
      const previous = await db.device.get('self');
      // another device identity: its cache is not ours (the outbox and local scans stay)
      if (previous && previous.deviceId !== device.id) await clearAttendees(db);
      await db.transaction('rw', [db.device, db.syncState, db.events], async () => {
        if (previous && previous.deviceId !== device.id) await db.events.clear();
        await db.device.put(record);
        if (!(await db.syncState.get(device.id))) await db.syncState.put(emptySyncState(device.id));
      });
      failures = 0;
      setStatus({ phase: 'idle', lastError: null, lastErrorCode: null });
      return record;
    },

    /** Wipes the cached events and attendees (never the outbox) and downloads them again. */
    async reset(): Promise<void> {
      const device = await readDevice(db);
      if (!device) return;
      await resetCache(db, device.deviceId);
      await syncNow();
    },

    /** Unpairs this device; refused while scans are unsynced (they would be lost). */
    async forget(): Promise<boolean> {
      if ((await db.outbox.count()) > 0) return false;
      await db.transaction('rw', [db.device, db.syncState, db.events, db.checkins], async () => {
        await Promise.all([db.device.clear(), db.syncState.clear(), db.events.clear(), db.checkins.clear()]);
      });
      await clearAttendees(db);
      setStatus({ phase: 'unpaired', lastSyncMs: null, lastError: null, lastErrorCode: null });
      return true;
    },

    /** Starts the automatic rounds: now, on `online`, on visibility, and on the timer. */
    start(): () => void {
      if (started) return stop;
      started = true;
      stopListening = onReconnect(requestSync);
      void (async () => {
        const device = await readDevice(db);
        if (!device) return setStatus({ phase: 'unpaired' });
        const state = await readSyncState(db, device.deviceId);
        const lastError = state.lastError && (state.lastSyncMs ?? 0) < (state.lastAttemptMs ?? 0) ? state.lastError : null;
        setStatus({
          phase: device.revokedMs !== null ? 'revoked' : lastError ? 'error' : 'idle',
          lastSyncMs: state.lastSyncMs,
          lastErrorCode: lastError,
          lastError: lastError ? describeSyncError(lastError) : null,
        });
        if (device.revokedMs === null) requestSync('start');
      })();
      return stop;
    },
    stop,
  };

  function stop(): void {
    started = false;
    clearTimeout(timer);
    clearTimeout(scanTimer);
    stopListening?.();
    stopListening = undefined;
  }
}

export type SyncEngine = ReturnType<typeof createSyncEngine>;
