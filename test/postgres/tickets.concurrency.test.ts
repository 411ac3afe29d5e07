import { beforeAll, describe, expect, it } from 'vitest';
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
