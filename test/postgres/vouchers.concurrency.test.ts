import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows, type Db } from '../../server/db/client';
import { eventsRepository } from '../../server/modules/events/events.repository';
import { ticketCategories, vouchers } from '../../server/modules/orders/tickets.sql';
import { redeemVoucher, releaseVoucher } from '../../server/modules/orders/vouchers.service';
import { createEvent } from '../helpers/registration';
import { useTestServer } from '../helpers/test-server';

// Real PostgreSQL (a pool of connections): redemptions decided under the sign-up's event row lock
// and the guarded count never pass a code's limit.
const { admin, db } = useTestServer({ env: { SVC_JOBS: 'off' } });

/** One sign-up's share of the work: its own transaction, the event's lock, then the redemption. */
async function redeemAsSignUp(eventId: number, categoryId: number, email: string, quantity = 1): Promise<'redeemed' | string> {
  try {
    await db().transaction(async (tx) => {
      await eventsRepository(tx as Db).lockById(eventId);
      await redeemVoucher(tx as Db, { eventId, code: 'rush10', email, lines: [{ categoryId, quantity }] });
    });
    return 'redeemed';
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
}

async function setUp(voucher: Record<string, unknown>): Promise<{ eventId: number; categoryId: number; voucherId: number }> {
  const event = await createEvent(admin.api);
  const [category] = await db().insert(ticketCategories).values({ eventId: event.id, name: 'General', priceCents: 1800 }).returning();
  const created = await admin.api.post(`/events/${event.id}/vouchers`, { code: 'RUSH10', kind: 'percent', value: 2000, ...voucher });
  expect(created.status).toBe(201);
  return { eventId: event.id, categoryId: category!.id, voucherId: created.body.id };
}

async function state(voucherId: number): Promise<{ used: number; redemptions: number; tickets: number }> {
  const [row] = await db().select({ used: vouchers.usedCount }).from(vouchers).where(eq(vouchers.id, voucherId));
  const [r] = await queryRows<{ n: number; q: number }>(
    db(),
    sql`select count(*)::int as n, coalesce(sum(quantity), 0)::int as q from svc_voucher_redemptions where voucher_id = ${voucherId} and released_utc is null`,
  );
  return { used: row!.used, redemptions: Number(r!.n), tickets: Number(r!.q) };
}

describe('concurrent redemptions never pass a code’s limit', () => {
  it('200 concurrent redemptions of a 10-use code redeem exactly 10; the other 190 are svc_voucher_used_up', async () => {
    const { eventId, categoryId, voucherId } = await setUp({ maxUses: 10 });
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => redeemAsSignUp(eventId, categoryId, `rush-${i}@example.test`)));
    expect(results.filter((r) => r === 'redeemed')).toHaveLength(10);
    expect(results.filter((r) => r === 'svc_voucher_used_up')).toHaveLength(190);
    expect(await state(voucherId)).toEqual({ used: 10, redemptions: 10, tickets: 10 });
  });

  it('200 concurrent redemptions by one email of a 3-per-email code redeem exactly 3', async () => {
    const { eventId, categoryId, voucherId } = await setUp({ maxUsesPerEmail: 3 });
    const results = await Promise.all(Array.from({ length: 200 }, () => redeemAsSignUp(eventId, categoryId, 'same@example.test')));
    expect(results.filter((r) => r === 'redeemed')).toHaveLength(3);
    expect(results.filter((r) => r === 'svc_voucher_email_limit')).toHaveLength(197);
    expect(await state(voucherId)).toEqual({ used: 3, redemptions: 3, tickets: 3 });
  });

  it('uses given back while others redeem are taken again, never past the limit', async () => {
    const { eventId, categoryId, voucherId } = await setUp({ maxUses: 10 });
    const first = await Promise.all(Array.from({ length: 10 }, (_, i) => redeemAsSignUp(eventId, categoryId, `first-${i}@example.test`)));
    expect(first.every((r) => r === 'redeemed')).toBe(true);
    // each of 5 redemptions belongs to an order that is now cancelled, while 100 more try
    await db().execute(
      sql`update svc_voucher_redemptions set order_id = 900000 + id where id in (select id from svc_voucher_redemptions where voucher_id = ${voucherId} order by id limit 5)`,
    );
    const orderIds = (
      await queryRows<{ order_id: number }>(db(), sql`select order_id from svc_voucher_redemptions where voucher_id = ${voucherId} and order_id is not null`)
    ).map((r) => Number(r.order_id));
    const [releases, rush] = await Promise.all([
      Promise.all(orderIds.map((orderId) => db().transaction((tx) => releaseVoucher(tx as Db, { orderId })))),
      Promise.all(Array.from({ length: 100 }, (_, i) => redeemAsSignUp(eventId, categoryId, `second-${i}@example.test`))),
    ]);
    expect(releases.reduce((a, b) => a + b, 0)).toBe(5);
    const after = await state(voucherId);
    expect(after.used).toBe(after.tickets);
    expect(after.used).toBeLessThanOrEqual(10);
    expect(after.used).toBe(5 + rush.filter((r) => r === 'redeemed').length);
  });
});
