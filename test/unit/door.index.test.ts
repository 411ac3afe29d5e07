/**
 * The door's attendee list as download chunks with an in-memory index (client/door/db/attendee-index.ts)
 * on fake-indexeddb: a reload (a second connection, a fresh index) answers the same verdicts as the
 * page that wrote the cache — chunks, pull deltas laid over them, deletions, unsynced scans — and
 * so does the cache after its overlay is folded back into chunks; the upgrade from one record per
 * attendee keeps the device's own scans.
 */
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import type { AttendeeTuple, DownloadResult, PullResult } from '../../shared/checkin';
import { applyDownloadPage, applyPullPage, cachedAttendees, compactCache, readSyncState } from '../../client/door/db/attendee-cache';
import { AttendeeIndex, attendeeIndex } from '../../client/door/db/attendee-index';
import { attendeeFromTuple, DOOR_STORES, openDoorDb, type DoorDb } from '../../client/door/db/door-db';
import { eventCounts, lookupScan, pendingCount, recordScan, searchAttendees } from '../../client/door/db/scans';
import { localAttendeeId, recordWalkIn } from '../../client/door/db/walk-ins';
import { attendeeTuple, codeHash, DOOR_EVENT } from '../helpers/door-cache';

const DEVICE = 7;
const EVENT = DOOR_EVENT;
const opened: DoorDb[] = [];

function open(name: string): DoorDb {
  const db = openDoorDb(name);
  opened.push(db);
  return db;
}
afterEach(async () => {
  for (const db of opened.splice(0)) await db.delete();
});

const page = (attendees: AttendeeTuple[], hasMore: boolean): DownloadResult => ({
  cursor: '100:0',
  event: EVENT,
  attendees,
  nextAfterId: attendees.at(-1)![0],
  hasMore,
});
const pull = (attendees: AttendeeTuple[], tombstones: number[] = []): Extract<PullResult, { reset: false }> => ({
  reset: false,
  cursor: '200:0',
  hasMore: false,
  events: [],
  attendees,
  tombstones: { events: [], attendees: tombstones },
});

const verdict = async (db: DoorDb, n: number) => (await lookupScan(db, { codeHash: codeHash(n) }, EVENT.id, 'Door A')).verdict;

/** Two download pages of 1..6, a pull that cancels 2, checks in 3 elsewhere and deletes 4, and an unsynced scan of 5. */
async function writeCache(db: DoorDb): Promise<void> {
  await applyDownloadPage(
    db,
    DEVICE,
    page(
      [1, 2, 3].map((id) => attendeeTuple(id)),
      true,
    ),
    Date.now(),
  );
  await applyDownloadPage(
    db,
    DEVICE,
    page(
      [4, 5, 6].map((id) => attendeeTuple(id)),
      false,
    ),
    Date.now(),
  );
  await applyPullPage(
    db,
    DEVICE,
    pull([attendeeTuple(2, { status: 'cancelled' }), attendeeTuple(3, { count: 1, last: '2030-06-01 18:05:00', lastDevice: 'Gate 9' })], [4]),
    Date.now(),
  );
  const lookup = await lookupScan(db, { codeHash: codeHash(5) }, EVENT.id, 'Door A');
  await recordScan(db, { clientId: randomUUID(), eventId: EVENT.id, codeHash: codeHash(5), lookup, source: 'scan', scannedMs: Date.now() });
}

async function expectCache(db: DoorDb): Promise<void> {
  expect(await Promise.all([1, 2, 3, 4, 5, 6].map((n) => verdict(db, n)))).toEqual(['ok', 'cancelled', 'again', 'unknown', 'again', 'ok']);
  expect(await eventCounts(db, EVENT.id)).toEqual({ going: 4, checkedIn: 2 });
  expect((await searchAttendees(db, EVENT.id, 'guest')).map((a) => a.id)).toEqual([1, 2, 3, 5, 6]);
  expect(await pendingCount(db)).toBe(1);
}

describe('the door’s list as chunks and an in-memory index', () => {
  it('stores one record per download page, not one per attendee', async () => {
    const db = open(`door-index-${randomUUID()}`);
    await writeCache(db);
    expect(await db.attendeeChunks.count()).toBe(2);
    // the overlay holds only what pulls changed
    expect((await db.attendees.toArray()).map((a) => a.id).sort()).toEqual([2, 3]);
    expect((await readSyncState(db, DEVICE)).downloads[EVENT.id]).toMatchObject({ done: true, count: 6 });
  });

  it('a reload answers the same verdicts: chunks, pull deltas over them, deletions and unsynced scans', async () => {
    const name = `door-index-${randomUUID()}`;
    const first = open(name);
    await writeCache(first);
    await expectCache(first);
    first.close();
    await expectCache(open(name));
  });

  it('folding the overlay back into chunks changes no answer, before or after a reload', async () => {
    const name = `door-index-${randomUUID()}`;
    const db = open(name);
    await writeCache(db);
    expect(await compactCache(db, 1)).toBe(true);
    expect(await db.attendees.count()).toBe(0);
    expect(await db.attendeeGone.count()).toBe(0);
    await expectCache(db);
    db.close();
    await expectCache(open(name));
  });

  it('a pull after the index is built shows at once, and a walk-in counts until it is synced', async () => {
    const db = open(`door-index-${randomUUID()}`);
    await writeCache(db);
    await attendeeIndex(db);
    await applyPullPage(db, DEVICE, pull([attendeeTuple(7, { name: 'Late Comer' })]), Date.now());
    expect(await verdict(db, 7)).toBe('ok');
    expect((await searchAttendees(db, EVENT.id, 'late')).map((a) => a.id)).toEqual([7]);
    const w = {
      clientId: randomUUID(),
      attendeeClientId: randomUUID(),
      eventId: EVENT.id,
      displayName: 'Wanda',
      email: '',
      quantity: 1,
      scannedMs: Date.now(),
    };
    await recordWalkIn(db, w);
    expect(await eventCounts(db, EVENT.id)).toEqual({ going: 6, checkedIn: 3 });
    expect((await cachedAttendees(db, EVENT.id)).some((a) => a.id === localAttendeeId(w.attendeeClientId))).toBe(true);
  });
});

