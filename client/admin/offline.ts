/**
 * The admin's offline mode at run time (decision 012): the door's sync engine keeps the events
 * this admin keeps offline in their own Dexie database, over the signed-in session (tRPC
 * `sync.download`/`sync.pull` accept a session as well as a device token); queued attendee edits
 * are reconciled and sent through the ordinary `attendees.update` on start, on `online` and
 * when the page becomes visible. Loaded only when an event is kept offline (Dexie and the sync
 * engine stay out of the admin chunks otherwise).
 */
import { requestPersistentStorage } from '../offline/persistent-storage';
import { onReconnect } from '../offline/reconnect';
import { withTabLock } from '../offline/tab-lock';
import { ApiError, NetworkError } from '../ui/errors';
import type { AttendeeCore } from '../../shared/attendees';
import type { DeviceDto } from '../../shared/checkin';
import { createSyncEngine, type SyncEngine } from '../door/sync/engine';
import { trpcTransport } from '../door/sync/transport';
import {
  adminOfflineDbName,
  keptEventIds,
  openAdminOfflineDb,
  queuedEdits,
  setKept,
  storeServerAttendee,
  type AdminOfflineDb,
  type QueuedEdit,
} from './offline-db';
import { reconcileEdit, type FieldValues } from './reconcile';

export const EDIT_LOCK_NAME = 'svc-admin-edits';

/** The two calls reconciliation needs, `attendees.get` and `attendees.update` (parameters, so unit tests use fakes). */
export interface EditTransport {
  get(id: number): Promise<AttendeeCore>;
  patch(id: number, patch: FieldValues): Promise<AttendeeCore>;
}

export interface FlushOutcome {
  sent: number;
  attention: number;
  /** Stopped early: the server could not be reached (the rest stays queued). */
  offline: boolean;
}

/**
 * Sends queued edits oldest first. Each: GET the attendee, reconcile against the base (a field
 * changed on the server since then is kept and the admin told), PATCH the rest, store the
 * server's answer in the cache. A deleted attendee or a refused edit is listed for attention,
 * never retried; a network failure stops the round with the edit still queued.
 */
export async function flushEdits(db: AdminOfflineDb, transport: EditTransport, nowMs: () => number = Date.now): Promise<FlushOutcome> {
  const outcome: FlushOutcome = { sent: 0, attention: 0, offline: false };
  for (const edit of await queuedEdits(db)) {
    const current = await db.edits.get(edit.clientId);
    if (current?.state !== 'queued') continue;
    try {
      const server = await transport.get(edit.attendeeId);
      const { patch, kept, already } = reconcileEdit(current.changes, current.base, server);
      const saved = Object.keys(patch).length > 0 ? await transport.patch(edit.attendeeId, patch) : server;
      await storeServerAttendee(db, saved);
      await settle(db, current, { kept, sent: [...(Object.keys(patch) as QueuedEdit['sent']), ...already], refusal: null, reason: null }, nowMs());
      outcome.sent++;
      if (kept.length > 0) outcome.attention++;
    } catch (error) {
      if (error instanceof NetworkError) {
        await db.edits.update(edit.clientId, { attempts: current.attempts + 1 });
        outcome.offline = true;
        return outcome;
      }
      if (error instanceof ApiError && (error.status === 401 || error.status === 429 || error.status >= 500)) {
        // signed out, throttled or a server fault: keep it queued for the next round
        await db.edits.update(edit.clientId, { attempts: current.attempts + 1 });
        outcome.offline = true;
        return outcome;
      }
      // a code, worded when the notice is drawn (client/admin/components/offline-panel.tsx)
      const deleted = error instanceof ApiError && error.code === 'svc_not_found';
      const reason = deleted ? null : error instanceof Error ? error.message : String(error);
      await settle(db, current, { kept: [], sent: [], refusal: deleted ? 'deleted' : 'refused', reason }, nowMs());
      outcome.attention++;
    }
  }
  return outcome;
}

async function settle(db: AdminOfflineDb, edit: QueuedEdit, result: Pick<QueuedEdit, 'kept' | 'sent' | 'refusal' | 'reason'>, nowMs: number): Promise<void> {
  if (result.kept.length === 0 && !result.refusal) await db.edits.delete(edit.clientId);
  else await db.edits.put({ ...edit, ...result, state: 'attention', settledMs: nowMs });
}

// ---- the running offline mode (one per tab) ------------------------------------------------

interface Runtime {
  userId: number;
  db: AdminOfflineDb;
  engine: SyncEngine;
  stop: () => void;
}

let runtime: Runtime | null = null;
const listeners = new Set<() => void>();

/** Something in the offline store changed (a pull, an edit queued, sent or reconciled). */
export function subscribeOffline(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function changed(): void {
  for (const fn of listeners) fn();
}

/** The signed-in admin's store and sync engine, started on first use. */
export function offlineRuntime(user: { id: number; email: string }, rest: EditTransport): Runtime {
  if (runtime && runtime.userId === user.id) return runtime;
  runtime?.stop();
  const db = openAdminOfflineDb(adminOfflineDbName(user.id));
  const base = trpcTransport(() => null); // no Bearer: the session cookie authenticates
  const transport = {
    ...base,
    // the "device" of an admin browser follows the events the admin keeps offline
    me: async (): Promise<DeviceDto> => ({
      id: user.id,
      name: `admin:${user.email}`,
      eventIds: await keptEventIds(db),
      createdUtc: '',
      pairedUtc: null,
      pairingExpiresUtc: null,
      lastSeenUtc: null,
      pendingCount: null,
      pendingReportedUtc: null,
      revokedUtc: null,
      // walk-ins are registered on a paired door device, not in an admin browser
      walkIns: false,
      // an admin browser admits every ticket (a check-in list is a door device's)
      categoryIds: null,
    }),
    pair: () => Promise.reject(new Error('an admin browser is not paired')),
  };
  const engine = createSyncEngine({
    db,
    transport,
    withLock: (fn) => withTabLock(`svc-admin-sync-${user.id}`, fn),
  });
  let lastSync: number | null = null;
  const unsubscribe = engine.subscribe((s) => {
    if (s.lastSyncMs !== lastSync) {
      lastSync = s.lastSyncMs;
      changed();
    }
  });

  const flush = async () => {
    const outcome = await withTabLock(EDIT_LOCK_NAME, () => flushEdits(db, rest));
    if (outcome && (outcome.sent > 0 || outcome.attention > 0)) changed();
  };
  const stopReconnect = onReconnect(() => void flush());
  const stopEngine = engine.start();
  void flush();

  runtime = {
    userId: user.id,
    db,
    engine,
    stop() {
      stopEngine();
      unsubscribe();
      stopReconnect();
      db.close();
      runtime = null;
    },
  };
  return runtime;
}

/** Keeps (or stops keeping) an event offline, and syncs at once. */
export async function keepOffline(user: { id: number; email: string }, rest: EditTransport, eventId: number, keep: boolean): Promise<void> {
  const rt = offlineRuntime(user, rest);
  if (keep) void requestPersistentStorage(); // an event kept offline must survive storage pressure
  const now = Date.now();
  await setKept(rt.db, eventId, keep, now);
  const kept = await keptEventIds(rt.db);
  await rt.db.device.put({ key: 'self', deviceId: user.id, name: `admin:${user.email}`, token: '', eventIds: kept, pairedMs: now, revokedMs: null });
  changed();
  await rt.engine.syncNow();
}

export function notifyOfflineChange(): void {
  changed();
}
