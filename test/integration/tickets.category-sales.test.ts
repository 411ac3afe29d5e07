/**
 * Per-category sales on the dashboard (docs/decisions/032-category-sales.md): `GET
 * /checkins/counts` answers each category's quota, the seats counted against it, the money paid
 * online for its tickets (a paid order's amount split over its lines after the voucher) and what
 * tickets without an online payment owe at the door.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiClient, loginAs } from '../helpers/http';
import { useTestServer } from '../helpers/test-server';
import { addCategory } from '../helpers/categories';
import { createEvent, resetThrottles, signUp } from '../helpers/registration';
import { paymentIdOf } from '../helpers/payments';

type Api = ReturnType<typeof apiClient>;

interface SalesRow {
  name: string | null;
  quota: number | null;
  soldCount: number;
  revenueCents: number | null;
  atDoorCents: number | null;
}

/** A free category, a paid one with a quota and a 20 % code for it, and a paid one with 10 % tax on top. */
async function mixedEvent(api: Api) {
  const event = await createEvent(api, { capacity: 50 });
  const standard = await addCategory(api, event.id, { name: 'Standard', priceCents: 2500, quota: 10 });
  const vip = await addCategory(api, event.id, { name: 'VIP', priceCents: 5000, taxRateBp: 1000, taxMode: 'added' });
  const companion = await addCategory(api, event.id, { name: 'Companion', priceCents: 0 });
  expect((await api.post(`/events/${event.id}/vouchers`, { code: 'Friends20', kind: 'percent', value: 2000, categoryIds: [standard] })).status).toBe(201);
  return { event, standard, vip, companion };
}

async function salesOf(api: Api, eventId: number): Promise<{ currency: string; rows: SalesRow[] }> {
  const res = await api.get(`/checkins/counts?eventId=${eventId}`);
  expect(res.status).toBe(200);
  return {
    currency: res.body.currency,
    rows: res.body.categories.map(({ name, quota, soldCount, revenueCents, atDoorCents }: SalesRow) => ({ name, quota, soldCount, revenueCents, atDoorCents })),
  };
}

describe('with online payment', () => {
  const { server: srv, admin, hooks } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off' } });
  beforeAll(() => hooks().addFilter('svc_rsvp_client_ip', () => '', 50));
  beforeEach(() => resetThrottles(srv));

  it('counts a paid order as revenue split by category after its voucher, an unpaid one only as held seats, free tickets as sold at 0', async () => {
    const { event, standard, vip, companion } = await mixedEvent(admin.api);
    const paid = await signUp(srv, event.id, {
      tickets: [
        { categoryId: standard, quantity: 2 },
        { categoryId: vip, quantity: 1 },
        { categoryId: companion, quantity: 2 },
      ],
      voucher: 'friends20',
    });
    expect(paid.status).toBe(201);
    // Standard 2 × (25.00 − 20 %) = 40.00; VIP 50.00 + 10 % tax = 55.00
    expect((await admin.api.get(`/orders/${paid.body.orderId}`)).body).toMatchObject({ amountCents: 9500, voucherCode: 'Friends20' });
    expect((await apiClient(srv.url).post(`/payments/local/${paymentIdOf(paid.body.paymentUrl)}/pay`)).status).toBe(202);
    await srv.server.ctx.jobs.idle();
    const unpaid = await signUp(srv, event.id, { tickets: [{ categoryId: standard, quantity: 1 }] });
    expect(unpaid.body.status).toBe('pending_payment');

    expect(await salesOf(admin.api, event.id)).toEqual({
      currency: 'USD',
      rows: [
        // the unpaid order's seat counts against the quota but earns nothing yet
        { name: 'Standard', quota: 10, soldCount: 3, revenueCents: 4000, atDoorCents: 0 },
        { name: 'VIP', quota: null, soldCount: 1, revenueCents: 5500, atDoorCents: 0 },
        { name: 'Companion', quota: null, soldCount: 2, revenueCents: 0, atDoorCents: 0 },
      ],
    });
  });

  it('earns nothing from a refunded order', async () => {
    const { event, vip } = await mixedEvent(admin.api);
    const res = await signUp(srv, event.id, { tickets: [{ categoryId: vip, quantity: 1 }] });
    expect((await apiClient(srv.url).post(`/payments/local/${paymentIdOf(res.body.paymentUrl)}/pay`)).status).toBe(202);
    await srv.server.ctx.jobs.idle();
    expect((await salesOf(admin.api, event.id)).rows[1]).toEqual({ name: 'VIP', quota: null, soldCount: 1, revenueCents: 5500, atDoorCents: 0 });
    expect((await admin.api.post(`/orders/${res.body.orderId}/refund`)).status).toBeLessThan(300);
    await srv.server.ctx.jobs.idle();
    expect((await salesOf(admin.api, event.id)).rows[1]).toEqual({ name: 'VIP', quota: null, soldCount: 0, revenueCents: 0, atDoorCents: 0 });
  });
});

