/**
 * The door's sync engine on fake-indexeddb against the real server in-process (tRPC over
 * fetch, the device's Bearer token): pairing, paged first download, push then pull, lost
 * acknowledgements, rejections, undo, reset, revocation, backoff, the cross-tab lock.
 */
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cachedAttendee, cachedAttendees, readDevice, readSyncState, resetCache } from '../../client/door/db/attendee-cache';
import { dropIndex } from '../../client/door/db/attendee-index';
import { openDoorDb, type DoorDb } from '../../client/door/db/door-db';
import { conflictScans, eventCounts, lookupScan, pendingCount, recordScan, rejectedItems, undoScan } from '../../client/door/db/scans';
import { createSyncEngine, type SyncEngineOptions } from '../../client/door/sync/engine';
import { trpcTransport, type DoorTransport } from '../../client/door/sync/transport';
import type { CheckinCounts, CheckinDto } from '../../shared/checkin';
import { createAttendee, createEvent, type TestAttendee } from '../helpers/checkin';
import { loginAs } from '../helpers/http';
import { startTestServer, type TestServer } from '../helpers/server';
import { answersLost } from '../helpers/door-transport';
// the door's words (English: no language chosen in Node), as the door page loads them before its first screen
import '../../client/door/door-i18n';
import { decideScan, incompleteList, loadingMessage, type ScanServer } from '../../client/door/scan-decision';

let srv: TestServer;
let admin: Awaited<ReturnType<typeof loginAs>>;
beforeAll(async () => {
  srv = await startTestServer({ env: { SVC_JOBS: 'off' } });
  admin = await loginAs(srv.url, srv.admin.email, srv.admin.password);
});
afterAll(() => srv?.close());

const dbs: DoorDb[] = [];
afterEach(async () => {
  for (const d of dbs.splice(0)) await d.delete();
});

interface Door {
  db: DoorDb;
  engine: ReturnType<typeof createSyncEngine>;
  transport: DoorTransport;
  calls: string[];
  deviceId: number;
}

/** A fresh device database, a device created by the admin for `eventIds`, paired through the engine. */
async function pairedDoor(eventIds: number[], opts: Partial<SyncEngineOptions> & { wrap?: (t: DoorTransport) => DoorTransport } = {}): Promise<Door> {
  const db = openDoorDb(`door-sync-${randomUUID()}`);
  dbs.push(db);
  let token: string | null = null;
  const real = trpcTransport(() => token, `${srv.url}/trpc`);
  const calls: string[] = [];
  const counted: DoorTransport = {
    ...real,
    pair: (c) => (calls.push('pair'), real.pair(c)),
    me: () => (calls.push('me'), real.me()),
    download: (i) => (calls.push(`download:${i.afterId}`), real.download(i)),
    pull: (i) => (calls.push('pull'), real.pull(i)),
    push: (i) => (calls.push(`push:${i.items.length}`), real.push(i)),
    annul: (id) => (calls.push(`annul:${id}`), real.annul(id)),
  };
  const transport = opts.wrap ? opts.wrap(counted) : counted;
  const engine = createSyncEngine({ db, transport, downloadPageSize: 3, ...opts });
  const created = await admin.api.post('/devices', { name: 'Door A', eventIds });
  expect(created.status).toBe(201);
  const device = await engine.pair(created.body.pairing.pairingCode);
  token = device.token;
  return { db, engine, transport, calls, deviceId: created.body.id };
}

async function scanAt(door: Door, attendee: Pick<TestAttendee, 'codeHash'>, eventId: number, scannedMs = Date.now()) {
  const lookup = await lookupScan(door.db, { codeHash: attendee.codeHash }, eventId, 'Door A');
  const row = await recordScan(door.db, { clientId: randomUUID(), eventId, codeHash: attendee.codeHash, lookup, source: 'scan', scannedMs });
  return { verdict: lookup.verdict, row };
}

async function serverCheckins(eventId: number): Promise<CheckinDto[]> {
  const res = await admin.api.get<CheckinDto[]>(`/checkins?eventId=${eventId}&perPage=500`);
  expect(res.status).toBe(200);
  return res.body;
}

const db = () => srv.server.ctx.db;

