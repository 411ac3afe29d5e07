import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import type { CheckoutRequest, PaymentProvider } from '../../server/modules/orders/providers/provider';
import { createStripeProvider } from '../../server/modules/orders/providers/stripe';

const SECRET_KEY = 'sk_test_svc_unit_0123456789';
const WEBHOOK_SECRET = 'whsec_svc_unit_test_secret';

/** One request the stub received, as Stripe's client sent it. */
interface Recorded {
  method: string;
  path: string;
  form: URLSearchParams;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

type Reply = { status: number; body: unknown; headers?: Record<string, string> };

/** The stub's default answers, shaped like Stripe's. */
function defaultReply(req: Recorded): Reply {
  if (req.method === 'POST' && req.path === '/v1/checkout/sessions') {
    return {
      status: 200,
      body: {
        id: 'cs_test_a1b2c3',
        object: 'checkout.session',
        url: 'https://checkout.example.test/c/pay/cs_test_a1b2c3',
        mode: 'payment',
        payment_status: 'unpaid',
        status: 'open',
        client_reference_id: req.form.get('client_reference_id'),
        amount_total: Number(req.form.get('line_items[0][price_data][unit_amount]')),
        metadata: { svc_payment: req.form.get('metadata[svc_payment]') },
      },
    };
  }
  if (req.method === 'POST' && req.path === '/v1/refunds') {
    return {
      status: 200,
      body: {
        id: 're_test_r1',
        object: 'refund',
        amount: Number(req.form.get('amount')),
        payment_intent: req.form.get('payment_intent'),
        status: 'succeeded',
      },
    };
  }
  return { status: 404, body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.path})` } } };
}

let server: Server;
let port: number;
let requests: Recorded[] = [];
/** A test sets this to answer differently; reset before each test. */
let reply: (req: Recorded) => Reply = defaultReply;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const header = (name: string) => {
    const value = req.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const recorded: Recorded = {
    method: req.method ?? '',
    path: new URL(req.url ?? '/', 'http://127.0.0.1').pathname,
    form: new URLSearchParams(await readBody(req)),
    idempotencyKey: header('idempotency-key'),
    authorization: header('authorization'),
  };
  requests.push(recorded);
  const answer = reply(recorded);
  res.writeHead(answer.status, { 'Content-Type': 'application/json', 'Request-Id': `req_${requests.length}`, ...answer.headers });
  res.end(JSON.stringify(answer.body));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      res.writeHead(599);
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  requests = [];
  reply = defaultReply;
});

const provider = (webhookSecret = WEBHOOK_SECRET): PaymentProvider =>
  createStripeProvider({ secretKey: SECRET_KEY, webhookSecret, host: '127.0.0.1', port, protocol: 'http' });

const checkout = (overrides: Partial<CheckoutRequest> = {}): CheckoutRequest => ({
  reference: 'pay_01JTESTREF',
  amountCents: 2550,
  currency: 'EUR',
  description: 'Workshop ticket',
  customerEmail: 'carl@example.test',
  successUrl: 'https://svc.example.test/pay/done?p=pay_01JTESTREF',
  cancelUrl: 'https://svc.example.test/pay/cancelled?p=pay_01JTESTREF',
  ...overrides,
});

/** A Stripe event envelope around one object, as the webhook body arrives. */
const eventBody = (id: string, type: string, object: Record<string, unknown>): string =>
  JSON.stringify({ id, object: 'event', api_version: Stripe.API_VERSION, created: 1_780_000_000, livemode: false, type, data: { object } }, null, 2);

const signed = (payload: string, secret = WEBHOOK_SECRET, timestamp?: number): Record<string, string> => ({
  'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp !== undefined ? { timestamp } : {}) }),
});

const session = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: 'cs_test_a1b2c3',
  object: 'checkout.session',
  mode: 'payment',
  status: 'complete',
  payment_status: 'paid',
  amount_total: 2550,
  currency: 'eur',
  client_reference_id: 'pay_01JTESTREF',
  metadata: { svc_payment: 'pay_01JTESTREF' },
  payment_intent: 'pi_test_p1',
  ...overrides,
});

const charge = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  id: 'ch_test_c1',
  object: 'charge',
  amount: 2550,
  amount_refunded: 2550,
  refunded: true,
  currency: 'eur',
  metadata: { svc_payment: 'pay_01JTESTREF' },
  payment_intent: 'pi_test_p1',
  ...overrides,
});

async function parse(type: string, object: Record<string, unknown>, id = 'evt_test_e1') {
  const body = eventBody(id, type, object);
  return provider().parseWebhook(body, signed(body));
}

async function expectInvalidSignature(promise: Promise<unknown>): Promise<void> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe('svc_invalid_signature');
  expect((err as AppError).status).toBe(400);
}

describe('stripe createCheckout', () => {
  it('posts a one-item payment session with amount, lowercase currency, description, URLs, metadata and the idempotency key', async () => {
    const result = await provider().createCheckout(checkout());

    expect(result).toEqual({ sessionId: 'cs_test_a1b2c3', url: 'https://checkout.example.test/c/pay/cs_test_a1b2c3' });
    expect(requests).toHaveLength(1);
    const [req] = requests;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/checkout/sessions');
    expect(req.idempotencyKey).toBe('svc-checkout-pay_01JTESTREF');
    expect(req.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(Object.fromEntries(req.form)).toEqual({
      mode: 'payment',
      'line_items[0][price_data][currency]': 'eur',
      'line_items[0][price_data][unit_amount]': '2550',
      'line_items[0][price_data][product_data][name]': 'Workshop ticket',
      'line_items[0][quantity]': '1',
      success_url: 'https://svc.example.test/pay/done?p=pay_01JTESTREF',
      cancel_url: 'https://svc.example.test/pay/cancelled?p=pay_01JTESTREF',
      customer_email: 'carl@example.test',
      client_reference_id: 'pay_01JTESTREF',
      'metadata[svc_payment]': 'pay_01JTESTREF',
      'payment_intent_data[metadata][svc_payment]': 'pay_01JTESTREF',
    });
  });

  it('leaves customer_email out when no email is given', async () => {
    await provider().createCheckout(checkout({ customerEmail: undefined }));
    expect(requests[0].form.has('customer_email')).toBe(false);
  });

  it('sends the same idempotency key when the same payment is asked for twice', async () => {
    const stripe = provider();
    await stripe.createCheckout(checkout());
    await stripe.createCheckout(checkout());
    expect(requests.map((r) => r.idempotencyKey)).toEqual(['svc-checkout-pay_01JTESTREF', 'svc-checkout-pay_01JTESTREF']);
  });

  it('throws a plain Error when Stripe answers a session without a url', async () => {
    reply = (req) => ({ status: 200, body: { ...(defaultReply(req).body as object), url: null } });
    const err = await provider()
      .createCheckout(checkout())
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(Error);
    expect(err).not.toBeInstanceOf(AppError);
    expect((err as Error).message).toMatch(/without a url/);
  });
});

describe('stripe parseWebhook mapping', () => {
  it('maps checkout.session.completed with payment_status paid to paid', async () => {
    await expect(parse('checkout.session.completed', session())).resolves.toEqual({
      eventId: 'evt_test_e1',
      kind: 'paid',
      sessionId: 'cs_test_a1b2c3',
      reference: 'pay_01JTESTREF',
      paymentRef: 'pi_test_p1',
      amountCents: 2550,
      currency: 'EUR',
    });
  });

  it('answers null for checkout.session.completed that is not paid yet (an async method settles later)', async () => {
    await expect(parse('checkout.session.completed', session({ payment_status: 'unpaid', payment_intent: 'pi_test_p1' }))).resolves.toBeNull();
  });

  it('maps checkout.session.async_payment_succeeded to paid, reading an expanded PaymentIntent id', async () => {
    await expect(
      parse('checkout.session.async_payment_succeeded', session({ payment_intent: { id: 'pi_test_expanded', object: 'payment_intent' } }), 'evt_test_e2'),
    ).resolves.toEqual({
      eventId: 'evt_test_e2',
      kind: 'paid',
      sessionId: 'cs_test_a1b2c3',
      reference: 'pay_01JTESTREF',
      paymentRef: 'pi_test_expanded',
      amountCents: 2550,
      currency: 'EUR',
    });
  });

  it('falls back to client_reference_id when the metadata is missing', async () => {
    const event = await parse('checkout.session.completed', session({ metadata: {}, client_reference_id: 'pay_fallback' }));
    expect(event?.reference).toBe('pay_fallback');
  });

  it('maps checkout.session.async_payment_failed to failed', async () => {
    await expect(parse('checkout.session.async_payment_failed', session({ payment_status: 'unpaid' }), 'evt_test_e3')).resolves.toEqual({
      eventId: 'evt_test_e3',
      kind: 'failed',
      sessionId: 'cs_test_a1b2c3',
      reference: 'pay_01JTESTREF',
      paymentRef: 'pi_test_p1',
      amountCents: 2550,
      currency: 'EUR',
    });
  });

  it('maps checkout.session.expired to failed (no PaymentIntent was captured)', async () => {
    await expect(
      parse('checkout.session.expired', session({ status: 'expired', payment_status: 'unpaid', payment_intent: null }), 'evt_test_e4'),
    ).resolves.toEqual({
      eventId: 'evt_test_e4',
      kind: 'failed',
      sessionId: 'cs_test_a1b2c3',
      reference: 'pay_01JTESTREF',
      paymentRef: undefined,
      amountCents: 2550,
      currency: 'EUR',
    });
  });

  it('maps a full charge.refunded to refunded with the PaymentIntent and the refunded amount', async () => {
    await expect(parse('charge.refunded', charge(), 'evt_test_e5')).resolves.toEqual({
      eventId: 'evt_test_e5',
      kind: 'refunded',
      reference: 'pay_01JTESTREF',
      paymentRef: 'pi_test_p1',
      amountCents: 2550,
      currency: 'EUR',
    });
  });

  it('answers null for a partial charge.refunded', async () => {
    await expect(parse('charge.refunded', charge({ amount_refunded: 1000, refunded: false }))).resolves.toBeNull();
  });

  it('answers null for a verified event of a type svc does not use', async () => {
    await expect(parse('customer.created', { id: 'cus_test_1', object: 'customer' })).resolves.toBeNull();
    await expect(parse('payment_intent.succeeded', { id: 'pi_test_p1', object: 'payment_intent', amount: 2550 })).resolves.toBeNull();
  });
});

describe('stripe parseWebhook signature', () => {
  const body = eventBody('evt_test_sig', 'checkout.session.completed', session());

  it('accepts the body signed with the endpoint secret', async () => {
    await expect(provider().parseWebhook(body, signed(body))).resolves.toMatchObject({ eventId: 'evt_test_sig', kind: 'paid' });
  });

  it('rejects a body signed with another secret', async () => {
    await expectInvalidSignature(provider().parseWebhook(body, signed(body, 'whsec_someone_else')));
  });

  it('rejects a body changed after signing', async () => {
    const tampered = body.replace('"amount_total": 2550', '"amount_total": 1');
    expect(tampered).not.toBe(body);
    await expectInvalidSignature(provider().parseWebhook(tampered, signed(body)));
  });

  it('rejects a request without the stripe-signature header', async () => {
    await expectInvalidSignature(provider().parseWebhook(body, {}));
    await expectInvalidSignature(provider().parseWebhook(body, { 'stripe-signature': '' }));
  });

  it('rejects a garbled header and a signature older than the tolerance', async () => {
    await expectInvalidSignature(provider().parseWebhook(body, { 'stripe-signature': 'not-a-signature' }));
    const anHourAgo = Math.floor(Date.now() / 1000) - 3600;
    await expectInvalidSignature(provider().parseWebhook(body, signed(body, WEBHOOK_SECRET, anHourAgo)));
  });

  it('never calls the API to verify a webhook', async () => {
    await provider().parseWebhook(body, signed(body));
    expect(requests).toHaveLength(0);
  });
});

describe('stripe refund', () => {
  it('posts payment_intent, amount and the idempotency key and returns the refund id', async () => {
    const result = await provider().refund({ reference: 'pay_01JTESTREF', sessionId: 'cs_test_a1b2c3', paymentRef: 'pi_test_p1', amountCents: 2550 });

    expect(result).toEqual({ refundId: 're_test_r1' });
    expect(requests).toHaveLength(1);
    const [req] = requests;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/refunds');
    expect(req.idempotencyKey).toBe('svc-refund-pay_01JTESTREF');
    expect(req.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(Object.fromEntries(req.form)).toEqual({ payment_intent: 'pi_test_p1', amount: '2550' });
  });

  it('throws without calling Stripe when the payment has no PaymentIntent', async () => {
    await expect(provider().refund({ reference: 'pay_01JTESTREF', sessionId: 'cs_test_a1b2c3', paymentRef: null, amountCents: 2550 })).rejects.toThrow(
      /no Stripe PaymentIntent/,
    );
    expect(requests).toHaveLength(0);
  });
});

describe('stripe API errors', () => {
  const serverError: Reply = { status: 500, body: { error: { type: 'api_error', message: 'Something broke on the stub.' } } };

  it('surfaces a 500 on checkout as a thrown error after two retries with the same idempotency key', async () => {
    reply = () => serverError;
    const err = await provider()
      .createCheckout(checkout())
      .then(
        () => null,
        (e: unknown) => e,
      );

    expect(err).toBeInstanceOf(Stripe.errors.StripeAPIError);
    expect(err).toMatchObject({ statusCode: 500, message: 'Something broke on the stub.' });
    expect(requests).toHaveLength(3);
    expect(new Set(requests.map((r) => r.idempotencyKey))).toEqual(new Set(['svc-checkout-pay_01JTESTREF']));
    expect(`${String(err)} ${JSON.stringify(err)}`).not.toContain(SECRET_KEY);
  });

  it('surfaces a 500 on refund as a thrown error, once when Stripe says not to retry', async () => {
    reply = () => ({ ...serverError, headers: { 'Stripe-Should-Retry': 'false' } });
    await expect(
      provider().refund({ reference: 'pay_01JTESTREF', sessionId: 'cs_test_a1b2c3', paymentRef: 'pi_test_p1', amountCents: 2550 }),
    ).rejects.toMatchObject({ statusCode: 500, type: 'StripeAPIError' });
    expect(requests).toHaveLength(1);
  });

  it('surfaces a 4xx answer as a thrown error without retrying', async () => {
    reply = () => ({
      status: 400,
      body: { error: { type: 'invalid_request_error', code: 'charge_already_refunded', message: 'Charge has already been refunded.' } },
    });
    await expect(
      provider().refund({ reference: 'pay_01JTESTREF', sessionId: 'cs_test_a1b2c3', paymentRef: 'pi_test_p1', amountCents: 2550 }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'charge_already_refunded' });
    expect(requests).toHaveLength(1);
  });
});
