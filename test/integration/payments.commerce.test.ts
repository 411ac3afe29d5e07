/**
 * The commerce bridge (docs/api.md#payments): `POST /commerce/orders`, an outside shop's order
 * webhook signed with Standard Webhooks and SVC_COMMERCE_SECRET. paid → one row per ticket over
 * every line; refunded or cancelled → every row cancelled, svc_rsvp_cancelled once per row;
 * idempotent on (order id, status); the signature is checked on the raw body before anything.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signStandardWebhook } from '../../server/security/standard-webhooks';
import { apiClient } from '../helpers/http';
import { useTestServer } from '../helpers/test-server';
import { recordActions } from '../helpers/booking';
import { attendeeRows, createEvent } from '../helpers/registration';
import { countRows, newEventId, outboxTo } from '../helpers/payments';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

/** POSTs a body to the bridge, signed with `secret` unless headers are given. */
function deliver(url: string, body: unknown, opts: { secret?: string; headers?: Record<string, string> } = {}) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const headers = opts.headers ?? { ...signStandardWebhook(opts.secret ?? SECRET, newEventId(), raw) };
  return apiClient(url).post('/commerce/orders', raw, { 'content-type': 'application/json', ...headers });
}

describe('without SVC_COMMERCE_SECRET', () => {
  const { server: srv } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off' } });

  it('POST /commerce/orders answers 404', async () => {
    const res = await deliver(srv.url, { id: 'shop-1', status: 'paid', email: 'a@example.test', name: 'A', lines: [{ eventId: 1, quantity: 1 }] });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('svc_not_found');
    expect(await countRows(srv, 'svc_orders')).toBe(0);
  });
});

