/**
 * Paid bookings in the extended edition (contract booking states: the pending_payment rows;
 * actions svc_booking_payment_pending, svc_booking_paid, svc_booking_payment_abandoned; filters
 * svc_booking_awaiting_payment, svc_booking_payment_url, svc_booking_payment_hold_hours).
 * Jobs are off: a test runs the queue itself (`idle()`), so each step can be looked at in between.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { utcMs } from '../../shared/time';
import { capturedLogger } from '../helpers/logs';
import { bookingRepository } from '../../server/modules/booking/booking.repository';
import { sweepPaymentHolds } from '../../server/modules/booking/booking.service';
import { apiClient } from '../helpers/http';
import { useTestHooks } from '../helpers/hooks';
import { useTestServer } from '../helpers/test-server';
import { bookingBody, createHost, createType, disableIpThrottle, futureStart, recordActions, submitBooking } from '../helpers/booking';
import { attendeeRows, createEvent, signUp } from '../helpers/registration';
import { countRows, outboxTo, paymentEvents, paymentIdOf, paymentStatus, postWebhook, signedLocalEvent } from '../helpers/payments';

const captured = capturedLogger('info');
const logLines = captured.lines;

const { server: srv, admin, db, hooks } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off' }, logger: captured.logger });
const { cleanups, filter } = useTestHooks(hooks);
const visitor = () => apiClient(srv.url);
const idle = () => srv.server.ctx.jobs.idle();

const BOOKING_ACTIONS = [
  'svc_booking_created',
  'svc_booking_confirmed',
  'svc_booking_requested',
  'svc_booking_payment_pending',
  'svc_booking_paid',
  'svc_booking_payment_abandoned',
  'svc_booking_cancelled',
];
let calls: Array<[string, ...unknown[]]>;
let host: number;
/** Each test books its own day, so no test's hold or booking stands in another's way. */
let day = 20;

beforeAll(async () => {
  host = await createHost(admin.api);
  calls = recordActions(hooks(), BOOKING_ACTIONS);
});
beforeEach(() => {
  calls.length = 0;
  cleanups.push(disableIpThrottle(hooks()));
});

const names = () => calls.map((c) => c[0]);

async function bookingOf(id: number) {
  const row = await bookingRepository.findBooking(db(), id);
  if (!row) throw new Error(`no booking ${id}`);
  return row;
}

async function offered(typeId: number, start: string): Promise<boolean> {
  const res = await visitor().get(`/booking-types/${typeId}/slots?from=${start.slice(0, 10)}&to=${start.slice(0, 10)}`);
  expect(res.status).toBe(200);
  return (res.body.slots as Array<{ start_utc: string }>).some((s) => s.start_utc === start);
}

/** A priced type (one seat) and a held booking on it: the 201's body, the payment id and the start. */
async function heldBooking(priceCents = 4500, quantity = 1) {
  const type = await createType(admin.api, { hosts: [host], priceCents, capacity: Math.max(1, quantity) });
  const start = futureStart(day++, 10);
  const body = bookingBody(type.id, start, { quantity });
  const res = await submitBooking(srv.url, body);
  expect(res.status).toBe(201);
  expect(res.body.status).toBe('pending_payment');
  calls.length = 0;
  return { type, start, res, bookingId: res.body.bookingId as number, paymentId: paymentIdOf(res.body.paymentUrl), email: body.customerEmail as string };
}

