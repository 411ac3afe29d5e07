/**
 * Promo codes and vouchers (docs/api.md#tickets): the admin routes on REST and tRPC, and the
 * redemption the sign-up calls inside its transaction — validity window, categories, the total
 * and per-email limits, uses given back when an order is cancelled.
 */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/client';
import { queryRows } from '../../server/db/client';
import { ticketCategories, vouchers } from '../../server/modules/orders/tickets.sql';
import { attachRedemption, redeemVoucher, releaseVoucher, type RedeemVoucherInput } from '../../server/modules/orders/vouchers.service';
import { eventsRepository } from '../../server/modules/events/events.repository';
import { apiClient, loginAs } from '../helpers/http';
import { createEvent } from '../helpers/registration';
import { useTestServer } from '../helpers/test-server';

const { server: srv, admin, db } = useTestServer({ env: { SVC_JOBS: 'off' } });

async function category(eventId: number, name: string, overrides: Partial<typeof ticketCategories.$inferInsert> = {}): Promise<number> {
  const [row] = await db()
    .insert(ticketCategories)
    .values({ eventId, name, priceCents: 1800, ...overrides })
    .returning();
  return row!.id;
}

async function createVoucher(eventId: number, body: Record<string, unknown>) {
  return admin.api.post(`/events/${eventId}/vouchers`, { kind: 'percent', value: 2000, ...body });
}

/** Runs the redemption as the sign-up does: in a transaction, after locking the event row. */
async function redeem(input: RedeemVoucherInput) {
  return db().transaction(async (tx) => {
    await eventsRepository(tx as Db).lockById(input.eventId);
    return redeemVoucher(tx as Db, input);
  });
}

async function refusal(promise: Promise<unknown>): Promise<{ code: string; data: Record<string, unknown> }> {
  try {
    await promise;
  } catch (err) {
    return err as { code: string; data: Record<string, unknown> };
  }
  throw new Error('expected a refusal');
}

/** A tRPC call as the admin app makes it: the session cookie and the app's Origin. */
async function trpc(kind: 'query' | 'mutation', path: string, input: unknown): Promise<any> {
  const url = `${srv.url}/trpc/${path}`;
  const headers = { cookie: admin.cookie, origin: new URL(srv.url).origin };
  const res =
    kind === 'query'
      ? await fetch(`${url}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`, { headers })
      : await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ json: input }) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { result: { data: { json: unknown } } }).result.data.json;
}

async function usedCount(id: number): Promise<number> {
  const [row] = await db().select({ n: vouchers.usedCount }).from(vouchers).where(eq(vouchers.id, id));
  return row!.n;
}