describe('with SVC_COMMERCE_SECRET', () => {
  const { server: srv, admin, hooks } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off', SVC_COMMERCE_SECRET: SECRET } });
  let calls: Array<[string, ...unknown[]]>;
  let gala: { id: number };
  let workshop: { id: number };
  let shopSeq = 1000;

  beforeAll(async () => {
    calls = recordActions(hooks(), ['svc_rsvp_submitted', 'svc_rsvp_cancelled']);
    gala = await createEvent(admin.api, { title: 'Gala', capacity: 100 });
    workshop = await createEvent(admin.api, { title: 'Workshop', capacity: 100 });
  });
  beforeEach(() => {
    calls.length = 0;
  });

  const rowsOfOrder = async (orderId: number) => (await attendeeRows(srv)).filter((r) => r.order_id === orderId);
  const shopOrder = (overrides: Record<string, unknown> = {}) => ({
    id: `shop-${shopSeq++}`,
    status: 'paid',
    email: `buyer${shopSeq}@example.test`,
    name: 'Hedy Lamarr',
    lines: [
      { eventId: workshop.id, quantity: 2 },
      { eventId: gala.id, quantity: 1 },
    ],
    ...overrides,
  });

  it('paid: one row per ticket over every line (two events), svc_rsvp_submitted once per row, one email with every ticket', async () => {
    const body = shopOrder();
    const res = await deliver(srv.url, body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: 'applied', order: { status: 'paid', source: 'commerce', externalId: body.id, quantity: 3, email: body.email } });
    const rows = await rowsOfOrder(res.body.order.id);
    expect(rows.map((r) => [r.event_id, r.quantity, r.status])).toEqual(
      [
        [workshop.id, 1, 'going'],
        [workshop.id, 1, 'going'],
        [gala.id, 1, 'going'],
      ].sort((a, b) => (a[0] as number) - (b[0] as number)),
    );
    expect(new Set(rows.map((r) => r.cancel_token)).size).toBe(3);
    expect(calls).toEqual(
      rows.map((r) => [
        'svc_rsvp_submitted',
        r.id,
        { event_id: r.event_id, email: body.email, display_name: 'Hedy Lamarr', quantity: 1, cancel_token: r.cancel_token },
      ]),
    );
    const mails = await outboxTo(srv, body.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.attachments.map((a) => a.filename)).toEqual([
      'ticket-1.png',
      'ticket-2.png',
      'ticket-3.png',
      'ticket-1.pdf',
      'ticket-2.pdf',
      'ticket-3.pdf',
    ]);
  });

  it('the same (id, paid) again answers 2xx and changes nothing', async () => {
    const body = shopOrder();
    const first = await deliver(srv.url, body);
    const rows = await rowsOfOrder(first.body.order.id);
    calls.length = 0;
    const again = await deliver(srv.url, body);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ result: 'unchanged', order: { id: first.body.order.id, status: 'paid' } });
    expect(await rowsOfOrder(first.body.order.id)).toEqual(rows);
    expect(calls).toEqual([]);
    expect(await outboxTo(srv, body.email)).toHaveLength(1);
  });

  it.each(['refunded', 'cancelled'])('(id, %s) cancels every row with svc_rsvp_cancelled once per row; again, nothing', async (status) => {
    const body = shopOrder();
    const paid = await deliver(srv.url, body);
    const orderId = paid.body.order.id as number;
    const rows = await rowsOfOrder(orderId);
    calls.length = 0;
    const reversed = await deliver(srv.url, { ...body, status });
    expect(reversed.status).toBe(200);
    expect(reversed.body).toMatchObject({ result: 'applied', order: { id: orderId, status } });
    expect((await rowsOfOrder(orderId)).map((r) => r.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect(calls).toEqual(rows.map((r) => ['svc_rsvp_cancelled', r.id]));

    calls.length = 0;
    const again = await deliver(srv.url, { ...body, status });
    expect(again.status).toBe(200);
    expect(again.body.result).toBe('unchanged');
    expect(calls).toEqual([]);
    // and a late repeat of "paid" issues nothing either
    expect((await deliver(srv.url, body)).body.result).toBe('unchanged');
    expect(await rowsOfOrder(orderId)).toHaveLength(3);
    expect(calls).toEqual([]);
  });

  it('an integer id and the same id as a string are one order', async () => {
    const id = 424242;
    const body = shopOrder({ id });
    const paid = await deliver(srv.url, body);
    expect(paid.body).toMatchObject({ result: 'applied', order: { externalId: String(id) } });
    expect((await deliver(srv.url, { ...body, id: String(id) })).body).toMatchObject({ result: 'unchanged', order: { id: paid.body.order.id } });
    calls.length = 0;
    const refunded = await deliver(srv.url, { ...body, id: String(id), status: 'refunded' });
    expect(refunded.body).toMatchObject({ result: 'applied', order: { id: paid.body.order.id, status: 'refunded' } });
    expect(calls.filter((c) => c[0] === 'svc_rsvp_cancelled')).toHaveLength(3);
    const found = await admin.api.get(`/orders?search=${id}`);
    expect(found.body.map((o: { id: number }) => o.id)).toEqual([paid.body.order.id]);
  });

  it('a reversal that arrives before its payment is remembered: the late "paid" issues no ticket', async () => {
    const body = shopOrder();
    const early = await deliver(srv.url, { ...body, status: 'cancelled' });
    expect(early.status).toBe(200);
    expect(early.body).toMatchObject({ result: 'unchanged', order: { status: 'cancelled' } });
    const late = await deliver(srv.url, body);
    expect(late.body).toMatchObject({ result: 'unchanged', order: { id: early.body.order.id, status: 'cancelled' } });
    expect(await rowsOfOrder(early.body.order.id)).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('a shop order is refunded in the shop: POST /orders/{id}/refund answers 409 svc_order_invalid_state', async () => {
    const paid = await deliver(srv.url, shopOrder());
    const res = await admin.api.post(`/orders/${paid.body.order.id}/refund`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('svc_order_invalid_state');
    expect(calls.filter((c) => c[0] === 'svc_rsvp_cancelled')).toEqual([]);
  });

  describe('refused before anything changes', () => {
    async function expectNothingStored(run: () => Promise<{ status: number; body: any }>, status: number, code: string) {
      const before = { orders: await countRows(srv, 'svc_orders'), rows: (await attendeeRows(srv)).length };
      const res = await run();
      expect(res.status).toBe(status);
      expect(res.body.code).toBe(code);
      expect(await countRows(srv, 'svc_orders')).toBe(before.orders);
      expect((await attendeeRows(srv)).length).toBe(before.rows);
      expect(calls).toEqual([]);
      return res;
    }

    it('a missing signature answers 400 svc_invalid_signature', async () => {
      await expectNothingStored(() => deliver(srv.url, shopOrder(), { headers: {} }), 400, 'svc_invalid_signature');
    });

    it('a signature by another secret answers 400 svc_invalid_signature', async () => {
      await expectNothingStored(() => deliver(srv.url, shopOrder(), { secret: `whsec_${randomBytes(32).toString('base64')}` }), 400, 'svc_invalid_signature');
    });

    it('a body changed after signing answers 400 svc_invalid_signature', async () => {
      const body = JSON.stringify(shopOrder());
      const headers = { ...signStandardWebhook(SECRET, newEventId(), body) };
      await expectNothingStored(() => deliver(srv.url, body.replace('"quantity":2', '"quantity":20'), { headers }), 400, 'svc_invalid_signature');
    });

    it('a signed body that is not JSON answers 400 and stores nothing', async () => {
      const before = await countRows(srv, 'svc_orders');
      const res = await deliver(srv.url, '{"id": "shop-x", ');
      expect(res.status).toBe(400);
      expect(await countRows(srv, 'svc_orders')).toBe(before);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['an email that is not one', { email: 'not an email' }, 'email'],
      ['an unknown status', { status: 'shipped' }, 'status'],
      ['no lines', { lines: [] }, 'lines'],
      ['a line of zero tickets', { lines: [{ eventId: 1, quantity: 0 }] }, 'lines.0.quantity'],
      ['a missing name', { name: undefined }, 'name'],
      ['an id that is neither string nor integer', { id: 1.5 }, 'id'],
    ])('a signed body with %s answers 400 svc_invalid_param naming the field', async (_what, overrides, field) => {
      const res = await expectNothingStored(() => deliver(srv.url, shopOrder(overrides)), 400, 'svc_invalid_param');
      expect(Object.keys(res.body.data.params)).toContain(field);
    });

    it('an unknown event answers 400 svc_invalid_param naming lines.N.eventId at its place in the body', async () => {
      const first = await expectNothingStored(() => deliver(srv.url, shopOrder({ lines: [{ eventId: 999_999, quantity: 1 }] })), 400, 'svc_invalid_param');
      expect(first.body.data.params).toEqual({ 'lines.0.eventId': expect.any(String) });
      // The unknown event first and a known one after it: the error still names the line the shop sent first.
      const mixed = await expectNothingStored(
        () =>
          deliver(
            srv.url,
            shopOrder({
              lines: [
                { eventId: 999_999, quantity: 1 },
                { eventId: gala.id, quantity: 1 },
              ],
            }),
          ),
        400,
        'svc_invalid_param',
      );
      expect(mixed.body.data.params).toEqual({ 'lines.0.eventId': expect.any(String) });
    });
  });
});
