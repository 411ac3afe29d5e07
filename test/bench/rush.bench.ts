/**
 * A sign-up rush on one hot event: 200 concurrent clients sign 5,000 people up for 1,000 seats
 * (no waitlist), over HTTP with the contract's nonce and form token, on PostgreSQL when
 * TEST_DATABASE_URL/DATABASE_URL is set (else PGlite). Targets on this 2-core machine: at least
 * 500 sign-ups/s, exactly 1,000 going, every other answer the "full" refusal. The clients run in a
 * worker thread (bench-server.ts `runRush`), not in the server's thread as before. The booking rush
 * is in booking.bench.ts.
 *
 * Run alone: `node --import tsx test/bench/rush.bench.ts`.
 */
import { sql } from 'drizzle-orm';
import { queryRows } from '../../server/db/client';
import { signValue } from '../../server/security/nonce';
import type { BenchResult } from './types';
import { runRush, startBenchServer } from './bench-server';
import { runWhenMain } from './support';

const CLIENTS = 200;
const SIGNUPS = 5000;
const SEATS = 1000;
const RATE_TARGET = 500;

export default async function run(): Promise<BenchResult[]> {
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
    const rush = await runRush(server.url, CLIENTS, requests);
    const [going] = await queryRows<{ n: number }>(
      db,
      sql`select coalesce(sum(quantity), 0)::int as n from svc_attendees where event_id = ${eventId} and status = 'going'`,
    );
    const created = rush.statuses.get(201) ?? 0;
    const refused = rush.statuses.get(409) ?? 0;
    const other = SIGNUPS - created - refused;
    const scenario = `sign-up rush, ${CLIENTS} concurrent clients, ${SIGNUPS} sign-ups for ${SEATS} seats (${kind})`;
    return [
      {
        name: `${scenario}, requests/s`,
        value: Math.round(rush.requestsPerSecond * 10) / 10,
        unit: 'requests/s',
        target: `>= ${RATE_TARGET}`,
        pass: rush.requestsPerSecond >= RATE_TARGET,
      },
      { name: `${scenario}, p99`, value: Math.round(rush.p99), unit: 'ms', target: 'report', pass: true },
      { name: `${scenario}, seats going`, value: Number(going!.n), unit: 'seats', target: `= ${SEATS}`, pass: Number(going!.n) === SEATS },
      { name: `${scenario}, answers other than 201/409`, value: other, unit: 'responses', target: '= 0', pass: other === 0 },
    ];
  } finally {
    await close();
  }
}

runWhenMain(import.meta.url, run);