describe('admin /events/{id}/vouchers and /vouchers/{id}', () => {
  it('creates (201), lists with usedCount, reads, changes and deletes (204) a voucher', async () => {
    const event = await createEvent(admin.api);
    const vip = await category(event.id, 'VIP');
    const created = await createVoucher(event.id, { code: ' Press-2099 ', categoryIds: [vip], maxUses: 10, maxUsesPerEmail: 2, unlocksHidden: true });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      eventId: event.id,
      code: 'Press-2099',
      kind: 'percent',
      value: 2000,
      categoryIds: [vip],
      maxUses: 10,
      maxUsesPerEmail: 2,
      validFromUtc: null,
      validUntilUtc: null,
      unlocksHidden: true,
      usedCount: 0,
    });
    const id = created.body.id as number;

    const list = await admin.api.get(`/events/${event.id}/vouchers`);
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe('1');
    expect(list.body).toEqual([created.body]);

    const changed = await admin.api.patch(`/vouchers/${id}`, { kind: 'set_price', value: 500, validUntilUtc: '2099-04-30 23:59:59' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ kind: 'set_price', value: 500, validUntilUtc: '2099-04-30 23:59:59', code: 'Press-2099' });
    expect((await admin.api.get(`/vouchers/${id}`)).body).toEqual(changed.body);

    expect((await admin.api.delete(`/vouchers/${id}`)).status).toBe(204);
    expect((await admin.api.get(`/vouchers/${id}`)).status).toBe(404);
  });

  it('the tRPC procedures answer what REST answers', async () => {
    const event = await createEvent(admin.api);
    const created = await trpc('mutation', 'vouchers.create', { id: event.id, voucher: { code: 'TRPC', kind: 'fixed', value: 300 } });
    expect(created).toMatchObject({ code: 'TRPC', kind: 'fixed', value: 300, usedCount: 0 });
    const listed = await trpc('query', 'vouchers.list', { id: event.id });
    expect(listed).toEqual({ items: [created], total: 1 });
  });

  it('a code the event has already, in another case, is 409 svc_voucher_code_taken and nothing is stored', async () => {
    const event = await createEvent(admin.api);
    expect((await createVoucher(event.id, { code: 'EARLY' })).status).toBe(201);
    const again = await createVoucher(event.id, { code: 'early' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'svc_voucher_code_taken', data: { status: 409, params: { code: 'is taken' } } });
    const other = await createVoucher(event.id, { code: 'LATE' });
    const renamed = await admin.api.patch(`/vouchers/${other.body.id}`, { code: 'Early' });
    expect(renamed.status).toBe(409);
    expect(renamed.body.code).toBe('svc_voucher_code_taken');
    expect((await admin.api.get(`/events/${event.id}/vouchers`)).body.map((v: { code: string }) => v.code)).toEqual(['EARLY', 'LATE']);
    // another event may use the same code
    const second = await createEvent(admin.api);
    expect((await createVoucher(second.id, { code: 'early' })).status).toBe(201);
  });

  it('bad input is 400 svc_invalid_param naming each field, and nothing is stored', async () => {
    const event = await createEvent(admin.api);
    const other = await createEvent(admin.api);
    const foreign = await category(other.id, 'Elsewhere');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ code: 'has space' }, 'code'],
      [{ code: 'X', kind: 'half' }, 'kind'],
      [{ code: 'X', value: -1 }, 'value'],
      [{ code: 'X', value: 10_001 }, 'value'],
      [{ code: 'X', kind: 'fixed', value: 0 }, 'value'],
      [{ code: 'X', maxUses: 0 }, 'maxUses'],
      [{ code: 'X', validFromUtc: '2099-05-01 00:00:00', validUntilUtc: '2099-04-01 00:00:00' }, 'validUntilUtc'],
      [{ code: 'X', validFromUtc: 'tomorrow' }, 'validFromUtc'],
      [{ code: 'X', categoryIds: [foreign] }, 'categoryIds'],
    ];
    for (const [body, field] of cases) {
      const res = await createVoucher(event.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('svc_invalid_param');
      expect(Object.keys(res.body.data.params), JSON.stringify(body)).toContain(field);
    }
    expect((await admin.api.get(`/events/${event.id}/vouchers`)).body).toEqual([]);
  });

  it('an unknown event or voucher is 404; a visitor may not see or change vouchers, nor may staff', async () => {
    expect((await admin.api.get('/events/999999/vouchers')).status).toBe(404);
    expect((await createVoucher(999_999, { code: 'X' })).status).toBe(404);
    expect((await admin.api.patch('/vouchers/999999', { value: 1 })).status).toBe(404);
    expect((await admin.api.delete('/vouchers/999999')).status).toBe(404);
    const event = await createEvent(admin.api);
    const anonymous = apiClient(srv.url);
    expect((await anonymous.get(`/events/${event.id}/vouchers`)).status).toBe(401);
    expect((await anonymous.post(`/events/${event.id}/vouchers`, { code: 'X', kind: 'percent', value: 1 })).status).toBe(401);
    const staffEmail = `staff-${Date.now()}@example.test`;
    expect((await admin.api.post('/users', { email: staffEmail, role: 'staff', password: 'long enough password', eventIds: [event.id] })).status).toBe(201);
    const staff = await loginAs(srv.url, staffEmail, 'long enough password');
    expect((await staff.api.get(`/events/${event.id}/vouchers`)).status).toBe(403);
  });
});

