/**
 * `POST /payments/{provider}/webhook` (docs/api.md#payments): the signature is checked on the raw
 * body before anything else, the verified event is stored before it is processed (a job), and a
 * repeat is a no-op. The local provider's events are signed here as the server signs its own; the
 * Stripe provider talks to a stub of Stripe's API on loopback (mocked at the network edge) and its
 * events are signed with the package's own test-header helper.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { bookingRepository } from '../../server/modules/booking/booking.repository';
import { apiClient } from '../helpers/http';
import { useTestServer } from '../helpers/test-server';
import { bookingBody, createHost, createType, disableIpThrottle, futureStart, recordActions, submitBooking } from '../helpers/booking';
import { attendeeRows, createEvent, signUp } from '../helpers/registration';
import { countRows, newEventId, paymentEvents, paymentIdOf, paymentStatus, postWebhook, signedLocalEvent, type SignedEvent } from '../helpers/payments';

describe('the local provider’s webhook', () => {
  const { server: srv, admin, db, hooks } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off' } });
  let host: number;
  let day = 20;
  let calls: Array<[string, ...unknown[]]>;

  beforeAll(async () => {
    disableIpThrottle(hooks());
    host = await createHost(admin.api);
    calls = recordActions(hooks(), ['svc_booking_paid', 'svc_booking_confirmed', 'svc_booking_payment_abandoned']);
  });
  beforeEach(() => {
    calls.length = 0;
  });

  async function heldBooking(priceCents = 3000) {
    const type = await createType(admin.api, { hosts: [host], priceCents });
    const res = await submitBooking(srv.url, bookingBody(type.id, futureStart(day++, 10)));
    expect(res.status).toBe(201);
    return { bookingId: res.body.bookingId as number, paymentId: paymentIdOf(res.body.paymentUrl) };
  }
  const statusOf = async (id: number) => (await bookingRepository.findBooking(db(), id))?.status;

  /** Nothing stored, nothing queued, nothing changed, also once the queue has run. */
  async function expectNothingChanged(bookingId: number, before: { events: number; jobs: number }) {
    expect(await countRows(srv, 'svc_payment_events')).toBe(before.events);
    expect(await countRows(srv, 'svc_jobs')).toBe(before.jobs);
    await srv.server.ctx.jobs.idle();
    expect(await statusOf(bookingId)).toBe('pending_payment');
    expect(calls).toEqual([]);
  }

  const counts = async () => ({ events: await countRows(srv, 'svc_payment_events'), jobs: await countRows(srv, 'svc_jobs') });

  it.each<[string, (e: SignedEvent) => SignedEvent]>([
    ['without any signature header', (e) => ({ body: e.body, headers: {} })],
    [
      'without webhook-signature',
      (e) => ({ body: e.body, headers: { 'webhook-id': e.headers['webhook-id']!, 'webhook-timestamp': e.headers['webhook-timestamp']! } }),
    ],
    ['with a signature of another body', (e) => ({ body: e.body.replace('payment.succeeded', 'payment.failed'), headers: e.headers })],
    ['with a tampered amount', (e) => ({ body: e.body.replace(/"amountCents":\d+/, '"amountCents":1'), headers: e.headers })],
    ['signed with another secret', (e) => ({ body: e.body, headers: { ...e.headers, 'webhook-signature': `v1,${Buffer.alloc(32, 7).toString('base64')}` } })],
    ['with another webhook-id than the one signed', (e) => ({ body: e.body, headers: { ...e.headers, 'webhook-id': 'evt_someone_else' } })],
  ])('a paid event %s answers 400 svc_invalid_signature and changes nothing', async (_how, spoil) => {
    const { bookingId, paymentId } = await heldBooking();
    const before = await counts();
    const res = await postWebhook(srv, 'local', spoil(signedLocalEvent(srv, 'payment.succeeded', paymentId, 3000)));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('svc_invalid_signature');
    await expectNothingChanged(bookingId, before);
  });

  it('a signature older than the five-minute tolerance answers 400 svc_invalid_signature', async () => {
    const { bookingId, paymentId } = await heldBooking();
    const before = await counts();
    const stale = signedLocalEvent(srv, 'payment.succeeded', paymentId, 3000, newEventId(), new Date(Date.now() - 10 * 60_000));
    const res = await postWebhook(srv, 'local', stale);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('svc_invalid_signature');
    await expectNothingChanged(bookingId, before);
  });

  it('a body that is valid JSON but not what was signed is refused before it is read', async () => {
    const { bookingId, paymentId } = await heldBooking();
    const before = await counts();
    const signedForNothing = signedLocalEvent(srv, 'payment.failed', 'AAAAAAAAAAAAAAAAAAAAAAAA', 0);
    const res = await postWebhook(srv, 'local', {
      body: JSON.stringify({ type: 'payment.succeeded', data: { sessionId: paymentId, amountCents: 3000 } }),
      headers: signedForNothing.headers,
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('svc_invalid_signature');
    await expectNothingChanged(bookingId, before);
  });

  it('the webhook of a provider that is not configured answers 404', async () => {
    const { paymentId } = await heldBooking();
    const event = signedLocalEvent(srv, 'payment.succeeded', paymentId, 3000);
    for (const provider of ['stripe', 'paypal']) {
      const res = await postWebhook(srv, provider, event);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('svc_not_found');
    }
    expect(await countRows(srv, 'svc_payment_events')).toBe(0);
  });

  it('the verified event is stored before it is processed: after the answer its row waits unprocessed, the booking still pending', async () => {
    const { bookingId, paymentId } = await heldBooking();
    const event = signedLocalEvent(srv, 'payment.succeeded', paymentId, 3000);
    const res = await postWebhook(srv, 'local', event);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: true, duplicate: false });

    const [stored] = (await paymentEvents(srv)).filter((e) => e.event_id === event.headers['webhook-id']);
    expect(stored).toMatchObject({ kind: 'paid', outcome: null, processed_utc: null });
    const jobs = await queryRows<{ state: string }>(
      db(),
      sql`select state from svc_jobs where type = 'payments.process_event' and (payload->>'eventRowId')::int = ${stored!.id}`,
    );
    expect(jobs).toEqual([{ state: 'queued' }]);
    expect(await statusOf(bookingId)).toBe('pending_payment');
    expect(calls).toEqual([]);

    await srv.server.ctx.jobs.idle();
    const [processed] = (await paymentEvents(srv)).filter((e) => e.id === stored!.id);
    expect(processed).toMatchObject({ outcome: 'confirmed', processed_utc: expect.any(String) });
    expect(await statusOf(bookingId)).toBe('confirmed');
    expect(calls).toEqual([
      ['svc_booking_paid', bookingId],
      ['svc_booking_confirmed', bookingId],
    ]);
  });

  it('a failed payment releases the hold as the sweeper would', async () => {
    const { bookingId, paymentId } = await heldBooking();
    expect((await postWebhook(srv, 'local', signedLocalEvent(srv, 'payment.failed', paymentId, 3000))).status).toBe(200);
    await srv.server.ctx.jobs.idle();
    expect(await statusOf(bookingId)).toBe('abandoned');
    expect(calls).toEqual([['svc_booking_payment_abandoned', bookingId]]);
    expect(await paymentStatus(srv, paymentId)).toBe('expired');
  });

  it('a verified event for no known payment is acknowledged and ignored', async () => {
    const event = signedLocalEvent(srv, 'payment.succeeded', 'ZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZZ', 3000);
    expect((await postWebhook(srv, 'local', event)).status).toBe(200);
    await srv.server.ctx.jobs.idle();
    expect((await paymentEvents(srv)).at(-1)).toMatchObject({ event_id: event.headers['webhook-id'], outcome: 'unknown_payment' });
    expect(calls).toEqual([]);
  });
});