describe('pairing and the first download', () => {
  it('pairs by code, then downloads the event in pages, each stored with its position, and keeps the pull cursor', async () => {
    const event = await createEvent(db());
    const attendees = await Promise.all(Array.from({ length: 7 }, () => createAttendee(db(), event.id)));
    const door = await pairedDoor([event.id]);
    expect(await readDevice(door.db)).toMatchObject({ deviceId: door.deviceId, name: 'Door A', eventIds: [event.id], revokedMs: null });

    await door.engine.syncNow();
    expect(door.engine.status).toMatchObject({ phase: 'idle', lastError: null });
    expect(door.calls.filter((c) => c.startsWith('download'))).toHaveLength(3);
    expect((await cachedAttendees(door.db)).length).toBe(7);
    const state = await readSyncState(door.db, door.deviceId);
    expect(state.cursor).toMatch(/^\d+:\d+$/);
    expect(state.downloads[event.id]).toMatchObject({ done: true, count: 7 });
    for (const a of attendees) expect((await lookupScan(door.db, { codeHash: a.codeHash }, event.id, 'Door A')).verdict).toBe('ok');
  });
});

describe('push then pull', () => {
  it('stores every offline scan exactly once, re-scans as new rows, and the cache then shows them', async () => {
    const event = await createEvent(db());
    const [a, b] = [await createAttendee(db(), event.id), await createAttendee(db(), event.id)];
    const door = await pairedDoor([event.id]);
    await door.engine.syncNow();

    const first = await scanAt(door, a, event.id);
    const second = await scanAt(door, a, event.id);
    const third = await scanAt(door, b, event.id);
    expect([first.verdict, second.verdict, third.verdict]).toEqual(['ok', 'again', 'ok']);
    expect(await pendingCount(door.db)).toBe(3);

    await door.engine.syncNow();
    await door.engine.syncNow();
    const rows = await serverCheckins(event.id);
    expect(rows.map((r) => r.clientId).sort()).toEqual([first.row.clientId, second.row.clientId, third.row.clientId].sort());
    expect(await pendingCount(door.db)).toBe(0);
    // the pull carried the counts: the device's own scans now count through the cache, once
    expect((await cachedAttendee(door.db, a.id))!.checkinCount).toBe(2);
    expect((await door.db.checkins.toArray()).map((c) => c.state)).toEqual(['reflected', 'reflected', 'reflected']);
    expect(await eventCounts(door.db, event.id)).toEqual({ going: 2, checkedIn: 2 });
    expect((await lookupScan(door.db, { codeHash: a.codeHash }, event.id, 'Door A')).verdict).toBe('again');
  });

  it('a push whose answer was lost is resent and answered duplicate: still one row', async () => {
    const event = await createEvent(db());
    const a = await createAttendee(db(), event.id);
    const network = answersLost(1);
    const door = await pairedDoor([event.id], { wrap: network.wrap });
    await door.engine.syncNow();
    const { row } = await scanAt(door, a, event.id);
    await door.engine.syncNow();
    expect(door.engine.status).toMatchObject({ phase: 'error', lastErrorCode: 'network' });
    expect(await pendingCount(door.db)).toBe(1);
    await door.engine.syncNow();
    expect(door.engine.status.phase).toBe('idle');
    expect((await serverCheckins(event.id)).map((r) => r.clientId)).toEqual([row.clientId]);
    expect(await pendingCount(door.db)).toBe(0);
  });

  it('a change on the server reaches the device by pull: a cancelled attendee is refused', async () => {
    const event = await createEvent(db());
    const a = await createAttendee(db(), event.id);
    const door = await pairedDoor([event.id]);
    await door.engine.syncNow();
    expect((await admin.api.patch(`/attendees/${a.id}`, { status: 'cancelled' })).status).toBe(200);
    await door.engine.syncNow();
    expect((await lookupScan(door.db, { codeHash: a.codeHash }, event.id, 'Door A')).verdict).toBe('cancelled');
  });

  it('after every sync the door counts seats checked in and going as the dashboard does: a guest cancelled before her offline scan is not checked in', async () => {
    const event = await createEvent(db());
    // the last guest booked 3 seats: she is 3 of the door's counts, as on the dashboard
    const guests = await Promise.all([1, 1, 3].map((quantity) => createAttendee(db(), event.id, { quantity })));
    const door = await pairedDoor([event.id]);
    await door.engine.syncNow();
    expect(await eventCounts(door.db, event.id)).toEqual({ going: 5, checkedIn: 0 });
    // cancelled on the server while the door, offline, still has her as going: it admits her
    expect((await admin.api.patch(`/attendees/${guests[0]!.id}`, { status: 'cancelled' })).status).toBe(200);
    for (const g of guests) expect((await scanAt(door, g, event.id, Date.now() + 1000)).verdict).toBe('ok');
    expect(await eventCounts(door.db, event.id)).toEqual({ going: 5, checkedIn: 5 });

    const server = async () => {
      const res = await admin.api.get<CheckinCounts>(`/checkins/counts?eventId=${event.id}`);
      return { going: res.body.seatsGoing, checkedIn: res.body.seatsCheckedIn };
    };
    await door.engine.syncNow();
    expect(await server()).toEqual({ going: 4, checkedIn: 4 });
    expect(await eventCounts(door.db, event.id)).toEqual(await server());
    expect((await conflictScans(door.db)).map((c) => c.conflict)).toEqual(['cancelled_before_scan']);
    // and again after the next sync, and after the list is built again from the database (chunks and overlay)
    await door.engine.syncNow();
    expect(await eventCounts(door.db, event.id)).toEqual(await server());
    dropIndex(door.db);
    expect(await eventCounts(door.db, event.id)).toEqual(await server());
  });

  it('a scan the server rejects is marked and listed, and not sent again', async () => {
    const [event, other] = [await createEvent(db()), await createEvent(db())];
    const a = await createAttendee(db(), event.id);
    const door = await pairedDoor([event.id, other.id]);
    await door.engine.syncNow();
    const { row } = await scanAt(door, a, event.id);
    // the administrator takes the event away from the device before it syncs
    expect((await admin.api.patch(`/devices/${door.deviceId}`, { eventIds: [other.id] })).status).toBe(200);
    await door.engine.syncNow();
    expect(await rejectedItems(door.db)).toMatchObject([{ clientId: row.clientId, status: 'rejected', reason: 'forbidden' }]);
    expect(await pendingCount(door.db)).toBe(0);
    const pushes = door.calls.filter((c) => c.startsWith('push')).length;
    await door.engine.syncNow();
    expect(door.calls.filter((c) => c.startsWith('push')).length).toBe(pushes);
    expect(await rejectedItems(door.db)).toHaveLength(1);
    // the event it no longer follows is dropped from the cache
    expect((await cachedAttendees(door.db, event.id)).length).toBe(0);
  });
});

