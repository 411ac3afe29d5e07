/**
 * A bounded soak (issue 20): one server under a steady mixed load for SOAK_SECONDS (default 60)
 * with jobs running — event reads, slot reads, sign-ups, bookings, door pushes and pulls, the
 * admin's attendee list — sampling the process's memory every second. Prints the RSS slope (MB
 * per minute, least squares after the warm-up), whether RSS stays within ±10 % of its level at
 * the end of the warm-up, where the memory is (V8 heap, external, array buffers, PGlite's wasm
 * memory), p99 per kind and the count of 5xx answers.
 *
 * Database: PostgreSQL when SOAK_DATABASE_URL, TEST_DATABASE_URL or DATABASE_URL is set (a scratch
 * database on that server), else PGlite on disk under a temporary SVC_DATA_DIR, as `npm start`
 * runs it (SOAK_PGLITE_MEMORY=1: in memory, where the data itself grows the wasm heap).
 * SOAK_PG_RESTART=1 restarts PostgreSQL at 8/15 of the run (SOAK_PG_RESTART_COMMAND, default
 * `pg_ctlcluster --skip-systemctl-redirect 15 main restart`) and reports the 5xx answers of the
 * restart window apart, and how long after PostgreSQL accepted connections again (pg_isready) the
 * server's /ready answered 200.
 *
 * Run alone: `node --import tsx test/bench/soak.bench.ts`, or `npm run bench -- soak`
 * (SOAK_SECONDS=900 for the 15 minutes; SOAK_WARMUP_SECONDS, default a fifth, at most 60).
 * `node --expose-gc --import tsx …` adds the heap left after a full GC once a minute (a leak's
 * signature); SOAK_SAMPLES_FILE=path writes the per-second memory samples as CSV;
 * SOAK_HEAP_SNAPSHOTS=dir writes a heap snapshot after the warm-up and one at the end.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { writeHeapSnapshot } from 'node:v8';
import { randomUUID, createHash } from 'node:crypto';
import { createTRPCClient, httpLink } from '@trpc/client';
import { loadEnv } from '../../server/env';
import { startServer } from '../../server/main';
import { surviveDriverConnectionLoss } from '../../server/db/driver-faults';
import type { AppRouter } from '../../server/api/router';
import { signValue } from '../../server/security/nonce';
import { transformer } from '../../shared/transformer';
import { toUtcString } from '../../shared/time';
import { createScratchPostgres } from '../helpers/db';
import { percentile, runWhenMain, seededRandom, seedAttendees } from './support';
import type { BenchResult } from './types';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const WARMUP_S = Number(process.env.SOAK_WARMUP_SECONDS ?? Math.min(60, Math.round(SECONDS / 5)));
const CLIENTS = 8;
const RSS_SLOPE_TARGET_MB_PER_MIN = 2;
const RSS_BAND = 0.1;
const P99_TARGET_MS = 500;
/** The memory targets hold for a soak of 10 minutes or more: a shorter one ends while the heap is still finding its level. */
const MEMORY_TARGET_MIN_SECONDS = 600;
const memoryJudged = SECONDS >= MEMORY_TARGET_MIN_SECONDS;
const MEMORY_INFO = `info (judged from SOAK_SECONDS=${MEMORY_TARGET_MIN_SECONDS})`;
const BACK_TARGET_S = 5;
const ADMIN = { email: 'admin@example.test', password: 'correct horse battery staple' };
const DAY = 86_400_000;
const PG_URL = process.env.SOAK_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
const PG_RESTART = process.env.SOAK_PG_RESTART === '1';
const PG_RESTART_COMMAND = process.env.SOAK_PG_RESTART_COMMAND ?? 'pg_ctlcluster --skip-systemctl-redirect 15 main restart';
/** Where the soak restarted PostgreSQL: minute 8 of 15. */
const RESTART_AT = 8 / 15;

type Kind = 'events' | 'slots' | 'signup' | 'booking' | 'push' | 'pull' | 'attendees';