describe('a priced type in the extended edition awaits payment', () => {
  it('answers 201 pending_payment with an absolute paymentUrl /pay/{id}, never the cancel token', async () => {
    const type = await createType(admin.api, { hosts: [host], priceCents: 2500, capacity: 2 });
    const start = futureStart(day++, 10);
    const res = await submitBooking(srv.url, bookingBody(type.id, start, { quantity: 2 }));
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['bookingId', 'calendarUid', 'endUtc', 'hostUserId', 'paymentUrl', 'startUtc', 'status']);
    expect(res.body).toMatchObject({ status: 'pending_payment', startUtc: start, hostUserId: host });
    const url = new URL(res.body.paymentUrl);
    expect(url.protocol).toMatch(/^https?:$/);
    expect(url.pathname).toMatch(/^\/pay\/[A-Za-z0-9_-]{16,64}$/);
    const row = await bookingOf(res.body.bookingId);
    expect(row).toMatchObject({ status: 'pending_payment', paymentStatus: 'pending' });
    expect(JSON.stringify(res.body)).not.toContain(row.cancelToken);

    const checkout = await visitor().get(`/payments/checkout/${paymentIdOf(res.body.paymentUrl)}`);
    expect(checkout.status).toBe(200);
    expect(checkout.body).toMatchObject({
      provider: 'local',
      amountCents: 5000,
      currency: 'USD',
      status: 'open',
      kind: 'booking',
      settled: false,
      checkoutUrl: null,
    });
    expect(JSON.stringify(checkout.body)).not.toContain(row.cancelToken);
  });

  it("the pay page names the slot in the place's zone (with its name), then the customer's clock, labelled", async () => {
    const type = await createType(admin.api, { hosts: [host], priceCents: 3000, timezone: 'Europe/Berlin', title: 'Massage' });
    // 10:00 UTC is 11:00 or 12:00 in Berlin, 05:00 or 06:00 in New York
    const res = await submitBooking(srv.url, bookingBody(type.id, futureStart(day++, 10), { customerTz: 'America/New_York' }));
    expect(res.status).toBe(201);
    const checkout = await visitor().get(`/payments/checkout/${paymentIdOf(res.body.paymentUrl)}`);
    expect(checkout.status).toBe(200);
    expect(checkout.body.description).toMatch(/^Massage, .*1[12]:00–1[23]:00 CES?T \(Berlin\) · 0[56]:00–0[67]:00 E[SD]T your time$/);
  });

  it('holds the slot: the slot list no longer offers it and a second booking for it answers 409', async () => {
    const { type, start } = await heldBooking();
    expect(await offered(type.id, start)).toBe(false);
    const second = await submitBooking(srv.url, bookingBody(type.id, start));
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('svc_booking_slot_unavailable');
  });

  it('fires svc_booking_created then svc_booking_payment_pending, then consults the payment URL filter with (url, id, the row without cancel_token)', async () => {
    const urlCalls: unknown[][] = [];
    filter(
      'svc_booking_payment_url',
      (url: string, id: number, row: Record<string, string>) => (calls.push(['svc_booking_payment_url', url, id, row]), urlCalls.push([url, id, row]), url),
      5,
      3,
    );
    const type = await createType(admin.api, { hosts: [host], priceCents: 1200 });
    const start = futureStart(day++, 10);
    const res = await submitBooking(srv.url, bookingBody(type.id, start));
    expect(res.status).toBe(201);
    const id = res.body.bookingId;
    expect(names()).toEqual(['svc_booking_created', 'svc_booking_payment_pending', 'svc_booking_payment_url']);
    expect(calls[0]!.slice(1, 2)).toEqual([id]);
    expect(calls[1]!.slice(1)).toEqual([id]);
    expect(urlCalls).toHaveLength(1);
    const [url, urlId, row] = urlCalls[0] as [string, number, Record<string, string>];
    expect(url).toBe('');
    expect(urlId).toBe(id);
    expect(row).toMatchObject({
      booking_id: String(id),
      booking_type_id: String(type.id),
      status: 'pending_payment',
      payment_status: 'pending',
      start_utc: start,
    });
    expect(row).not.toHaveProperty('cancel_token');
    expect(JSON.stringify(row)).not.toContain((await bookingOf(id)).cancelToken);
  });

  it('svc_booking_awaiting_payment is not consulted for admin-entered bookings nor for types requiring approval', async () => {
    let consulted = 0;
    filter('svc_booking_awaiting_payment', (awaiting: boolean) => (consulted++, awaiting), 5, 1);
    const payments = await countRows(srv, 'svc_payments');
    const priced = await createType(admin.api, { hosts: [host], priceCents: 3000 });
    const approval = await createType(admin.api, { hosts: [host], priceCents: 3000, requiresApproval: true });

    const byAdmin = await admin.api.post('/bookings/admin', bookingBody(priced.id, futureStart(day++, 10)));
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body.status).toBe('confirmed');
    expect(byAdmin.body).not.toHaveProperty('paymentUrl');
    expect((await bookingOf(byAdmin.body.bookingId)).paymentStatus).toBe('on_site');

    const request = await submitBooking(srv.url, bookingBody(approval.id, futureStart(day++, 10)));
    expect(request.status).toBe(201);
    expect(request.body.status).toBe('pending_approval');
    expect(request.body).not.toHaveProperty('paymentUrl');

    expect(consulted).toBe(0);
    expect(names()).not.toContain('svc_booking_payment_pending');
    expect(await countRows(srv, 'svc_payments')).toBe(payments);
  });

  it('a free type keeps the confirmed path: created then confirmed, no paymentUrl, no payment', async () => {
    const payments = await countRows(srv, 'svc_payments');
    const type = await createType(admin.api, { hosts: [host] });
    const res = await submitBooking(srv.url, bookingBody(type.id, futureStart(day++, 10)));
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('confirmed');
    expect(res.body).not.toHaveProperty('paymentUrl');
    expect(names()).toEqual(['svc_booking_created', 'svc_booking_confirmed']);
    expect((await bookingOf(res.body.bookingId)).paymentStatus).toBeNull();
    expect(await countRows(srv, 'svc_payments')).toBe(payments);
  });
});