describe('a scan while the list is still downloading (never a false unknown)', () => {
  it('just paired, before the first page: any code is "still loading" offline, without counts it does not have yet', async () => {
    const event = await createEvent(db());
    const guest = await createAttendee(db(), event.id);
    const door = await pairedDoor([event.id]);
    const offline: ScanServer = { online: () => false, lookup: () => Promise.reject(new Error('offline')) };
    for (let i = 0; i < 2; i++) {
      const decision = await decideScan(door.db, { codeHash: guest.codeHash }, event.id, 'Door A', offline);
      expect(decision).toEqual({ verdict: 'loading', progress: { loaded: 0, total: null } });
    }
    expect(loadingMessage({ loaded: 0, total: null })).toBe('Still loading the guest list — try again in a moment');
  });

  it('online, a code not on the device yet is asked of the server and recorded once; offline or unanswered it is "still loading" with the counts, and nothing is recorded', async () => {
    const event = await createEvent(db());
    const guests = await Promise.all(Array.from({ length: 7 }, () => createAttendee(db(), event.id)));
    const last = guests.at(-1)!;
    // a slow phone network: every page after the first waits until released
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const door = await pairedDoor([event.id], {
      wrap: (t) => ({ ...t, download: async (i) => (i.afterId > 0 ? released.then(() => t.download(i)) : t.download(i)) }),
    });
    const syncing = door.engine.syncNow();
    await expect.poll(async () => (await readSyncState(door.db, door.deviceId)).downloads[event.id]?.count).toBe(3);
    expect(await incompleteList(door.db)).toEqual({ loaded: 3, total: 7 });
    expect((await lookupScan(door.db, { codeHash: last.codeHash }, event.id, 'Door A')).verdict).toBe('unknown');

    const asked: string[] = [];
    const server = (online: boolean, reachable = true): ScanServer => ({
      online: () => online,
      lookup: async (eventId, hash) => {
        asked.push(hash);
        if (!reachable) throw new TypeError('fetch failed');
        return door.engine.lookup(eventId, hash);
      },
    });
    const decide = (hash: string, s: ScanServer) => decideScan(door.db, { codeHash: hash }, event.id, 'Door A', s);

    // offline, and online without an answer: amber, with the real counts
    for (const s of [server(false), server(true, false)]) {
      const waiting = await decide(last.codeHash, s);
      expect(waiting).toEqual({ verdict: 'loading', progress: { loaded: 3, total: 7 } });
      expect(loadingMessage({ loaded: 62_000, total: 100_000 })).toBe('Still loading the guest list (62,000 of 100,000) — try again in a moment');
    }
    expect(asked).toEqual([last.codeHash]);
    expect(await pendingCount(door.db)).toBe(0);

    // online: the server knows her; the door admits and records the scan like any other
    const answered = await decide(last.codeHash, server(true));
    expect(answered).toMatchObject({ verdict: 'ok', askedServer: true, lookup: { attendee: { id: last.id } } });
    const lookup = (answered as { lookup: Awaited<ReturnType<typeof lookupScan>> }).lookup;
    const row = await recordScan(door.db, {
      clientId: randomUUID(),
      eventId: event.id,
      codeHash: last.codeHash,
      lookup,
      source: 'scan',
      scannedMs: Date.now(),
    });
    // scanned again before the list is whole: her own scan here makes it AGAIN, not a second OK
    expect((await decide(last.codeHash, server(true))).verdict).toBe('again');
    // a code the server does not know either is honestly unknown
    expect((await decide('ab'.repeat(32), server(true))).verdict).toBe('unknown');

    release();
    await syncing;
    await door.engine.syncNow();
    await door.engine.syncNow();
    expect(await incompleteList(door.db)).toBeNull();
    expect((await serverCheckins(event.id)).map((r) => r.clientId)).toEqual([row.clientId]);
    expect(await eventCounts(door.db, event.id)).toEqual({ going: 7, checkedIn: 1 });
    // a whole list answers from memory; nothing is asked
    asked.length = 0;
    expect((await decide(last.codeHash, server(true))).verdict).toBe('again');
    expect((await decide('cd'.repeat(32), server(true))).verdict).toBe('unknown');
    expect(asked).toEqual([]);
    // a reset makes the list incomplete again (the door's memory of "whole" goes with the cache)
    await resetCache(door.db, door.deviceId);
    expect(await incompleteList(door.db)).toEqual({ loaded: 0, total: null });
    expect((await decide('cd'.repeat(32), server(false))).verdict).toBe('loading');
  });
});