describe('name search over the in-memory list', () => {
  const ids = (found: AttendeeTuple[]) => found.map((t) => t[0]).sort((a, b) => a - b);

  it('finds a word prefix of name or email for every word, in this event only, after renames and deletions, and after many changes', () => {
    const idx = new AttendeeIndex(new Set());
    for (let id = 1; id <= 3000; id++) idx.put(attendeeTuple(id, { eventId: id % 2 === 0 ? 2 : EVENT.id, name: `Guest ${id}` }));
    idx.put(attendeeTuple(3001, { name: 'Zoë Ångström', email: 'zoe@example.test' }));
    expect(ids(idx.search(EVENT.id, ['zoe'], 20))).toEqual([3001]);
    expect(ids(idx.search(EVENT.id, ['angs', 'zo'], 20))).toEqual([3001]);
    expect(ids(idx.search(EVENT.id, ['guest', '2999'], 20))).toEqual([2999]);
    expect(idx.search(EVENT.id, ['guest', '2998'], 20)).toEqual([]); // another event's
    expect(idx.search(EVENT.id, ['uest'], 20)).toEqual([]); // not a word start
    expect(idx.search(EVENT.id, ['guest'], 20)).toHaveLength(20);

    // changes after the search text was made
    idx.put(attendeeTuple(2999, { name: 'Renamed Person' }));
    idx.delete(3001);
    idx.put(attendeeTuple(4000, { name: 'New Arrival' }));
    expect(idx.search(EVENT.id, ['guest', '2999'], 20)).toEqual([]);
    expect(ids(idx.search(EVENT.id, ['renamed'], 20))).toEqual([2999]);
    expect(idx.search(EVENT.id, ['zoe'], 20)).toEqual([]);
    expect(ids(idx.search(EVENT.id, ['arrival'], 20))).toEqual([4000]);

    // enough changes that the search text is made again
    for (let id = 1; id <= 2500; id += 2) idx.put(attendeeTuple(id, { name: `Moved ${id}` }));
    for (let id = 5001; id <= 6000; id++) idx.put(attendeeTuple(id, { name: `Late ${id}` }));
    expect(ids(idx.search(EVENT.id, ['moved', '2499'], 20))).toEqual([2499]);
    expect(idx.search(EVENT.id, ['moved', '2501'], 20)).toEqual([]);
    expect(ids(idx.search(EVENT.id, ['late', '6000'], 20))).toEqual([6000]);
    expect(ids(idx.search(EVENT.id, ['renamed'], 20))).toEqual([2999]);
    expect(ids(idx.search(EVENT.id, ['guest', '2501'], 20))).toEqual([2501]);
  });
});

describe('upgrade from one record per attendee (version 1)', () => {
  it('moves the cached list into chunks and keeps the cursor, queued scans and local walk-ins: an offline device still answers', async () => {
    const name = `door-index-${randomUUID()}`;
    const v1 = new Dexie(name);
    v1.version(1).stores(DOOR_STORES);
    await v1
      .table('attendees')
      .bulkPut([
        attendeeFromTuple(attendeeTuple(1)),
        attendeeFromTuple(attendeeTuple(2, { status: 'cancelled' })),
        attendeeFromTuple(attendeeTuple(3, { eventId: 2 })),
        { ...attendeeFromTuple(attendeeTuple(4)), id: -5, codeHash: 'walk-in:x' },
      ]);
    await v1.table('checkins').put({ clientId: 'c1', eventId: EVENT.id, attendeeId: 1, codeHash: codeHash(1), state: 'queued', undo: null, scannedMs: 1 });
    await v1.table('outbox').put({ clientId: 'c1', kind: 'scan', status: 'queued', attempts: 0, createdMs: 1, reason: null, item: {} });
    const state = {
      deviceId: DEVICE,
      cursor: '5:0',
      downloads: { [EVENT.id]: { nextAfterId: 4, done: true, count: 3 } },
      lastSyncMs: null,
      lastAttemptMs: null,
      lastError: null,
    };
    await v1.table('syncState').put(state);
    v1.close();

    const db = open(name);
    expect(await pendingCount(db)).toBe(1);
    expect(await db.checkins.get('c1')).toBeDefined();
    expect((await db.attendees.toArray()).map((a) => a.id)).toEqual([-5]);
    expect(await db.attendeeChunks.count()).toBe(2);
    expect(await readSyncState(db, DEVICE)).toEqual(state);
    // the queued scan of 1 counts; 2 stays cancelled; 3 is another event's
    expect(await Promise.all([1, 2, 3].map((n) => verdict(db, n)))).toEqual(['again', 'cancelled', 'wrong_event']);
    // going: 1 and the walk-in; checked in: 1 by its queued scan
    expect(await eventCounts(db, EVENT.id)).toEqual({ going: 2, checkedIn: 1 });
  });
});
