/**
 * Paid sign-ups in the extended edition (docs/api.md#payments; contract: svc_rsvp_submitted on paid
 * paths once per ticket with that row's own data; refund → every row cancelled, svc_rsvp_cancelled
 * once per row). Jobs are off: a test runs the queue itself (`idle()`).
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { utcMs } from '../../shared/time';
import { paymentsService } from '../../server/modules/orders/payments.service';
import { paymentsRepository } from '../../server/modules/orders/payments.repository';
import { sha256Hex } from '../../server/security/crypto';
import { apiClient } from '../helpers/http';
import { useTestServer } from '../helpers/test-server';
import { recordActions } from '../helpers/booking';
import { attendeeRows, createEvent, resetThrottles, signUp, uniqueEmail } from '../helpers/registration';
import { outboxTo, paymentEvents, paymentIdOf, paymentStatus, postWebhook, signedLocalEvent } from '../helpers/payments';

const { server: srv, admin, db, hooks } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off' } });
const visitor = () => apiClient(srv.url);
const idle = () => srv.server.ctx.jobs.idle();
let calls: Array<[string, ...unknown[]]>;

beforeAll(() => {
  // Many sign-ups from one address: the per-IP throttle is not what these tests are about.
  hooks().addFilter('svc_rsvp_client_ip', () => '', 50);
  calls = recordActions(hooks(), ['svc_rsvp_submitted', 'svc_rsvp_cancelled', 'svc_attendee_status_changed']);
});
beforeEach(async () => {
  await resetThrottles(srv);
  calls.length = 0;
});

const named = (name: string) => calls.filter((c) => c[0] === name);

/** A pending order of `quantity` tickets: the 201's body, the payment id and the buyer's email. */
async function order(eventId: number, quantity: number, fields: Record<string, unknown> = {}) {
  const email = uniqueEmail('buyer');
  const res = await signUp(srv, eventId, { email, quantity, ...fields });
  expect(res.status).toBe(201);
  expect(res.body.status).toBe('pending_payment');
  return { orderId: res.body.orderId as number, paymentId: paymentIdOf(res.body.paymentUrl), email };
}

async function pay(paymentId: string): Promise<void> {
  expect((await visitor().post(`/payments/local/${paymentId}/pay`)).status).toBe(202);
  await idle();
}

async function paidOrder(quantity: number, eventOverrides: Record<string, unknown> = {}) {
  const event = await createEvent(admin.api, { priceCents: 2000, capacity: 50, ...eventOverrides });
  const placed = await order(event.id, quantity);
  await pay(placed.paymentId);
  const rows = await attendeeRows(srv, event.id);
  expect(rows).toHaveLength(quantity);
  calls.length = 0;
  return { ...placed, eventId: event.id as number, rows };
}

describe('a paid sign-up holds seats in an order', () => {
  it('answers 201 {orderId, status: pending_payment, paymentUrl}, writes no attendee row and fires no svc_rsvp_submitted', async () => {
    const event = await createEvent(admin.api, { priceCents: 1250, capacity: 10 });
    const res = await signUp(srv, event.id, { quantity: 2 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      orderId: expect.any(Number),
      status: 'pending_payment',
      paymentUrl: expect.stringMatching(/^https?:\/\/[^/]+\/pay\/[A-Za-z0-9_-]{16,64}$/),
    });
    expect(await attendeeRows(srv, event.id)).toEqual([]);
    expect(calls).toEqual([]);
    const detail = await admin.api.get(`/orders/${res.body.orderId}`);
    expect(detail.body).toMatchObject({
      status: 'pending_payment',
      eventId: event.id,
      quantity: 2,
      amountCents: 2500,
      currency: 'USD',
      source: 'checkout',
      paymentStatus: 'open',
      tickets: [],
    });
    const checkout = await visitor().get(`/payments/checkout/${paymentIdOf(res.body.paymentUrl)}`);
    expect(checkout.body).toMatchObject({ kind: 'order', amountCents: 2500, status: 'open', settled: false });
  });

  it('the order’s seats count against capacity: with a waitlist, a sign-up that no longer fits is waitlisted', async () => {
    const event = await createEvent(admin.api, { priceCents: 1000, capacity: 5, waitlist: true });
    await order(event.id, 3);
    const over = await signUp(srv, event.id, { quantity: 3 });
    expect(over.status).toBe(201);
    expect(over.body).toEqual({ id: expect.any(Number), status: 'waitlist' });
    expect(await attendeeRows(srv, event.id)).toEqual([expect.objectContaining({ id: over.body.id, status: 'waitlist', quantity: 3, order_id: null })]);
    // 3 held + 2 fit exactly
    const fits = await signUp(srv, event.id, { quantity: 2 });
    expect(fits.body.status).toBe('pending_payment');
  });

  it('the order’s seats count against capacity: without a waitlist, a sign-up that no longer fits answers 409 svc_event_full', async () => {
    const event = await createEvent(admin.api, { priceCents: 1000, capacity: 5, waitlist: false });
    await order(event.id, 3);
    const full = await signUp(srv, event.id, { quantity: 3 });
    expect(full.status).toBe(409);
    expect(full.body.code).toBe('svc_event_full');
    expect((await admin.api.get(`/orders?eventId=${event.id}`)).headers.get('x-total-count')).toBe('1');
    expect(await attendeeRows(srv, event.id)).toEqual([]);
  });
});

