/**
 * The door's Dexie layer on fake-indexeddb: verdicts from the cache plus unsynced scans, the
 * scan and its outbox item in one transaction, pulls that never overwrite a queued scan, push
 * results, undo, reset, name search and counts.
 */
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttendeeTuple, DownloadResult, PullResult } from '../../shared/checkin';
import { applyDownloadPage, applyPullPage, applyPushResults, cachedAttendees, readSyncState, resetCache } from '../../client/door/db/attendee-cache';
import { openDoorDb, type DoorDb } from '../../client/door/db/door-db';
import {
  conflictScans,
  eventCounts,
  lookupScan,
  pendingCount,
  recordScan,
  rejectedItems,
  searchAttendees,
  undoScan,
  UNDO_WINDOW_MS,
} from '../../client/door/db/scans';
import { attendeeTuple, codeHash, DOOR_EVENT } from '../helpers/door-cache';

const DEVICE = 7;
const EVENT = DOOR_EVENT;
const hash = codeHash;
const tuple = (
  id: number,
  over: Partial<{ eventId: number; name: string; email: string; status: string; count: number; last: string | null }> = {},
): AttendeeTuple => attendeeTuple(id, { ...over, quantity: 2, lastDevice: over.last ? 'Gate 9' : null });
const page = (attendees: AttendeeTuple[], over: Partial<DownloadResult> = {}): DownloadResult => ({
  cursor: '100:0',
  event: EVENT,
  attendees,
  nextAfterId: attendees.at(-1)?.[0] ?? 0,
  hasMore: false,
  ...over,
});
const pull = (attendees: AttendeeTuple[], over: Partial<Extract<PullResult, { reset: false }>> = {}): Extract<PullResult, { reset: false }> => ({
  reset: false,
  cursor: '200:0',
  hasMore: false,
  events: [],
  attendees,
  tombstones: { events: [], attendees: [] },
  ...over,
});

let db: DoorDb;
beforeEach(async () => {
  db = openDoorDb(`door-test-${randomUUID()}`);
  await applyDownloadPage(
    db,
    DEVICE,
    page([
      tuple(1),
      tuple(2, { status: 'cancelled' }),
      tuple(3, { status: 'waitlist' }),
      tuple(4, { eventId: 2 }),
      tuple(5, { count: 1, last: '2030-06-01 18:05:00' }),
    ]),
    Date.now(),
  );
});
afterEach(async () => {
  await db.delete();
});

async function scan(codeHash: string, scannedMs = Date.now()) {
  const lookup = await lookupScan(db, { codeHash }, EVENT.id, 'Door A');
  const row = await recordScan(db, { clientId: randomUUID(), eventId: EVENT.id, codeHash, lookup, source: 'scan', scannedMs });
  return { lookup, row };
}

describe('verdicts on the device', () => {
  it('answers ok, cancelled, waitlist, wrong_event, unknown from the cached list with the shared rule', async () => {
    const verdict = async (h: string) => (await lookupScan(db, { codeHash: h }, EVENT.id, 'Door A')).verdict;
    expect(await verdict(hash(1))).toBe('ok');
    expect(await verdict(hash(2))).toBe('cancelled');
    expect(await verdict(hash(3))).toBe('waitlist');
    expect(await verdict(hash(4))).toBe('wrong_event');
    expect(await verdict(hash(99))).toBe('unknown');
  });

  it('answers again with the server’s last check-in time and door', async () => {
    const r = await lookupScan(db, { codeHash: hash(5) }, EVENT.id, 'Door A');
    expect(r).toMatchObject({ verdict: 'again', last: { scannedUtc: '2030-06-01 18:05:00', device: 'Gate 9' } });
  });

  it('answers again after an unsynced scan on this device, naming this device and the scan time', async () => {
    const first = await scan(hash(1), Date.parse('2030-06-01T18:10:00Z'));
    expect(first.lookup.verdict).toBe('ok');
    const again = await lookupScan(db, { codeHash: hash(1) }, EVENT.id, 'Door A');
    expect(again).toMatchObject({ verdict: 'again', last: { scannedUtc: '2030-06-01 18:10:00', device: 'Door A' } });
  });
});