describe('paid at the door', () => {
  const { server: srv, admin, hooks } = useTestServer({ env: { SVC_JOBS: 'off' } });
  beforeAll(() => hooks().addFilter('svc_rsvp_client_ip', () => '', 50));
  beforeEach(() => resetThrottles(srv));

  it('owes each going ticket at its category price after its sign-up voucher; cancelled ones owe nothing; nothing is revenue', async () => {
    const { event, standard, vip, companion } = await mixedEvent(admin.api);
    const withCode = await signUp(srv, event.id, {
      tickets: [
        { categoryId: vip, quantity: 1 },
        { categoryId: standard, quantity: 2 },
        { categoryId: companion, quantity: 1 },
      ],
      voucher: 'FRIENDS20',
    });
    expect(withCode.status).toBe(201);
    expect((await signUp(srv, event.id, { tickets: [{ categoryId: standard, quantity: 1 }] })).status).toBe(201);
    const cancelled = await signUp(srv, event.id, { tickets: [{ categoryId: vip, quantity: 1 }] });
    expect((await admin.api.patch(`/attendees/${cancelled.body.tickets[0].id}`, { status: 'cancelled' })).status).toBe(200);

    expect((await salesOf(admin.api, event.id)).rows).toEqual([
      // 2 × 20.00 with the code + 25.00 without
      { name: 'Standard', quota: 10, soldCount: 3, revenueCents: 0, atDoorCents: 6500 },
      // the code is not for VIP: 50.00 + 10 % tax
      { name: 'VIP', quota: null, soldCount: 1, revenueCents: 0, atDoorCents: 5500 },
      { name: 'Companion', quota: null, soldCount: 1, revenueCents: 0, atDoorCents: 0 },
    ]);
  });

  it('gives door staff the seats of each category but no money figures', async () => {
    const { event, standard } = await mixedEvent(admin.api);
    expect((await signUp(srv, event.id, { tickets: [{ categoryId: standard, quantity: 2 }] })).status).toBe(201);
    const email = `door-${Date.now()}@example.test`;
    expect((await admin.api.post('/users', { email, role: 'staff', password: 'long enough password', eventIds: [event.id] })).status).toBe(201);
    const { api: staff } = await loginAs(srv.url, email, 'long enough password');

    expect((await salesOf(staff, event.id)).rows).toEqual([
      { name: 'Standard', quota: 10, soldCount: 2, revenueCents: null, atDoorCents: null },
      { name: 'VIP', quota: null, soldCount: 0, revenueCents: null, atDoorCents: null },
      { name: 'Companion', quota: null, soldCount: 0, revenueCents: null, atDoorCents: null },
    ]);
    // the administrator still reads them: 2 × 25.00 owed at the door
    expect((await salesOf(admin.api, event.id)).rows[0]).toMatchObject({ revenueCents: 0, atDoorCents: 5000 });
  });
});