/** A stub of the part of Stripe's API svc calls, on loopback. */
interface StubRequest {
  method: string;
  path: string;
  form: URLSearchParams;
  idempotencyKey: string | undefined;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('the Stripe provider', () => {
  const WEBHOOK_SECRET = 'whsec_svc_integration_test_secret';
  const requests: StubRequest[] = [];
  let stub: Server;
  let stubUrl = '';
  let sessions = 0;

  beforeAll(async () => {
    stub = createServer((req, res) => {
      void readBody(req).then((text) => {
        const recorded: StubRequest = {
          method: req.method ?? '',
          path: new URL(req.url ?? '/', 'http://127.0.0.1').pathname,
          form: new URLSearchParams(text),
          idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        };
        requests.push(recorded);
        let status = 200;
        let body: Record<string, unknown>;
        if (recorded.method === 'POST' && recorded.path === '/v1/checkout/sessions') {
          const id = `cs_test_${++sessions}`;
          body = { id, object: 'checkout.session', url: `${stubUrl}/c/pay/${id}`, mode: 'payment', payment_status: 'unpaid', status: 'open' };
        } else if (recorded.method === 'POST' && recorded.path === '/v1/refunds') {
          body = {
            id: `re_test_${requests.length}`,
            object: 'refund',
            status: 'succeeded',
            payment_intent: recorded.form.get('payment_intent'),
            amount: Number(recorded.form.get('amount')),
          };
        } else {
          status = 404;
          body = { error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } };
        }
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${requests.length}` });
        res.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
    stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    stub.closeAllConnections();
    await new Promise<void>((resolve) => stub.close(() => resolve()));
  });

  const {
    server: srv,
    admin,
    db,
    hooks,
  } = useTestServer({
    env: () => ({
      SVC_EDITION: 'extended',
      SVC_JOBS: 'off',
      SVC_PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_svc_integration_0123456789',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stubUrl,
    }),
  });
  let host: number;
  let calls: Array<[string, ...unknown[]]>;
  let day = 20;

  beforeAll(async () => {
    disableIpThrottle(hooks());
    hooks().addFilter('svc_rsvp_client_ip', () => '', 50);
    host = await createHost(admin.api);
    calls = recordActions(hooks(), ['svc_booking_paid', 'svc_booking_confirmed', 'svc_rsvp_submitted', 'svc_rsvp_cancelled']);
  });
  beforeEach(() => {
    calls.length = 0;
    requests.length = 0;
  });

  /** A Stripe event as its webhook body arrives, and the header Stripe would sign it with. */
  function stripeEvent(type: string, object: Record<string, unknown>, secret = WEBHOOK_SECRET): SignedEvent {
    const body = JSON.stringify(
      {
        id: `evt_${newEventId()}`,
        object: 'event',
        api_version: Stripe.API_VERSION,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        type,
        data: { object },
      },
      null,
      2,
    );
    return { body, headers: { 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload: body, secret }) } };
  }
  const completed = (paymentId: string, sessionId: string, amount: number, intent: string) =>
    stripeEvent('checkout.session.completed', {
      id: sessionId,
      object: 'checkout.session',
      mode: 'payment',
      status: 'complete',
      payment_status: 'paid',
      amount_total: amount,
      currency: 'usd',
      client_reference_id: paymentId,
      metadata: { svc_payment: paymentId },
      payment_intent: intent,
    });

  async function checkoutView(paymentId: string) {
    const res = await apiClient(srv.url).get(`/payments/checkout/${paymentId}`);
    expect(res.status).toBe(200);
    return res.body;
  }

  it('a paid booking’s checkout job creates the Checkout Session at Stripe; the checkout view then carries its url', async () => {
    const type = await createType(admin.api, { hosts: [host], priceCents: 7000 });
    const res = await submitBooking(srv.url, bookingBody(type.id, futureStart(day++, 10)));
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('pending_payment');
    const paymentId = paymentIdOf(res.body.paymentUrl);
    // Never inside the request: the session is created by the job.
    expect(requests).toEqual([]);
    expect(await checkoutView(paymentId)).toMatchObject({ provider: 'stripe', checkoutUrl: null, status: 'open' });

    await srv.server.ctx.jobs.idle();
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions', idempotencyKey: `svc-checkout-${paymentId}` });
    expect(requests[0]!.form.get('metadata[svc_payment]')).toBe(paymentId);
    expect(requests[0]!.form.get('line_items[0][price_data][unit_amount]')).toBe('7000');
    expect(requests[0]!.form.get('line_items[0][price_data][currency]')).toBe('usd');
    expect((await checkoutView(paymentId)).checkoutUrl).toBe(`${stubUrl}/c/pay/cs_test_${sessions}`);
  });

  it('checkout.session.completed, signed with the endpoint secret, confirms the booking', async () => {
    const type = await createType(admin.api, { hosts: [host], priceCents: 7000 });
    const res = await submitBooking(srv.url, bookingBody(type.id, futureStart(day++, 10)));
    const bookingId = res.body.bookingId as number;
    const paymentId = paymentIdOf(res.body.paymentUrl);
    await srv.server.ctx.jobs.idle();
    const event = completed(paymentId, `cs_test_${sessions}`, 7000, 'pi_test_booking');
    const hook = await postWebhook(srv, 'stripe', event);
    expect(hook.status).toBe(200);
    expect(hook.body).toEqual({ received: true, duplicate: false });
    await srv.server.ctx.jobs.idle();
    expect(await bookingRepository.findBooking(db(), bookingId)).toMatchObject({ status: 'confirmed', paymentStatus: 'paid' });
    expect(calls).toEqual([
      ['svc_booking_paid', bookingId],
      ['svc_booking_confirmed', bookingId],
    ]);
    expect(await checkoutView(paymentId)).toMatchObject({ status: 'paid', settled: true });
    // Stripe retries deliveries: the same event again is a no-op.
    expect((await postWebhook(srv, 'stripe', event)).body).toEqual({ received: true, duplicate: true });
  });

  it('a bad Stripe signature answers 400 svc_invalid_signature and stores nothing', async () => {
    const type = await createType(admin.api, { hosts: [host], priceCents: 7000 });
    const res = await submitBooking(srv.url, bookingBody(type.id, futureStart(day++, 10)));
    const paymentId = paymentIdOf(res.body.paymentUrl);
    await srv.server.ctx.jobs.idle();
    const events = await countRows(srv, 'svc_payment_events');
    const good = completed(paymentId, `cs_test_${sessions}`, 7000, 'pi_test_bad');
    const wrongSecret = completed(paymentId, `cs_test_${sessions}`, 7000, 'pi_test_bad');
    wrongSecret.headers['stripe-signature'] = Stripe.webhooks.generateTestHeaderString({ payload: wrongSecret.body, secret: 'whsec_not_the_endpoint_secret' });
    for (const bad of [
      wrongSecret,
      { body: good.body, headers: {} },
      { body: good.body.replace('"amount_total": 7000', '"amount_total": 1'), headers: good.headers },
    ]) {
      const answer = await postWebhook(srv, 'stripe', bad);
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('svc_invalid_signature');
    }
    expect(await countRows(srv, 'svc_payment_events')).toBe(events);
    await srv.server.ctx.jobs.idle();
    expect((await bookingRepository.findBooking(db(), res.body.bookingId))?.status).toBe('pending_payment');
    expect(calls).toEqual([]);
  });

  /** A priced event's order of `quantity` tickets, paid through Stripe: its order id, payment id and PaymentIntent. */
  async function paidOrder(quantity: number) {
    const event = await createEvent(admin.api, { priceCents: 1500, capacity: 20 });
    const res = await signUp(srv, event.id, { quantity });
    expect(res.status).toBe(201);
    const paymentId = paymentIdOf(res.body.paymentUrl);
    await srv.server.ctx.jobs.idle();
    const intent = `pi_test_order_${res.body.orderId}`;
    expect((await postWebhook(srv, 'stripe', completed(paymentId, `cs_test_${sessions}`, 1500 * quantity, intent))).status).toBe(200);
    await srv.server.ctx.jobs.idle();
    const rows = await attendeeRows(srv, event.id);
    expect(rows.map((r) => r.status)).toEqual(Array(quantity).fill('going'));
    calls.length = 0;
    requests.length = 0;
    return { orderId: res.body.orderId as number, paymentId, intent, rows, eventId: event.id as number };
  }

  it('charge.refunded for a paid order refunds it: every row cancelled, svc_rsvp_cancelled once per row', async () => {
    const { orderId, paymentId, intent, rows, eventId } = await paidOrder(2);
    const refunded = stripeEvent('charge.refunded', {
      id: 'ch_test_1',
      object: 'charge',
      amount: 3000,
      amount_refunded: 3000,
      refunded: true,
      currency: 'usd',
      metadata: { svc_payment: paymentId },
      payment_intent: intent,
    });
    expect((await postWebhook(srv, 'stripe', refunded)).status).toBe(200);
    await srv.server.ctx.jobs.idle();
    expect((await admin.api.get(`/orders/${orderId}`)).body).toMatchObject({ status: 'refunded', paymentStatus: 'refunded' });
    expect((await attendeeRows(srv, eventId)).map((r) => r.status)).toEqual(['cancelled', 'cancelled']);
    expect(calls.filter((c) => c[0] === 'svc_rsvp_cancelled')).toEqual(rows.map((r) => ['svc_rsvp_cancelled', r.id]));
    // Stripe already refunded it: svc asks for no refund of its own.
    expect(requests).toEqual([]);
    expect(await paymentStatus(srv, paymentId)).toBe('refunded');
  });

  it('an admin refund of a Stripe order refunds the captured PaymentIntent at Stripe (a job)', async () => {
    const { orderId, paymentId, intent } = await paidOrder(3);
    const refund = await admin.api.post(`/orders/${orderId}/refund`);
    expect(refund.status).toBe(200);
    expect(requests).toEqual([]);
    await srv.server.ctx.jobs.idle();
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'POST', path: '/v1/refunds', idempotencyKey: `svc-refund-${paymentId}` });
    expect(Object.fromEntries(requests[0]!.form)).toEqual({ payment_intent: intent, amount: '4500' });
    expect(await paymentStatus(srv, paymentId)).toBe('refunded');
  });

  const refundedCharge = (paymentId: string | null, intent: string, amount: number) =>
    stripeEvent('charge.refunded', {
      id: `ch_${intent}`,
      object: 'charge',
      amount,
      amount_refunded: amount,
      refunded: true,
      currency: 'usd',
      metadata: paymentId ? { svc_payment: paymentId } : {},
      payment_intent: intent,
    });

  async function heldStripeBooking(price = 7000) {
    const type = await createType(admin.api, { hosts: [host], priceCents: price });
    const res = await submitBooking(srv.url, bookingBody(type.id, futureStart(day++, 10)));
    expect(res.status).toBe(201);
    await srv.server.ctx.jobs.idle();
    calls.length = 0;
    requests.length = 0;
    return { bookingId: res.body.bookingId as number, paymentId: paymentIdOf(res.body.paymentUrl), sessionId: `cs_test_${sessions}` };
  }
  const attentionOf = async (paymentId: string) =>
    (await queryRows<{ attention: string | null }>(db(), sql`select attention from svc_payments where id = ${paymentId}`))[0]?.attention;

  it.each([
    ['naming our payment in its metadata', true],
    ['naming only the PaymentIntent (matched once the payment names it)', false],
  ])(
    'charge.refunded before checkout.session.completed, %s: the booking is never confirmed, no refund asked of Stripe, flagged',
    async (_how, withMetadata) => {
      const { bookingId, paymentId, sessionId } = await heldStripeBooking();
      const intent = `pi_test_early_refund_${bookingId}`;
      expect((await postWebhook(srv, 'stripe', refundedCharge(withMetadata ? paymentId : null, intent, 7000))).status).toBe(200);
      await srv.server.ctx.jobs.idle();
      expect((await postWebhook(srv, 'stripe', completed(paymentId, sessionId, 7000, intent))).status).toBe(200);
      await srv.server.ctx.jobs.idle();
      expect((await bookingRepository.findBooking(db(), bookingId))?.status).not.toBe('confirmed');
      expect(calls.map((c) => c[0])).not.toContain('svc_booking_paid');
      expect(await paymentStatus(srv, paymentId)).toBe('refunded');
      expect(await attentionOf(paymentId)).toBe('refunded_at_provider');
      expect(requests.filter((r) => r.path === '/v1/refunds')).toEqual([]);
    },
  );

  it('checkout.session.completed in another currency confirms nothing: refunded at Stripe (a job) and flagged amount_mismatch', async () => {
    const { bookingId, paymentId, sessionId } = await heldStripeBooking();
    const event = completed(paymentId, sessionId, 7000, `pi_test_eur_${bookingId}`);
    const eur = stripeEvent('checkout.session.completed', { ...(JSON.parse(event.body).data.object as Record<string, unknown>), currency: 'eur' });
    expect((await postWebhook(srv, 'stripe', eur)).status).toBe(200);
    await srv.server.ctx.jobs.idle();
    expect((await bookingRepository.findBooking(db(), bookingId))?.status).toBe('abandoned');
    expect(calls).toEqual([]);
    expect(await attentionOf(paymentId)).toBe('amount_mismatch');
    expect(requests.filter((r) => r.path === '/v1/refunds')).toHaveLength(1);
    expect(await paymentStatus(srv, paymentId)).toBe('refunded');
  });

  it.each([
    ['ten minutes ahead', 10 * 60],
    ['ten minutes old', -10 * 60],
  ])('a Stripe signature dated %s answers 400 svc_invalid_signature and stores nothing', async (_when, offsetSeconds) => {
    const { bookingId, paymentId, sessionId } = await heldStripeBooking();
    const event = completed(paymentId, sessionId, 7000, `pi_test_skew_${bookingId}`);
    const header = Stripe.webhooks.generateTestHeaderString({
      payload: event.body,
      secret: WEBHOOK_SECRET,
      timestamp: Math.floor(Date.now() / 1000) + offsetSeconds,
    });
    const events = await countRows(srv, 'svc_payment_events');
    const res = await postWebhook(srv, 'stripe', { body: event.body, headers: { 'stripe-signature': header } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('svc_invalid_signature');
    expect(await countRows(srv, 'svc_payment_events')).toBe(events);
    await srv.server.ctx.jobs.idle();
    expect((await bookingRepository.findBooking(db(), bookingId))?.status).toBe('pending_payment');
  });

  it('GET /payments/status names the provider and its webhook address, never a secret', async () => {
    const res = await admin.api.get('/payments/status');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      edition: 'extended',
      provider: 'stripe',
      configured: true,
      commerceBridge: { enabled: false },
      holdHours: 24,
      currency: 'USD',
    });
    expect(res.body.webhookUrl).toMatch(/\/svc\/v1\/payments\/stripe\/webhook$/);
    expect(JSON.stringify(res.body)).not.toContain('sk_test_');
    expect(JSON.stringify(res.body)).not.toContain(WEBHOOK_SECRET);
    expect((await apiClient(srv.url).get('/payments/status')).status).toBe(401);
  });

  it('the local provider’s routes answer 404 on a Stripe server', async () => {
    const anon = apiClient(srv.url);
    expect((await postWebhook(srv, 'local', signedLocalEvent(srv, 'payment.succeeded', 'AAAAAAAAAAAAAAAAAAAAAAAA', 1))).status).toBe(404);
    const type = await createType(admin.api, { hosts: [host], priceCents: 7000 });
    const res = await submitBooking(srv.url, bookingBody(type.id, futureStart(day++, 10)));
    const paymentId = paymentIdOf(res.body.paymentUrl);
    expect((await anon.get(`/payments/local/${paymentId}`)).status).toBe(404);
    expect((await anon.post(`/payments/local/${paymentId}/pay`)).status).toBe(404);
  });
});