export async function run(): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-soak-'));
  if (PG_RESTART && !PG_URL) throw new Error('SOAK_PG_RESTART=1 needs PostgreSQL (SOAK_DATABASE_URL or DATABASE_URL)');
  // the scratch database is made on the server SOAK_DATABASE_URL names
  if (PG_URL) process.env.TEST_DATABASE_URL = PG_URL;
  const scratch = PG_URL ? await createScratchPostgres() : null;
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
  const server = await startServer(env, { memoryDb: !scratch && process.env.SOAK_PGLITE_MEMORY === '1' });
  // As `npm start` runs it: the driver's failures on a lost connection are survived (server/db/driver-faults.ts).
  surviveDriverConnectionLoss(server.ctx.logger);
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

    const load = loadavg();
    const memory: MemorySample[] = [];
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    const sample = () => memory.push({ t: seconds(), ...memoryNow(server.ctx.db) });
    sample();
    const sampler = setInterval(sample, 1000);
    // with `node --expose-gc`: the heap that survives a full collection, once a minute (a leak shows here, GC timing does not)
    const live: Array<[number, number]> = [];
    const gc = (globalThis as { gc?: () => void }).gc;
    // SOAK_HEAP_SNAPSHOTS=dir: a heap snapshot at the end of the warm-up and one at the end (after a full GC when exposed)
    const snapshotDir = process.env.SOAK_HEAP_SNAPSHOTS;
    const snapshot = (name: string) => {
      if (!snapshotDir) return;
      gc?.();
      writeHeapSnapshot(path.join(snapshotDir, `soak-${name}.heapsnapshot`));
    };
    const warmSnapshot = setTimeout(() => snapshot('after-warm-up'), WARMUP_S * 1000);
    const collector = gc
      ? setInterval(() => {
          gc();
          live.push([seconds(), process.memoryUsage().heapUsed / 1_048_576]);
        }, 60_000)
      : null;
    const deadline = started + SECONDS * 1000;
    const restart = PG_RESTART ? restartPostgresAt(started + SECONDS * 1000 * RESTART_AT, scratch!.url, url, seconds) : null;
    // a failed restart is reported when the load is over (awaited below), not as an unhandled rejection mid-run
    restart?.catch(() => undefined);
    // the load's own record (~100 bytes a request: an object, two heap numbers) is in the heap it measures: ~3 MB in 15 minutes,
    // the only growth between two heap snapshots of a 6-minute run
    const requests: Array<{ kind: Kind; from: number; to: number; status: number }> = [];
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (performance.now() < deadline) {
          const kind = mix[Math.floor(random() * mix.length)]!;
          const from = seconds();
          const status = await once[kind]().catch(() => 599);
          requests.push({ kind, from, to: seconds(), status });
        }
      }),
    );
    clearInterval(sampler);
    if (collector) clearInterval(collector);
    clearTimeout(warmSnapshot);
    snapshot('end');
    const window = restart ? await restart : null;
    const loadAfter = loadavg();

    // a request that overlapped the restart window (PostgreSQL down until the server was ready again) is counted apart
    const inWindow = (r: { from: number; to: number }) => window !== null && r.to >= window.startS && r.from <= window.serverBackS;
    const fiveXx = requests.filter((r) => r.status >= 500 && !inWindow(r)).length;
    const db = scratch ? 'PostgreSQL' : process.env.SOAK_PGLITE_MEMORY === '1' ? 'PGlite in memory' : 'PGlite on disk';
    const after = memory.filter((m) => m.t >= WARMUP_S);
    const slope = slopePerMin(after.map((m) => [m.t, m.rss]));
    // the level at the end of the warm-up: the median of its last 10 samples
    const base = median(
      memory
        .filter((m) => m.t < WARMUP_S)
        .slice(-10)
        .map((m) => m.rss),
    );
    const deviation = after.length ? Math.max(...after.map((m) => Math.abs(m.rss - base) / base)) : NaN;
    const first = after[0] ?? memory[0]!;
    const last = memory[memory.length - 1]!;
    console.log(`soak on ${db}, ${SECONDS} s, warm-up ${WARMUP_S} s, ${CLIENTS} clients, ${requests.length} requests`);
    console.log(`load average (1/5/15 min): ${fmtLoad(load)} at start, ${fmtLoad(loadAfter)} at the end (2 cores, shared)`);
    console.log('memory after warm-up → end (MB), slope (MB/min):');
    for (const key of ['rss', 'heapUsed', 'heapTotal', 'external', 'arrayBuffers', 'wasm'] as const) {
      if (first[key] === null || last[key] === null) continue;
      console.log(
        `  ${key.padEnd(12)} ${first[key]!.toFixed(1).padStart(8)} → ${last[key]!.toFixed(1).padStart(8)}   ${slopePerMin(after.map((m) => [m.t, m[key] ?? 0])).toFixed(2)}`,
      );
    }
    console.log(
      `  rss band after warm-up: ${Math.min(...after.map((m) => m.rss)).toFixed(1)}–${Math.max(...after.map((m) => m.rss)).toFixed(1)} MB around ${base.toFixed(1)} MB`,
    );
    // a GC cycle or a burst moves RSS for seconds; a minute's median shows the level
    const minutes = perMinute(memory);
    const minuteDeviation = after.length ? Math.max(...perMinute(after).map((m) => Math.abs(m.rss - base) / base)) : NaN;
    console.log('per minute (medians, MB): minute rss heapUsed heapTotal external arrayBuffers');
    for (const m of minutes) {
      console.log(
        `  ${String(m.minute).padStart(3)} ${[m.rss, m.heapUsed, m.heapTotal, m.external, m.arrayBuffers].map((v) => v.toFixed(1).padStart(7)).join(' ')}`,
      );
    }
    if (live.length > 1)
      console.log(`  heap after a full GC: ${live.map(([, mb]) => mb.toFixed(1)).join(', ')} MB; slope ${slopePerMin(live).toFixed(2)} MB/min`);
    if (process.env.SOAK_SAMPLES_FILE) {
      const columns = ['t', 'rss', 'heapUsed', 'heapTotal', 'external', 'arrayBuffers', 'wasm'] as const;
      writeFileSync(process.env.SOAK_SAMPLES_FILE, `${[columns.join(','), ...memory.map((m) => columns.map((c) => m[c] ?? '').join(','))].join('\n')}\n`);
    }
    const results: BenchResult[] = [
      {
        name: `soak ${SECONDS} s (${db}, ${CLIENTS} clients): RSS slope after warm-up`,
        value: slope,
        unit: 'MB/min',
        target: memoryJudged ? `< ${RSS_SLOPE_TARGET_MB_PER_MIN}` : MEMORY_INFO,
        pass: !memoryJudged || slope < RSS_SLOPE_TARGET_MB_PER_MIN,
      },
      {
        name: `soak ${SECONDS} s: RSS's largest distance from its level after warm-up (${base.toFixed(0)} MB)`,
        value: deviation * 100,
        unit: '%',
        target: memoryJudged ? `<= ${RSS_BAND * 100}` : MEMORY_INFO,
        pass: !memoryJudged || deviation <= RSS_BAND,
      },
      {
        name: `soak ${SECONDS} s: RSS's per-minute median, largest distance from that level`,
        value: minuteDeviation * 100,
        unit: '%',
        target: memoryJudged ? `<= ${RSS_BAND * 100}` : MEMORY_INFO,
        pass: !memoryJudged || minuteDeviation <= RSS_BAND,
      },
      { name: `soak ${SECONDS} s: 5xx answers${window ? ' outside the restart window' : ''}`, value: fiveXx, unit: '', target: '= 0', pass: fiveXx === 0 },
    ];
    if (window) {
      const during = requests.filter((r) => inWindow(r));
      const failed = during.filter((r) => r.status >= 500).length;
      const back = window.serverBackS - window.pgBackS;
      console.log(
        `PostgreSQL restart at ${window.startS.toFixed(1)} s: answering again at ${window.pgBackS.toFixed(1)} s, the server ready at ${window.serverBackS.toFixed(1)} s; ${failed} of ${during.length} requests in that window answered 5xx (${during.filter((r) => r.status === 503).length} of them 503)`,
      );
      results.push(
        { name: 'soak: 5xx answers during the PostgreSQL restart', value: failed, unit: '', target: 'reported', pass: true },
        { name: 'soak: server ready after PostgreSQL answered again', value: back, unit: 's', target: `< ${BACK_TARGET_S}`, pass: back < BACK_TARGET_S },
      );
    }
    const byKind = new Map<Kind, number[]>();
    for (const r of requests) {
      if (inWindow(r)) continue;
      if (!byKind.has(r.kind)) byKind.set(r.kind, []);
      byKind.get(r.kind)!.push((r.to - r.from) * 1000);
    }
    for (const [kind, list] of [...byKind.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      list.sort((a, b) => a - b);
      const p99 = percentile(list, 99);
      results.push({
        name: `soak p99 ${kind} (${list.length} requests${window ? ', restart window left out' : ''})`,
        value: p99,
        unit: 'ms',
        target: `< ${P99_TARGET_MS}`,
        pass: p99 < P99_TARGET_MS,
      });
    }
    return results;
  } finally {
    await server.close();
    await scratch?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface MemorySample {
  t: number;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** PGlite's WebAssembly memory (part of `external`); null on PostgreSQL. */
  wasm: number | null;
}

/** The process's memory in MB: V8's heap, what lives outside it, and the wasm heap of an embedded PGlite. */
function memoryNow(db: unknown): Omit<MemorySample, 't'> {
  const m = process.memoryUsage();
  const wasm = (db as { $client?: { mod?: { HEAPU8?: Uint8Array } } }).$client?.mod?.HEAPU8?.byteLength;
  const mb = (n: number) => n / 1_048_576;
  return {
    rss: mb(m.rss),
    heapUsed: mb(m.heapUsed),
    heapTotal: mb(m.heapTotal),
    external: mb(m.external),
    arrayBuffers: mb(m.arrayBuffers),
    wasm: wasm === undefined ? null : mb(wasm),
  };
}

/**
 * At `atMs` (performance.now()), restarts PostgreSQL; answers, in seconds of the run, when the
 * restart began, when PostgreSQL answered a query again, and when the server's /ready said 200.
 */
async function restartPostgresAt(
  atMs: number,
  databaseUrl: string,
  serverUrl: string,
  seconds: () => number,
): Promise<{ startS: number; pgBackS: number; serverBackS: number }> {
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, atMs - performance.now())));
  const startS = seconds();
  const [file, ...args] = PG_RESTART_COMMAND.split(' ');
  await promisify(execFile)(file!, args);
  const deadline = performance.now() + 60_000;
  const until = async (ok: () => Promise<boolean>) => {
    while (!(await ok().catch(() => false))) {
      if (performance.now() > deadline) throw new Error('not back within 60 s of the restart');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return seconds();
  };
  // pg_isready in its own process: a driver in this one would share the server's fate if a dropped connection crashed it
  const pg = new URL(databaseUrl);
  const pgBackS = await until(async () => {
    await promisify(execFile)('pg_isready', ['-q', '-h', pg.hostname, '-p', pg.port || '5432', '-t', '2']);
    return true;
  });
  const serverBackS = await until(async () => (await fetch(`${serverUrl}/svc/v1/ready`)).status === 200);
  return { startS, pgBackS, serverBackS };
}

