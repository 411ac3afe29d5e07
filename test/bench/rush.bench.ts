/**
 * Rushes on one hot event or booking type, at 50, 200 and 500 concurrent clients, on PostgreSQL
 * when TEST_DATABASE_URL/DATABASE_URL is set (else PGlite). Every rush fails on any 5xx answer:
 * a request of a rush is refused (409 full, 409 taken) or served, never a server error. At 200
 * clients, postgres.js's UNSAFE_TRANSACTION answered one request in 4 rushes of 7 with 500 (a
 * transaction's BEGIN that filled a pooled connection's pipeline;
 * docs/decisions/022-prepared-statements.md).
 *
 * 1. Sign-up rush: the clients sign 5,000 people up for 1,000 seats (no waitlist), over HTTP with
 *    the contract's nonce and form token. Targets on this 2-core machine, at 200 clients: at least
 *    500 sign-ups/s; at every size: exactly 1,000 going, every other answer the "full" refusal.
 *    With categories: the same rush on an event that sells three ticket categories whose quotas
 *    make its 1,000 seats (VIP 200 at £45, standard 700 at £18, student 100 free), each sign-up
 *    naming one category in `tickets` and every fifth one a 10 % promo code (redeemed under the
 *    event's lock). Targets: at least 500 sign-ups/s at 200 clients; every quota exactly full.
 * 2. Booking rush (booking.bench.ts `benchCreation`, whose own run is the 100-client figure):
 *    1,000 attempts over 3 days of 15-minute starts; no two bookings of a host overlap.
 *
 * The clients run in a worker thread (bench-server.ts `runRush`), not in the server's thread.
 * Each rush prints its throughput, its 5xx count and the requests whose connection failed (no
 * answer; they count among the "answers other than 201/409") as it ends.
 *
 * Run alone: `node --import tsx test/bench/rush.bench.ts`; `SVC_RUSH_CLIENTS=200` runs one size,
 * `SVC_RUSH_ONLY=categories` one rush (plain, categories, booking; comma-separated).
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../server/db/client';
import { signValue } from '../../server/security/nonce';
import { voucherCodeKey } from '../../shared/vouchers';
import type { BenchResult } from './types';
import { runRush, startBenchServer } from './bench-server';
import { benchCreation } from './booking.bench';
import { runWhenMain } from './support';

const CLIENT_COUNTS = process.env.SVC_RUSH_CLIENTS ? process.env.SVC_RUSH_CLIENTS.split(',').map(Number) : [50, 200, 500];
/** `SVC_RUSH_ONLY=plain,categories,booking`: the rushes to run (all when unset). */
const RUSH_ONLY = process.env.SVC_RUSH_ONLY?.split(',');
/** The client count the sign-up rate target was set for (decision 021). */
const TARGET_CLIENTS = 200;
const SIGNUPS = 5000;
const SEATS = 1000;
const RATE_TARGET = 500;

const QUOTAS = [
  { name: 'VIP', priceCents: 4500, quota: 200 },
  { name: 'Standard', priceCents: 1800, quota: 700 },
  { name: 'Student', priceCents: 0, quota: 100 },
];

/** The event's three categories and a 10 % code, written as the API stores them; the categories' ids. */
async function sellInCategories(server: Awaited<ReturnType<typeof startBenchServer>>['server'], eventId: number): Promise<number[]> {
  const ids: number[] = [];
  for (const [position, c] of QUOTAS.entries()) {
    const [row] = await queryRows<{ id: number }>(
      server.ctx.db,
      sql`insert into svc_ticket_categories (event_id, name, price_cents, quota, position) values (${eventId}, ${c.name}, ${c.priceCents}, ${c.quota}, ${position}) returning id`,
    );
    ids.push(Number(row!.id));
  }
  await queryRows(
    server.ctx.db,
    sql`insert into svc_vouchers (event_id, code, code_key, kind, value) values (${eventId}, 'RUSH10', ${voucherCodeKey('RUSH10')}, 'percent', 1000) returning id`,
  );
  return ids;
}

