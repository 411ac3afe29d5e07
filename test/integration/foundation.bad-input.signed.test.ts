/**
 * A validly signed body is still input: a NUL character, an unpaired UTF-16 surrogate or a
 * noncharacter in the commerce bridge's order or in a payment provider's event (local and stripe)
 * answered 500 from the statement that stored or looked it up. Each is 400 svc_invalid_param
 * naming the body's field once the signature holds, and nothing is stored. The signatures use
 * the configured secrets, as the shop and the provider sign.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { signStandardWebhook } from '../../server/security/standard-webhooks';
import { apiClient } from '../helpers/http';
import { newEventId, postWebhook, signedLocalEvent } from '../helpers/payments';
import type { TestServer } from '../helpers/server';
import { useTestServer } from '../helpers/test-server';

const COMMERCE_SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const STRIPE_WEBHOOK_SECRET = 'whsec_svc_bad_input_0123456789abcdef';

const cases = [
  { what: 'a NUL character', text: 'a\u0000b', message: 'must not contain a NUL character' },
  { what: 'an unpaired surrogate', text: 'a\uD800b', message: 'must not contain an unpaired UTF-16 surrogate' },
  { what: 'a noncharacter', text: 'a\uFFFFb', message: 'must not contain a Unicode noncharacter (U+FFFE, U+FFFF, U+FDD0–U+FDEF)' },
];

/** Rows of every table a webhook writes, to prove a refusal stored nothing. */
async function stored(srv: TestServer): Promise<number[]> {
  const [row] = await queryRows<{ events: number; orders: number; attendees: number; jobs: number }>(
    srv.server.ctx.db,
    sql`select (select count(*)::int from svc_payment_events) as events, (select count(*)::int from svc_orders) as orders,
               (select count(*)::int from svc_attendees) as attendees, (select count(*)::int from svc_jobs) as jobs`,
  );
  return [row!.events, row!.orders, row!.attendees, row!.jobs];
}

describe('signed bodies with text no input may carry (extended edition, local provider, commerce bridge)', () => {
  const { server: srv, admin } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off', SVC_COMMERCE_SECRET: COMMERCE_SECRET } });

  for (const { what, text, message } of cases) {
    it(`the commerce bridge: ${what} in the buyer's name is 400 naming name`, async () => {
      const event = (await admin.api.post('/events', { title: 'Shop night', startsUtc: '2030-06-01 18:00:00', status: 'published', capacity: 10 })).body;
      const before = await stored(srv);
      const raw = JSON.stringify({
        id: `o-${randomBytes(4).toString('hex')}`,
        status: 'paid',
        email: 'buyer@example.test',
        name: text,
        lines: [{ eventId: event.id, quantity: 1 }],
      });
      const res = await apiClient(srv.url).post('/commerce/orders', raw, {
        'content-type': 'application/json',
        ...signStandardWebhook(COMMERCE_SECRET, newEventId(), raw),
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'svc_invalid_param', data: { status: 400, params: { name: message } } });
      expect(await stored(srv)).toEqual(before);
    });

    it(`the local payment webhook: ${what} in the session id is 400 naming data.sessionId`, async () => {
      const before = await stored(srv);
      const res = await postWebhook(srv, 'local', signedLocalEvent(srv, 'payment.succeeded', `pay_${text}`, 1500));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'svc_invalid_param', data: { status: 400, params: { 'data.sessionId': message } } });
      expect(await stored(srv)).toEqual(before);
    });
  }
});

describe('signed bodies with text no input may carry (stripe provider)', () => {
  // The Stripe API is never called for a refused event: no stub is needed, and none answers here.
  const { server: srv } = useTestServer({
    env: {
      SVC_EDITION: 'extended',
      SVC_JOBS: 'off',
      SVC_PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_svc_bad_input_0123456789',
      STRIPE_WEBHOOK_SECRET,
      STRIPE_API_URL: 'http://127.0.0.1:9',
    },
  });

  for (const { what, text, message } of cases) {
    it(`${what} in a completed session's id is 400 naming data.object.id`, async () => {
      const before = await stored(srv);
      const body = JSON.stringify({
        id: `evt_${newEventId()}`,
        object: 'event',
        api_version: Stripe.API_VERSION,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        type: 'checkout.session.completed',
        data: {
          object: { id: `cs_test_${text}`, object: 'checkout.session', payment_status: 'paid', amount_total: 1500, currency: 'eur', client_reference_id: 'x' },
        },
      });
      const res = await postWebhook(srv, 'stripe', {
        body,
        headers: { 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload: body, secret: STRIPE_WEBHOOK_SECRET }) },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'svc_invalid_param', data: { status: 400, params: { 'data.object.id': message } } });
      expect(await stored(srv)).toEqual(before);
    });
  }
});
