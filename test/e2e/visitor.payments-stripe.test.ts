/**
 * The checkout page with the Stripe provider in real Chromium: Stripe's API is a stub on loopback
 * (mocked at the network edge, as in the integration tests) that also serves a stand-in for the
 * hosted checkout page. `/pay/{id}` waits for the session the server's job creates and goes
 * there; back on `?returned=1` it waits for the signed webhook; Cancel while the session is still
 * being made releases the slot and never leaves for the provider.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { queryRows } from '../../server/db/client';
import { createHost, createType, disableIpThrottle, futureStart, uniqueEmail } from '../helpers/booking';
import { useE2e } from '../helpers/e2e';
import { apiClient } from '../helpers/http';
import { expectAccessible, isTrpcMutation, phoneProfile, pickSlot } from '../helpers/visitor-e2e';

const TZ = 'Europe/Berlin';
const WEBHOOK_SECRET = 'whsec_svc_e2e_0123456789abcdef';

/** Session creation waits on this while a test holds it (the page then shows its waiting state). */
let sessionGate: Promise<void> = Promise.resolve();
let sessions = 0;
const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => resolve(text));
  });

const stripe = createServer((req, res) => {
  void readBody(req).then(async () => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      await sessionGate;
      const id = `cs_test_${++sessions}`;
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${sessions}` });
      res.end(JSON.stringify({ id, object: 'checkout.session', url: `${stripeUrl}/c/pay/${id}`, mode: 'payment', payment_status: 'unpaid', status: 'open' }));
    } else if (req.method === 'GET' && path.startsWith('/c/pay/')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html lang="en"><title>Stripe test checkout</title><h1>Stripe test checkout</h1></html>');
    } else {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'Unrecognized request URL' } }));
    }
  });
});
await new Promise<void>((resolve) => stripe.listen(0, '127.0.0.1', resolve));
const stripeUrl = `http://127.0.0.1:${(stripe.address() as AddressInfo).port}`;
// registered before the server's hooks, so it closes after the server (hooks run as a stack)
afterAll(async () => {
  stripe.closeAllConnections();
  await new Promise<void>((resolve) => stripe.close(() => resolve()));
});

// SVC_JOBS stays on: the checkout session and the webhook are handled by the server's jobs.
const e2e = useE2e({
  env: {
    SVC_EDITION: 'extended',
    SVC_PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_svc_e2e_0123456789',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stripeUrl,
  },
  login: true,
  context: phoneProfile({ timezoneId: TZ }),
});
let restoreThrottle: () => void;

beforeAll(async () => {
  restoreThrottle = disableIpThrottle(e2e.server.server.ctx.hooks);
  expect((await e2e.admin.api.patch('/settings', { currency: 'EUR' })).status).toBe(200);
});
afterAll(() => restoreThrottle?.());

/** Holds Stripe's answer to the next session creations until the returned function is called. */
function holdSessions(): () => void {
  let release!: () => void;
  sessionGate = new Promise<void>((resolve) => (release = resolve));
  return () => {
    release();
    sessionGate = Promise.resolve();
  };
}

async function bookingRows(email: string) {
  return queryRows<{ status: string; payment_status: string | null }>(
    e2e.db(),
    sql`select status, payment_status from svc_bookings where customer_email = ${email} order by booking_id`,
  );
}

/** Books a priced slot on the booking page; answers the payment id once `/pay/{id}` has opened. */
async function bookPricedSlot(page: Page, email: string, day: number): Promise<string> {
  const host = await createHost(e2e.admin.api);
  const type = await createType(e2e.admin.api, { title: 'Card session', priceCents: 4500, hosts: [host] });
  await page.goto(new URL(`/book/${type.id}`, e2e.server.url).href);
  await page.getByRole('heading', { level: 1, name: 'Card session' }).waitFor();
  await pickSlot(page, futureStart(day, 10), TZ);
  await page.getByLabel('Your name').fill('Carla Card');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Book this time · €45.00' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/pay/'));
  return new URL(page.url()).pathname.slice('/pay/'.length);
}

/** `checkout.session.completed` for our payment, signed as Stripe signs it for the endpoint secret. */
function completedEvent(paymentId: string): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({
    id: `evt_e2e_${paymentId.slice(0, 12)}`,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    type: 'checkout.session.completed',
    data: {
      object: {
        id: `cs_test_${sessions}`,
        object: 'checkout.session',
        mode: 'payment',
        status: 'complete',
        payment_status: 'paid',
        amount_total: 4500,
        currency: 'eur',
        client_reference_id: paymentId,
        metadata: { svc_payment: paymentId },
        payment_intent: `pi_e2e_${sessions}`,
      },
    },
  });
  return {
    body,
    headers: { 'content-type': 'application/json', 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload: body, secret: WEBHOOK_SECRET }) },
  };
}