async function signupRush(clients: number, withCategories = false): Promise<BenchResult[]> {
  const { server, kind, close } = await startBenchServer();
  try {
    const { db } = server.ctx;
    const [event] = await queryRows<{ id: number }>(
      db,
      sql`insert into svc_events (title, starts_utc, status, capacity, waitlist) values ('Rush', '2099-06-01 18:00:00', 'published', ${SEATS}, false) returning id`,
    );
    const eventId = Number(event!.id);
    // The contract's per-IP throttle would stop one client machine at 5 a minute.
    server.ctx.hooks.addFilter('svc_rsvp_client_ip', () => '');
    const { nonce } = (await (await fetch(`${server.url}/svc/v1/nonce`)).json()) as { nonce: string };
    // A form rendered ten seconds ago: past the minimum fill time.
    const formToken = signValue(server.ctx.secret, `signup-form|${eventId}`, String(Date.now() - 10_000));
    const headers = { 'content-type': 'application/json', 'x-svc-nonce': nonce };
    const categoryIds = withCategories ? await sellInCategories(server, eventId) : [];
    const requests = Array.from({ length: SIGNUPS }, (_, i) => {
      const body: Record<string, unknown> = { email: `rush${i}@example.test`, display_name: `Rush ${i}`, quantity: 1, svc_ts: formToken, svc_hp: '' };
      if (withCategories) {
        body.tickets = [{ categoryId: categoryIds[i % categoryIds.length], quantity: 1 }];
        if (i % 5 === 0 && i % categoryIds.length !== 2) body.voucher = 'rush10';
      }
      return { path: `/svc/v1/events/${eventId}/signup`, method: 'POST' as const, headers, body: JSON.stringify(body) };
    });
    // the server's thread (the clients run in a worker): its busy time per request says what a
    // sign-up costs the server, a figure the other processes on the machine disturb far less than the rate
    const before = performance.eventLoopUtilization();
    const rush = await runRush(server.url, clients, requests);
    const busy = performance.eventLoopUtilization(before);
    const [going] = await queryRows<{ n: number }>(
      db,
      sql`select coalesce(sum(quantity), 0)::int as n from svc_attendees where event_id = ${eventId} and status = 'going'`,
    );
    const created = rush.statuses.get(201) ?? 0;
    const refused = rush.statuses.get(409) ?? 0;
    const other = SIGNUPS - created - refused;
    const judged = clients === TARGET_CLIENTS;
    const sold = withCategories
      ? await queryRows<{ n: number }>(
          db,
          sql`select coalesce(sum(a.quantity), 0)::int as n from svc_ticket_categories c left join svc_attendees a on a.ticket_category_id = c.id and a.status = 'going'
              where c.event_id = ${eventId} group by c.id, c.position order by c.position`,
        )
      : [];
    const quotasFull = sold.every((row, i) => Number(row.n) === QUOTAS[i]!.quota);
    const scenario = `sign-up rush${withCategories ? ' in 3 ticket categories' : ''}, ${clients} concurrent clients, ${SIGNUPS} sign-ups for ${SEATS} seats (${kind})`;
    console.log(
      `${scenario}: ${Math.round(rush.requestsPerSecond)} requests/s, ${rush.serverErrors} 5xx, ${rush.unanswered} unanswered; answers ${[...rush.statuses].map(([s, n]) => `${s}×${n}`).join(', ')}`,
    );
    return [
      {
        name: `${scenario}, requests/s`,
        value: Math.round(rush.requestsPerSecond * 10) / 10,
        unit: 'requests/s',
        target: judged ? `>= ${RATE_TARGET}` : 'report',
        pass: !judged || rush.requestsPerSecond >= RATE_TARGET,
      },
      { name: `${scenario}, 5xx answers`, value: rush.serverErrors, unit: 'responses', target: '= 0', pass: rush.serverErrors === 0 },
      { name: `${scenario}, p99`, value: Math.round(rush.p99), unit: 'ms', target: 'report', pass: true },
      {
        name: `${scenario}, server thread busy per request (${Math.round(busy.utilization * 100)} % busy)`,
        value: Math.round((busy.active / SIGNUPS) * 1000) / 1000,
        unit: 'ms',
        target: 'report',
        pass: true,
      },
      { name: `${scenario}, seats going`, value: Number(going!.n), unit: 'seats', target: `= ${SEATS}`, pass: Number(going!.n) === SEATS },
      { name: `${scenario}, answers other than 201/409`, value: other, unit: 'responses', target: '= 0', pass: other === 0 },
      ...(withCategories
        ? [
            {
              name: `${scenario}, categories not exactly at their quota (${QUOTAS.map((q) => q.quota).join('/')}; going ${sold.map((r) => Number(r.n)).join('/')})`,
              value: sold.filter((row, i) => Number(row.n) !== QUOTAS[i]!.quota).length,
              unit: 'categories',
              target: '= 0',
              pass: quotasFull,
            },
          ]
        : []),
    ];
  } finally {
    await close();
  }
}

export default async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  const only = (name: string) => !RUSH_ONLY || RUSH_ONLY.includes(name);
  if (only('plain')) for (const clients of CLIENT_COUNTS) results.push(...(await signupRush(clients)));
  if (only('categories')) for (const clients of CLIENT_COUNTS) results.push(...(await signupRush(clients, true)));
  if (only('booking')) for (const clients of CLIENT_COUNTS) results.push(...(await benchCreation(clients)));
  return results;
}

runWhenMain(import.meta.url, run);
