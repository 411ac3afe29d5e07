/**
 * The attendee timeline (docs/api.md#timeline): each kind written at priority 10 of its action with
 * its data, read newest first by administrators and staff of the event, wiped at priority 10 of
 * svc_attendee_deleted. Jobs are off: a test runs the queue itself (`idle()`).
 */
import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { apiClient } from '../helpers/http';
import { pairDevice } from '../helpers/checkin';
import { useTestServer } from '../helpers/test-server';
import { attendeeRows, createEvent, signUp } from '../helpers/registration';
import { paymentIdOf } from '../helpers/payments';

const { server: srv, admin, db, hooks } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off' } });
const idle = () => srv.server.ctx.jobs.idle();

beforeAll(() => {
  // many sign-ups from one address: the per-IP throttle is not what these tests are about
  hooks().addFilter('svc_rsvp_client_ip', () => '', 50);
});

/** Listeners a test adds, removed after it. */
const added: Array<() => void> = [];
afterEach(() => {
  for (const undo of added.splice(0)) undo();
});
function listen(name: 'svc_attendee_status_changed' | 'svc_attendee_deleted', cb: (attendeeId: number) => Promise<void>, priority: number): void {
  hooks().addAction(name, cb as never, priority, 1);
  added.push(() => hooks().removeAction(name, cb as never, priority));
}

const entriesOf = (attendeeId: number) =>
  queryRows<{ kind: string }>(db(), sql`select kind from svc_timeline where attendee_id = ${attendeeId} order by id`).then((rows) => rows.map((r) => r.kind));

/** A free sign-up; answers the attendee id and its cancel token. */
async function signedUp(eventId: number, fields: Record<string, unknown> = {}) {
  const res = await signUp(srv, eventId, fields);
  expect(res.status).toBe(201);
  const row = (await attendeeRows(srv, eventId)).find((r) => r.id === res.body.id)!;
  return { id: res.body.id as number, cancelToken: row.cancel_token as string };
}