describe('the payment lands', () => {
  it('Pay, then the queued webhook: svc_booking_paid then svc_booking_confirmed, confirmed with paymentStatus paid, the confirmation mail with invite.ics', async () => {
    const { type, bookingId, paymentId, email } = await heldBooking(4500);
    const pay = await visitor().post(`/payments/local/${paymentId}/pay`);
    expect(pay.status).toBe(202);
    expect(pay.body).toMatchObject({ amountCents: 4500, status: 'open' });
    // Nothing runs inside the request: the booking waits for the job.
    expect((await bookingOf(bookingId)).status).toBe('pending_payment');
    expect(await outboxTo(srv, email)).toEqual([]);

    await idle();
    expect(calls).toEqual([
      ['svc_booking_paid', bookingId],
      ['svc_booking_confirmed', bookingId],
    ]);
    const listed = await admin.api.get(`/bookings?bookingTypeId=${type.id}`);
    expect(listed.body).toEqual([expect.objectContaining({ bookingId, status: 'confirmed', paymentStatus: 'paid' })]);
    const mails = await outboxTo(srv, email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/^Booking confirmed/);
    expect(mails[0]!.attachments.map((a) => a.filename)).toEqual(['invite.ics']);
    expect(await visitor().get(`/payments/checkout/${paymentId}`)).toMatchObject({ status: 200, body: { status: 'paid', settled: true } });
  });

  it('a repeated delivery of the same signed webhook answers 200 {duplicate: true} and fires nothing again', async () => {
    const { bookingId, paymentId, email } = await heldBooking(4500);
    const event = signedLocalEvent(srv, 'payment.succeeded', paymentId, 4500);
    const first = await postWebhook(srv, 'local', event);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ received: true, duplicate: false });
    await idle();
    expect(names()).toEqual(['svc_booking_paid', 'svc_booking_confirmed']);
    calls.length = 0;
    const stored = (await paymentEvents(srv)).length;

    const again = await postWebhook(srv, 'local', event);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ received: true, duplicate: true });
    await idle();
    expect(calls).toEqual([]);
    expect((await paymentEvents(srv)).length).toBe(stored);
    expect(await outboxTo(srv, email)).toHaveLength(1);
    expect((await bookingOf(bookingId)).status).toBe('confirmed');
  });

  it('a second, different paid event for a booking already paid does not fire svc_booking_paid again', async () => {
    const { bookingId, paymentId, email } = await heldBooking(4500);
    expect((await visitor().post(`/payments/local/${paymentId}/pay`)).status).toBe(202);
    await idle();
    expect(names()).toEqual(['svc_booking_paid', 'svc_booking_confirmed']);
    calls.length = 0;

    const other = signedLocalEvent(srv, 'payment.succeeded', paymentId, 4500);
    const res = await postWebhook(srv, 'local', other);
    expect(res.status).toBe(200);
    expect(res.body.duplicate).toBe(false);
    await idle();
    expect(calls).toEqual([]);
    expect((await paymentEvents(srv)).at(-1)).toMatchObject({ kind: 'paid', outcome: 'duplicate', processed_utc: expect.any(String) });
    expect(await bookingOf(bookingId)).toMatchObject({ status: 'confirmed', paymentStatus: 'paid' });
    expect(await outboxTo(srv, email)).toHaveLength(1);
    // and Pay again on the page is refused: the payment is closed
    const payAgain = await visitor().post(`/payments/local/${paymentId}/pay`);
    expect(payAgain.status).toBe(409);
    expect(payAgain.body.code).toBe('svc_payment_closed');
  });
});

