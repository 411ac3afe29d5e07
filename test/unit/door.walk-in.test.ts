/**
 * Walk-ins on the door (docs/api.md#sync): the local attendee, its check-in and one queued item
 * written together; the push answer swaps the local attendee for the server's so the person is
 * never listed twice; the engine against the real server in-process stores each walk-in once,
 * even when an answer is lost. Also: an undo after a push whose answer was lost annuls the row.
 */
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { applyDownloadPage, applyPullPage, applyPushResults, cachedAttendee, cachedAttendees } from '../../client/door/db/attendee-cache';
import { openDoorDb, type DoorDb } from '../../client/door/db/door-db';
import { eventCounts, lookupScan, pendingCount, recordScan, rejectedItems, searchAttendees, undoScan } from '../../client/door/db/scans';
import { localAttendeeId, recordWalkIn, type NewWalkIn } from '../../client/door/db/walk-ins';
import { createSyncEngine, type SyncEngineOptions } from '../../client/door/sync/engine';
import { trpcTransport, type DoorTransport } from '../../client/door/sync/transport';
import type { AttendeeTuple, CheckinDto } from '../../shared/checkin';
import { createAttendee, createEvent } from '../helpers/checkin';
import { loginAs } from '../helpers/http';
import { startTestServer, type TestServer } from '../helpers/server';
import { attendeeTuple, codeHash, DOOR_EVENT } from '../helpers/door-cache';
import { answersLost } from '../helpers/door-transport';

const EVENT = DOOR_EVENT;
const hash = codeHash;
const tuple = (id: number, name = `Guest ${id}`, email = `guest${id}@example.test`, count = 0): AttendeeTuple => attendeeTuple(id, { name, email, count });

const dbs: DoorDb[] = [];
afterEach(async () => {
  for (const d of dbs.splice(0)) await d.delete();
});

async function freshDb(): Promise<DoorDb> {
  const db = openDoorDb(`door-walk-in-${randomUUID()}`);
  dbs.push(db);
  await applyDownloadPage(db, 7, { cursor: '100:0', event: EVENT, attendees: [tuple(1)], nextAfterId: 1, hasMore: false }, Date.now());
  return db;
}

const newWalkIn = (over: Partial<NewWalkIn> = {}): NewWalkIn => ({
  clientId: randomUUID(),
  attendeeClientId: randomUUID(),
  eventId: EVENT.id,
  displayName: 'Wanda Walkin',
  email: '',
  quantity: 2,
  scannedMs: Date.now(),
  ...over,
});