describe('the order is paid', () => {
  it('one attendee row per ticket, quantity 1 each, its own cancel token and ticket code, orderId set', async () => {
    const event = await createEvent(admin.api, { priceCents: 2000, capacity: 10 });
    const { orderId, paymentId, email } = await order(event.id, 3, { display_name: 'Grace Hopper' });
    await pay(paymentId);
    const rows = await attendeeRows(srv, event.id);
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row).toMatchObject({ event_id: event.id, email, display_name: 'Grace Hopper', quantity: 1, status: 'going', order_id: orderId });
      expect(row.cancel_token).toHaveLength(64);
      expect(row.ticket_code_hash).toBe(sha256Hex(row.ticket_code));
    }
    expect(new Set(rows.map((r) => r.cancel_token)).size).toBe(3);
    expect(new Set(rows.map((r) => r.ticket_code)).size).toBe(3);
    const detail = await admin.api.get(`/orders/${orderId}`);
    expect(detail.body).toMatchObject({ status: 'paid', paymentStatus: 'paid', paidUtc: expect.any(String) });
    expect(detail.body.tickets).toEqual(rows.map((r) => ({ attendeeId: r.id, eventId: event.id, displayName: 'Grace Hopper', email, status: 'going' })));
    expect(JSON.stringify(detail.body)).not.toContain(rows[0].cancel_token);
    expect(JSON.stringify(detail.body)).not.toContain(rows[0].ticket_code);
  });

  it('svc_rsvp_submitted fires once per row, with that row’s own cancel_token and data', async () => {
    const event = await createEvent(admin.api, { priceCents: 2000, capacity: 10 });
    const { paymentId, email } = await order(event.id, 3, { display_name: 'Ada Lovelace' });
    await pay(paymentId);
    const rows = await attendeeRows(srv, event.id);
    expect(named('svc_rsvp_submitted')).toEqual(
      rows.map((r) => ['svc_rsvp_submitted', r.id, { event_id: event.id, email, display_name: 'Ada Lovelace', quantity: 1, cancel_token: r.cancel_token }]),
    );
  });

  it('exactly one email, with a QR code and a PDF per ticket (ticket-1.png…, ticket-1.pdf…), then the receipt, and no per-row confirmation', async () => {
    const event = await createEvent(admin.api, { priceCents: 2000, capacity: 10 });
    const { paymentId, email } = await order(event.id, 3);
    await pay(paymentId);
    const rows = await attendeeRows(srv, event.id);
    const mails = await outboxTo(srv, email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['ticket-1.png', 'image/png'],
      ['ticket-2.png', 'image/png'],
      ['ticket-3.png', 'image/png'],
      ['ticket-1.pdf', 'application/pdf'],
      ['ticket-2.pdf', 'application/pdf'],
      ['ticket-3.pdf', 'application/pdf'],
      ['receipt.pdf', 'application/pdf'],
    ]);
    for (const a of mails[0]!.attachments.filter((f) => f.contentType === 'image/png'))
      expect(Buffer.from(a.content, 'base64').subarray(1, 4).toString()).toBe('PNG');
    for (const row of rows) {
      expect(mails[0]!.text).toContain(row.ticket_code);
      expect(mails[0]!.text).toContain(`/cancel/${row.cancel_token}`);
    }
  });

  it('a repeated delivery or a second paid event issues no further tickets', async () => {
    const { paymentId, eventId, email } = await paidOrder(2);
    const event = signedLocalEvent(srv, 'payment.succeeded', paymentId, 4000);
    expect((await postWebhook(srv, 'local', event)).body.duplicate).toBe(false);
    expect((await postWebhook(srv, 'local', event)).body.duplicate).toBe(true);
    await idle();
    expect(await attendeeRows(srv, eventId)).toHaveLength(2);
    expect(calls).toEqual([]);
    expect(await outboxTo(srv, email)).toHaveLength(1);
  });
});