describe('the visitor gives up paying', () => {
  it.each([
    ['the local page’s Cancel', (id: string) => `/payments/local/${id}/cancel`],
    ['the checkout’s Cancel', (id: string) => `/payments/checkout/${id}/cancel`],
  ])(
    '%s releases the hold: abandoned with paymentStatus cancelled (no longer pending), svc_booking_payment_abandoned, no svc_booking_cancelled, no mail, the slot offered again',
    async (_how, path) => {
      const { type, start, bookingId, paymentId, email } = await heldBooking();
      expect(await offered(type.id, start)).toBe(false);
      const res = await visitor().post(path(paymentId));
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('cancelled');
      expect(await bookingOf(bookingId)).toMatchObject({ status: 'abandoned', paymentStatus: 'cancelled' });
      expect(calls).toEqual([['svc_booking_payment_abandoned', bookingId]]);
      await idle();
      expect(names()).not.toContain('svc_booking_cancelled');
      expect(await outboxTo(srv, email)).toEqual([]);
      expect(await paymentStatus(srv, paymentId)).toBe('cancelled');
      expect(await offered(type.id, start)).toBe(true);
      expect((await submitBooking(srv.url, bookingBody(type.id, start))).status).toBe(201);
    },
  );

  it('Pay after Cancel answers 409 svc_payment_closed and queues nothing', async () => {
    const { bookingId, paymentId } = await heldBooking();
    expect((await visitor().post(`/payments/local/${paymentId}/cancel`)).status).toBe(200);
    const jobs = await countRows(srv, 'svc_jobs');
    const pay = await visitor().post(`/payments/local/${paymentId}/pay`);
    expect(pay.status).toBe(409);
    expect(pay.body.code).toBe('svc_payment_closed');
    expect(await countRows(srv, 'svc_jobs')).toBe(jobs);
    await idle();
    expect((await bookingOf(bookingId)).status).toBe('abandoned');
    expect(names()).not.toContain('svc_booking_paid');
  });

  it('a second Cancel changes nothing and fires nothing', async () => {
    const { bookingId, paymentId } = await heldBooking();
    expect((await visitor().post(`/payments/checkout/${paymentId}/cancel`)).status).toBe(200);
    calls.length = 0;
    const again = await visitor().post(`/payments/checkout/${paymentId}/cancel`);
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('cancelled');
    expect(calls).toEqual([]);
    expect((await bookingOf(bookingId)).status).toBe('abandoned');
  });

  it('Cancel after the payment landed answers 409 svc_payment_closed; the booking stays confirmed', async () => {
    const { bookingId, paymentId } = await heldBooking();
    expect((await visitor().post(`/payments/local/${paymentId}/pay`)).status).toBe(202);
    await idle();
    calls.length = 0;
    for (const path of [`/payments/local/${paymentId}/cancel`, `/payments/checkout/${paymentId}/cancel`]) {
      const res = await visitor().post(path);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('svc_payment_closed');
    }
    expect(calls).toEqual([]);
    expect(await bookingOf(bookingId)).toMatchObject({ status: 'confirmed', paymentStatus: 'paid' });
  });

  it('an unknown or malformed payment id answers 404', async () => {
    for (const id of ['AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'nope', '..%2F..']) {
      expect((await visitor().get(`/payments/checkout/${id}`)).status).toBe(404);
      expect((await visitor().post(`/payments/local/${id}/pay`)).status).toBe(404);
      expect((await visitor().post(`/payments/checkout/${id}/cancel`)).status).toBe(404);
    }
  });
});

describe('the payment-hold sweeper', () => {
  const HOUR = 3_600_000;
  const MINUTE = 60_000;
  const createdMs = async (id: number) => utcMs((await bookingOf(id)).createdUtc);

  it('releases holds older than the hold hours (24 by default) and not younger ones: abandoned with paymentStatus expired, payment_abandoned, no cancelled, no mail', async () => {
    const { type, start, bookingId, email } = await heldBooking();
    const created = await createdMs(bookingId);
    expect(await sweepPaymentHolds(srv.server.ctx, created + 24 * HOUR - MINUTE)).not.toContain(bookingId);
    expect(await bookingOf(bookingId)).toMatchObject({ status: 'pending_payment', paymentStatus: 'pending' });
    expect(calls).toEqual([]);

    expect(await sweepPaymentHolds(srv.server.ctx, created + 24 * HOUR + MINUTE)).toContain(bookingId);
    expect(await bookingOf(bookingId)).toMatchObject({ status: 'abandoned', paymentStatus: 'expired' });
    expect(calls).toContainEqual(['svc_booking_payment_abandoned', bookingId]);
    expect(names()).not.toContain('svc_booking_cancelled');
    await idle();
    expect(await outboxTo(srv, email)).toEqual([]);
    expect(await offered(type.id, start)).toBe(true);
  });

  it.each([0, -5])('svc_booking_payment_hold_hours returning %i is floored at 1: a hold 59 minutes old survives, 61 minutes old is released', async (hours) => {
    filter('svc_booking_payment_hold_hours', () => hours, 10, 1);
    const { bookingId } = await heldBooking();
    const created = await createdMs(bookingId);
    expect(await sweepPaymentHolds(srv.server.ctx, created + 59 * MINUTE)).not.toContain(bookingId);
    expect((await bookingOf(bookingId)).status).toBe('pending_payment');
    expect(await sweepPaymentHolds(srv.server.ctx, created + 61 * MINUTE)).toContain(bookingId);
    expect((await bookingOf(bookingId)).status).toBe('abandoned');
  });

  it('svc_booking_payment_hold_hours returning 2 keeps a hold 90 minutes old and releases it after two hours', async () => {
    filter('svc_booking_payment_hold_hours', () => 2, 10, 1);
    const { bookingId } = await heldBooking();
    const created = await createdMs(bookingId);
    expect(await sweepPaymentHolds(srv.server.ctx, created + 90 * MINUTE)).not.toContain(bookingId);
    expect((await bookingOf(bookingId)).status).toBe('pending_payment');
    expect(await sweepPaymentHolds(srv.server.ctx, created + 2 * HOUR + MINUTE)).toContain(bookingId);
  });

  it('a payment that lands after its hold was released is refunded and logged, never confirmed', async () => {
    const { bookingId, paymentId, email } = await heldBooking(4500);
    // The visitor pays just before the hold runs out; the sweeper gets there before the webhook is processed.
    expect((await visitor().post(`/payments/local/${paymentId}/pay`)).status).toBe(202);
    expect(await sweepPaymentHolds(srv.server.ctx, (await createdMs(bookingId)) + 25 * HOUR)).toContain(bookingId);
    calls.length = 0;
    const logged = logLines.length;

    await idle();
    expect(await bookingOf(bookingId)).toMatchObject({ status: 'abandoned', paymentStatus: 'refunded' });
    expect(names()).not.toContain('svc_booking_paid');
    expect(names()).not.toContain('svc_booking_confirmed');
    expect(await paymentStatus(srv, paymentId)).toBe('refunded');
    expect((await paymentEvents(srv)).at(-1)).toMatchObject({ kind: 'paid', outcome: 'refunded_late' });
    expect(await outboxTo(srv, email)).toEqual([]);
    const warnings = logLines
      .slice(logged)
      .map((l) => JSON.parse(l) as { level: number; msg: string; paymentId?: string; bookingId?: number })
      .filter((l) => l.level === 40 && l.msg.includes('after its hold was released'));
    expect(warnings).toEqual([expect.objectContaining({ bookingId })]);
    // the payment id is the visitor's capability: never in a log line
    expect(JSON.stringify(warnings)).not.toContain(paymentId);
  });

  it('a paid event that arrives after Cancel is refunded too, and the booking stays abandoned', async () => {
    const { bookingId, paymentId } = await heldBooking(4500);
    expect((await visitor().post(`/payments/local/${paymentId}/cancel`)).status).toBe(200);
    calls.length = 0;
    expect((await postWebhook(srv, 'local', signedLocalEvent(srv, 'payment.succeeded', paymentId, 4500))).status).toBe(200);
    await idle();
    expect((await bookingOf(bookingId)).status).toBe('abandoned');
    expect(calls).toEqual([]);
    expect(await paymentStatus(srv, paymentId)).toBe('refunded');
  });
});

describe('the free edition', () => {
  const free = useTestServer({ env: { SVC_JOBS: 'off' } });

  it('keeps a priced type on the confirmed path with payment_status on_site, and a priced event’s sign-up a free row', async () => {
    disableIpThrottle(free.hooks());
    const freeHost = await createHost(free.admin.api);
    const type = await createType(free.admin.api, { hosts: [freeHost], priceCents: 4500 });
    const res = await submitBooking(free.server.url, bookingBody(type.id, futureStart(3, 10)));
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('confirmed');
    expect(res.body).not.toHaveProperty('paymentUrl');
    expect((await bookingRepository.findBooking(free.db(), res.body.bookingId))?.paymentStatus).toBe('on_site');

    const event = await createEvent(free.admin.api, { priceCents: 1500, capacity: 10 });
    const signup = await signUp(free.server, event.id, { quantity: 2 });
    expect(signup.status).toBe(201);
    expect(signup.body).toMatchObject({ status: 'going' });
    expect(await attendeeRows(free.server, event.id)).toEqual([expect.objectContaining({ quantity: 2, status: 'going', order_id: null })]);
  });

  it('answers 404 on the payment and order routes', async () => {
    const anon = apiClient(free.server.url);
    const id = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
    expect((await anon.get(`/payments/checkout/${id}`)).status).toBe(404);
    expect((await anon.get(`/payments/local/${id}`)).status).toBe(404);
    expect((await anon.post(`/payments/local/${id}/pay`)).status).toBe(404);
    expect((await anon.post(`/payments/checkout/${id}/cancel`)).status).toBe(404);
    expect((await anon.post('/payments/local/webhook', '{}')).status).toBe(404);
    const orders = await free.admin.api.get('/orders');
    expect(orders.status).toBe(404);
    expect(orders.body.code).toBe('svc_not_found');
    expect((await free.admin.api.get('/orders/1')).status).toBe(404);
    expect((await free.admin.api.post('/orders/1/refund')).status).toBe(404);
    expect((await anon.post('/commerce/orders', '{}')).status).toBe(404);
  });
});
