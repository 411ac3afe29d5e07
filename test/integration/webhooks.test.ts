/**
 * Outgoing webhooks (docs/api.md#webhooks): endpoints and their secret, the event catalogue as it
 * arrives at a real receiver on 127.0.0.1 (every request verified with the `standardwebhooks`
 * package), the dispatcher's priority and the payloads' contents. Retries, auto-disable, SSRF
 * and the free edition are in webhooks.delivery.test.ts. Jobs are off: a test runs the queue.
 */
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { capturedLogger } from '../helpers/logs';
import { PRIORITY_WEBHOOKS } from '../../server/hooks/priorities';
import { bookingRepository } from '../../server/modules/booking/booking.repository';
import { bookingBody, createHost, createType, disableIpThrottle, futureStart, submitBooking } from '../helpers/booking';
import { apiClient } from '../helpers/http';
import { useTestHooks } from '../helpers/hooks';
import { paymentIdOf } from '../helpers/payments';
import { attendeeRows, createEvent, resetThrottles, signUp } from '../helpers/registration';
import { useTestServer } from '../helpers/test-server';
import { createEndpoint, deliveriesOf, startReceiver, verified, type CreatedEndpoint, type Receiver } from '../helpers/webhooks';

const captured = capturedLogger('info');
const logLines = captured.lines;
const {
  server: srv,
  admin,
  db,
  hooks,
} = useTestServer({
  env: { SVC_EDITION: 'extended', SVC_JOBS: 'off', SVC_WEBHOOKS_ALLOW_PRIVATE: '1' },
  logger: captured.logger,
});
const { cleanups } = useTestHooks(hooks);
const idle = () => srv.server.ctx.jobs.idle();
const visitor = () => apiClient(srv.url);
let receiver: Receiver;
let host: number;
let day = 30;
const created: number[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
  hooks().addFilter('svc_rsvp_client_ip', () => '', 50);
  disableIpThrottle(hooks());
  host = await createHost(admin.api);
});
afterAll(() => receiver?.close());
// each test's endpoints go with it, so no other test's events reach them
afterEach(async () => {
  for (const id of created.splice(0)) await admin.api.delete(`/webhooks/${id}`);
  await resetThrottles(srv);
});

async function endpoint(events: string[], extra: Record<string, unknown> = {}): Promise<CreatedEndpoint> {
  const made = await createEndpoint(admin.api, receiver.url, events, extra);
  created.push(made.id);
  return made;
}

/**
 * The verified bodies that reached the endpoint (a bad signature throws), in the order the events
 * fired: deliveries run in any order, so they are sorted by their delivery row by `webhook-id`.
 */
async function arrived(ep: CreatedEndpoint) {
  const order = (await deliveriesOf(db(), ep.id)).map((d) => d.message_id);
  const requests = receiver.received(ep.path);
  expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(requests.length);
  return requests.sort((a, b) => order.indexOf(a.headers['webhook-id']!) - order.indexOf(b.headers['webhook-id']!)).map((r) => verified(ep.secret, r));
}

/** Every secret a raw request body must never hold. */
async function attendeeSecrets(eventId: number): Promise<string[]> {
  const rows = await attendeeRows(srv, eventId);
  return rows.flatMap((r) => [r.cancel_token, r.ticket_code, r.ticket_code_hash]);
}

function expectNoSecrets(ep: CreatedEndpoint, secrets: string[]): void {
  const bodies = receiver.received(ep.path).map((r) => r.body);
  expect(bodies.length).toBeGreaterThan(0);
  for (const body of bodies) {
    for (const secret of [...secrets, ep.secret, ep.secret.slice('whsec_'.length)]) expect(body).not.toContain(secret);
    expect(body).not.toMatch(/cancel_?token|ticket_?code|"secret"/i);
  }
}