describe('walk-ins on the device', () => {
  it('writes the local attendee, its check-in and one walk_in outbox item with both client ids, all together', async () => {
    const db = await freshDb();
    const w = newWalkIn({ displayName: '  Wanda Walkin ', email: 'wanda@example.test' });
    await recordWalkIn(db, w);
    const [item, ...rest] = await db.outbox.toArray();
    expect(rest).toEqual([]);
    expect(item).toMatchObject({
      clientId: w.clientId,
      kind: 'walk_in',
      status: 'queued',
      item: {
        kind: 'walk_in',
        clientId: w.clientId,
        attendeeClientId: w.attendeeClientId,
        eventId: EVENT.id,
        displayName: 'Wanda Walkin',
        email: 'wanda@example.test',
        quantity: 2,
      },
    });
    const attendee = await cachedAttendee(db, localAttendeeId(w.attendeeClientId));
    expect(attendee).toMatchObject({ displayName: 'Wanda Walkin', status: 'going', quantity: 2 });
    expect(attendee!.id).toBeLessThan(0);
    expect(await db.checkins.get(w.clientId)).toMatchObject({ verdict: 'ok', source: 'walk_in', state: 'queued', attendeeId: attendee!.id });
    expect(await pendingCount(db)).toBe(1);
    // seats: the guest already on the list (1) and the walk-in party of 2, who is in
    expect(await eventCounts(db, EVENT.id)).toEqual({ going: 3, checkedIn: 2 });
  });

  it('stores nothing when the transaction fails (an empty name)', async () => {
    const db = await freshDb();
    await expect(recordWalkIn(db, newWalkIn({ displayName: '   ' }))).rejects.toThrow();
    expect([await db.outbox.count(), await db.checkins.count(), (await cachedAttendees(db)).length]).toEqual([0, 0, 1]);
  });

  it('the push answer replaces the local attendee with the server’s; the next pull shows the person once, checked in', async () => {
    const db = await freshDb();
    const w = newWalkIn();
    await recordWalkIn(db, w);
    expect(await searchAttendees(db, EVENT.id, 'wanda')).toEqual([]);
    await applyPushResults(db, [{ clientId: w.clientId, status: 'inserted', checkinId: 50, conflict: null, walkIn: { attendeeId: 9, codeHash: hash(9) } }]);
    expect(await cachedAttendee(db, localAttendeeId(w.attendeeClientId))).toBeUndefined();
    expect(await db.checkins.get(w.clientId)).toMatchObject({ state: 'acked', checkinId: 50, attendeeId: 9, codeHash: hash(9) });
    expect((await searchAttendees(db, EVENT.id, 'wanda')).map((a) => a.id)).toEqual([9]);
    expect(await eventCounts(db, EVENT.id)).toEqual({ going: 3, checkedIn: 2 });
    // a re-scan of the walk-in's ticket now is AGAIN, and pushes the server's attendee
    expect((await lookupScan(db, { codeHash: hash(9) }, EVENT.id, 'Door A')).verdict).toBe('again');

    await applyPullPage(
      db,
      7,
      { reset: false, cursor: '300:0', hasMore: false, events: [], attendees: [tuple(9, 'Wanda Walkin', '', 1)], tombstones: { events: [], attendees: [] } },
      Date.now() + 1,
    );
    expect((await cachedAttendees(db, EVENT.id)).filter((a) => a.displayName === 'Wanda Walkin')).toHaveLength(1);
    expect(await db.checkins.get(w.clientId)).toMatchObject({ state: 'reflected' });
    expect(await eventCounts(db, EVENT.id)).toEqual({ going: 2, checkedIn: 1 });
  });

  it('a walk-in the server refuses (walk-ins not allowed) is listed, not resent, and its local attendee goes', async () => {
    const db = await freshDb();
    const w = newWalkIn();
    await recordWalkIn(db, w);
    await applyPushResults(db, [{ clientId: w.clientId, status: 'rejected', reason: 'walk_ins_not_allowed' }]);
    expect((await rejectedItems(db)).map((i) => [i.clientId, i.reason])).toEqual([[w.clientId, 'walk_ins_not_allowed']]);
    expect(await pendingCount(db)).toBe(0);
    expect(await db.checkins.get(w.clientId)).toMatchObject({ state: 'rejected' });
    expect((await cachedAttendees(db)).length).toBe(1);
    expect(await eventCounts(db, EVENT.id)).toEqual({ going: 1, checkedIn: 0 });
  });

  it('undo before sending drops the walk-in entirely: outbox item, local attendee, count', async () => {
    const db = await freshDb();
    const w = newWalkIn();
    await recordWalkIn(db, w);
    expect(await undoScan(db, w.clientId)).toBe('dropped');
    expect(await db.outbox.count()).toBe(0);
    expect(await cachedAttendee(db, localAttendeeId(w.attendeeClientId))).toBeUndefined();
    expect(await eventCounts(db, EVENT.id)).toEqual({ going: 1, checkedIn: 0 });
  });
});