describe('visitor payments with Stripe (API stubbed on loopback)', () => {
  test('/pay waits for the hosted checkout and goes there; back with ?returned=1 it confirms once the webhook is processed', async () => {
    const release = holdSessions();
    const email = uniqueEmail('card');
    const page = await e2e.newPage();
    const paymentId = await bookPricedSlot(page, email, 2);
    await page.getByRole('heading', { name: 'Taking you to secure checkout…' }).waitFor();
    await page.getByRole('button', { name: 'Cancel', exact: true }).waitFor();
    await expectAccessible(page, '/pay/:id (Stripe, waiting)');

    release();
    await page.waitForURL((url) => url.origin === stripeUrl);
    await page.getByRole('heading', { name: 'Stripe test checkout' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/c/pay/cs_test_${sessions}`);

    // Stripe sends the visitor back to the success URL before (or after) its webhook arrives
    await page.goto(new URL(`/pay/${paymentId}?returned=1`, e2e.server.url).href);
    await page.getByRole('heading', { name: 'Confirming your payment…' }).waitFor();
    expect(new URL(page.url()).origin).toBe(new URL(e2e.server.url).origin);
    expect(await bookingRows(email)).toEqual([{ status: 'pending_payment', payment_status: 'pending' }]);

    const event = completedEvent(paymentId);
    expect((await apiClient(e2e.server.url).post('/payments/stripe/webhook', event.body, event.headers)).status).toBe(200);
    await page.getByText('Paid — your booking is confirmed. We sent the confirmation to your email.').waitFor({ timeout: 60_000 });
    expect(await bookingRows(email)).toEqual([{ status: 'confirmed', payment_status: 'paid' }]);
    await expectAccessible(page, 'paid (Stripe)');
  });

  test('Cancel while the hosted checkout is still being made releases the slot and never leaves for the provider', async () => {
    const release = holdSessions();
    const email = uniqueEmail('changed-mind');
    const page = await e2e.newPage();
    const paymentId = await bookPricedSlot(page, email, 3);
    await page.getByRole('heading', { name: 'Taking you to secure checkout…' }).waitFor();
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByRole('heading', { name: 'Cancel this payment?' }).waitFor();
    await Promise.all([page.waitForResponse((r) => isTrpcMutation(r, 'payments.cancelCheckout')), page.getByRole('button', { name: 'Yes, cancel' }).click()]);
    await page.getByText('This payment was cancelled; the slot was released.').waitFor();
    expect((await bookingRows(email))[0]?.status).toBe('abandoned');

    // the session Stripe makes afterwards changes nothing for the visitor
    release();
    await e2e.server.server.ctx.jobs.idle();
    expect(new URL(page.url()).pathname).toBe(`/pay/${paymentId}`);
    await page.reload();
    await page.getByText('This payment was cancelled; the slot was released.').waitFor();
    expect(new URL(page.url()).pathname).toBe(`/pay/${paymentId}`);
  });
});
