/**
 * A bounded soak (issue 20): one server under a steady mixed load for SOAK_SECONDS (default 60)
 * with jobs running — event reads, slot reads, sign-ups, bookings, door pushes and pulls, the
 * admin's attendee list — sampling the process's resident memory every second. Prints the RSS
 * slope (MB per minute, least squares after a 10 s warm-up), p99 per kind and the count of 5xx
 * answers. On PostgreSQL when TEST_DATABASE_URL/DATABASE_URL is set, else PGlite.
 *
 * Run alone: `node --import tsx test/bench/soak.bench.ts` (SOAK_SECONDS=900 for the long soak).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID, createHash } from 'node:crypto';
import { createTRPCClient, httpLink } from '@trpc/client';
import { loadEnv } from '../../server/env';
import { startServer } from '../../server/main';
import type { AppRouter } from '../../server/api/router';
import { signValue } from '../../server/security/nonce';
import { transformer } from '../../shared/transformer';
import { toUtcString } from '../../shared/time';
import { createScratchPostgres } from '../helpers/db';
import { percentile, runWhenMain, seededRandom, seedAttendees } from './support';
import type { BenchResult } from './types';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const CLIENTS = 8;
const WARMUP_S = 10;
const RSS_SLOPE_TARGET_MB_PER_MIN = 2;
const P99_TARGET_MS = 500;
const ADMIN = { email: 'admin@example.test', password: 'correct horse battery staple' };
const DAY = 86_400_000;

type Kind = 'events' | 'slots' | 'signup' | 'booking' | 'push' | 'pull' | 'attendees';

export async function run(): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-soak-'));
  const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  const scratch = pgUrl ? await createScratchPostgres() : null;
  const env = loadEnv({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    SVC_DATA_DIR: dataDir,
    SVC_ADMIN_EMAIL: ADMIN.email,
    SVC_ADMIN_PASSWORD: ADMIN.password,
    SVC_SECRET: 'soak-secret-soak-secret-soak-secret-0123456789',
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  });
  const server = await startServer(env, { memoryDb: !scratch });
  const url = server.url;
  try {
    // one client machine: the per-IP throttles would stop it at a few a minute
    server.ctx.hooks.addFilter('svc_rsvp_client_ip', () => '');
    server.ctx.hooks.addFilter('svc_booking_client_ip', () => '');

    const login = await fetch(`${url}/svc/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify(ADMIN),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const adminHeaders = { 'content-type': 'application/json', cookie, origin: url };
    const post = async (p: string, body: unknown, headers: Record<string, string> = adminHeaders) => {
      const res = await fetch(`${url}/svc/v1${p}`, { method: 'POST', headers, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as any };
    };
    const event = (
      await post('/events', { title: 'Soak gala', startsUtc: toUtcString(Date.now() + 30 * DAY), status: 'published', capacity: 1_000_000, maxPerSignup: 2 })
    ).body;
    await seedAttendees(server.ctx.db, event.id, 5_000);
    const all = { start: '00:00', end: '24:00' };
    const hosts = [(await fetch(`${url}/svc/v1/users?perPage=1`, { headers: adminHeaders }).then((r) => r.json()))[0].id];
    const type = (
      await post('/booking-types', {
        title: 'Soak call',
        status: 'published',
        durationMinutes: 15,
        timezone: 'UTC',
        hosts,
        weeklyWindows: { mon: [all], tue: [all], wed: [all], thu: [all], fri: [all], sat: [all], sun: [all] },
        maxAdvanceDays: 365,
      })
    ).body;
    const device = (await post('/devices', { name: 'Soak door', eventIds: [event.id] })).body;
    const paired = (await post('/devices/pair', { code: device.pairing.pairingCode }, { 'content-type': 'application/json' })).body;
    const door = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${url}/trpc`, transformer, headers: { authorization: `Bearer ${paired.token}` } })] });
    const nonce = ((await (await fetch(`${url}/svc/v1/nonce`)).json()) as { nonce: string }).nonce;
    const formToken = () => signValue(server.ctx.secret, `signup-form|${event.id}`, String(Date.now() - 10_000));

    const random = seededRandom(20);
    const latencies = new Map<Kind, number[]>();
    let fiveXx = 0;
    let bookingSlot = 0;
    let cursor = '0:0';
    const firstDay = Math.floor(Date.now() / DAY) * DAY + 2 * DAY;

    const once: Record<Kind, () => Promise<number>> = {
      events: async () => (await fetch(`${url}/svc/v1/events?perPage=20`)).status,
      slots: async () => {
        const from = new Date(firstDay + Math.floor(random() * 60) * DAY).toISOString().slice(0, 10);
        return (await fetch(`${url}/svc/v1/booking-types/${type.id}/slots?from=${from}&to=${from}&timezone=UTC`)).status;
      },
      signup: async () =>
        (
          await post(
            `/events/${event.id}/signup`,
            { email: `soak-${randomUUID()}@example.test`, display_name: 'Soak Visitor', quantity: 1, svc_ts: formToken(), svc_hp: '' },
            { 'content-type': 'application/json', 'x-svc-nonce': nonce },
          )
        ).status,
      booking: async () => {
        // distinct starts, 15 minutes apart: a few collide with others' and answer 409, as in life
        const start = toUtcString(firstDay + (bookingSlot++ % (300 * 96)) * 15 * 60_000);
        return (
          await post(
            '/bookings',
            { bookingTypeId: type.id, startUtc: start, customerName: 'Soak', customerEmail: `soak-${randomUUID()}@example.test`, customerTz: 'UTC' },
            { 'content-type': 'application/json', 'x-svc-nonce': nonce },
          )
        ).status;
      },
      push: async () => {
        const n = 1 + Math.floor(random() * 5_000);
        const codeHash = createHash('sha256').update(`bench-${event.id}-${n}`).digest('hex');
        try {
          await door.sync.push.mutate({
            items: [{ clientId: randomUUID(), codeHash, eventId: event.id, scannedUtc: toUtcString(Date.now()), verdictOnDevice: 'ok', source: 'scan' }],
          });
          return 200;
        } catch (err) {
          return (err as { data?: { httpStatus?: number } }).data?.httpStatus ?? 500;
        }
      },
      pull: async () => {
        try {
          const answer = await door.sync.pull.query({ eventIds: [event.id], cursor, limit: 1000 });
          cursor = 'reset' in answer && answer.reset ? '0:0' : (answer as { cursor: string }).cursor;
          return 200;
        } catch (err) {
          return (err as { data?: { httpStatus?: number } }).data?.httpStatus ?? 500;
        }
      },
      attendees: async () =>
        (await fetch(`${url}/svc/v1/attendees?eventId=${event.id}&perPage=50&page=${1 + Math.floor(random() * 50)}`, { headers: adminHeaders })).status,
    };
    // the mix: mostly reads and scans, as on an event night
    const mix: Kind[] = ['events', 'events', 'slots', 'slots', 'signup', 'booking', 'push', 'push', 'push', 'pull', 'attendees'];

    const rss: Array<[number, number]> = [];
    const started = performance.now();
    const sampler = setInterval(() => rss.push([(performance.now() - started) / 1000, process.memoryUsage().rss / 1_048_576]), 1000);
    const deadline = started + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (performance.now() < deadline) {
          const kind = mix[Math.floor(random() * mix.length)]!;
          const t0 = performance.now();
          const status = await once[kind]().catch(() => 599);
          const ms = performance.now() - t0;
          if (status >= 500) fiveXx++;
          if (!latencies.has(kind)) latencies.set(kind, []);
          latencies.get(kind)!.push(ms);
        }
      }),
    );
    clearInterval(sampler);

    const slope = rssSlopeMbPerMin(rss.filter(([t]) => t >= Math.min(WARMUP_S, SECONDS / 3)));
    const db = scratch ? 'PostgreSQL' : 'PGlite';
    const results: BenchResult[] = [
      {
        name: `soak ${SECONDS} s (${db}, ${CLIENTS} clients): RSS slope after warm-up`,
        value: slope,
        unit: 'MB/min',
        target: `< ${RSS_SLOPE_TARGET_MB_PER_MIN}`,
        pass: slope < RSS_SLOPE_TARGET_MB_PER_MIN,
      },
      { name: `soak ${SECONDS} s: 5xx answers`, value: fiveXx, unit: '', target: '= 0', pass: fiveXx === 0 },
    ];
    for (const [kind, list] of [...latencies.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      list.sort((a, b) => a - b);
      const p99 = percentile(list, 99);
      results.push({ name: `soak p99 ${kind} (${list.length} requests)`, value: p99, unit: 'ms', target: `< ${P99_TARGET_MS}`, pass: p99 < P99_TARGET_MS });
    }
    return results;
  } finally {
    await server.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Least-squares slope of (seconds, MB) samples, in MB per minute. */
function rssSlopeMbPerMin(samples: Array<[number, number]>): number {
  if (samples.length < 2) return 0;
  const n = samples.length;
  const mx = samples.reduce((s, [x]) => s + x, 0) / n;
  const my = samples.reduce((s, [, y]) => s + y, 0) / n;
  const num = samples.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = samples.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return den === 0 ? 0 : (num / den) * 60;
}

runWhenMain(import.meta.url, run);
