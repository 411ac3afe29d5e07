/**
 * Check-in lists (docs/decisions/029-check-in-lists.md): an administrator limits a door device to
 * some ticket categories; the door learns the list and the categories' names through pull, and the
 * server refuses a ticket of another category (push or online check-in) without checking it in.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { ATTENDEE_TUPLE_COLUMNS, type PullResult } from '../../shared/checkin';
import { useTestServer } from '../helpers/test-server';
import { apiClient } from '../helpers/http';
import { createAttendee, createEvent, pairDevice, scan, trpcClient } from '../helpers/checkin';
import { createCategory, setCategory } from '../helpers/categories';

const { server: srv, admin, db } = useTestServer({ env: { SVC_JOBS: 'off' } });
const fired: number[] = [];
beforeAll(() => {
  srv.server.ctx.hooks.addAction('svc_pro_attendee_checked_in', (checkinId: number) => void fired.push(checkinId));
});

const CATEGORY = ATTENDEE_TUPLE_COLUMNS.indexOf('categoryId');

/** An event with VIP and General admission, one going attendee of each, and one without a category. */
async function concert() {
  const event = await createEvent(db());
  const vip = await createCategory(db(), event.id, 'VIP', 0);
  const general = await createCategory(db(), event.id, 'General admission', 1);
  const [vipGuest, generalGuest, plainGuest] = [
    await createAttendee(db(), event.id),
    await createAttendee(db(), event.id),
    await createAttendee(db(), event.id),
  ];
  await setCategory(db(), vipGuest.id, vip.id);
  await setCategory(db(), generalGuest.id, general.id);
  return { event, vip, general, vipGuest, generalGuest, plainGuest };
}

/** A device of `eventIds` created with `categoryIds`, paired: its id, token and tRPC client. */
async function doorWithList(eventIds: number[], categoryIds: number[] | null) {
  const created = await admin.api.post('/devices', { name: 'VIP door', eventIds, categoryIds });
  expect(created.status).toBe(201);
  const paired = await apiClient(srv.url).post('/devices/pair', { code: created.body.pairing.pairingCode });
  expect(paired.status).toBe(200);
  return { id: created.body.id as number, token: paired.body.token as string, client: trpcClient(srv.url, { bearer: paired.body.token }) };
}

const live = (r: PullResult) => {
  if (r.reset) throw new Error('unexpected reset');
  return r;
};

const checkinsOf = (attendeeId: number) =>
  queryRows<{ id: number }>(db(), sql`select id from svc_checkins where attendee_id = ${attendeeId} and annulled_utc is null`);