describe('endpoints', () => {
  it('POST /webhooks answers 201 with a whsec_ secret of a 32-byte key; list and get never show it', async () => {
    const res = await admin.api.post('/webhooks', { url: `${receiver.url}/created`, events: ['attendee.created', 'ping'], description: 'CRM' });
    expect(res.status).toBe(201);
    created.push(res.body.id);
    expect(res.body).toEqual({
      id: expect.any(Number),
      url: `${receiver.url}/created`,
      events: ['attendee.created', 'ping'],
      active: true,
      description: 'CRM',
      disabledUtc: null,
      failingSinceUtc: null,
      createdUtc: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
    });
    expect(Buffer.from(res.body.secret.slice(6), 'base64')).toHaveLength(32);
    const list = await admin.api.get('/webhooks');
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe(String(list.body.length));
    const listed = list.body.find((e: { id: number }) => e.id === res.body.id);
    expect(listed).not.toHaveProperty('secret');
    expect(JSON.stringify(list.body)).not.toContain(res.body.secret.slice(6));
    const one = await admin.api.get(`/webhooks/${res.body.id}`);
    expect(one.status).toBe(200);
    expect(one.body).not.toHaveProperty('secret');
    expect(JSON.stringify(one.body)).not.toContain(res.body.secret.slice(6));
  });

  it('rotate answers a new secret; later deliveries verify with it and no longer with the old one', async () => {
    const ep = await endpoint(['ping']);
    const rotated = await admin.api.post(`/webhooks/${ep.id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(ep.secret);
    expect((await admin.api.post(`/webhooks/${ep.id}/test`)).status).toBe(202);
    await idle();
    const [request] = receiver.received(ep.path);
    expect(verified(rotated.body.secret, request!).type).toBe('ping');
    expect(() => verified(ep.secret, request!)).toThrow();
  });

  it('bad input answers 400 svc_invalid_param naming url, events and description, and stores nothing', async () => {
    const before = (await admin.api.get('/webhooks')).body.length;
    const res = await admin.api.post('/webhooks', {
      url: 'ftp://example.com/hook',
      events: ['attendee.created', 'attendee.exploded'],
      description: 'x'.repeat(501),
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('svc_invalid_param');
    expect(Object.keys(res.body.data.params).sort()).toEqual(['description', 'events', 'url']);
    expect(res.body.data.params.events).toContain('attendee.exploded');
    const missing = await admin.api.post('/webhooks', {});
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.data.params).sort()).toEqual(['events', 'url']);
    const ep = await endpoint(['ping']);
    const patch = await admin.api.patch(`/webhooks/${ep.id}`, { events: ['nope'], url: 'not a url' });
    expect(patch.status).toBe(400);
    expect(Object.keys(patch.body.data.params).sort()).toEqual(['events', 'url']);
    expect((await admin.api.get('/webhooks')).body.length).toBe(before + 1);
    expect((await admin.api.get(`/webhooks/${ep.id}`)).body.events).toEqual(['ping']);
  });

  it('PATCH edits url, events, description and active; switching it on again clears the disabled and failing state', async () => {
    const ep = await endpoint(['ping']);
    const edited = await admin.api.patch(`/webhooks/${ep.id}`, {
      url: `${receiver.url}/moved`,
      events: ['booking.created'],
      description: 'moved',
      active: false,
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ url: `${receiver.url}/moved`, events: ['booking.created'], description: 'moved', active: false });
    await db().execute(
      sql`update svc_webhook_endpoints set failing_since_utc = '2030-01-01 00:00:00', disabled_utc = '2030-01-06 00:00:00' where id = ${ep.id}`,
    );
    const back = await admin.api.patch(`/webhooks/${ep.id}`, { active: true });
    expect(back.body).toMatchObject({ active: true, disabledUtc: null, failingSinceUtc: null });
  });

  it('DELETE answers 204 and the endpoint is gone (404 after)', async () => {
    const ep = await createEndpoint(admin.api, receiver.url, ['ping']);
    expect((await admin.api.delete(`/webhooks/${ep.id}`)).status).toBe(204);
    const gone = await admin.api.get(`/webhooks/${ep.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('svc_not_found');
  });

  it('GET /webhooks/events lists the whole catalogue, each with a description', async () => {
    const res = await admin.api.get('/webhooks/events');
    expect(res.status).toBe(200);
    expect(res.body.map((e: { type: string }) => e.type)).toEqual([
      'attendee.created',
      'attendee.status_changed',
      'attendee.cancelled',
      'attendee.deleted',
      'attendee.checked_in',
      'booking.created',
      'booking.confirmed',
      'booking.cancelled',
      'booking.rescheduled',
      'booking.approved',
      'booking.declined',
      'booking.paid',
      'booking.payment_abandoned',
      'order.paid',
      'order.refunded',
      'ping',
    ]);
    for (const entry of res.body) expect(entry.description.length).toBeGreaterThan(10);
  });

  it('answers 401 without a session and 403 for staff', async () => {
    expect((await visitor().get('/webhooks')).status).toBe(401);
    const token = await admin.api.post('/auth/tokens', { name: 'door', role: 'staff' });
    expect(token.status).toBe(201);
    expect((await apiClient(srv.url, { bearer: token.body.token }).get('/webhooks')).status).toBe(403);
  });
});

describe('attendee events', () => {
  it('sign-up, status change, cancel, check-in and delete each arrive signed, with the REST serialization and no secret', async () => {
    const ep = await endpoint(['attendee.created', 'attendee.status_changed', 'attendee.cancelled', 'attendee.checked_in', 'attendee.deleted']);
    const event = await createEvent(admin.api, { capacity: 20 });
    const first = await signUp(srv, event.id, { display_name: 'Ada' });
    const second = await signUp(srv, event.id, { display_name: 'Bea' });
    const [ada, bea] = await attendeeRows(srv, event.id);
    const secrets = await attendeeSecrets(event.id);
    expect((await admin.api.patch(`/attendees/${first.body.id}`, { status: 'waitlist' })).status).toBe(200);
    expect((await visitor().post(`/attendees/cancel/${ada.cancel_token}`)).status).toBe(200);
    const checkin = await admin.api.post('/checkins', { ticketCode: bea.ticket_code, eventId: event.id });
    expect(checkin.status).toBe(201);
    const rest = await admin.api.get(`/attendees/${second.body.id}`);
    expect((await admin.api.delete(`/attendees/${second.body.id}`)).status).toBe(204);
    await idle();

    const bodies = await arrived(ep);
    expect(bodies.map((b) => b.type)).toEqual([
      'attendee.created',
      'attendee.created',
      'attendee.status_changed',
      'attendee.cancelled',
      'attendee.checked_in',
      'attendee.deleted',
    ]);
    for (const b of bodies) expect(Date.parse(b.timestamp)).toBeGreaterThan(Date.now() - 60_000);
    expect(bodies[0]!.data).toMatchObject({ id: first.body.id, eventId: event.id, displayName: 'Ada', status: 'going', checkinCount: 0 });
    expect(bodies[2]!.data).toMatchObject({ id: first.body.id, status: 'waitlist', newStatus: 'waitlist', oldStatus: 'going' });
    expect(bodies[3]!.data).toMatchObject({ id: first.body.id, eventId: event.id, status: 'cancelled' });
    // the check-in's payload is the same serialization the REST route answers, plus the check-in
    const { checkinCount, lastCheckinUtc, ...serialized } = rest.body;
    expect(checkinCount).toBe(1);
    expect(bodies[4]!.data).toMatchObject({ ...serialized, checkinCount: 1, lastCheckinUtc });
    expect(bodies[4]!.data.checkin).toEqual({
      id: checkin.body.checkinId,
      deviceId: null,
      device: null,
      source: expect.any(String),
      atUtc: expect.any(String),
    });
    expect(bodies[5]!.data).toEqual({ id: second.body.id, eventId: event.id });
    expectNoSecrets(ep, secrets);
  });

  it('a plugin on svc_attendee_status_changed at 19 sees no delivery yet, one at 21 sees it', async () => {
    const ep = await endpoint(['attendee.status_changed']);
    const event = await createEvent(admin.api, { capacity: 20 });
    const { body } = await signUp(srv, event.id);
    const seen: Record<number, number> = {};
    for (const priority of [PRIORITY_WEBHOOKS - 1, PRIORITY_WEBHOOKS + 1]) {
      const look = async () => {
        seen[priority] = (await deliveriesOf(db(), ep.id)).length;
      };
      hooks().addAction('svc_attendee_status_changed', look, priority, 3);
      cleanups.push(() => hooks().removeAction('svc_attendee_status_changed', look, priority));
    }
    expect((await admin.api.patch(`/attendees/${body.id}`, { status: 'waitlist' })).status).toBe(200);
    expect(seen).toEqual({ [PRIORITY_WEBHOOKS - 1]: 0, [PRIORITY_WEBHOOKS + 1]: 1 });
  });

  it('an event no active endpoint receives writes no delivery and no job', async () => {
    const ep = await endpoint(['booking.created']);
    const off = await endpoint(['attendee.created'], { active: false });
    const jobsBefore = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from svc_jobs where type = 'webhooks.deliver'`);
    const event = await createEvent(admin.api, { capacity: 20 });
    expect((await signUp(srv, event.id)).status).toBe(201);
    expect(await deliveriesOf(db(), ep.id)).toEqual([]);
    expect(await deliveriesOf(db(), off.id)).toEqual([]);
    const jobsAfter = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from svc_jobs where type = 'webhooks.deliver'`);
    expect(jobsAfter[0]!.n).toBe(jobsBefore[0]!.n);
  });

  it('a failing dispatch is logged and the action chain goes on', async () => {
    const ep = await endpoint(['attendee.status_changed']);
    const event = await createEvent(admin.api, { capacity: 20 });
    const { body } = await signUp(srv, event.id);
    let calls = 0;
    const throwOnce = (serialized: Record<string, unknown>) => {
      calls += 1;
      if (calls === 1) throw new Error('serializer down');
      return serialized;
    };
    hooks().addFilter('svc_rest_attendee_response', throwOnce as never, 5);
    cleanups.push(() => hooks().removeFilter('svc_rest_attendee_response', throwOnce as never, 5));
    const later: number[] = [];
    const after = (id: number) => void later.push(id);
    hooks().addAction('svc_attendee_status_changed', after, PRIORITY_WEBHOOKS + 1);
    cleanups.push(() => hooks().removeAction('svc_attendee_status_changed', after, PRIORITY_WEBHOOKS + 1));
    const res = await admin.api.patch(`/attendees/${body.id}`, { status: 'waitlist' });
    expect(res.status).toBe(200);
    expect(later).toEqual([body.id]);
    expect(await deliveriesOf(db(), ep.id)).toEqual([]);
    const logged = logLines.map((l) => JSON.parse(l)).find((l) => l.msg === 'webhook dispatch failed; the action goes on');
    expect(logged).toMatchObject({ type: 'attendee.status_changed', attendeeId: body.id, err: { message: 'serializer down' } });
  });
});

describe('booking events', () => {
  async function booked(typeOverrides: Record<string, unknown> = {}) {
    const type = await createType(admin.api, { hosts: [host], ...typeOverrides });
    const start = futureStart(day++, 10);
    const res = await submitBooking(srv.url, bookingBody(type.id, start));
    expect(res.status).toBe(201);
    const row = (await bookingRepository.findBooking(db(), res.body.bookingId))!;
    return { type, start, res, id: row.bookingId, token: row.cancelToken };
  }

  it('created, confirmed, rescheduled and cancelled arrive with the booking as the admin list shows it, never its cancel token', async () => {
    const ep = await endpoint(['booking.created', 'booking.confirmed', 'booking.rescheduled', 'booking.cancelled']);
    const b = await booked();
    const moved = futureStart(day - 1, 14);
    expect((await visitor().patch(`/bookings/${b.token}/reschedule`, { startUtc: moved })).status).toBe(200);
    expect((await visitor().delete(`/bookings/${b.token}`)).status).toBe(204);
    await idle();
    const bodies = await arrived(ep);
    expect(bodies.map((x) => x.type)).toEqual(['booking.created', 'booking.confirmed', 'booking.rescheduled', 'booking.cancelled']);
    const listed = (await admin.api.get(`/bookings?perPage=500`)).body.find((x: { bookingId: number }) => x.bookingId === b.id);
    expect(bodies[3]!.data).toEqual(listed);
    expect(bodies[0]!.data).toMatchObject({ bookingId: b.id, startUtc: b.start, status: 'confirmed' });
    expect(bodies[2]!.data).toMatchObject({ bookingId: b.id, startUtc: moved, previousStartUtc: b.start });
    expectNoSecrets(ep, [b.token]);
  });

  it('approved and declined arrive for bookings that need approval', async () => {
    const ep = await endpoint(['booking.approved', 'booking.declined']);
    const yes = await booked({ requiresApproval: true });
    const no = await booked({ requiresApproval: true });
    expect((await admin.api.post(`/bookings/${yes.id}/approve`)).status).toBe(200);
    expect((await admin.api.post(`/bookings/${no.id}/decline`)).status).toBe(200);
    await idle();
    const bodies = await arrived(ep);
    expect(bodies.map((x) => [x.type, x.data.bookingId, x.data.status])).toEqual([
      ['booking.approved', yes.id, 'confirmed'],
      ['booking.declined', no.id, 'cancelled'],
    ]);
    expectNoSecrets(ep, [yes.token, no.token]);
  });

  it('a paid booking sends booking.paid through the local payment provider', async () => {
    const ep = await endpoint(['booking.paid']);
    const b = await booked({ priceCents: 3000 });
    expect(b.res.body.status).toBe('pending_payment');
    expect((await visitor().post(`/payments/local/${paymentIdOf(b.res.body.paymentUrl)}/pay`)).status).toBe(202);
    await idle();
    await idle();
    const bodies = await arrived(ep);
    expect(bodies.map((x) => [x.type, x.data.bookingId])).toEqual([['booking.paid', b.id]]);
    expect(bodies[0]!.data.paymentStatus).toBeTruthy();
    expectNoSecrets(ep, [b.token]);
  });
});

describe('order events', () => {
  it('a paid sign-up sends order.paid, a refund order.refunded, with the admin order and its tickets but no ticket secret', async () => {
    const ep = await endpoint(['order.paid', 'order.refunded', 'attendee.created', 'attendee.cancelled']);
    const event = await createEvent(admin.api, { priceCents: 1500, capacity: 10 });
    const placed = await signUp(srv, event.id, { quantity: 2 });
    expect(placed.body.status).toBe('pending_payment');
    expect((await visitor().post(`/payments/local/${paymentIdOf(placed.body.paymentUrl)}/pay`)).status).toBe(202);
    await idle();
    expect((await admin.api.post(`/orders/${placed.body.orderId}/refund`)).status).toBe(200);
    await idle();
    const bodies = await arrived(ep);
    expect(bodies.map((x) => x.type)).toEqual([
      'attendee.created',
      'attendee.created',
      'order.paid',
      'attendee.cancelled',
      'attendee.cancelled',
      'order.refunded',
    ]);
    const paid = bodies[2]!.data;
    expect(paid).toMatchObject({ id: placed.body.orderId, eventId: event.id, quantity: 2, amountCents: 3000, status: 'paid' });
    expect(paid.tickets).toHaveLength(2);
    expect(bodies[5]!.data).toMatchObject({ id: placed.body.orderId, status: 'refunded' });
    expectNoSecrets(ep, await attendeeSecrets(event.id));
  });
});
