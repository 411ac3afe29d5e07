/**
 * The admin's offline store (decision 012) on fake-indexeddb, and the reconciliation rule:
 * lists searched, filtered and sorted over the synced cache with queued edits laid over them;
 * edits queued with their base and merged; reconciliation where the server wins on a field
 * changed on both sides since the base; the flush that sends the rest through PATCH.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttendeeTuple, DownloadResult, SyncEvent } from '../../shared/checkin';
import { ApiError, NetworkError } from '../../client/ui/errors';
import { applyDownloadPage } from '../../client/door/db/attendee-cache';
import {
  attentionEdits,
  cacheAsOf,
  keptEventIds,
  openAdminOfflineDb,
  queryCachedAttendees,
  queuedEdits,
  queueEdit,
  setKept,
  type AdminOfflineDb,
} from '../../client/admin/offline-db';
import type { AttendeeCore } from '../../shared/attendees';
import { flushEdits, type EditTransport } from '../../client/admin/offline';
import { mergeEdits, reconcileEdit, type FieldValues } from '../../client/admin/reconcile';

const USER = 3;
const EVENT: SyncEvent = {
  id: 5,
  title: 'Gala',
  startsUtc: '2030-06-01 18:00:00',
  endsUtc: null,
  timezone: 'UTC',
  venue: '',
  status: 'published',
  capacity: null,
};
const tuple = (id: number, name: string, email: string, status = 'going', quantity = 1, eventId = EVENT.id): AttendeeTuple => [
  id,
  eventId,
  name,
  email,
  status,
  quantity,
  id.toString(16).padStart(64, '0'),
  id === 2 ? 1 : 0,
  id === 2 ? '2030-06-01 18:05:00' : null,
  null,
];
const download = (attendees: AttendeeTuple[], event = EVENT): DownloadResult => ({
  cursor: '10:0',
  event,
  attendees,
  nextAfterId: attendees.at(-1)![0],
  hasMore: false,
});

let db: AdminOfflineDb;
let n = 0;

beforeEach(async () => {
  db = openAdminOfflineDb(`admin-offline-test-${++n}`);
  await setKept(db, EVENT.id, true, 1000);
  await applyDownloadPage(
    db,
    USER,
    download([
      tuple(1, 'Zoë Adams', 'zoe@example.test'),
      tuple(2, 'Bob Brown', 'bob@example.test', 'going', 3),
      tuple(3, 'Ann Clark', 'ann@example.test', 'waitlist', 2),
      tuple(4, 'Éric Dubois', 'eric@example.test', 'cancelled'),
    ]),
    1000,
  );
  await db.syncState.update(USER, { lastSyncMs: 5000 });
});

afterEach(async () => {
  db.close();
  await db.delete();
});

describe('reconcileEdit (server wins on fields changed on both sides since the base)', () => {
  const server = { displayName: 'Bob Brown', email: 'bob@example.test', quantity: 3, status: 'going' };

  it('sends every changed field the server still holds at its base value', () => {
    const r = reconcileEdit({ displayName: 'Robert Brown', quantity: 4 }, { displayName: 'Bob Brown', quantity: 3 }, server);
    expect(r).toEqual({ patch: { displayName: 'Robert Brown', quantity: 4 }, kept: [], already: [] });
  });

  it('keeps the server value of a field changed there since the base and still sends the others', () => {
    const r = reconcileEdit(
      { displayName: 'Robert Brown', email: 'rob@example.test' },
      { displayName: 'Bob Brown', email: 'bob@example.test' },
      { ...server, displayName: 'Bobby B.' },
    );
    expect(r.patch).toEqual({ email: 'rob@example.test' });
    expect(r.kept).toEqual([{ field: 'displayName', base: 'Bob Brown', mine: 'Robert Brown', server: 'Bobby B.' }]);
  });

  it('sends nothing and reports no conflict when the server already has the admin value', () => {
    const r = reconcileEdit({ status: 'cancelled' }, { status: 'going' }, { ...server, status: 'cancelled' });
    expect(r).toEqual({ patch: {}, kept: [], already: ['status'] });
  });

  it('treats the old empty status as going when comparing with the base', () => {
    const r = reconcileEdit({ status: 'waitlist' }, { status: '' }, { ...server, status: 'going' });
    expect(r.patch).toEqual({ status: 'waitlist' });
    expect(r.kept).toEqual([]);
  });

  it('a field changed on the server that the admin did not edit is no conflict', () => {
    const r = reconcileEdit({ quantity: 5 }, { quantity: 3 }, { ...server, displayName: 'Changed elsewhere' });
    expect(r).toEqual({ patch: { quantity: 5 }, kept: [], already: [] });
  });

  it('merging a second edit keeps the oldest base and drops a field edited back to it', () => {
    const merged = mergeEdits(
      { changes: { displayName: 'B1', quantity: 4 }, base: { displayName: 'Bob Brown', quantity: 3 } },
      { changes: { displayName: 'B2', quantity: 3 }, base: { displayName: 'B1', quantity: 4 } },
    );
    expect(merged).toEqual({ changes: { displayName: 'B2' }, base: { displayName: 'Bob Brown' } });
  });
});

describe('offline store', () => {
  it('remembers kept events and the cache age; stopping drops the cached rows', async () => {
    expect(await keptEventIds(db)).toEqual([EVENT.id]);
    expect(await cacheAsOf(db, EVENT.id)).toBe(5000);
    await setKept(db, EVENT.id, false);
    expect(await keptEventIds(db)).toEqual([]);
    expect(await db.attendees.count()).toBe(0);
    expect(await cacheAsOf(db, EVENT.id)).toBeNull();
  });

  it('searches name or email by contained text with accents and case folded, filters status, sorts and pages', async () => {
    const q = { eventId: EVENT.id, page: 1, perPage: 50 };
    expect((await queryCachedAttendees(db, { ...q, search: 'eric' })).items.map((a) => a.id)).toEqual([4]);
    expect((await queryCachedAttendees(db, { ...q, search: 'OB@EXA' })).items.map((a) => a.id)).toEqual([2]);
    expect((await queryCachedAttendees(db, { ...q, status: 'going' })).items.map((a) => a.id)).toEqual([1, 2]);
    const byName = await queryCachedAttendees(db, { ...q, sort: 'displayName' });
    expect(byName.items.map((a) => a.displayName)).toEqual(['Ann Clark', 'Bob Brown', 'Zoë Adams', 'Éric Dubois']);
    const desc = await queryCachedAttendees(db, { ...q, sort: 'quantity', order: 'desc', page: 1, perPage: 2 });
    expect(desc).toMatchObject({ total: 4 });
    expect(desc.items.map((a) => a.id)).toEqual([2, 3]);
    expect(desc.items[0]).toMatchObject({ checkinCount: 1, lastCheckinUtc: '2030-06-01 18:05:00' });
  });

  it('lays queued edits over the cache, marked pending, and searches the edited values', async () => {
    await queueEdit(db, { attendeeId: 1, eventId: EVENT.id, label: 'Zoë Adams', changes: { displayName: 'Zoe Ames' }, base: { displayName: 'Zoë Adams' } });
    const found = await queryCachedAttendees(db, { eventId: EVENT.id, search: 'ames', page: 1, perPage: 50 });
    expect(found.items).toMatchObject([{ id: 1, displayName: 'Zoe Ames', pending: ['displayName'] }]);
  });

  it('a second edit of the same attendee folds into the queued one with the first base', async () => {
    const first = await queueEdit(db, { attendeeId: 2, eventId: EVENT.id, label: 'Bob', changes: { quantity: 4 }, base: { quantity: 3 } });
    await queueEdit(db, {
      attendeeId: 2,
      eventId: EVENT.id,
      label: 'Bob',
      changes: { quantity: 5, email: 'b@example.test' },
      base: { quantity: 4, email: 'bob@example.test' },
    });
    const queued = await queuedEdits(db);
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({
      clientId: first!.clientId,
      changes: { quantity: 5, email: 'b@example.test' },
      base: { quantity: 3, email: 'bob@example.test' },
    });
  });
});

describe('flushEdits', () => {
  function fakeServer(rows: AttendeeCore[]) {
    const byId = new Map(rows.map((r) => [r.id, { ...r }]));
    const patches: Array<{ id: number; patch: FieldValues }> = [];
    let reachable = true;
    const transport: EditTransport = {
      async get(id) {
        if (!reachable) throw new NetworkError(new TypeError('offline'));
        const row = byId.get(id);
        if (!row) throw new ApiError('svc_not_found', 'Not found.', 404);
        return { ...row };
      },
      async patch(id, patch) {
        if (!reachable) throw new NetworkError(new TypeError('offline'));
        patches.push({ id, patch });
        const row = { ...byId.get(id)!, ...patch } as AttendeeCore;
        byId.set(id, row);
        return { ...row };
      },
    };
    return { transport, byId, patches, setReachable: (v: boolean) => (reachable = v) };
  }
  const row = (id: number, displayName: string, email: string, quantity = 1, status = 'going'): AttendeeCore => ({
    id,
    eventId: EVENT.id,
    displayName,
    email,
    quantity,
    status,
  });

  it('sends the non-conflicting fields, keeps the server value of a field changed on both sides, and lists it for attention', async () => {
    const server = fakeServer([row(1, 'Zoë Adams (VIP)', 'zoe@example.test'), row(2, 'Bob Brown', 'bob@example.test', 3)]);
    await queueEdit(
      db,
      {
        attendeeId: 1,
        eventId: EVENT.id,
        label: 'Zoë Adams',
        changes: { displayName: 'Zoe A.', quantity: 2 },
        base: { displayName: 'Zoë Adams', quantity: 1 },
      },
      100,
    );
    await queueEdit(
      db,
      { attendeeId: 2, eventId: EVENT.id, label: 'Bob Brown', changes: { email: 'robert@example.test' }, base: { email: 'bob@example.test' } },
      200,
    );

    const outcome = await flushEdits(db, server.transport, () => 9000);

    expect(outcome).toEqual({ sent: 2, attention: 1, offline: false });
    expect(server.patches).toEqual([
      { id: 1, patch: { quantity: 2 } },
      { id: 2, patch: { email: 'robert@example.test' } },
    ]);
    expect(server.byId.get(1)).toMatchObject({ displayName: 'Zoë Adams (VIP)', quantity: 2 });
    expect(await queuedEdits(db)).toEqual([]);
    const attention = await attentionEdits(db, EVENT.id);
    expect(attention).toHaveLength(1);
    expect(attention[0]).toMatchObject({
      attendeeId: 1,
      sent: ['quantity'],
      kept: [{ field: 'displayName', base: 'Zoë Adams', mine: 'Zoe A.', server: 'Zoë Adams (VIP)' }],
      settledMs: 9000,
    });
    // the cache shows the server's answer at once
    expect(await db.attendees.get(1)).toMatchObject({ displayName: 'Zoë Adams (VIP)', quantity: 2 });
    expect(await db.attendees.get(2)).toMatchObject({ email: 'robert@example.test' });
  });

  it('stops at a network failure with the edit still queued, and sends it on the next round', async () => {
    const server = fakeServer([row(2, 'Bob Brown', 'bob@example.test', 3)]);
    await queueEdit(db, { attendeeId: 2, eventId: EVENT.id, label: 'Bob Brown', changes: { quantity: 4 }, base: { quantity: 3 } });
    server.setReachable(false);
    expect(await flushEdits(db, server.transport)).toEqual({ sent: 0, attention: 0, offline: true });
    expect(await queuedEdits(db)).toMatchObject([{ attendeeId: 2, attempts: 1 }]);
    server.setReachable(true);
    expect(await flushEdits(db, server.transport)).toEqual({ sent: 1, attention: 0, offline: false });
    expect(server.patches).toEqual([{ id: 2, patch: { quantity: 4 } }]);
  });

  it('an attendee deleted on the server is listed for attention, never resent', async () => {
    const server = fakeServer([]);
    await queueEdit(db, { attendeeId: 3, eventId: EVENT.id, label: 'Ann Clark', changes: { quantity: 1 }, base: { quantity: 2 } });
    expect(await flushEdits(db, server.transport)).toEqual({ sent: 0, attention: 1, offline: false });
    expect(await attentionEdits(db)).toMatchObject([{ attendeeId: 3, refusal: 'deleted', reason: null }]);
    expect(await queuedEdits(db)).toEqual([]);
  });
});
