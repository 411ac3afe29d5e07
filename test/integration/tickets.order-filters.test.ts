/**
 * `GET /orders` filtered by ticket category and by promo code (docs/api.md#payments): orders with
 * at least one ticket of the category; orders that used the code, the whole code without regard
 * to case; combined with each other and with the event; a malformed value is 400
 * `svc_invalid_param` naming its field.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/test-server';
import { addCategory } from '../helpers/categories';
import { createEvent, resetThrottles, signUp } from '../helpers/registration';

const { server: srv, admin, hooks } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off' } });
beforeAll(() => hooks().addFilter('svc_rsvp_client_ip', () => '', 50));
beforeEach(() => resetThrottles(srv));

async function order(eventId: number, fields: Record<string, unknown>): Promise<number> {
  const res = await signUp(srv, eventId, fields);
  expect(res.status).toBe(201);
  return res.body.orderId;
}

async function ids(query: string): Promise<{ ids: number[]; total: string | null }> {
  const res = await admin.api.get(`/orders?${query}`);
  expect(res.status).toBe(200);
  return { ids: res.body.map((o: { id: number }) => o.id), total: res.headers.get('x-total-count') };
}

describe('orders filtered by ticket category and code', () => {
  let fixture: { event: number; standard: number; vip: number; standardOnly: number; vipOnly: number; both: number; elsewhere: number };

  beforeAll(async () => {
    const event = (await createEvent(admin.api, { capacity: 50 })).id;
    const standard = await addCategory(admin.api, event, { name: 'Standard', priceCents: 2500 });
    const vip = await addCategory(admin.api, event, { name: 'VIP', priceCents: 5000 });
    expect((await admin.api.post(`/events/${event}/vouchers`, { code: 'Friends20', kind: 'percent', value: 2000 })).status).toBe(201);
    const other = (await createEvent(admin.api, { capacity: 50 })).id;
    const otherStandard = await addCategory(admin.api, other, { name: 'Standard', priceCents: 2500 });
    // the same code at another event is another voucher with the same letters
    expect((await admin.api.post(`/events/${other}/vouchers`, { code: 'FRIENDS20', kind: 'percent', value: 1000 })).status).toBe(201);
    await resetThrottles(srv);
    const standardOnly = await order(event, { tickets: [{ categoryId: standard, quantity: 1 }], voucher: 'FRIENDS20' });
    const vipOnly = await order(event, { tickets: [{ categoryId: vip, quantity: 2 }] });
    const both = await order(event, {
      tickets: [
        { categoryId: standard, quantity: 1 },
        { categoryId: vip, quantity: 1 },
      ],
      voucher: 'friends20',
    });
    const elsewhere = await order(other, { tickets: [{ categoryId: otherStandard, quantity: 1 }], voucher: 'Friends20' });
    fixture = { event, standard, vip, standardOnly, vipOnly, both, elsewhere };
  });

  it('ticketCategoryId lists the orders with at least one ticket of that category, newest first', async () => {
    const { standard, vip, standardOnly, vipOnly, both } = fixture;
    expect(await ids(`ticketCategoryId=${standard}`)).toEqual({ ids: [both, standardOnly], total: '2' });
    expect(await ids(`ticketCategoryId=${vip}`)).toEqual({ ids: [both, vipOnly], total: '2' });
    expect(await ids('ticketCategoryId=2147483647')).toEqual({ ids: [], total: '0' });
  });

  it('voucherCode matches the whole code in any case, across events unless eventId narrows it', async () => {
    const { event, standardOnly, both, elsewhere } = fixture;
    expect(await ids('voucherCode=fRiEnDs20')).toEqual({ ids: [elsewhere, both, standardOnly], total: '3' });
    expect(await ids(`voucherCode=FRIENDS20&eventId=${event}`)).toEqual({ ids: [both, standardOnly], total: '2' });
    // a part of a code is not the code
    expect(await ids('voucherCode=Friends')).toEqual({ ids: [], total: '0' });
  });

  it('the two filters combine with each other and with the status', async () => {
    const { vip, both } = fixture;
    expect(await ids(`ticketCategoryId=${vip}&voucherCode=friends20`)).toEqual({ ids: [both], total: '1' });
    expect(await ids(`ticketCategoryId=${vip}&voucherCode=friends20&status=paid`)).toEqual({ ids: [], total: '0' });
  });

  it('a malformed category id or code is 400 svc_invalid_param naming the field', async () => {
    for (const [query, field] of [
      ['ticketCategoryId=abc', 'ticketCategoryId'],
      ['ticketCategoryId=0', 'ticketCategoryId'],
      ['ticketCategoryId=1.5', 'ticketCategoryId'],
      ['voucherCode=two%20words', 'voucherCode'],
      [`voucherCode=${'X'.repeat(65)}`, 'voucherCode'],
    ] as const) {
      const res = await admin.api.get(`/orders?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.code).toBe('svc_invalid_param');
      expect(Object.keys(res.body.data.params), query).toEqual([field]);
    }
  });
});
