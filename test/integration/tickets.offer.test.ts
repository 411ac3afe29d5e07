/**
 * The sign-up form's offer (docs/api.md#tickets): `GET /events/{id}/ticket-offer` lists what a
 * visitor may buy now, adds the hidden categories a typed code unlocks with the code's terms, and
 * says whether paid tickets are paid online; a code that opens nothing is refused as the sign-up
 * would refuse it, and checking codes is throttled per address.
 */
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { priceOrder } from '../../shared/pricing';
import { apiClient } from '../helpers/http';
import { useTestServer } from '../helpers/test-server';
import { createEvent, resetThrottles } from '../helpers/registration';
import { VOUCHER_CHECK_IP_LIMIT } from '../../server/modules/orders/ticket-offer.service';

const { server: srv, admin, db } = useTestServer({ env: { SVC_JOBS: 'off' } });
const visitor = () => apiClient(srv.url);
beforeEach(() => resetThrottles(srv));

async function category(eventId: number, fields: Record<string, unknown>): Promise<{ id: number }> {
  const res = await admin.api.post(`/events/${eventId}/ticket-categories`, fields);
  expect(res.status).toBe(201);
  return res.body;
}

describe('the ticket offer of the sign-up form', () => {
  it('lists the categories on sale with their seats left; a code that unlocks a hidden one adds it and its terms, priced as the server prices', async () => {
    const event = await createEvent(admin.api, { capacity: 100 });
    const standard = await category(event.id, { name: 'Standard', priceCents: 1800, quota: 50, position: 2, taxRateBp: 1900 });
    const vip = await category(event.id, { name: 'VIP', priceCents: 4500, quota: 2, position: 1, taxRateBp: 1900, taxMode: 'added' });
    const press = await category(event.id, { name: 'Press', hidden: true, position: 3 });
    await category(event.id, { name: 'Early bird', saleEndsUtc: '2000-01-01 00:00:00' });
    expect(
      (await admin.api.post(`/events/${event.id}/vouchers`, { code: 'PRESS', kind: 'set_price', value: 0, categoryIds: [press.id], unlocksHidden: true }))
        .status,
    ).toBe(201);
    expect((await admin.api.post(`/events/${event.id}/vouchers`, { code: 'SPRING20', kind: 'percent', value: 2000 })).status).toBe(201);

    const plain = await visitor().get(`/events/${event.id}/ticket-offer`);
    expect(plain.status).toBe(200);
    expect(plain.body).toMatchObject({
      sellsCategories: true,
      onlinePayment: false,
      voucher: null,
      currency: expect.any(String),
      holdHours: expect.any(Number),
    });
    expect(plain.body.categories.map((c: { name: string; seatsLeft: number | null }) => [c.name, c.seatsLeft])).toEqual([
      ['VIP', 2],
      ['Standard', 50],
    ]);
    // nothing an organizer keeps to themself
    expect(Object.keys(plain.body.categories[0]).sort()).toEqual(
      ['description', 'hidden', 'id', 'maxPerOrder', 'minPerOrder', 'name', 'position', 'priceCents', 'seatsLeft', 'taxMode', 'taxRateBp'].sort(),
    );

    const unlocked = await visitor().get(`/events/${event.id}/ticket-offer?voucher=press`);
    expect(unlocked.status).toBe(200);
    expect(unlocked.body.categories.map((c: { name: string }) => c.name)).toEqual(['VIP', 'Standard', 'Press']);
    expect(unlocked.body.voucher).toEqual({ code: 'PRESS', kind: 'set_price', value: 0, categoryIds: [press.id], unlocksHidden: true });

    const spring = await visitor().get(`/events/${event.id}/ticket-offer?voucher=spring20`);
    expect(spring.body.categories.map((c: { name: string }) => c.name)).toEqual(['VIP', 'Standard']);
    // the page prices 2 VIP + 1 standard with these terms exactly as the sign-up stores them
    const priced = priceOrder({
      categories: spring.body.categories,
      lines: [
        { categoryId: vip.id, quantity: 2 },
        { categoryId: standard.id, quantity: 1 },
      ],
      voucher: spring.body.voucher,
    });
    expect(priced.grossCents).toBe(Math.round(2 * 4500 * 1.19 * 0.8) + Math.round(1800 * 0.8));
  });

  it('a code that opens nothing is refused naming the voucher field: unknown 404, outside its window or used up 409; a draft is 404', async () => {
    const event = await createEvent(admin.api);
    await category(event.id, { name: 'Standard', priceCents: 1000 });
    await admin.api.post(`/events/${event.id}/vouchers`, { code: 'LATER', kind: 'percent', value: 1000, validFromUtc: '2098-01-01 00:00:00' });
    const once = await admin.api.post(`/events/${event.id}/vouchers`, { code: 'ONCE', kind: 'percent', value: 1000, maxUses: 1 });
    expect(once.status).toBe(201);
    const unknown = await visitor().get(`/events/${event.id}/ticket-offer?voucher=NOPE`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'svc_voucher_unknown', data: { params: { voucher: expect.any(String) } } });
    const later = await visitor().get(`/events/${event.id}/ticket-offer?voucher=later`);
    expect(later.status).toBe(409);
    expect(later.body.code).toBe('svc_voucher_expired');
    expect((await visitor().get(`/events/${event.id}/ticket-offer?voucher=once`)).status).toBe(200);
    // its one use taken (as a sign-up takes it)
    await db().execute(sql`update svc_vouchers set used_count = 1 where id = ${once.body.id}`);
    const used = await visitor().get(`/events/${event.id}/ticket-offer?voucher=once`);
    expect(used.status).toBe(409);
    expect(used.body.code).toBe('svc_voucher_used_up');
    const draft = await createEvent(admin.api, { status: 'draft' });
    expect((await visitor().get(`/events/${draft.id}/ticket-offer`)).status).toBe(404);
    const plain = await createEvent(admin.api);
    expect((await visitor().get(`/events/${plain.id}/ticket-offer`)).body).toMatchObject({ sellsCategories: false, categories: [], voucher: null });
  });

  it('checking codes is throttled per address: past the limit 429 with Retry-After, while the plain offer still answers', async () => {
    const event = await createEvent(admin.api);
    await category(event.id, { name: 'Standard' });
    for (let i = 0; i < VOUCHER_CHECK_IP_LIMIT.limit; i++) expect((await visitor().get(`/events/${event.id}/ticket-offer?voucher=GUESS${i}`)).status).toBe(404);
    const over = await visitor().get(`/events/${event.id}/ticket-offer?voucher=GUESSMORE`);
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('svc_rate_limited');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await visitor().get(`/events/${event.id}/ticket-offer`)).status).toBe(200);
  });
});