describe('GET /attendees/{id}/timeline', () => {
  it('lists each kind with its data, newest first: submitted, status_changed, checked_in (device and source), cancelled', async () => {
    const event = await createEvent(admin.api, { title: 'Gala', capacity: 20 });
    const { id, cancelToken } = await signedUp(event.id, { quantity: 2 });
    expect((await admin.api.patch(`/attendees/${id}`, { status: 'waitlist' })).status).toBe(200);
    expect((await admin.api.patch(`/attendees/${id}`, { status: 'going' })).status).toBe(200);
    const device = await pairDevice(srv.url, admin.api, [event.id], 'Door North');
    const scan = await apiClient(srv.url, { bearer: device.token }).post('/checkins', { attendeeId: id, eventId: event.id });
    expect(scan.status).toBe(201);
    const manual = await admin.api.post('/checkins', { attendeeId: id, eventId: event.id });
    expect(manual.status).toBe(201);
    expect((await apiClient(srv.url).post(`/attendees/cancel/${cancelToken}`)).status).toBe(200);

    const res = await admin.api.get(`/attendees/${id}/timeline`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe('6');
    const at = expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(res.body).toEqual([
      { id: expect.any(Number), attendeeId: id, atUtc: at, kind: 'cancelled', data: {} },
      { id: expect.any(Number), attendeeId: id, atUtc: at, kind: 'checked_in', data: { checkinId: manual.body.checkinId, device: null, source: 'rest' } },
      { id: expect.any(Number), attendeeId: id, atUtc: at, kind: 'checked_in', data: { checkinId: scan.body.checkinId, device: 'Door North', source: 'rest' } },
      { id: expect.any(Number), attendeeId: id, atUtc: at, kind: 'status_changed', data: { new: 'going', old: 'waitlist' } },
      { id: expect.any(Number), attendeeId: id, atUtc: at, kind: 'status_changed', data: { new: 'waitlist', old: 'going' } },
      { id: expect.any(Number), attendeeId: id, atUtc: at, kind: 'submitted', data: { status: 'going', quantity: 2 } },
    ]);
    expect(JSON.stringify(res.body)).not.toContain(cancelToken);
  });

  it('a check-in is placed at its scan time, so a late-synced offline scan sorts among what happened after it', async () => {
    const event = await createEvent(admin.api, { capacity: 20 });
    const { id } = await signedUp(event.id);
    await admin.api.post('/checkins', { attendeeId: id, eventId: event.id, scannedUtc: '2000-01-01 10:00:00' });
    const res = await admin.api.get(`/attendees/${id}/timeline`);
    expect(res.body.map((e: { kind: string }) => e.kind)).toEqual(['submitted', 'checked_in']);
    expect(res.body[1].atUtc).toBe('2000-01-01 10:00:00');
  });

  it('a paid order writes paid on each ticket row; its refund writes cancelled then refunded on each', async () => {
    const event = await createEvent(admin.api, { priceCents: 2000, capacity: 10 });
    const placed = await signUp(srv, event.id, { quantity: 2 });
    expect(placed.status).toBe(201);
    const orderId = placed.body.orderId as number;
    expect((await apiClient(srv.url).post(`/payments/local/${paymentIdOf(placed.body.paymentUrl)}/pay`)).status).toBe(202);
    await idle();
    const rows = await attendeeRows(srv, event.id);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      const res = await admin.api.get(`/attendees/${row.id}/timeline`);
      expect(res.body.map((e: { kind: string; data: unknown }) => [e.kind, e.data])).toEqual([
        ['paid', { orderId }],
        ['submitted', { status: 'going', quantity: 1 }],
      ]);
    }
    expect((await admin.api.post(`/orders/${orderId}/refund`)).status).toBe(200);
    for (const row of rows) {
      const res = await admin.api.get(`/attendees/${row.id}/timeline`);
      expect(res.body.map((e: { kind: string }) => e.kind)).toEqual(['refunded', 'cancelled', 'paid', 'submitted']);
      expect(res.body[0].data).toEqual({ orderId });
    }
  });

  it('answers 404 for an unknown attendee', async () => {
    const res = await admin.api.get('/attendees/99999999/timeline');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('svc_not_found');
  });

  it('staff read the timeline of their events’ attendees; another event’s answers 403 as the attendee route does', async () => {
    const mine = await createEvent(admin.api, { capacity: 20 });
    const other = await createEvent(admin.api, { capacity: 20 });
    const a = await signedUp(mine.id);
    const b = await signedUp(other.id);
    const token = await admin.api.post('/auth/tokens', { name: 'door staff', role: 'staff', eventIds: [mine.id] });
    expect(token.status).toBe(201);
    const staff = apiClient(srv.url, { bearer: token.body.token });
    expect((await staff.get(`/attendees/${a.id}/timeline`)).status).toBe(200);
    const attendeeRoute = await staff.get(`/attendees/${b.id}`);
    const timeline = await staff.get(`/attendees/${b.id}/timeline`);
    expect(timeline.status).toBe(attendeeRoute.status);
    expect(timeline.status).toBe(403);
    expect(timeline.body.code).toBe('svc_forbidden');
    expect((await apiClient(srv.url).get(`/attendees/${a.id}/timeline`)).status).toBe(401);
  });

  it('answers 404 svc_not_found in the free edition', async () => {
    const event = await createEvent(admin.api, { capacity: 20 });
    const { id } = await signedUp(event.id);
    const env = srv.server.ctx.env;
    env.SVC_EDITION = 'free';
    try {
      const res = await admin.api.get(`/attendees/${id}/timeline`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('svc_not_found');
    } finally {
      env.SVC_EDITION = 'extended';
    }
  });
});

describe('priorities', () => {
  it('status_changed is written at 10: a listener at 9 sees no entry yet, one at 11 sees it', async () => {
    const event = await createEvent(admin.api, { capacity: 20 });
    const { id } = await signedUp(event.id);
    const seen: Record<number, string[]> = {};
    listen('svc_attendee_status_changed', async (attendeeId) => void (seen[9] = await entriesOf(attendeeId)), 9);
    listen('svc_attendee_status_changed', async (attendeeId) => void (seen[11] = await entriesOf(attendeeId)), 11);
    expect((await admin.api.patch(`/attendees/${id}`, { status: 'waitlist' })).status).toBe(200);
    expect(seen[9]).toEqual(['submitted']);
    expect(seen[11]).toEqual(['submitted', 'status_changed']);
  });

  it('svc_attendee_deleted wipes it at 10: a listener at 9 still finds the entries, one at 11 finds none', async () => {
    const event = await createEvent(admin.api, { capacity: 20 });
    const { id } = await signedUp(event.id);
    await admin.api.patch(`/attendees/${id}`, { status: 'waitlist' });
    const seen: Record<number, string[]> = {};
    listen('svc_attendee_deleted', async (attendeeId) => void (seen[9] = await entriesOf(attendeeId)), 9);
    listen('svc_attendee_deleted', async (attendeeId) => void (seen[11] = await entriesOf(attendeeId)), 11);
    expect((await admin.api.delete(`/attendees/${id}`)).status).toBe(204);
    expect(seen[9]).toEqual(['submitted', 'status_changed']);
    expect(seen[11]).toEqual([]);
    expect(await entriesOf(id)).toEqual([]);
  });
});