describe('two doors admit one ticket while apart', () => {
  for (const order of ['earlier door syncs first', 'later door syncs first', 'both at once'] as const) {
    it(`both doors list it under Needs attention after their next sync (${order})`, async () => {
      const event = await createEvent(db());
      const a = await createAttendee(db(), event.id);
      const north = await pairedDoor([event.id]);
      const south = await pairedDoor([event.id]);
      await north.engine.syncNow();
      await south.engine.syncNow();
      const t = Date.now() - 60_000;
      const n = await scanAt(north, a, event.id, t);
      const s = await scanAt(south, a, event.id, t + 5000);
      expect([n.verdict, s.verdict]).toEqual(['ok', 'ok']);
      const [first, second] = order === 'earlier door syncs first' ? [north, south] : [south, north];
      if (order === 'both at once') await Promise.all([first.engine.syncNow(), second.engine.syncNow()]);
      else {
        await first.engine.syncNow();
        await second.engine.syncNow();
      }
      // the door that synced first hears of it on its next pull
      await first.engine.syncNow();
      await second.engine.syncNow();
      for (const door of [north, south]) {
        expect((await conflictScans(door.db)).map((c) => c.conflict)).toEqual(['again_elsewhere']);
      }
    });
  }
});

describe('undo', () => {
  it('annuls a stored scan on the server; an unsent scan is dropped before it is sent', async () => {
    const event = await createEvent(db());
    const [a, b] = [await createAttendee(db(), event.id), await createAttendee(db(), event.id)];
    const door = await pairedDoor([event.id]);
    await door.engine.syncNow();
    const stored = await scanAt(door, a, event.id);
    await door.engine.syncNow();
    expect(await undoScan(door.db, stored.row.clientId)).toBe('queued');
    const unsent = await scanAt(door, b, event.id);
    expect(await undoScan(door.db, unsent.row.clientId)).toBe('dropped');
    await door.engine.syncNow();

    const rows = await serverCheckins(event.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ clientId: stored.row.clientId });
    expect(rows[0]!.annulledUtc).not.toBeNull();
    expect(await pendingCount(door.db)).toBe(0);
    expect((await lookupScan(door.db, { codeHash: a.codeHash }, event.id, 'Door A')).verdict).toBe('ok');
    expect((await door.db.checkins.get(stored.row.clientId))!.undo).toBe('reflected');
  });
});