describe('scans and the outbox', () => {
  it('writes the scan and its outbox item together, with a client UUID; refusals are queued but create no check-in', async () => {
    const ok = await scan(hash(1));
    const refused = await scan(hash(2));
    const outbox = await db.outbox.toArray();
    expect(outbox.map((o) => o.clientId)).toEqual([ok.row.clientId, refused.row.clientId]);
    expect(outbox[0]).toMatchObject({ kind: 'scan', status: 'queued', item: { codeHash: hash(1), attendeeId: 1, verdictOnDevice: 'ok', eventId: EVENT.id } });
    expect((await db.checkins.get(ok.row.clientId))!.state).toBe('queued');
    expect((await db.checkins.get(refused.row.clientId))!.state).toBe('refused');
    expect(await pendingCount(db)).toBe(2);
  });

  it('stores neither the scan nor the outbox item when the transaction fails', async () => {
    const lookup = await lookupScan(db, { codeHash: hash(1) }, EVENT.id, 'Door A');
    const clientId = randomUUID();
    await db.outbox.add({ clientId, kind: 'annul', status: 'queued', checkinId: 1, attempts: 0, createdMs: 0, reason: null });
    await expect(recordScan(db, { clientId, eventId: EVENT.id, codeHash: hash(1), lookup, source: 'scan', scannedMs: Date.now() })).rejects.toThrow();
    expect(await db.checkins.get(clientId)).toBeUndefined();
    expect(await db.outbox.count()).toBe(1);
  });

  it('a pull never overwrites an unsent scan: the attendee stays checked in and the item stays queued', async () => {
    const { row } = await scan(hash(1));
    await applyPullPage(db, DEVICE, pull([tuple(1, { count: 0 })]), Date.now());
    expect((await lookupScan(db, { codeHash: hash(1) }, EVENT.id, 'Door A')).verdict).toBe('again');
    expect((await db.outbox.toArray()).map((o) => o.clientId)).toEqual([row.clientId]);
  });

  it('an acknowledged scan leaves the outbox and counts once after the pull that carries it', async () => {
    const { row } = await scan(hash(1));
    await applyPushResults(db, [{ clientId: row.clientId, status: 'inserted', checkinId: 41, conflict: null }], Date.now() - 10);
    expect(await db.outbox.count()).toBe(0);
    expect(await db.checkins.get(row.clientId)).toMatchObject({ state: 'acked', checkinId: 41 });
    // before the pull: the cache says 0, the local scan still counts
    expect((await lookupScan(db, { codeHash: hash(1) }, EVENT.id, 'Door A')).verdict).toBe('again');
    expect(await eventCounts(db, EVENT.id)).toEqual({ going: 4, checkedIn: 4 });

    await applyPullPage(db, DEVICE, pull([tuple(1, { count: 1, last: '2030-06-01 18:10:00' })]), Date.now());
    expect((await db.checkins.get(row.clientId))!.state).toBe('reflected');
    expect(await eventCounts(db, EVENT.id)).toEqual({ going: 4, checkedIn: 4 });
  });

  it('a pull that says two doors admitted this attendee flags this door’s own acknowledged scan of them (Needs attention)', async () => {
    const { row } = await scan(hash(1));
    const other = await scan(hash(2));
    await applyPushResults(db, [
      { clientId: row.clientId, status: 'inserted', checkinId: 41, conflict: null },
      { clientId: other.row.clientId, status: 'inserted', checkinId: 42, conflict: null },
    ]);
    const flagged: AttendeeTuple = tuple(1, { count: 2, last: '2030-06-01 18:10:00' });
    flagged[10] = 'again_elsewhere';
    await applyPullPage(db, DEVICE, pull([flagged, tuple(2, { count: 1, last: '2030-06-01 18:10:00' })]), Date.now());
    expect((await conflictScans(db)).map((c) => [c.clientId, c.conflict])).toEqual([[row.clientId, 'again_elsewhere']]);
  });

  it('a rejected admitted scan is marked and listed, never resent; a rejected refusal is its receipt', async () => {
    const ok = await scan(hash(1));
    const refused = await scan(hash(99));
    await applyPushResults(db, [
      { clientId: ok.row.clientId, status: 'rejected', reason: 'forbidden' },
      { clientId: refused.row.clientId, status: 'rejected', reason: 'unknown' },
    ]);
    expect(await pendingCount(db)).toBe(0);
    expect(await rejectedItems(db)).toMatchObject([{ clientId: ok.row.clientId, status: 'rejected', reason: 'forbidden' }]);
    expect(await db.checkins.get(ok.row.clientId)).toMatchObject({ state: 'rejected', reason: 'forbidden' });
  });

  it('a failed item stays queued with one more attempt', async () => {
    const { row } = await scan(hash(1));
    await applyPushResults(db, [{ clientId: row.clientId, status: 'failed' }]);
    expect(await db.outbox.toArray()).toMatchObject([{ clientId: row.clientId, status: 'queued', attempts: 1 }]);
  });
});