/** Least-squares slope of (seconds, MB) samples, in MB per minute. */
function slopePerMin(samples: Array<[number, number]>): number {
  if (samples.length < 2) return 0;
  const n = samples.length;
  const mx = samples.reduce((s, [x]) => s + x, 0) / n;
  const my = samples.reduce((s, [, y]) => s + y, 0) / n;
  const num = samples.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = samples.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return den === 0 ? 0 : (num / den) * 60;
}

/** Each whole minute's median of every memory figure. */
function perMinute(
  samples: MemorySample[],
): Array<{ minute: number; rss: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number }> {
  const minutes = new Map<number, MemorySample[]>();
  for (const m of samples) {
    const minute = Math.floor(m.t / 60);
    if (!minutes.has(minute)) minutes.set(minute, []);
    minutes.get(minute)!.push(m);
  }
  return [...minutes.entries()].map(([minute, list]) => ({
    minute,
    rss: median(list.map((m) => m.rss)),
    heapUsed: median(list.map((m) => m.heapUsed)),
    heapTotal: median(list.map((m) => m.heapTotal)),
    external: median(list.map((m) => m.external)),
    arrayBuffers: median(list.map((m) => m.arrayBuffers)),
  }));
}

function median(list: number[]): number {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : 0;
}

const fmtLoad = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');

runWhenMain(import.meta.url, run);