describe('redeemVoucher inside the sign-up transaction', () => {
  it('counts the tickets of the categories it applies to, matches the code in any case and records the redemption', async () => {
    const event = await createEvent(admin.api);
    const vip = await category(event.id, 'VIP');
    const standard = await category(event.id, 'Standard', { priceCents: 1000 });
    const v = await createVoucher(event.id, { code: 'VipOnly', categoryIds: [vip], maxUses: 5 });
    const redeemed = await redeem({
      eventId: event.id,
      code: 'vIPoNLY',
      email: ' Ada@Example.TEST ',
      lines: [
        { categoryId: vip, quantity: 2 },
        { categoryId: standard, quantity: 1 },
      ],
    });
    expect(redeemed).toMatchObject({ voucherId: v.body.id, code: 'VipOnly', quantity: 2, terms: { kind: 'percent', value: 2000, categoryIds: [vip] } });
    expect(await usedCount(v.body.id)).toBe(2);
    const rows = await queryRows<{ email: string; quantity: number }>(
      db(),
      sql`select email, quantity from svc_voucher_redemptions where voucher_id = ${v.body.id}`,
    );
    expect(rows).toEqual([{ email: 'ada@example.test', quantity: 2 }]);
    expect((await admin.api.get(`/vouchers/${v.body.id}`)).body.usedCount).toBe(2);
  });

  it('refuses an unknown code, one outside its window and one for none of the tickets, naming the voucher and taking no use', async () => {
    const event = await createEvent(admin.api);
    const vip = await category(event.id, 'VIP');
    const standard = await category(event.id, 'Standard');
    const windowed = await createVoucher(event.id, { code: 'WINDOW', validFromUtc: '2099-01-01 00:00:00', validUntilUtc: '2099-02-01 00:00:00' });
    await createVoucher(event.id, { code: 'VIP', categoryIds: [vip] });
    const lines = [{ categoryId: standard, quantity: 1 }];

    const unknown = await refusal(redeem({ eventId: event.id, code: 'NOPE', email: 'a@example.test', lines }));
    expect(unknown).toMatchObject({ code: 'svc_voucher_unknown', data: { status: 404, params: { voucher: 'This code is not valid for this event.' } } });
    for (const atUtc of ['2098-12-31 23:59:59', '2099-02-01 00:00:00']) {
      const early = await refusal(redeem({ eventId: event.id, code: 'window', email: 'a@example.test', lines, atUtc }));
      expect(early.code, atUtc).toBe('svc_voucher_expired');
    }
    const inside = await redeem({ eventId: event.id, code: 'window', email: 'a@example.test', lines, atUtc: '2099-01-15 12:00:00' });
    expect(inside.quantity).toBe(1);
    expect(await usedCount(windowed.body.id)).toBe(1);
    const elsewhere = await refusal(redeem({ eventId: event.id, code: 'VIP', email: 'a@example.test', lines }));
    expect(elsewhere.code).toBe('svc_voucher_not_applicable');
    // a code of another event is unknown here
    const other = await createEvent(admin.api);
    expect((await refusal(redeem({ eventId: other.id, code: 'VIP', email: 'a@example.test', lines }))).code).toBe('svc_voucher_unknown');
  });

  it('stops at the total limit, saying how many tickets it may still discount', async () => {
    const event = await createEvent(admin.api);
    const cat = await category(event.id, 'General');
    const v = await createVoucher(event.id, { code: 'THREE', maxUses: 3 });
    await redeem({ eventId: event.id, code: 'THREE', email: 'a@example.test', lines: [{ categoryId: cat, quantity: 2 }] });
    const tooMany = await refusal(redeem({ eventId: event.id, code: 'THREE', email: 'b@example.test', lines: [{ categoryId: cat, quantity: 2 }] }));
    expect(tooMany).toMatchObject({ code: 'svc_voucher_used_up', data: { remaining: 1 } });
    await redeem({ eventId: event.id, code: 'THREE', email: 'b@example.test', lines: [{ categoryId: cat, quantity: 1 }] });
    const none = await refusal(redeem({ eventId: event.id, code: 'THREE', email: 'c@example.test', lines: [{ categoryId: cat, quantity: 1 }] }));
    expect(none).toMatchObject({ code: 'svc_voucher_used_up', data: { remaining: 0 } });
    expect(await usedCount(v.body.id)).toBe(3);
  });

  it('stops one email at the per-email limit, in any case, while another email may still use it', async () => {
    const event = await createEvent(admin.api);
    const cat = await category(event.id, 'General');
    await createVoucher(event.id, { code: 'ONEEACH', maxUsesPerEmail: 1 });
    const lines = [{ categoryId: cat, quantity: 1 }];
    await redeem({ eventId: event.id, code: 'ONEEACH', email: 'ada@example.test', lines });
    const again = await refusal(redeem({ eventId: event.id, code: 'ONEEACH', email: 'ADA@example.test', lines }));
    expect(again).toMatchObject({ code: 'svc_voucher_email_limit', data: { remaining: 0 } });
    expect((await redeem({ eventId: event.id, code: 'ONEEACH', email: 'grace@example.test', lines })).quantity).toBe(1);
  });

  it('a cancelled order gives its uses back once, and its released redemption no longer counts against the email', async () => {
    const event = await createEvent(admin.api);
    const cat = await category(event.id, 'General');
    const v = await createVoucher(event.id, { code: 'BACK', maxUses: 2, maxUsesPerEmail: 2 });
    const lines = [{ categoryId: cat, quantity: 2 }];
    const orderId = 424_242;
    await db().transaction(async (tx) => {
      const r = await redeemVoucher(tx as Db, { eventId: event.id, code: 'BACK', email: 'ada@example.test', lines });
      await attachRedemption(tx as Db, r.redemptionId, { orderId });
    });
    expect(await usedCount(v.body.id)).toBe(2);
    expect((await refusal(redeem({ eventId: event.id, code: 'BACK', email: 'ada@example.test', lines }))).code).toBe('svc_voucher_email_limit');

    expect(await db().transaction((tx) => releaseVoucher(tx as Db, { orderId }))).toBe(2);
    expect(await usedCount(v.body.id)).toBe(0);
    expect(await db().transaction((tx) => releaseVoucher(tx as Db, { orderId }))).toBe(0);
    expect(await usedCount(v.body.id)).toBe(0);
    expect((await redeem({ eventId: event.id, code: 'BACK', email: 'ada@example.test', lines })).quantity).toBe(2);
  });

  it('a voucher with uses held cannot be deleted (409) nor limited below them (400 naming maxUses)', async () => {
    const event = await createEvent(admin.api);
    const cat = await category(event.id, 'General');
    const v = await createVoucher(event.id, { code: 'HELD', maxUses: 5 });
    await redeem({ eventId: event.id, code: 'HELD', email: 'a@example.test', lines: [{ categoryId: cat, quantity: 3 }] });
    const del = await admin.api.delete(`/vouchers/${v.body.id}`);
    expect(del.status).toBe(409);
    expect(del.body).toMatchObject({ code: 'svc_conflict', data: { usedCount: 3 } });
    const lower = await admin.api.patch(`/vouchers/${v.body.id}`, { maxUses: 2 });
    expect(lower.status).toBe(400);
    expect(Object.keys(lower.body.data.params)).toEqual(['maxUses']);
    expect((await admin.api.patch(`/vouchers/${v.body.id}`, { maxUses: 3 })).body.maxUses).toBe(3);
  });
});
