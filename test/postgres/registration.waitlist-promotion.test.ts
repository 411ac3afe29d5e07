/**
 * Waitlist promotion under concurrency, on real PostgreSQL (a pool of connections;
 * docs/decisions/045-waitlist-promotion.md): cancels, sign-ups and administrator edits race on
 * one event whose waitlist moves up by itself. Promotions are decided under the event row's lock
 * the sign-up takes, so the going seats never exceed the capacity, the waitlist moves up in the
 * order it joined, and once the race is over no waiting party fits the seats left.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../server/db/client';
import { useTestServer } from '../helpers/test-server';
import { apiClient } from '../helpers/http';
import { attendeeRows, createEvent, signUp, uniqueEmail } from '../helpers/registration';

const { server: srv, admin } = useTestServer({ env: { SVC_JOBS: 'off' } });
const noIpThrottle = () => '';
beforeAll(() => {
  // many posts from one address: the per-IP throttle is not what this test is about
  srv.server.ctx.hooks.addFilter('svc_rsvp_client_ip', noIpThrottle, 50);
});

async function party(eventId: number, quantity: number) {
  const res = await signUp(srv, eventId, { email: uniqueEmail('race'), quantity });
  expect(res.status).toBe(201);
  return { id: res.body.id as number, status: res.body.status as 'going' | 'waitlist' };
}

async function tokenOf(id: number): Promise<string> {
  const [row] = await queryRows<{ cancel_token: string }>(srv.server.ctx.db, sql`select cancel_token from svc_attendees where id = ${id}`);
  return row!.cancel_token;
}

async function goingSeats(eventId: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    srv.server.ctx.db,
    sql`select coalesce(sum(quantity), 0)::int as n from svc_attendees where event_id = ${eventId} and status in ('going', '')`,
  );
  return Number(row!.n);
}

/** Samples the going seats while `race` runs; answers the highest seen. */
async function highestWhile(eventId: number, race: Promise<unknown>): Promise<number> {
  let done = false;
  let highest = 0;
  const watched = race.finally(() => (done = true));
  while (!done) highest = Math.max(highest, await goingSeats(eventId));
  await watched;
  return Math.max(highest, await goingSeats(eventId));
}

describe('waitlist promotion races', () => {
  it('10 cancels racing 20 sign-ups on 10 seats: never beyond capacity, the waitlist moves up in the order it joined, one status change and one ticket mail per promoted row', async () => {
    const event = await createEvent(admin.api, { capacity: 10, waitlistPromotion: 'auto' });
    const going = [];
    for (let i = 0; i < 10; i++) going.push(await party(event.id, 1));
    const waiting = [];
    for (let i = 0; i < 15; i++) waiting.push(await party(event.id, 1));
    expect(going.every((p) => p.status === 'going') && waiting.every((p) => p.status === 'waitlist')).toBe(true);
    const tokens = await Promise.all(going.map((p) => tokenOf(p.id)));

    const changed: unknown[][] = [];
    const record = (...args: unknown[]) => void changed.push(args);
    srv.server.ctx.hooks.addAction('svc_attendee_status_changed', record, 50, 3);
    let late: Array<{ id: number; status: string }> = [];
    try {
      const race = Promise.all([
        Promise.all(tokens.map((t) => apiClient(srv.url).post(`/attendees/cancel/${t}`))),
        Promise.all(Array.from({ length: 20 }, () => party(event.id, 1))),
      ]).then(([cancels, signups]) => {
        expect(cancels.map((c) => c.status)).toEqual(Array(10).fill(200));
        late = signups;
      });
      expect(await highestWhile(event.id, race)).toBeLessThanOrEqual(10);
    } finally {
      srv.server.ctx.hooks.removeAction('svc_attendee_status_changed', record, 50);
    }

    const rows = await attendeeRows(srv, event.id);
    const statusOf = new Map(rows.map((r) => [r.id as number, r.status as string]));
    // all 10 seats went back out: to the waitlist first, then to late sign-ups that found a seat
    expect(await goingSeats(event.id)).toBe(10);
    // every row that ever waited, in the order it joined: the promoted ones are exactly the first
    const everWaiting = [...waiting, ...late.filter((p) => p.status === 'waitlist')].sort((a, b) => a.id - b.id);
    const finals = everWaiting.map((p) => statusOf.get(p.id));
    const promotedCount = finals.filter((s) => s === 'going').length;
    expect(finals).toEqual([...Array(promotedCount).fill('going'), ...Array(everWaiting.length - promotedCount).fill('waitlist')]);
    // the original waitlist was ahead of every late sign-up's seat: 10 freed seats, 15 waiting, so all 10 went to it
    expect(waiting.slice(0, 10).map((p) => statusOf.get(p.id))).toEqual(Array(10).fill('going'));
    expect(late.filter((p) => p.status === 'going')).toEqual([]);
    // one status change per promoted row, as the contract's (id, new, old)
    const promoted = everWaiting.slice(0, promotedCount).map((p) => p.id);
    expect([...changed].sort((a, b) => (a[0] as number) - (b[0] as number))).toEqual(promoted.map((id) => [id, 'going', 'waitlist']));
    const [mails] = await queryRows<{ n: number }>(
      srv.server.ctx.db,
      sql`select count(*)::int as n from svc_outbox where once_key in (select 'attendee-promoted:' || id from svc_attendees where event_id = ${event.id})`,
    );
    expect(Number(mails!.n)).toBe(promoted.length);
  });

  it('parties of 1 to 3 with cancels, lowered quantities, capacity raises and sign-ups at once: never beyond capacity, and afterwards no waiting party fits the seats left', async () => {
    const event = await createEvent(admin.api, { capacity: 12, waitlistPromotion: 'auto' });
    const sizes = [3, 2, 1, 3, 2, 1, 3, 2, 1, 3, 2, 1, 3, 2, 1, 3];
    const parties = [];
    for (const q of sizes) parties.push({ ...(await party(event.id, q)), quantity: q });
    const going = parties.filter((p) => p.status === 'going');
    expect(going.length).toBeGreaterThan(3);
    const tokens = await Promise.all(going.map((p) => tokenOf(p.id)));

    const race = Promise.all([
      // half the going parties cancel, the others lose a seat where they have one to lose
      ...tokens.filter((_, i) => i % 2 === 0).map((t) => apiClient(srv.url).post(`/attendees/cancel/${t}`)),
      ...going.filter((p, i) => i % 2 === 1 && p.quantity > 1).map((p) => admin.api.patch(`/attendees/${p.id}`, { quantity: p.quantity - 1 })),
      ...Array.from({ length: 12 }, (_, i) => party(event.id, (i % 3) + 1)),
      admin.api.patch(`/events/${event.id}`, { capacity: 13 }).then((res) => expect(res.status).toBe(200)),
    ]);
    // the capacity only rises during the race (12, then 13)
    expect(await highestWhile(event.id, race)).toBeLessThanOrEqual(13);

    const rows = await attendeeRows(srv, event.id);
    const seats = rows.filter((r) => r.status === 'going').reduce((n, r) => n + r.quantity, 0);
    expect(seats).toBeLessThanOrEqual(13);
    const free = 13 - seats;
    expect(rows.filter((r) => r.status === 'waitlist' && r.quantity <= free)).toEqual([]);
  });
});
