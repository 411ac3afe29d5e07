/**
 * Paid ticket categories in the extended edition (docs/api.md#tickets): an order mixing free and
 * paid categories makes the free rows at once and pays for the rest; paid, each ticket carries its
 * category. Jobs are off: a test runs the queue itself (`idle()`).
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/http';
import { useTestServer } from '../helpers/test-server';
import { addCategory } from '../helpers/categories';
import { recordActions } from '../helpers/booking';
import { attendeeRows, createEvent, resetThrottles, signUp, uniqueEmail } from '../helpers/registration';
import { outboxTo, paymentIdOf } from '../helpers/payments';
import { paymentsService } from '../../server/modules/orders/payments.service';

const { server: srv, admin, hooks } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off' } });
const visitor = () => apiClient(srv.url);
const idle = () => srv.server.ctx.jobs.idle();
let calls: Array<[string, ...unknown[]]>;

beforeAll(() => {
  hooks().addFilter('svc_rsvp_client_ip', () => '', 50);
  calls = recordActions(hooks(), ['svc_rsvp_submitted']);
});
beforeEach(async () => {
  await resetThrottles(srv);
  calls.length = 0;
});

describe('an order mixing free and paid categories', () => {
  it('makes the free row at once, holds the paid lines in one order at their total, and issues them with their category once paid', async () => {
    const event = await createEvent(admin.api, { capacity: 20 });
    const vip = await addCategory(admin.api, event.id, { name: 'VIP', priceCents: 5000, quota: 4 });
    const standard = await addCategory(admin.api, event.id, { name: 'Standard', priceCents: 1000, taxRateBp: 1000, taxMode: 'added' });
    const companion = await addCategory(admin.api, event.id, { name: 'Companion', priceCents: 0 });
    const res = await signUp(srv, event.id, {
      tickets: [
        { categoryId: vip, quantity: 2 },
        { categoryId: standard, quantity: 1 },
        { categoryId: companion, quantity: 1 },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ orderId: expect.any(Number), status: 'pending_payment', tickets: [{ status: 'going', ticketCategoryId: companion }] });
    // the free row is made and announced now; the paid seats are held by the order
    expect((await attendeeRows(srv, event.id)).map((r) => r.ticket_category_id)).toEqual([companion]);
    expect(calls).toHaveLength(1);
    const order = (await admin.api.get(`/orders/${res.body.orderId}`)).body;
    // 2 × 50.00 included + 10.00 with 10 % added on top
    expect(order).toMatchObject({ quantity: 3, amountCents: 11_100, status: 'pending_payment' });
    expect(order.lines).toEqual([
      { eventId: event.id, quantity: 2, categoryId: vip, unitPriceCents: 5000 },
      { eventId: event.id, quantity: 1, categoryId: standard, unitPriceCents: 1000 },
    ]);
    const sold = (await admin.api.get(`/events/${event.id}/ticket-categories`)).body;
    expect(sold.map((c: { id: number; soldCount: number }) => [c.id, c.soldCount])).toEqual([
      [vip, 2],
      [standard, 1],
      [companion, 1],
    ]);

    calls.length = 0;
    expect((await visitor().post(`/payments/local/${paymentIdOf(res.body.paymentUrl)}/pay`)).status).toBe(202);
    await idle();
    const rows = await attendeeRows(srv, event.id);
    expect(rows.map((r) => [r.ticket_category_id, r.quantity, r.status])).toEqual([
      [companion, 1, 'going'],
      [vip, 1, 'going'],
      [vip, 1, 'going'],
      [standard, 1, 'going'],
    ]);
    // svc_rsvp_submitted once per ticket row of the order, with the five keys
    expect(calls.map((c) => c[1])).toEqual(rows.slice(1).map((r) => r.id));
    for (const call of calls) expect(Object.keys(call[2] as object).sort()).toEqual(['cancel_token', 'display_name', 'email', 'event_id', 'quantity']);
    const listed = (await admin.api.get(`/attendees?eventId=${event.id}`)).body;
    expect(listed.map((a: { ticketCategory: { name: string } }) => a.ticketCategory.name)).toEqual(['Companion', 'VIP', 'VIP', 'Standard']);
  });

  it('a paid category’s unpaid order holds its quota: the next sign-up for it is waitlisted', async () => {
    const event = await createEvent(admin.api, { capacity: 20, waitlist: true });
    const vip = await addCategory(admin.api, event.id, { name: 'VIP', priceCents: 5000, quota: 2 });
    expect((await signUp(srv, event.id, { tickets: [{ categoryId: vip, quantity: 2 }] })).body.status).toBe('pending_payment');
    const next = await signUp(srv, event.id, { tickets: [{ categoryId: vip, quantity: 1 }] });
    expect(next.status).toBe(201);
    expect(next.body).toMatchObject({ status: 'waitlist', tickets: [{ status: 'waitlist', ticketCategoryId: vip }] });
  });
});

describe('a promo code on an order of several categories', () => {
  it('2 VIP and 1 standard with a 20 % code: the order holds the discounted total, names the code and its discount, counts 3 uses, and gives them back when its hold runs out', async () => {
    const event = await createEvent(admin.api, { capacity: 20 });
    const vip = await addCategory(admin.api, event.id, { name: 'VIP', priceCents: 5000 });
    const standard = await addCategory(admin.api, event.id, { name: 'Standard', priceCents: 1000, taxRateBp: 1000, taxMode: 'added' });
    const voucher = (await admin.api.post(`/events/${event.id}/vouchers`, { code: 'Press20', kind: 'percent', value: 2000, maxUses: 10 })).body;
    const res = await signUp(srv, event.id, {
      voucher: 'press20',
      tickets: [
        { categoryId: vip, quantity: 2 },
        { categoryId: standard, quantity: 1 },
      ],
    });
    expect(res.status).toBe(201);
    const order = (await admin.api.get(`/orders/${res.body.orderId}`)).body;
    // VIP 2 × 40.00 (tax included at 0 %); standard 8.00 net + 10 % = 8.80; 20.20 off 110.80 before the code
    expect(order).toMatchObject({ amountCents: 8880, netCents: 8800, taxCents: 80, voucherCode: 'Press20', discountCents: 2220 });
    expect((await admin.api.get(`/vouchers/${voucher.id}`)).body.usedCount).toBe(3);

    // the payment's hold runs out: the seats and the code's uses go back
    expect(await paymentsService(srv.server.ctx).sweep(Date.now() + 7 * 24 * 3_600_000)).toContain(res.body.orderId);
    expect((await admin.api.get(`/orders/${res.body.orderId}`)).body.status).toBe('expired');
    expect((await admin.api.get(`/vouchers/${voucher.id}`)).body.usedCount).toBe(0);
  });

  it('a hidden category is sold only with a code that unlocks it', async () => {
    const event = await createEvent(admin.api, { capacity: 20 });
    const crew = await addCategory(admin.api, event.id, { name: 'Crew', priceCents: 0, hidden: true });
    await admin.api.post(`/events/${event.id}/vouchers`, { code: 'CREW', kind: 'percent', value: 10000, unlocksHidden: true, categoryIds: [crew] });
    const without = await signUp(srv, event.id, { tickets: [{ categoryId: crew, quantity: 1 }] });
    expect(without.status).toBe(400);
    expect(without.body.data.params.tickets).toMatch(/not on sale/);
    const withCode = await signUp(srv, event.id, { voucher: 'crew', tickets: [{ categoryId: crew, quantity: 1 }] });
    expect(withCode.status).toBe(201);
    expect(withCode.body.tickets).toEqual([expect.objectContaining({ status: 'going', ticketCategoryId: crew })]);
  });

  it('an unknown code refuses the whole order naming the voucher field, and stores nothing', async () => {
    const event = await createEvent(admin.api, { capacity: 20 });
    const vip = await addCategory(admin.api, event.id, { name: 'VIP', priceCents: 5000 });
    const res = await signUp(srv, event.id, { voucher: 'NOPE', tickets: [{ categoryId: vip, quantity: 1 }] });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'svc_voucher_unknown', data: { params: { voucher: expect.any(String) } } });
    expect(await attendeeRows(srv, event.id)).toEqual([]);
    expect((await admin.api.get(`/orders?eventId=${event.id}`)).body).toEqual([]);
  });
});

describe('the paid order’s mail', () => {
  it('names each ticket’s category and gives the price as charged: tickets before the code, the code, net, tax, total, then what was paid', async () => {
    const event = await createEvent(admin.api, { capacity: 20, title: 'Winter gala' });
    const vip = await addCategory(admin.api, event.id, { name: 'VIP', priceCents: 5000 });
    const standard = await addCategory(admin.api, event.id, { name: 'Standard', priceCents: 1000, taxRateBp: 1000, taxMode: 'added' });
    await admin.api.post(`/events/${event.id}/vouchers`, { code: 'Press20', kind: 'percent', value: 2000 });
    const email = uniqueEmail('gala');
    const res = await signUp(srv, event.id, {
      email,
      voucher: 'PRESS20',
      tickets: [
        { categoryId: vip, quantity: 2 },
        { categoryId: standard, quantity: 1 },
      ],
    });
    expect((await visitor().post(`/payments/local/${paymentIdOf(res.body.paymentUrl)}/pay`)).status).toBe(202);
    await idle();
    const mails = await outboxTo(srv, email);
    expect(mails).toHaveLength(1);
    const text = mails[0]!.text;
    const between = text.slice(text.indexOf('2 × VIP'), text.indexOf('Ticket 1 of 3')).trim().split('\n');
    expect(between).toEqual([
      '2 × VIP: US$100.00',
      '1 × Standard: US$11.00',
      'Code Press20: −US$22.20',
      'Net: US$88.00',
      'Tax 10%: US$0.80',
      'Total: US$88.80',
      '',
      'Paid: US$88.80',
    ]);
    expect(text).toMatch(/Ticket 1 of 3: Winter gala · VIP\n/);
    expect(text).toMatch(/Ticket 2 of 3: Winter gala · VIP\n/);
    expect(text).toMatch(/Ticket 3 of 3: Winter gala · Standard\n/);
  });

  it('an order whose code was changed after it was paid for keeps to what was charged: no breakdown that differs from it', async () => {
    const event = await createEvent(admin.api, { capacity: 20, title: 'Spring gala' });
    const vip = await addCategory(admin.api, event.id, { name: 'VIP', priceCents: 5000 });
    const voucher = (await admin.api.post(`/events/${event.id}/vouchers`, { code: 'HALF', kind: 'percent', value: 5000 })).body;
    const email = uniqueEmail('spring');
    const res = await signUp(srv, event.id, { email, voucher: 'HALF', tickets: [{ categoryId: vip, quantity: 1 }] });
    expect((await admin.api.patch(`/vouchers/${voucher.id}`, { value: 1000 })).status).toBe(200);
    expect((await visitor().post(`/payments/local/${paymentIdOf(res.body.paymentUrl)}/pay`)).status).toBe(202);
    await idle();
    const text = (await outboxTo(srv, email))[0]!.text;
    expect(text).toContain('Paid: US$25.00');
    expect(text).not.toContain('Code HALF');
    expect(text).toMatch(/Ticket 1 of 1: Spring gala · VIP\n/);
  });
});
