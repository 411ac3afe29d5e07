import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { useTestServer } from '../helpers/test-server';
import { attendeeRows, createEvent, signUp } from '../helpers/registration';

// Real PostgreSQL (a pool of connections): the event row lock every sign-up takes also decides
// each category's quota (docs/decisions/028-ticket-categories.md).
const { server: srv, admin } = useTestServer({ env: { SVC_JOBS: 'off' } });
beforeAll(() => {
  // 200 posts from one address: the per-IP throttle is not what this test is about.
  srv.server.ctx.hooks.addFilter('svc_rsvp_client_ip', () => '', 50);
});

async function twoCategories(event: { capacity: number; waitlist: boolean }, quotas: { vip: number; standard: number }) {
  const created = await createEvent(admin.api, { ...event, maxPerSignup: 10 });
  const vip = (await admin.api.post(`/events/${created.id}/ticket-categories`, { name: 'VIP', quota: quotas.vip })).body.id as number;
  const standard = (await admin.api.post(`/events/${created.id}/ticket-categories`, { name: 'Standard', quota: quotas.standard })).body.id as number;
  return { eventId: created.id as number, vip, standard };
}

/** Sign-up i asks for VIP, Standard or one of each, in turn. */
const ticketsOf = (i: number, vip: number, standard: number) =>
  [
    [{ categoryId: vip, quantity: 1 }],
    [{ categoryId: standard, quantity: 1 }],
    [
      { categoryId: vip, quantity: 1 },
      { categoryId: standard, quantity: 1 },
    ],
  ][i % 3]!;

async function goingPerCategory(eventId: number): Promise<Map<number, number>> {
  const going = new Map<number, number>();
  for (const row of await attendeeRows(srv, eventId)) {
    if (row.status === 'going') going.set(row.ticket_category_id, (going.get(row.ticket_category_id) ?? 0) + row.quantity);
  }
  return going;
}

describe('200 concurrent sign-ups across two categories never oversell a quota or the event', () => {
  it('with a waitlist: the event fills to exactly its capacity, each quota holds, the rest is waitlisted', async () => {
    const { eventId, vip, standard } = await twoCategories({ capacity: 50, waitlist: true }, { vip: 15, standard: 40 });
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => signUp(srv, eventId, { tickets: ticketsOf(i, vip, standard) })));
    expect(results.map((r) => r.status)).toEqual(Array(200).fill(201));
    const going = await goingPerCategory(eventId);
    expect(going.get(vip)).toBeLessThanOrEqual(15);
    expect(going.get(standard)).toBeLessThanOrEqual(40);
    expect((going.get(vip) ?? 0) + (going.get(standard) ?? 0)).toBe(50);
    const rows = await attendeeRows(srv, eventId);
    // one row per line asked for: 67 + 67 + 2 × 66
    expect(rows).toHaveLength(266);
  });

  it('without a waitlist: each quota sells out exactly and the refused sign-ups store nothing', async () => {
    const { eventId, vip, standard } = await twoCategories({ capacity: 500, waitlist: false }, { vip: 15, standard: 40 });
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => signUp(srv, eventId, { tickets: ticketsOf(i, vip, standard) })));
    expect(results.every((r) => r.status === 201 || (r.status === 409 && r.body.code === 'svc_event_full'))).toBe(true);
    const going = await goingPerCategory(eventId);
    expect(going.get(vip)).toBe(15);
    expect(going.get(standard)).toBe(40);
    const rows = await attendeeRows(srv, eventId);
    expect(rows.every((r) => r.status === 'going')).toBe(true);
    // every accepted sign-up stored all its lines, every refused one none
    const accepted = results.filter((r) => r.status === 201);
    expect(rows).toHaveLength(accepted.reduce((n, r) => n + r.body.tickets.length, 0));
    const listed = (await admin.api.get(`/events/${eventId}/ticket-categories`)).body;
    expect(listed.map((c: { soldCount: number }) => c.soldCount)).toEqual([15, 40]);
  });
});

async function codeState(eventId: number, voucherId: number) {
  const db = srv.server.ctx.db;
  const [row] = await queryRows<{ used: number }>(db, sql`select used_count as used from svc_vouchers where id = ${voucherId}`);
  const redemptions = await queryRows<{ quantity: number; attendee_id: number | null }>(
    db,
    sql`select quantity, attendee_id from svc_voucher_redemptions where voucher_id = ${voucherId} and released_utc is null`,
  );
  const going = (await attendeeRows(srv, eventId)).filter((r) => r.status === 'going');
  return { used: Number(row!.used), redemptions, going };
}

describe('200 concurrent sign-ups with one code: the code’s limits hold through the sign-up', () => {
  it('a 10-use code discounts exactly 10 tickets; the other sign-ups are refused svc_voucher_used_up and store nothing', async () => {
    const { eventId, vip, standard } = await twoCategories({ capacity: 500, waitlist: false }, { vip: 300, standard: 300 });
    const code = await admin.api.post(`/events/${eventId}/vouchers`, { code: 'TEN', kind: 'percent', value: 2000, maxUses: 10 });
    expect(code.status).toBe(201);
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        signUp(srv, eventId, { email: `code-${i}@example.test`, tickets: [{ categoryId: i % 2 ? vip : standard, quantity: 1 }], voucher: 'ten' }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    expect(results.filter((r) => r.status === 409 && r.body.code === 'svc_voucher_used_up')).toHaveLength(190);
    const after = await codeState(eventId, code.body.id);
    expect(after.used).toBe(10);
    expect(after.going).toHaveLength(10);
    // one redemption per discounted row, each tied to its row
    expect(after.redemptions.map((r) => Number(r.attendee_id)).sort()).toEqual(after.going.map((r) => Number(r.id)).sort());
  });

  it('five concurrent sign-ups by one email (its throttle allows five an hour) beside 100 others: a 3-per-email code discounts 3 of its tickets', async () => {
    const { eventId, vip } = await twoCategories({ capacity: 500, waitlist: false }, { vip: 300, standard: 300 });
    const code = await admin.api.post(`/events/${eventId}/vouchers`, { code: 'MINE', kind: 'fixed', value: 100, maxUsesPerEmail: 3 });
    expect(code.status).toBe(201);
    const tickets = [{ categoryId: vip, quantity: 1 }];
    const [same, others] = await Promise.all([
      Promise.all(
        Array.from({ length: 5 }, (_, i) => signUp(srv, eventId, { email: i % 2 ? 'Same@Example.test' : 'same@example.test', tickets, voucher: 'mine' })),
      ),
      Promise.all(Array.from({ length: 100 }, (_, i) => signUp(srv, eventId, { email: `other-${i}@example.test`, tickets, voucher: 'mine' }))),
    ]);
    expect(same.filter((r) => r.status === 201)).toHaveLength(3);
    expect(same.filter((r) => r.status === 409 && r.body.code === 'svc_voucher_email_limit')).toHaveLength(2);
    expect(others.every((r) => r.status === 201)).toBe(true);
    const after = await codeState(eventId, code.body.id);
    expect(after.used).toBe(103);
    expect(after.redemptions).toHaveLength(103);
    expect(after.going).toHaveLength(103);
  });
});