describe('refunds', () => {
  it('admin POST /orders/{id}/refund: every row cancelled, svc_rsvp_cancelled once per row (not svc_attendee_status_changed), order refunded, the payment refunded by the job', async () => {
    const { orderId, paymentId, eventId, rows } = await paidOrder(3);
    const res = await admin.api.post(`/orders/${orderId}/refund`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: orderId, status: 'refunded' });
    expect(res.body.tickets.map((t: { status: string }) => t.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect((await attendeeRows(srv, eventId)).map((r) => r.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect(calls).toEqual(rows.map((r) => ['svc_rsvp_cancelled', r.id]));
    expect(await paymentStatus(srv, paymentId)).toBe('refunding');
    await idle();
    expect(await paymentStatus(srv, paymentId)).toBe('refunded');
    expect((await admin.api.get(`/orders/${orderId}`)).body).toMatchObject({ status: 'refunded', paymentStatus: 'refunded' });

    calls.length = 0;
    const again = await admin.api.post(`/orders/${orderId}/refund`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('svc_order_invalid_state');
    expect(calls).toEqual([]);
  });

  it('refunding an order that is not paid answers 409 svc_order_invalid_state; an unknown order 404', async () => {
    const event = await createEvent(admin.api, { priceCents: 2000, capacity: 10 });
    const { orderId, paymentId } = await order(event.id, 1);
    const res = await admin.api.post(`/orders/${orderId}/refund`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('svc_order_invalid_state');
    expect(await paymentStatus(srv, paymentId)).toBe('open');
    expect((await admin.api.get(`/orders/${orderId}`)).body.status).toBe('pending_payment');
    expect((await admin.api.post('/orders/999999/refund')).status).toBe(404);
    expect((await admin.api.get('/orders/999999')).status).toBe(404);
  });

  it('a refund through the provider’s webhook (payment.refunded) cancels every row, svc_rsvp_cancelled once per row', async () => {
    const { orderId, paymentId, eventId, rows } = await paidOrder(2);
    expect((await postWebhook(srv, 'local', signedLocalEvent(srv, 'payment.refunded', paymentId, 4000))).status).toBe(200);
    expect(calls).toEqual([]); // processed by the job, not in the request
    await idle();
    expect((await attendeeRows(srv, eventId)).map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
    expect(calls).toEqual(rows.map((r) => ['svc_rsvp_cancelled', r.id]));
    expect((await admin.api.get(`/orders/${orderId}`)).body).toMatchObject({ status: 'refunded', paymentStatus: 'refunded' });

    calls.length = 0;
    expect((await postWebhook(srv, 'local', signedLocalEvent(srv, 'payment.refunded', paymentId, 4000))).body.duplicate).toBe(false);
    await idle();
    expect(calls).toEqual([]);
    expect((await paymentEvents(srv)).at(-1)).toMatchObject({ kind: 'refunded', outcome: 'duplicate' });
  });

  it('a ticket the visitor cancelled before the refund is not cancelled (nor announced) twice', async () => {
    const { orderId, rows } = await paidOrder(2);
    expect((await visitor().post(`/attendees/cancel/${rows[0].cancel_token}`)).status).toBe(200);
    expect(calls).toEqual([['svc_rsvp_cancelled', rows[0].id]]);
    calls.length = 0;
    expect((await admin.api.post(`/orders/${orderId}/refund`)).status).toBe(200);
    expect(calls).toEqual([['svc_rsvp_cancelled', rows[1].id]]);
  });
});

describe('unpaid orders give their seats back', () => {
  it('the sweeper expires orders older than the hold hours, and a new sign-up then fits', async () => {
    const event = await createEvent(admin.api, { priceCents: 1000, capacity: 3, waitlist: false });
    const { orderId, paymentId } = await order(event.id, 3);
    expect((await signUp(srv, event.id, { quantity: 1 })).status).toBe(409);
    const row = await paymentsRepository.findOrder(db(), orderId);
    const created = utcMs(row!.createdUtc);

    expect(await paymentsService(srv.server.ctx).sweep(created + 24 * 3_600_000 - 60_000)).not.toContain(orderId);
    expect((await signUp(srv, event.id, { quantity: 1 })).status).toBe(409);
    expect(await paymentsService(srv.server.ctx).sweep(created + 24 * 3_600_000 + 60_000)).toContain(orderId);
    expect((await admin.api.get(`/orders/${orderId}`)).body).toMatchObject({ status: 'expired', paymentStatus: 'expired' });
    const fits = await signUp(srv, event.id, { quantity: 3 });
    expect(fits.status).toBe(201);
    expect(fits.body.status).toBe('pending_payment');

    const late = await visitor().post(`/payments/local/${paymentId}/pay`);
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('svc_payment_closed');
  });

  it('Cancel on the checkout releases the seats at once', async () => {
    const event = await createEvent(admin.api, { priceCents: 1000, capacity: 2, waitlist: false });
    const { orderId, paymentId } = await order(event.id, 2);
    expect((await signUp(srv, event.id, { quantity: 1 })).status).toBe(409);
    const res = await visitor().post(`/payments/checkout/${paymentId}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('cancelled');
    expect((await admin.api.get(`/orders/${orderId}`)).body.status).toBe('expired');
    expect((await signUp(srv, event.id, { quantity: 2 })).status).toBe(201);
  });

  it('a payment that lands after the order expired issues no ticket and is refunded', async () => {
    const event = await createEvent(admin.api, { priceCents: 1000, capacity: 5 });
    const { orderId, paymentId, email } = await order(event.id, 2);
    expect((await visitor().post(`/payments/local/${paymentId}/pay`)).status).toBe(202);
    const created = utcMs((await paymentsRepository.findOrder(db(), orderId))!.createdUtc);
    expect(await paymentsService(srv.server.ctx).sweep(created + 25 * 3_600_000)).toContain(orderId);
    await idle();
    expect(await attendeeRows(srv, event.id)).toEqual([]);
    expect(calls).toEqual([]);
    expect(await paymentStatus(srv, paymentId)).toBe('refunded');
    expect((await admin.api.get(`/orders/${orderId}`)).body.status).toBe('expired');
    expect(await outboxTo(srv, email)).toEqual([]);
  });
});

describe('GET /orders and GET /orders/{id}', () => {
  it('filters by eventId, status and search, newest first, and answers X-Total-Count', async () => {
    const a = await createEvent(admin.api, { title: 'Orders A', priceCents: 1000, capacity: 20 });
    const b = await createEvent(admin.api, { title: 'Orders B', priceCents: 1000, capacity: 20 });
    const first = await order(a.id, 1, { display_name: 'Katherine Johnson' });
    const second = await order(a.id, 2, { display_name: 'Dorothy Vaughan' });
    const third = await order(b.id, 1, { display_name: 'Mary Jackson' });
    await pay(second.paymentId);

    const byEvent = await admin.api.get(`/orders?eventId=${a.id}`);
    expect(byEvent.status).toBe(200);
    expect(byEvent.headers.get('x-total-count')).toBe('2');
    expect(byEvent.body.map((o: { id: number }) => o.id)).toEqual([second.orderId, first.orderId]);
    expect(byEvent.body[0]).toMatchObject({ eventTitle: 'Orders A', status: 'paid', provider: 'local', paymentStatus: 'paid', quantity: 2, amountCents: 2000 });

    const paidOnly = await admin.api.get(`/orders?eventId=${a.id}&status=paid`);
    expect(paidOnly.body.map((o: { id: number }) => o.id)).toEqual([second.orderId]);
    expect(paidOnly.headers.get('x-total-count')).toBe('1');

    const pending = await admin.api.get(`/orders?eventId=${a.id}&status=pending_payment`);
    expect(pending.body.map((o: { id: number }) => o.id)).toEqual([first.orderId]);

    const byName = await admin.api.get('/orders?search=mary%20jack');
    expect(byName.body.map((o: { id: number }) => o.id)).toEqual([third.orderId]);
    const byEmail = await admin.api.get(`/orders?search=${encodeURIComponent(first.email.toUpperCase())}`);
    expect(byEmail.body.map((o: { id: number }) => o.id)).toEqual([first.orderId]);

    const page = await admin.api.get(`/orders?eventId=${a.id}&perPage=1&page=2`);
    expect(page.body.map((o: { id: number }) => o.id)).toEqual([first.orderId]);
    expect(page.headers.get('x-total-count')).toBe('2');

    expect((await admin.api.get('/orders?status=bogus')).status).toBe(400);
  });

  it('needs an administrator', async () => {
    expect((await visitor().get('/orders')).status).toBe(401);
    expect((await visitor().get('/orders/1')).status).toBe(401);
    expect((await visitor().post('/orders/1/refund')).status).toBe(401);
  });
});