describe('undo', () => {
  it('drops an unsent scan from the outbox', async () => {
    const { row } = await scan(hash(1));
    expect(await undoScan(db, row.clientId)).toBe('dropped');
    expect(await db.outbox.count()).toBe(0);
    expect((await lookupScan(db, { codeHash: hash(1) }, EVENT.id, 'Door A')).verdict).toBe('ok');
  });

  it('queues an annul for a stored scan, and refuses after 15 minutes', async () => {
    const { row } = await scan(hash(1));
    await applyPushResults(db, [{ clientId: row.clientId, status: 'inserted', checkinId: 41, conflict: null }]);
    expect(await undoScan(db, row.clientId, row.scannedMs + UNDO_WINDOW_MS + 1)).toBe('too_late');
    expect(await undoScan(db, row.clientId)).toBe('queued');
    expect(await db.outbox.toArray()).toMatchObject([{ kind: 'annul', checkinId: 41, status: 'queued' }]);
    expect((await lookupScan(db, { codeHash: hash(1) }, EVENT.id, 'Door A')).verdict).toBe('ok');
  });

  it('annuls a scan undone while its push was in flight once the server says it stored it', async () => {
    const { row } = await scan(hash(1));
    const inFlight = await db.outbox.toArray();
    expect(await undoScan(db, row.clientId)).toBe('dropped');
    expect(inFlight).toHaveLength(1);
    await applyPushResults(db, [{ clientId: row.clientId, status: 'inserted', checkinId: 42, conflict: null }]);
    expect(await db.outbox.toArray()).toMatchObject([{ kind: 'annul', checkinId: 42 }]);
  });
});

describe('download, reset, search, counts', () => {
  it('stores each download page with its position and the first page’s cursor', async () => {
    const fresh = openDoorDb(`door-test-${randomUUID()}`);
    await applyDownloadPage(fresh, DEVICE, page([tuple(1), tuple(2)], { hasMore: true, cursor: '300:0' }), Date.now());
    expect((await readSyncState(fresh, DEVICE)).downloads[EVENT.id]).toEqual({ nextAfterId: 2, done: false, count: 2 });
    await applyDownloadPage(fresh, DEVICE, page([tuple(3)], { cursor: null }), Date.now());
    const state = await readSyncState(fresh, DEVICE);
    expect(state).toMatchObject({ cursor: '300:0', downloads: { [EVENT.id]: { nextAfterId: 3, done: true, count: 3 } } });
    expect((await cachedAttendees(fresh)).length).toBe(3);
    await fresh.delete();
  });

  it('reset wipes the cached events and attendees and the cursor, never the outbox or the local scans', async () => {
    const { row } = await scan(hash(1));
    await resetCache(db, DEVICE);
    expect((await cachedAttendees(db)).length).toBe(0);
    expect(await db.events.count()).toBe(0);
    expect((await readSyncState(db, DEVICE)).cursor).toBeNull();
    expect(await db.outbox.count()).toBe(1);
    expect(await db.checkins.get(row.clientId)).toBeDefined();
  });

  it('finds attendees of the event by a prefix of any word of the name or email, from 2 characters', async () => {
    await applyPullPage(
      db,
      DEVICE,
      pull([tuple(10, { name: 'Zoë Álvarez', email: 'zalvarez@example.test' }), tuple(11, { name: 'Zora Bell', eventId: 2 })]),
      Date.now(),
    );
    expect(await searchAttendees(db, EVENT.id, 'z')).toEqual([]);
    expect((await searchAttendees(db, EVENT.id, 'zo')).map((a) => a.id)).toEqual([10]);
    expect((await searchAttendees(db, EVENT.id, 'alva')).map((a) => a.id)).toEqual([10]);
    expect((await searchAttendees(db, EVENT.id, 'ZALVAREZ@')).map((a) => a.id)).toEqual([10]);
    expect((await searchAttendees(db, EVENT.id, 'zoe alv')).map((a) => a.id)).toEqual([10]);
  });

  it('counts seats going and checked in (two per guest here) from the cache and this device’s unsynced scans', async () => {
    expect(await eventCounts(db, EVENT.id)).toEqual({ going: 4, checkedIn: 2 });
    await scan(hash(1));
    await scan(hash(5));
    expect(await eventCounts(db, EVENT.id)).toEqual({ going: 4, checkedIn: 4 });
  });

  it('counts as checked in only attendees whose status admits, as the server does: a forced scan of a cancelled guest is not counted', async () => {
    // the pull after a sync: her offline scan is stored (conflict cancelled_before_scan), her row cancelled
    await applyPullPage(db, DEVICE, pull([tuple(1, { status: 'cancelled', count: 1, last: '2030-06-01 18:10:00' })]), Date.now());
    expect(await eventCounts(db, EVENT.id)).toEqual({ going: 2, checkedIn: 2 });
    // an unsynced scan of a going guest who is cancelled by the pull that carries it: counted, then not
    const { row } = await scan(hash(6));
    expect(row.verdict).toBe('unknown');
    await applyPullPage(db, DEVICE, pull([tuple(7)]), Date.now());
    await scan(hash(7));
    expect(await eventCounts(db, EVENT.id)).toEqual({ going: 4, checkedIn: 4 });
    await applyPullPage(db, DEVICE, pull([tuple(7, { status: 'cancelled' })]), Date.now());
    expect(await eventCounts(db, EVENT.id)).toEqual({ going: 2, checkedIn: 2 });
  });
});