describe('a device check-in list', () => {
  it('is set on create and patch from categories of the device events (deduplicated, sorted) and cleared with null', async () => {
    const { event, vip, general } = await concert();
    const d = await doorWithList([event.id], [general.id, vip.id, general.id]);
    expect((await admin.api.get('/devices')).body.find((x: { id: number }) => x.id === d.id).categoryIds).toEqual([vip.id, general.id].sort((a, b) => a - b));
    const patched = await admin.api.patch(`/devices/${d.id}`, { categoryIds: [vip.id] });
    expect(patched.status).toBe(200);
    expect(patched.body.categoryIds).toEqual([vip.id]);
    const cleared = await admin.api.patch(`/devices/${d.id}`, { categoryIds: null });
    expect(cleared.body.categoryIds).toBeNull();
  });

  it('refuses a category of another event or an unknown one with svc_invalid_param naming categoryIds, and stores nothing', async () => {
    const { event, vip } = await concert();
    const other = await createEvent(db());
    const foreign = await createCategory(db(), other.id, 'Backstage');
    const before = (await admin.api.get('/devices')).body.length;
    const created = await admin.api.post('/devices', { name: 'Door', eventIds: [event.id], categoryIds: [vip.id, foreign.id] });
    expect(created.status).toBe(400);
    expect(created.body.code).toBe('svc_invalid_param');
    expect(created.body.data.params.categoryIds).toContain(String(foreign.id));
    expect((await admin.api.get('/devices')).body.length).toBe(before);

    const d = await doorWithList([event.id], [vip.id]);
    const unknown = await admin.api.patch(`/devices/${d.id}`, { categoryIds: [2_000_000_000] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.data.params.categoryIds).toMatch(/no such ticket category/);
    // taking the list's event away while the list still names its category is refused too
    const moved = await admin.api.patch(`/devices/${d.id}`, { eventIds: [other.id] });
    expect(moved.status).toBe(400);
    expect(moved.body.data.params).toHaveProperty('categoryIds');
    const after = (await admin.api.get('/devices')).body.find((x: { id: number }) => x.id === d.id);
    expect([after.eventIds, after.categoryIds]).toEqual([[event.id], [vip.id]]);
  });

  it('an empty list is refused: null means every ticket', async () => {
    const { event } = await concert();
    const created = await admin.api.post('/devices', { name: 'Door', eventIds: [event.id], categoryIds: [] });
    expect(created.status).toBe(400);
    expect(created.body.data.params).toHaveProperty('categoryIds');
  });
});

describe('pull carries the list and the categories', () => {
  it('answers the device list, every category of the followed events in order, and each attendee tuple its category', async () => {
    const { event, vip, general, vipGuest, generalGuest, plainGuest } = await concert();
    const d = await doorWithList([event.id], [vip.id]);
    const first = await d.client.sync.download.query({ eventId: event.id });
    const byId = new Map(first.attendees.map((t) => [t[0], t]));
    expect([vipGuest, generalGuest, plainGuest].map((a) => byId.get(a.id)![CATEGORY])).toEqual([vip.id, general.id, null]);

    const page = live(await d.client.sync.pull.query({ cursor: first.cursor!, eventIds: [event.id] }));
    expect(page.checkinList).toEqual([vip.id]);
    expect(page.categories).toEqual([
      { id: vip.id, eventId: event.id, name: 'VIP', position: 0 },
      { id: general.id, eventId: event.id, name: 'General admission', position: 1 },
    ]);
    // a category change reaches the door as an attendee delta
    await setCategory(db(), plainGuest.id, general.id);
    const next = live(await d.client.sync.pull.query({ cursor: page.cursor, eventIds: [event.id] }));
    expect(next.attendees.find((t) => t[0] === plainGuest.id)?.[CATEGORY]).toBe(general.id);
  });

  it('answers a null list to a device without one, and after the administrator sets one, the list', async () => {
    const { event, general } = await concert();
    const d = await pairDevice(srv.url, admin.api, [event.id]);
    const client = trpcClient(srv.url, { bearer: d.token });
    const { cursor } = await client.sync.download.query({ eventId: event.id });
    expect(live(await client.sync.pull.query({ cursor: cursor!, eventIds: [event.id] })).checkinList).toBeNull();
    await admin.api.patch(`/devices/${d.id}`, { categoryIds: [general.id] });
    expect(live(await client.sync.pull.query({ cursor: cursor!, eventIds: [event.id] })).checkinList).toEqual([general.id]);
    expect((await client.devices.me.query()).categoryIds).toEqual([general.id]);
  });
});

describe('push and check-in with a list', () => {
  it('a VIP-only device: the VIP scan is stored; a General admission scan is refused wrong_category, logged, and not checked in', async () => {
    const { event, vip, vipGuest, generalGuest, plainGuest } = await concert();
    const d = await doorWithList([event.id], [vip.id]);
    fired.length = 0;
    const items = [
      scan(vipGuest),
      // what the door decided offline
      scan(generalGuest, { verdictOnDevice: 'wrong_category' }),
      // a door with an older list that admitted it: the server still refuses it
      scan(generalGuest, { verdictOnDevice: 'ok' }),
      scan(plainGuest, { verdictOnDevice: 'ok' }),
    ];
    const { results } = await d.client.sync.push.mutate({ items });
    expect(results.map((r) => [r.status, 'reason' in r ? r.reason : null])).toEqual([
      ['inserted', null],
      ['rejected', 'wrong_category'],
      ['rejected', 'wrong_category'],
      ['rejected', 'wrong_category'],
    ]);
    expect(await checkinsOf(generalGuest.id)).toEqual([]);
    expect(await checkinsOf(plainGuest.id)).toEqual([]);
    expect(await checkinsOf(vipGuest.id)).toHaveLength(1);
    expect(fired).toHaveLength(1);
    const logged = await queryRows<{ reason: string; verdict_on_device: string }>(
      db(),
      sql`select reason, verdict_on_device from svc_scan_log where attendee_id = ${generalGuest.id} order by id`,
    );
    expect(logged).toEqual([
      { reason: 'wrong_category', verdict_on_device: 'wrong_category' },
      { reason: 'wrong_category', verdict_on_device: 'ok' },
    ]);
    // resent: the refusal answers the same and logs nothing twice
    const again = await d.client.sync.push.mutate({ items: [items[1]!] });
    expect(again.results[0]).toMatchObject({ status: 'rejected', reason: 'wrong_category' });
  });

  it('the list limits only its own events: a device following a second event admits every ticket there', async () => {
    const { event, vip } = await concert();
    const other = await createEvent(db());
    const backstage = await createCategory(db(), other.id, 'Backstage');
    const guest = await createAttendee(db(), other.id);
    await setCategory(db(), guest.id, backstage.id);
    const plain = await createAttendee(db(), other.id);
    const d = await doorWithList([event.id, other.id], [vip.id]);
    const { results } = await d.client.sync.push.mutate({ items: [scan(guest), scan(plain)] });
    expect(results.map((r) => r.status)).toEqual(['inserted', 'inserted']);
  });

  it('a device without a list stores every category, exactly as before', async () => {
    const { event, vipGuest, generalGuest, plainGuest } = await concert();
    const d = await doorWithList([event.id], null);
    const { results } = await d.client.sync.push.mutate({ items: [scan(vipGuest), scan(generalGuest), scan(plainGuest)] });
    expect(results.map((r) => r.status)).toEqual(['inserted', 'inserted', 'inserted']);
  });

  it('online check-in by a VIP-only device answers 409 svc_ticket_wrong_category for General admission and stores no check-in', async () => {
    const { event, vip, vipGuest, generalGuest } = await concert();
    const d = await doorWithList([event.id], [vip.id]);
    const api = apiClient(srv.url, { bearer: d.token });
    const refused = await api.post('/checkins', { ticketCode: generalGuest.ticketCode, eventId: event.id, clientId: randomUUID() });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('svc_ticket_wrong_category');
    expect(refused.body.data.verdict).toBe('wrong_category');
    expect(await checkinsOf(generalGuest.id)).toEqual([]);
    const admitted = await api.post('/checkins', { ticketCode: vipGuest.ticketCode, eventId: event.id });
    expect(admitted.status).toBe(201);
    // an administrator (no device) admits every category
    expect((await admin.api.post('/checkins', { ticketCode: generalGuest.ticketCode, eventId: event.id })).status).toBe(201);
  });
});

describe('counts per category', () => {
  const unpaid = (soldCount: number) => ({ quota: null, soldCount, revenueCents: 0, atDoorCents: 0 });

  it('answer going and checked-in figures per category in their order, then the attendees without one', async () => {
    const { event, vip, general, vipGuest, plainGuest } = await concert();
    await createAttendee(db(), event.id, { status: 'cancelled' }).then((a) => setCategory(db(), a.id, vip.id));
    await admin.api.post('/checkins', { ticketCode: vipGuest.ticketCode, eventId: event.id });
    await admin.api.post('/checkins', { ticketCode: plainGuest.ticketCode, eventId: event.id });
    const counts = await admin.api.get(`/checkins/counts?eventId=${event.id}`);
    expect(counts.status).toBe(200);
    expect(counts.body.categories).toEqual([
      // free categories: sold seats and no money; no quota set
      { categoryId: vip.id, name: 'VIP', attendeesGoing: 1, seatsGoing: 1, checkedIn: 1, seatsCheckedIn: 1, ...unpaid(1) },
      { categoryId: general.id, name: 'General admission', attendeesGoing: 1, seatsGoing: 1, checkedIn: 0, seatsCheckedIn: 0, ...unpaid(1) },
      { categoryId: null, name: null, attendeesGoing: 1, seatsGoing: 1, checkedIn: 1, seatsCheckedIn: 1, ...unpaid(1) },
    ]);
    expect(counts.body.checkedIn).toBe(2);
  });

  it('are empty for an event without categories', async () => {
    const event = await createEvent(db());
    await createAttendee(db(), event.id);
    expect((await admin.api.get(`/checkins/counts?eventId=${event.id}`)).body.categories).toEqual([]);
  });
});