describe('reset, revocation, backoff, one tab at a time', () => {
  it('on reset the cache is wiped and downloaded again; queued scans stay and are sent', async () => {
    const event = await createEvent(db());
    const a = await createAttendee(db(), event.id);
    let answerReset = false;
    const door = await pairedDoor([event.id], {
      wrap: (t) => ({
        ...t,
        pull: async (input) => {
          if (answerReset) {
            answerReset = false;
            return { reset: true };
          }
          return t.pull(input);
        },
        // the scan waits in the outbox while the reset happens
        push: async (input) => (answerReset ? { results: input.items.map((i) => ({ clientId: i.clientId, status: 'failed' as const })) } : t.push(input)),
      }),
    });
    await door.engine.syncNow();
    const { row } = await scanAt(door, a, event.id);
    answerReset = true;
    door.calls.length = 0;
    await door.engine.syncNow();
    expect(door.calls.filter((c) => c === 'download:0')).toHaveLength(1);
    expect((await cachedAttendees(door.db)).length).toBe(1);
    expect(await pendingCount(door.db)).toBe(1);
    expect((await door.db.checkins.get(row.clientId))!.state).toBe('queued');
    await door.engine.syncNow();
    expect((await serverCheckins(event.id)).map((r) => r.clientId)).toEqual([row.clientId]);

    await door.engine.reset();
    expect((await cachedAttendees(door.db)).length).toBe(1);
    expect((await readSyncState(door.db, door.deviceId)).downloads[event.id]).toMatchObject({ done: true });
  });

  it('a revoked device stops syncing, says so, and keeps its unsynced scans', async () => {
    const event = await createEvent(db());
    const a = await createAttendee(db(), event.id);
    const door = await pairedDoor([event.id]);
    await door.engine.syncNow();
    await scanAt(door, a, event.id);
    expect((await admin.api.delete(`/devices/${door.deviceId}`)).status).toBe(204);
    await door.engine.syncNow();
    expect(door.engine.status).toMatchObject({ phase: 'revoked', lastErrorCode: 'svc_device_revoked' });
    expect((await readDevice(door.db))!.revokedMs).not.toBeNull();
    expect(await pendingCount(door.db)).toBe(1);
    door.calls.length = 0;
    await door.engine.syncNow();
    expect(door.calls).toEqual([]);
    expect(await door.engine.forget()).toBe(false);
  });

  it('backs off exponentially with jitter after failures, capped', async () => {
    const door = await pairedDoor([(await createEvent(db())).id], { random: () => 1, backoffBaseMs: 1000, backoffMaxMs: 60_000 });
    expect([1, 2, 3, 4, 10].map((n) => door.engine.backoffDelay(n))).toEqual([1000, 2000, 4000, 8000, 60_000]);
    const low = await pairedDoor([(await createEvent(db())).id], { random: () => 0, backoffBaseMs: 1000 });
    expect(low.engine.backoffDelay(3)).toBe(2000);
  });

  it('does nothing while another tab holds the sync lock', async () => {
    const event = await createEvent(db());
    await createAttendee(db(), event.id);
    const door = await pairedDoor([event.id], { withLock: async () => null });
    door.calls.length = 0;
    await door.engine.syncNow();
    expect(door.calls).toEqual([]);
    expect((await cachedAttendees(door.db)).length).toBe(0);
  });
});