describe('walk-ins synced by the engine to the real server', () => {
  let srv: TestServer;
  let admin: Awaited<ReturnType<typeof loginAs>>;
  beforeAll(async () => {
    srv = await startTestServer({ env: { SVC_JOBS: 'off' } });
    admin = await loginAs(srv.url, srv.admin.email, srv.admin.password);
  });
  afterAll(() => srv?.close());
  const sdb = () => srv.server.ctx.db;

  async function pairedDoor(eventIds: number[], walkIns: boolean, opts: Partial<SyncEngineOptions> & { wrap?: (t: DoorTransport) => DoorTransport } = {}) {
    const db = openDoorDb(`door-walk-in-sync-${randomUUID()}`);
    dbs.push(db);
    let token: string | null = null;
    const real = trpcTransport(() => token, `${srv.url}/trpc`);
    const engine = createSyncEngine({ db, transport: opts.wrap ? opts.wrap(real) : real, ...opts });
    const created = await admin.api.post('/devices', { name: 'Walk-in desk', eventIds });
    expect(created.status).toBe(201);
    if (walkIns) expect((await admin.api.patch(`/devices/${created.body.id}`, { walkIns: true })).status).toBe(200);
    token = (await engine.pair(created.body.pairing.pairingCode)).token;
    return { db, engine };
  }

  const serverCheckins = async (eventId: number) => (await admin.api.get<CheckinDto[]>(`/checkins?eventId=${eventId}&perPage=500`)).body;
  const serverAttendees = async (eventId: number) => (await admin.api.get<Array<{ id: number; displayName: string }>>(`/attendees?eventId=${eventId}`)).body;

  it('the device learns it may register walk-ins; one walk-in whose first answer was lost is stored once and listed once after the pull', async () => {
    const event = await createEvent(sdb());
    await createAttendee(sdb(), event.id, { name: 'Known Guest' });
    const network = answersLost(1);
    const door = await pairedDoor([event.id], true, { wrap: network.wrap });
    await door.engine.syncNow();
    expect((await door.db.device.get('self'))!.walkIns).toBe(true);
    const w = newWalkIn({ eventId: event.id, displayName: 'Walter Walkin' });
    await recordWalkIn(door.db, w);
    await door.engine.syncNow();
    expect(door.engine.status.lastErrorCode).toBe('network');
    await door.engine.syncNow();
    expect(door.engine.status.phase).toBe('idle');
    expect(await pendingCount(door.db)).toBe(0);

    const attendees = await serverAttendees(event.id);
    expect(attendees.map((a) => a.displayName).sort()).toEqual(['Known Guest', 'Walter Walkin']);
    const walter = attendees.find((a) => a.displayName === 'Walter Walkin')!;
    expect((await serverCheckins(event.id)).map((c) => [c.attendeeId, c.clientId, c.source])).toEqual([[walter.id, w.clientId, 'walk_in']]);
    const local = (await cachedAttendees(door.db, event.id)).sort((a, b) => a.displayName.localeCompare(b.displayName));
    expect(local.map((a) => [a.displayName, a.id, a.checkinCount])).toEqual([
      ['Known Guest', expect.any(Number), 0],
      ['Walter Walkin', walter.id, 1],
    ]);
    expect(await eventCounts(door.db, event.id)).toEqual({ going: 3, checkedIn: 2 });
  });

  it('an undo after a push whose answer was lost annuls the row the server stored', async () => {
    const event = await createEvent(sdb());
    const a = await createAttendee(sdb(), event.id);
    const network = answersLost();
    const door = await pairedDoor([event.id], false, { wrap: network.wrap });
    await door.engine.syncNow();
    const lookup = await lookupScan(door.db, { codeHash: a.codeHash }, event.id, 'Door A');
    const row = await recordScan(door.db, { clientId: randomUUID(), eventId: event.id, codeHash: a.codeHash, lookup, source: 'scan', scannedMs: Date.now() });
    network.lose();
    await door.engine.syncNow();
    expect((await serverCheckins(event.id)).map((c) => [c.clientId, c.annulledUtc])).toEqual([[row.clientId, null]]);
    expect(await undoScan(door.db, row.clientId)).toBe('queued');
    await door.engine.syncNow();
    expect(door.engine.status.phase).toBe('idle');
    const [stored] = await serverCheckins(event.id);
    expect(stored!.annulledUtc).not.toBeNull();
    expect(await pendingCount(door.db)).toBe(0);
  });
});
