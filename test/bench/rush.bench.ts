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
 * 2. Booking rush (booking.bench.ts `benchCreation`, whose own run is the 100-client figure):
 *    1,000 attempts over 3 days of 15-minute starts; no two bookings of a host overlap.
 *
 * The clients run in a worker thread (bench-server.ts `runRush`), not in the server's thread.
 * Each rush prints its throughput, its 5xx count and the requests whose connection failed (no
 * answer; they count among the "answers other than 201/409") as it ends.
 *
 * Run alone: `node --import tsx test/bench/rush.bench.ts`; `SVC_RUSH_CLIENTS=200` runs one size.
 */
import { sql } from 'drizzle-orm';
import { queryRows } from '../../server/db/client';
import { signValue } from '../../server/security/nonce';
import type { BenchResult } from './types';
import { runRush, startBenchServer } from './bench-server';
import { benchCreation } from './booking.bench';
import { runWhenMain } from './support';

const CLIENT_COUNTS = process.env.SVC_RUSH_CLIENTS ? process.env.SVC_RUSH_CLIENTS.split(',').map(Number) : [50, 200, 500];
/** The client count the sign-up rate target was set for (decision 021). */
const TARGET_CLIENTS = 200;
const SIGNUPS = 5000;
const SEATS = 1000;
const RATE_TARGET = 500;

async function signupRush(clients: number): Promise<BenchResult[]> {
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
    const requests = Array.from({ length: SIGNUPS }, (_, i) => ({
      path: `/svc/v1/events/${eventId}/signup`,
      method: 'POST' as const,
      headers,
      body: JSON.stringify({ email: `rush${i}@example.test`, display_name: `Rush ${i}`, quantity: 1, svc_ts: formToken, svc_hp: '' }),
    }));
    const rush = await runRush(server.url, clients, requests);
    const [going] = await queryRows<{ n: number }>(
      db,
      sql`select coalesce(sum(quantity), 0)::int as n from svc_attendees where event_id = ${eventId} and status = 'going'`,
    );
    const created = rush.statuses.get(201) ?? 0;
    const refused = rush.statuses.get(409) ?? 0;
    const other = SIGNUPS - created - refused;
    const judged = clients === TARGET_CLIENTS;
    const scenario = `sign-up rush, ${clients} concurrent clients, ${SIGNUPS} sign-ups for ${SEATS} seats (${kind})`;
    console.log(`${scenario}: ${Math.round(rush.requestsPerSecond)} requests/s, ${rush.serverErrors} 5xx, ${rush.unanswered} unanswered`);
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
      { name: `${scenario}, seats going`, value: Number(going!.n), unit: 'seats', target: `= ${SEATS}`, pass: Number(going!.n) === SEATS },
      { name: `${scenario}, answers other than 201/409`, value: other, unit: 'responses', target: '= 0', pass: other === 0 },
    ];
  } finally {
    await close();
  }
}

export default async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const clients of CLIENT_COUNTS) results.push(...(await signupRush(clients)));
  for (const clients of CLIENT_COUNTS) results.push(...(await benchCreation(clients)));
  return results;
}

runWhenMain(import.meta.url, run);
