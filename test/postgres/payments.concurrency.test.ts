/**
 * Payments under concurrency on real PostgreSQL (a pool of connections): held seats and held
 * slots are decided under the same locks as free ones, so no race oversells an event, holds a
 * slot twice, confirms a booking twice or issues a shop order's tickets twice.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { bookingRepository } from '../../server/modules/booking/booking.repository';
import { paymentsService } from '../../server/modules/orders/payments.service';
import { signStandardWebhook } from '../../server/security/standard-webhooks';
import { apiClient } from '../helpers/http';
import { useTestServer } from '../helpers/test-server';
import { bookingBody, createHost, createType, disableIpThrottle, fetchNonce, futureStart, recordActions } from '../helpers/booking';
import { attendeeRows, createEvent, resetThrottles, signUp } from '../helpers/registration';
import { newEventId, paymentIdOf, paymentEvents, postWebhook, signedLocalEvent } from '../helpers/payments';

const COMMERCE_SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const { server: srv, admin, db, hooks } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off', SVC_COMMERCE_SECRET: COMMERCE_SECRET } });
let calls: Array<[string, ...unknown[]]>;

beforeAll(() => {
  expect(srv.server.ctx.database.kind).toBe('postgres');
  // Every request comes from one address: the per-IP throttles are not what these tests are about
  // (each sign-up and booking has its own email, so the per-email ones never trip either).
  hooks().addFilter('svc_rsvp_client_ip', () => '', 50);
  disableIpThrottle(hooks());
  calls = recordActions(hooks(), ['svc_rsvp_submitted', 'svc_rsvp_cancelled', 'svc_booking_paid', 'svc_booking_confirmed']);
});
beforeEach(async () => {
  await resetThrottles(srv);
  calls.length = 0;
});

async function seatsHeldAndTaken(eventId: number): Promise<{ held: number; taken: number }> {
  const [row] = await queryRows<{ held: number; taken: number }>(
    db(),
    sql`select (select coalesce(sum(quantity), 0)::int from svc_orders where event_id = ${eventId} and status = 'pending_payment') as held,
               (select coalesce(sum(quantity), 0)::int from svc_attendees where event_id = ${eventId} and status in ('going', '')) as taken`,
  );
  return { held: Number(row!.held), taken: Number(row!.taken) };
}

describe('paid sign-ups never oversell', () => {
  it('100 concurrent paid sign-ups for the last 10 seats: exactly 10 orders held, the rest svc_event_full; paying all 10 gives exactly 10 rows', async () => {
    const capacity = 30;
    // 20 seats taken while the event was free, then it gets a price.
    const event = await createEvent(admin.api, { capacity, waitlist: false, maxPerSignup: 10 });
    for (let i = 0; i < 2; i++) expect((await signUp(srv, event.id, { quantity: 10 })).status).toBe(201);
    expect((await admin.api.patch(`/events/${event.id}`, { priceCents: 1500 })).status).toBe(200);
    calls.length = 0;

    const results = await Promise.all(Array.from({ length: 100 }, () => signUp(srv, event.id, { quantity: 1 })));
    const held = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status !== 201);
    expect(held).toHaveLength(10);
    expect(held.every((r) => r.body.status === 'pending_payment')).toBe(true);
    expect(refused).toHaveLength(90);
    expect(new Set(refused.map((r) => `${r.status} ${r.body.code}`))).toEqual(new Set(['409 svc_event_full']));
    expect(await seatsHeldAndTaken(event.id)).toEqual({ held: 10, taken: 20 });
    expect(calls).toEqual([]);

    // All ten pay at once: the events are stored, then processed in parallel.
    const paymentIds = held.map((r) => paymentIdOf(r.body.paymentUrl));
    const answers = await Promise.all(paymentIds.map((id) => postWebhook(srv, 'local', signedLocalEvent(srv, 'payment.succeeded', id, 1500))));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const stored = (await paymentEvents(srv)).filter((e) => e.processed_utc === null).map((e) => e.id);
    expect(stored).toHaveLength(10);
    const outcomes = await Promise.all(stored.map((id) => paymentsService(srv.server.ctx).processEvent(id)));
    expect(outcomes).toEqual(Array(10).fill('fulfilled'));

    const rows = await attendeeRows(srv, event.id);
    const tickets = rows.filter((r) => r.order_id !== null);
    expect(tickets).toHaveLength(10);
    expect(tickets.every((r) => r.quantity === 1 && r.status === 'going')).toBe(true);
    expect(await seatsHeldAndTaken(event.id)).toEqual({ held: 0, taken: capacity });
    expect(calls.filter((c) => c[0] === 'svc_rsvp_submitted').map((c) => c[1])).toEqual(expect.arrayContaining(tickets.map((r) => r.id)));
    expect(calls).toHaveLength(10);

    // And the event stays full for everyone after them.
    const late = await signUp(srv, event.id, { quantity: 1 });
    expect(late.status).toBe(409);
    await srv.server.ctx.jobs.idle();
  });
});

describe('paid bookings never hold a slot twice', () => {
  it('20 concurrent paid bookings for one slot: exactly one pending_payment hold, the rest 409', async () => {
    const host = await createHost(admin.api);
    const type = await createType(admin.api, { hosts: [host], priceCents: 5000 });
    const start = futureStart(6, 10);
    const nonce = await fetchNonce(srv.url);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => apiClient(srv.url).post('/bookings', bookingBody(type.id, start), { 'x-svc-nonce': nonce })),
    );
    const won = results.filter((r) => r.status === 201);
    expect(won).toHaveLength(1);
    expect(won[0]!.body).toMatchObject({ status: 'pending_payment', paymentUrl: expect.any(String) });
    const lost = results.filter((r) => r.status !== 201);
    expect(lost).toHaveLength(19);
    expect(lost.every((r) => r.status === 409)).toBe(true);
    const holds = await queryRows<{ booking_id: number; status: string }>(
      db(),
      sql`select booking_id, status from svc_bookings where booking_type_id = ${type.id} and start_utc = ${start}`,
    );
    expect(holds).toEqual([{ booking_id: won[0]!.body.bookingId, status: 'pending_payment' }]);
    const payments = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from svc_payments where booking_id = ${won[0]!.body.bookingId}`);
    expect(Number(payments[0]!.n)).toBe(1);
  });

  it('the same event delivered 10 times at once is stored once; 5 different paid events processed at once confirm the booking once', async () => {
    const host = await createHost(admin.api);
    const type = await createType(admin.api, { hosts: [host], priceCents: 5000 });
    const res = await apiClient(srv.url).post('/bookings', bookingBody(type.id, futureStart(7, 10)), { 'x-svc-nonce': await fetchNonce(srv.url) });
    expect(res.status).toBe(201);
    const bookingId = res.body.bookingId as number;
    const paymentId = paymentIdOf(res.body.paymentUrl);
    calls.length = 0;

    const same = signedLocalEvent(srv, 'payment.succeeded', paymentId, 5000);
    const deliveries = await Promise.all(Array.from({ length: 10 }, () => postWebhook(srv, 'local', same)));
    expect(deliveries.map((d) => d.status)).toEqual(Array(10).fill(200));
    expect(deliveries.filter((d) => d.body.duplicate === false)).toHaveLength(1);

    const others = await Promise.all(Array.from({ length: 4 }, () => postWebhook(srv, 'local', signedLocalEvent(srv, 'payment.succeeded', paymentId, 5000))));
    expect(others.every((o) => o.status === 200 && o.body.duplicate === false)).toBe(true);
    const pending = (await paymentEvents(srv)).filter((e) => e.processed_utc === null).map((e) => e.id);
    expect(pending).toHaveLength(5);
    const outcomes = await Promise.all(pending.map((id) => paymentsService(srv.server.ctx).processEvent(id)));
    expect(outcomes.filter((o) => o === 'confirmed')).toHaveLength(1);
    expect(calls).toEqual([
      ['svc_booking_paid', bookingId],
      ['svc_booking_confirmed', bookingId],
    ]);
    expect(await bookingRepository.findBooking(db(), bookingId)).toMatchObject({ status: 'confirmed', paymentStatus: 'paid' });
    await srv.server.ctx.jobs.idle();
  });
});

describe('the commerce bridge under concurrency', () => {
  it('one shop order delivered 10 times at once answers 2xx every time and issues its tickets once', async () => {
    const event = await createEvent(admin.api, { capacity: 100 });
    const body = JSON.stringify({
      id: `shop-race-${randomBytes(4).toString('hex')}`,
      status: 'paid',
      email: 'race@example.test',
      name: 'Rae Race',
      lines: [{ eventId: event.id, quantity: 3 }],
    });
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        apiClient(srv.url).post('/commerce/orders', body, { 'content-type': 'application/json', ...signStandardWebhook(COMMERCE_SECRET, newEventId(), body) }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(results.filter((r) => r.body.result === 'applied')).toHaveLength(1);
    expect(new Set(results.map((r) => r.body.order.id)).size).toBe(1);
    expect(await attendeeRows(srv, event.id)).toHaveLength(3);
    expect(calls.filter((c) => c[0] === 'svc_rsvp_submitted')).toHaveLength(3);
  });

  it('"paid" and "refunded" for one shop order at once: every delivery 2xx, and no ticket of it stays valid', async () => {
    const event = await createEvent(admin.api, { capacity: 100 });
    const order = {
      id: `shop-flip-${randomBytes(4).toString('hex')}`,
      email: 'flip@example.test',
      name: 'Flip Flop',
      lines: [{ eventId: event.id, quantity: 2 }],
    };
    const deliver = (status: string) => {
      const body = JSON.stringify({ ...order, status });
      return apiClient(srv.url).post('/commerce/orders', body, {
        'content-type': 'application/json',
        ...signStandardWebhook(COMMERCE_SECRET, newEventId(), body),
      });
    };
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => deliver(i % 2 === 0 ? 'paid' : 'refunded')));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(results.map((r) => r.body.order.id)).size).toBe(1);
    const rows = await attendeeRows(srv, event.id);
    expect(rows.filter((r) => r.status !== 'cancelled')).toEqual([]);
    expect(rows.length === 0 || rows.length === 2).toBe(true);
    const submitted = calls.filter((c) => c[0] === 'svc_rsvp_submitted').map((c) => c[1]);
    const cancelled = calls.filter((c) => c[0] === 'svc_rsvp_cancelled').map((c) => c[1]);
    expect([...submitted].sort()).toEqual([...cancelled].sort());
    expect(submitted).toHaveLength(rows.length);
  });
});
