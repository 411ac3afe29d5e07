/**
 * Property tests of the door sync protocol (issue 16 item 7b, SPEC §6, decision 009): generated
 * schedules of scans on 1–3 doors over a network that loses requests and answers, duplicates and
 * reorders deliveries, with server restarts and page reloads in between. Everything is real: the
 * server (in-process, PGlite in memory), the door's sync engine and its IndexedDB queue
 * (fake-indexeddb), the door's tRPC transport. Only the network between them is simulated.
 *
 * Invariants, checked against the real rows:
 * - the server holds exactly one check-in row per accepted scan (device, clientId), and none for
 *   a refused one;
 * - a door's queue loses an item only when an answer that reached the door acknowledged it (or
 *   staff undid the scan before it was sent), survives reloads, and is empty once the network heals;
 * - every stored row carries the conflict SPEC §6 / decision 009 give for the server's state when
 *   the push was processed, or `again_elsewhere` set later when another door's earlier first
 *   entry of the same attendee arrived after it.
 *
 * A restart is the real thing minus the database: the server is closed and started again (new
 * process state: hooks, job runner, caches) on the same in-memory PGlite, which `openDatabase`
 * hands out again instead of opening a new one. The doors reach the server's Hono app in-process
 * (fetch to http://svc.test goes to `app.fetch`): no socket, same app, same context.
 *
 * A crash mid-push is the request delivered and committed, then a restart before the answer: the
 * door sees a network error.
 *
 * Reproduce a failure with the seed it prints: FC_SEED=<seed> npx vitest run --project unit test/unit/sync.properties.test.ts
 * FC_SCHEDULES overrides the number of schedules (default 1,000: about a minute on the 2-core CI
 * machine; past TIME_LIMIT_MS no new schedule starts and the summary says INTERRUPTED).
 */
import 'fake-indexeddb/auto';
import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { applyDownloadPage, emptySyncState } from '../../client/door/db/attendee-cache';
import { openDoorDb, type DoorDb } from '../../client/door/db/door-db';
import { lookupScan, pendingCount, recordScan, undoScan } from '../../client/door/db/scans';
import { createSyncEngine, type SyncEngine } from '../../client/door/sync/engine';
import { trpcTransport, type DoorTransport } from '../../client/door/sync/transport';
import { createApp } from '../../server/app';
import type { Database } from '../../server/db/client';
import { queryRows } from '../../server/db/client';
import { isAdmitted, type PushInput, type PushItem, type PushItemResult } from '../../shared/checkin';
import { apiClient, loginAs } from '../helpers/http';
import { startTestServer, type TestServer } from '../helpers/server';

// One in-memory database for every start of the server in this file: a restart loses the
// process's state, not its data (see the header).
const shared = vi.hoisted(() => ({ database: undefined as Promise<Database> | undefined }));
vi.mock('../../server/db/client', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../server/db/client')>();
  return {
    ...real,
    openDatabase: async (opts: Parameters<typeof real.openDatabase>[0]) => {
      shared.database ??= real.openDatabase(opts);
      return { ...(await shared.database), close: async () => {} };
    },
  };
});

const SCHEDULES = Number(process.env.FC_SCHEDULES ?? 1000);
const SEED = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
/** A safety valve only: 1,000 schedules take well under this on the 2-core CI machine. */
const TIME_LIMIT_MS = 150_000;
const BASE = 'http://svc.test';
const DEVICES = 3;

let srv: TestServer;
let app: ReturnType<typeof createApp>;
let adminToken = '';
const admin = () => apiClient(BASE, { bearer: adminToken });
const db = () => srv.server.ctx.db;
const stats = {
  schedules: 0,
  steps: 0,
  restarts: 0,
  reloads: 0,
  deliveries: 0,
  heldDeliveries: 0,
  inserted: 0,
  conflicts: new Map<string, number>(),
  /** Scans undone on the door while the server already held them (a push whose answer was lost): never annulled. */
  undoneButStored: [] as string[],
};

async function boot(): Promise<void> {
  srv = await startTestServer({ env: { SVC_JOBS: 'off' } });
  app = createApp(srv.server.ctx);
}

async function restartServer(): Promise<void> {
  await srv.close();
  await boot();
  stats.restarts++;
}

const realFetch = globalThis.fetch;
const LOOPBACK = { remoteAddress: '127.0.0.1', remotePort: 40000, remoteFamily: 'IPv4' };
vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  // the Node adapter's connection info, as a socket would give it (clientIp reads it)
  return url.startsWith(BASE) ? app.fetch(new Request(input, init), { incoming: { socket: LOOPBACK } }) : realFetch(input, init);
});

/** Every event of the pool has these attendees; a schedule uses the first `attendees` of them. */
const POOL_STATUSES = ['going', 'going', 'waitlist', 'cancelled'] as const;
interface PoolAttendee {
  id: number;
  ticketCode: string;
  codeHash: string;
}
/** Fresh events with their attendees, made in bulk (a schedule, or its replay while shrinking, takes one). */
const pool: Array<{ eventId: number; attendees: PoolAttendee[] }> = [];

async function takeEvent(): Promise<{ eventId: number; attendees: PoolAttendee[] }> {
  if (pool.length === 0) {
    const rows = await queryRows<{ eventId: number; id: number; ticketCode: string; codeHash: string }>(
      db(),
      sql`with events as (
            insert into svc_events (title, starts_utc, status)
            select 'Sync property ' || n, '2030-06-01 18:00:00', 'published' from generate_series(1, 200) as n
            returning id
          ), codes as (
            select e.id as event_id, k, md5(random()::text) || md5(random()::text) as code
            from events e, generate_series(0, ${POOL_STATUSES.length - 1}) as k
          )
          insert into svc_attendees (event_id, email, display_name, quantity, status, cancel_token, ticket_code, ticket_code_hash)
          select event_id, 'guest' || event_id || '-' || k || '@example.test', 'Guest ' || k, 1,
                 (${sql.raw(`array[${POOL_STATUSES.map((s) => `'${s}'`).join(',')}]`)})[k + 1],
                 md5(code || 'c') || md5(code || 'd'), code, encode(sha256(convert_to(code, 'UTF8')), 'hex')
          from codes order by event_id, k
          returning event_id as "eventId", id, ticket_code as "ticketCode", ticket_code_hash as "codeHash"`,
    );
    const byEvent = new Map<number, PoolAttendee[]>();
    for (const r of rows) byEvent.set(r.eventId, [...(byEvent.get(r.eventId) ?? []), { id: r.id, ticketCode: r.ticketCode, codeHash: r.codeHash }]);
    for (const [eventId, attendees] of byEvent) pool.push({ eventId, attendees: attendees.sort((a, b) => a.id - b.id) });
  }
  return pool.shift()!;
}

/** The doors' server-side identities, paired once; each schedule points them at its own event. */
const devices: Array<{ id: number; token: string }> = [];

beforeAll(async () => {
  await boot();
  const session = await loginAs(srv.url, srv.admin.email, srv.admin.password);
  const token = await session.api.post('/auth/tokens', { name: 'sync properties' });
  adminToken = token.body.token;
  const placeholder = await takeEvent();
  for (let i = 0; i < DEVICES; i++) {
    const created = await admin().post('/devices', { name: `Door ${i}`, eventIds: [placeholder.eventId] });
    const paired = await apiClient(BASE).post('/devices/pair', { code: created.body.pairing.pairingCode });
    devices.push({ id: created.body.id, token: paired.body.token });
  }
}, 120_000);

afterAll(async () => {
  await srv?.close();
  await (await shared.database)?.close();
});

// ---- schedules -------------------------------------------------------------------------------

/** What the network does to one push: delivered and answered, or one of the faults. */
type PushFault = 'ok' | 'dropRequest' | 'dropAnswer' | 'duplicate' | 'duplicateLate' | 'hold' | 'crash';
/** After the push: the round goes on (me, download, pull), the network drops, or the pull's answer is lost. */
type AfterPush = 'online' | 'offline' | 'pullLost';

type Step =
  | { kind: 'scan'; device: number; attendee: number; offsetSec: number; unknownCode: boolean }
  | { kind: 'sync'; device: number; push: PushFault; after: AfterPush; firstAnswer: boolean }
  | { kind: 'deliverHeld'; pick: number }
  | { kind: 'admin'; attendee: number; change: 'cancelled' | 'waitlist' | 'going' | 'delete' | 'checkin' }
  | { kind: 'reload'; device: number }
  | { kind: 'restart' }
  | { kind: 'undo'; device: number; pick: number };

interface Schedule {
  devices: number;
  /** How many of the event's attendees (going, going, waitlist, cancelled) the doors scan. */
  attendees: number;
  /** Per door: whether it starts with the event downloaded (else its first round downloads it). */
  cached: boolean[];
  steps: Step[];
  /** Order in which requests still held in the network arrive before it heals. */
  heldOrder: number[];
}

const index = fc.nat({ max: 11 });
const weighted = <T>(entries: Array<[number, T]>): fc.Arbitrary<T> =>
  fc.oneof(...entries.map(([weight, value]) => ({ weight, arbitrary: fc.constant(value) })));
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 32,
    arbitrary: fc.record({
      kind: fc.constant('scan' as const),
      device: index,
      attendee: index,
      offsetSec: fc.integer({ min: -900, max: 900 }),
      unknownCode: fc.nat({ max: 9 }).map((n) => n === 0),
    }),
  },
  {
    weight: 28,
    arbitrary: fc.record({
      kind: fc.constant('sync' as const),
      device: index,
      push: weighted<PushFault>([
        [12, 'ok'],
        [4, 'dropRequest'],
        [8, 'dropAnswer'],
        [4, 'duplicate'],
        [4, 'duplicateLate'],
        [6, 'hold'],
        [1, 'crash'],
      ]),
      after: weighted<AfterPush>([
        [5, 'offline'],
        [1, 'online'],
        [1, 'pullLost'],
      ]),
      firstAnswer: fc.boolean(),
    }),
  },
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('deliverHeld' as const), pick: index }) },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('admin' as const),
      attendee: index,
      change: fc.constantFrom('cancelled', 'waitlist', 'going', 'delete', 'checkin'),
    }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('reload' as const), device: index }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('undo' as const), device: index, pick: index }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
);

const scheduleArb: fc.Arbitrary<Schedule> = fc.record({
  devices: fc.integer({ min: 1, max: DEVICES }),
  attendees: fc.integer({ min: 1, max: POOL_STATUSES.length }),
  cached: fc.array(fc.boolean(), { minLength: DEVICES, maxLength: DEVICES }),
  steps: fc.array(stepArb, { minLength: 3, maxLength: 10 }),
  heldOrder: fc.array(fc.nat(), { maxLength: 6 }),
});

// ---- the model: what SPEC §6 says the server does with one pushed item ------------------------

interface ServerSnapshot {
  attendees: Array<{ id: number; status: string; codeHash: string; updatedUtc: string }>;
  /** Attendees deleted from the event (the change log's tombstones). */
  deleted: Set<number>;
  /** Check-ins that are not annulled: who came in, through which device, when. */
  checkins: Array<{ attendeeId: number; deviceId: number | null; scannedUtc: string }>;
}

type Expected = { status: 'inserted'; conflict: string | null } | { status: 'rejected'; reason: string };

/** SPEC §6 and decision 009 for one pushed item of `deviceId`, on the server's state before the push. */
function expectedOutcome(item: PushItem, snap: ServerSnapshot, deviceId: number): Expected {
  if (!isAdmitted(item.verdictOnDevice)) return { status: 'rejected', reason: item.verdictOnDevice };
  const attendee = snap.attendees.find((a) => (item.codeHash !== undefined ? a.codeHash === item.codeHash : a.id === item.attendeeId));
  if (attendee) {
    if (attendee.status === 'going' || attendee.status === '') {
      // two doors admitted one ticket while apart
      const elsewhere =
        item.verdictOnDevice === 'ok' &&
        snap.checkins.some((c) => c.attendeeId === attendee.id && c.deviceId !== null && c.deviceId !== deviceId && c.scannedUtc <= item.scannedUtc);
      return { status: 'inserted', conflict: elsewhere ? 'again_elsewhere' : null };
    }
    if (attendee.status === 'waitlist') return { status: 'inserted', conflict: 'waitlist' };
    return { status: 'inserted', conflict: attendee.updatedUtc <= item.scannedUtc ? 'cancelled_before_scan' : 'cancelled' };
  }
  if (item.attendeeId !== undefined && snap.deleted.has(item.attendeeId)) return { status: 'inserted', conflict: 'deleted' };
  return { status: 'rejected', reason: 'unknown' };
}

async function serverSnapshot(eventId: number): Promise<ServerSnapshot> {
  const [row] = await queryRows<{ attendees: ServerSnapshot['attendees']; deleted: number[]; checkins: ServerSnapshot['checkins'] }>(
    db(),
    sql`select
          (select coalesce(json_agg(json_build_object('id', id, 'status', status, 'codeHash', ticket_code_hash,
                  'updatedUtc', to_char(updated_utc, 'YYYY-MM-DD HH24:MI:SS'))), '[]') from svc_attendees where event_id = ${eventId}) as attendees,
          (select coalesce(json_agg(distinct entity_id), '[]') from svc_changes where entity = 'attendee' and op = 'delete' and event_id = ${eventId}) as deleted,
          (select coalesce(json_agg(json_build_object('attendeeId', attendee_id, 'deviceId', device_id,
                  'scannedUtc', to_char(scanned_utc, 'YYYY-MM-DD HH24:MI:SS'))), '[]') from svc_checkins where event_id = ${eventId} and annulled_utc is null) as checkins`,
  );
  const parse = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);
  return { attendees: parse(row!.attendees), deleted: new Set(parse(row!.deleted).map(Number)), checkins: parse(row!.checkins) };
}

/** Stored scans SPEC §6 flags `again_elsewhere` that the server stored without it (see the last test). */
const againElsewhereMisses: string[] = [];

// ---- one schedule ------------------------------------------------------------------------------

interface Door {
  slot: number;
  deviceId: number;
  token: string;
  name: string;
  dbName: string;
  db: DoorDb;
  engine: SyncEngine;
  real: DoorTransport;
  /** The network's plan for the current round. */
  plan: { push: PushFault; after: AfterPush; firstAnswer: boolean };
  pushesThisRound: number;
  /** Outbox clientIds whose acknowledgement reached this door. */
  acked: Set<string>;
  /** Scans undone before they were sent (dropped from the outbox by staff, not by the server). */
  dropped: Set<string>;
  scans: string[];
}

const networkLost = () => new TypeError('fetch failed');
const HEALTHY = { push: 'ok', after: 'offline', firstAnswer: true } as const;

class ScheduleRun {
  readonly doors: Door[] = [];
  /** Requests the network holds back and delivers later (their answers reach nobody). */
  readonly held: Array<{ door: Door; input: PushInput }> = [];
  /** `deviceId:clientId` → what the door recorded. */
  readonly scans = new Map<string, { door: Door; item: PushItem }>();
  readonly inserted = new Map<string, { checkinId: number; conflict: string | null }>();
  readonly rejected = new Map<string, string>();
  readonly scanOfCheckin = new Map<number, string>();
  adminCheckins = 0;
  readonly log: string[] = [];

  constructor(
    readonly eventId: number,
    readonly attendees: PoolAttendee[],
  ) {}

  /** The request reaches the server: the real push with the door's token, judged against the model. */
  async deliver(door: Door, input: PushInput): Promise<{ results: PushItemResult[] }> {
    const snap = await serverSnapshot(this.eventId);
    const answer = await door.real.push(input);
    stats.deliveries++;
    expect(answer.results.map((r) => r.clientId)).toEqual(input.items.map((i) => i.clientId));
    // the model's doors push scans only (walk-ins: test/integration/sync.walk-in.test.ts)
    input.items.forEach((item, i) => this.judge(door, item as PushItem, answer.results[i]!, snap));
    return answer;
  }

  judge(door: Door, item: PushItem, result: PushItemResult, snap: ServerSnapshot): void {
    const key = `${door.deviceId}:${item.clientId}`;
    const stored = this.inserted.get(key);
    if (stored) {
      expect(result, `resent ${key}`).toEqual({ clientId: item.clientId, status: 'duplicate', checkinId: stored.checkinId });
      return;
    }
    const expected = expectedOutcome(item, snap, door.deviceId);
    if (expected.status === 'rejected') {
      expect(result, `${key} (${item.verdictOnDevice})`).toEqual({ clientId: item.clientId, status: 'rejected', reason: expected.reason });
      this.rejected.set(key, expected.reason);
      return;
    }
    expect(result.status, `${key} (${item.verdictOnDevice})`).toBe('inserted');
    const { checkinId, conflict } = result as Extract<PushItemResult, { status: 'inserted' }>;
    if (expected.conflict === 'again_elsewhere' && conflict === null) {
      againElsewhereMisses.push(`${key} scanned ${item.scannedUtc} (ok on the door) after a check-in elsewhere: stored without a conflict`);
    } else {
      expect(conflict, `conflict of ${key} (${item.verdictOnDevice}, scanned ${item.scannedUtc}) on ${JSON.stringify(snap)}`).toBe(expected.conflict);
    }
    this.inserted.set(key, { checkinId, conflict });
    this.scanOfCheckin.set(checkinId, item.clientId);
    stats.inserted++;
    stats.conflicts.set(String(conflict), (stats.conflicts.get(String(conflict)) ?? 0) + 1);
  }

  /** An answer that reaches the door: every item it settles counts as acknowledged. */
  received(door: Door, answer: { results: PushItemResult[] }): { results: PushItemResult[] } {
    for (const r of answer.results) if (r.status !== 'failed') door.acked.add(r.clientId);
    return answer;
  }

  /** The network between one door and the server, doing what the round's plan says. */
  network(door: Door): DoorTransport {
    const { real } = door;
    const after = () => door.plan.after;
    return {
      ...real,
      push: async (input) => {
        const fault = door.pushesThisRound++ === 0 ? door.plan.push : 'ok';
        switch (fault) {
          case 'dropRequest':
            throw networkLost();
          case 'hold':
            this.held.push({ door, input });
            throw networkLost();
          case 'dropAnswer':
            await this.deliver(door, input);
            throw networkLost();
          case 'crash':
            await this.deliver(door, input);
            await restartServer();
            throw networkLost();
          case 'duplicate': {
            const first = await this.deliver(door, input);
            const second = await this.deliver(door, input);
            return this.received(door, door.plan.firstAnswer ? first : second);
          }
          case 'duplicateLate': {
            const answer = await this.deliver(door, input);
            this.held.push({ door, input });
            return this.received(door, answer);
          }
          default:
            return this.received(door, await this.deliver(door, input));
        }
      },
      annul: async (checkinId) => {
        const outboxId = `annul:${this.scanOfCheckin.get(checkinId)}`;
        if (door.plan.push === 'dropRequest' || door.plan.push === 'hold') throw networkLost();
        try {
          const answer = await real.annul(checkinId);
          if (door.plan.push === 'dropAnswer' || door.plan.push === 'crash') throw networkLost();
          door.acked.add(outboxId);
          return answer;
        } catch (error) {
          // an error the server answered is an acknowledgement too (already annulled, forbidden)
          if (real.errorCode(error) !== 'network') door.acked.add(outboxId);
          throw error;
        }
      },
      me: async () => {
        if (after() === 'offline') throw networkLost();
        return real.me();
      },
      pull: async (input) => {
        const page = await real.pull(input);
        if (after() === 'pullLost') throw networkLost();
        return page;
      },
    };
  }

  async openDoor(slot: number, page: Awaited<ReturnType<DoorTransport['download']>> | null): Promise<Door> {
    const device = devices[slot]!;
    const dbName = `sync-properties-${randomUUID()}`;
    const door = {
      slot,
      deviceId: device.id,
      token: device.token,
      name: `Door ${slot}`,
      dbName,
      db: openDoorDb(dbName),
      real: trpcTransport(() => device.token, `${BASE}/trpc`),
      plan: { ...HEALTHY },
      pushesThisRound: 0,
      acked: new Set<string>(),
      dropped: new Set<string>(),
      scans: [],
    } as Omit<Door, 'engine'> as Door;
    // as `engine.pair` leaves it (the device is paired once for the whole file)
    await door.db.device.put({
      key: 'self',
      deviceId: device.id,
      name: door.name,
      token: device.token,
      eventIds: [this.eventId],
      pairedMs: Date.now(),
      revokedMs: null,
    });
    await door.db.syncState.put(emptySyncState(device.id));
    if (page) await applyDownloadPage(door.db, device.id, page, Date.now());
    door.engine = this.engineOf(door);
    this.doors.push(door);
    return door;
  }

  engineOf(door: Door): SyncEngine {
    return createSyncEngine({ db: door.db, transport: this.network(door), withLock: (fn) => fn() });
  }

  async sync(door: Door, plan: Door['plan']): Promise<void> {
    door.plan = plan;
    door.pushesThisRound = 0;
    await door.engine.syncNow();
  }

  async close(): Promise<void> {
    for (const door of this.doors) await door.db.delete();
  }
}

/** The outbox as `clientId → status`. */
async function outboxOf(door: Door): Promise<Map<string, string>> {
  return new Map((await door.db.outbox.toArray()).map((i) => [i.clientId, i.status]));
}

/** A door's queue loses an item only through an acknowledgement that reached it, or an undo before sending. */
function assertQueueLosesOnlyAcknowledged(door: Door, before: Map<string, string>, after: Map<string, string>, step: string): void {
  for (const [clientId, status] of before) {
    if (status !== 'queued' || after.get(clientId) === 'queued') continue;
    expect(door.acked.has(clientId) || door.dropped.has(clientId), `${door.name} lost ${clientId} from its queue without an acknowledgement (${step})`).toBe(
      true,
    );
  }
}

async function runSchedule(schedule: Schedule): Promise<void> {
  stats.schedules++;
  const { eventId, attendees } = await takeEvent();
  const used = devices.slice(0, schedule.devices);
  await db().execute(
    sql`update svc_devices set event_ids = ${JSON.stringify([eventId])}::jsonb where id in ${sql.raw(`(${used.map((d) => d.id).join(',')})`)}`,
  );
  const run = new ScheduleRun(eventId, attendees.slice(0, schedule.attendees));
  try {
    const page = schedule.cached.some(Boolean)
      ? await trpcTransport(() => devices[0]!.token, `${BASE}/trpc`).download({ eventId, afterId: 0, limit: 100 })
      : null;
    for (let slot = 0; slot < schedule.devices; slot++) await run.openDoor(slot, schedule.cached[slot] ? page : null);

    for (const [n, step] of schedule.steps.entries()) {
      stats.steps++;
      const label = `step ${n}: ${JSON.stringify(step)}`;
      // only the door a step acts on can change its queue: no engine runs between steps
      const door = 'device' in step && step.kind !== 'scan' ? run.doors[step.device % run.doors.length]! : null;
      const before = door && (await outboxOf(door));
      await runStep(run, step);
      if (door) {
        const after = await outboxOf(door);
        assertQueueLosesOnlyAcknowledged(door, before!, after, label);
        if (step.kind === 'reload') expect(after, 'the outbox survives a reload').toEqual(before);
      }
    }

    // The network heals: what it still holds arrives (in a generated order), then every door syncs.
    while (run.held.length > 0) {
      const pick = schedule.heldOrder[run.held.length % Math.max(1, schedule.heldOrder.length)] ?? 0;
      const [late] = run.held.splice(pick % run.held.length, 1);
      await run.deliver(late!.door, late!.input);
      stats.heldDeliveries++;
    }
    for (const door of run.doors) {
      for (let round = 0; round < 3 && (await pendingCount(door.db)) > 0; round++) {
        const before = await outboxOf(door);
        await run.sync(door, { ...HEALTHY });
        assertQueueLosesOnlyAcknowledged(door, before, await outboxOf(door), 'healed');
      }
      expect(await pendingCount(door.db), `${door.name}: the queue is empty once the network heals`).toBe(0);
    }
    await assertServerRows(run);
  } finally {
    await run.close();
  }
}

async function runStep(run: ScheduleRun, step: Step): Promise<void> {
  const door = 'device' in step ? run.doors[step.device % run.doors.length]! : null;
  switch (step.kind) {
    case 'scan': {
      const attendee = run.attendees[step.attendee % run.attendees.length]!;
      const codeHash = step.unknownCode ? randomBytes(32).toString('hex') : attendee.codeHash;
      const lookup = await lookupScan(door!.db, { codeHash }, run.eventId, door!.name);
      const row = await recordScan(door!.db, {
        clientId: randomUUID(),
        eventId: run.eventId,
        codeHash,
        lookup,
        source: 'scan',
        scannedMs: Date.now() + step.offsetSec * 1000,
      });
      const item = (await door!.db.outbox.where('clientId').equals(row.clientId).first())!;
      run.scans.set(`${door!.deviceId}:${row.clientId}`, { door: door!, item: (item as Extract<typeof item, { kind: 'scan' }>).item });
      door!.scans.push(row.clientId);
      return;
    }
    case 'sync':
      return run.sync(door!, { push: step.push, after: step.after, firstAnswer: step.firstAnswer });
    case 'deliverHeld': {
      if (run.held.length === 0) return;
      const [late] = run.held.splice(step.pick % run.held.length, 1);
      await run.deliver(late!.door, late!.input);
      stats.heldDeliveries++;
      return;
    }
    case 'admin': {
      const attendee = run.attendees[step.attendee % run.attendees.length]!;
      if (step.change === 'delete') await admin().delete(`/attendees/${attendee.id}`);
      else if (step.change === 'checkin') {
        const res = await admin().post('/checkins', { ticketCode: attendee.ticketCode, eventId: run.eventId });
        if (res.status === 201) run.adminCheckins++;
      } else await admin().patch(`/attendees/${attendee.id}`, { status: step.change });
      return;
    }
    case 'reload': {
      // the page goes away mid-whatever; IndexedDB stays, a new page opens it and makes a new engine
      door!.db.close();
      door!.db = openDoorDb(door!.dbName);
      door!.engine = run.engineOf(door!);
      stats.reloads++;
      return;
    }
    case 'restart':
      return restartServer();
    case 'undo': {
      if (door!.scans.length === 0) return;
      const clientId = door!.scans[step.pick % door!.scans.length]!;
      if ((await undoScan(door!.db, clientId)) === 'dropped') door!.dropped.add(clientId);
      return;
    }
  }
}

/** After the network healed: the server's rows are exactly the accepted scans, with their conflicts. */
async function assertServerRows(run: ScheduleRun): Promise<void> {
  const rows = await queryRows<{
    clientId: string;
    deviceId: number | null;
    attendeeId: number;
    conflict: string | null;
    scannedUtc: string;
    annulled: boolean;
  }>(
    db(),
    sql`select client_id::text as "clientId", device_id as "deviceId", attendee_id as "attendeeId", conflict,
               to_char(scanned_utc, 'YYYY-MM-DD HH24:MI:SS') as "scannedUtc", annulled_utc is not null as annulled
        from svc_checkins where event_id = ${run.eventId}`,
  );
  const logged = await queryRows<{ clientId: string; deviceId: number }>(
    db(),
    sql`select client_id::text as "clientId", device_id as "deviceId" from svc_scan_log where event_id = ${run.eventId}`,
  );
  const rowsOf = new Map<string, typeof rows>();
  for (const row of rows.filter((r) => r.deviceId !== null)) {
    const key = `${row.deviceId}:${row.clientId}`;
    rowsOf.set(key, [...(rowsOf.get(key) ?? []), row]);
  }
  expect(
    rows.filter((r) => r.deviceId === null),
    'the administrator’s online check-ins',
  ).toHaveLength(run.adminCheckins);
  for (const key of rowsOf.keys()) expect(run.scans.has(key), `a row ${key} no door scanned`).toBe(true);
  for (const [key, { door, item }] of run.scans) {
    const stored = rowsOf.get(key) ?? [];
    const accepted = run.inserted.get(key);
    if (!isAdmitted(item.verdictOnDevice)) {
      expect(stored, `${key}: a refused scan creates no row`).toEqual([]);
      expect(
        logged.filter((l) => `${l.deviceId}:${l.clientId}` === key),
        `${key}: a refused scan is logged once`,
      ).toHaveLength(1);
      continue;
    }
    // every admitted scan the door did not undo before sending reached the server and was decided
    if (!door.dropped.has(item.clientId)) expect(accepted !== undefined || run.rejected.has(key), `${key} never reached the server`).toBe(true);
    expect(stored.length, `${key}: one row per accepted scan`).toBe(accepted ? 1 : 0);
    if (!accepted) continue;
    // A first entry stored without a conflict is flagged later when another door's earlier first
    // entry of the same attendee arrives after it (docs/api.md#sync): the pair is flagged whichever
    // syncs first. The flag stays if that other entry is undone afterwards, so annulled rows count here.
    const flaggedLater =
      accepted.conflict === null &&
      stored[0]!.conflict === 'again_elsewhere' &&
      item.verdictOnDevice === 'ok' &&
      rows.some((r) => r.attendeeId === stored[0]!.attendeeId && r.deviceId !== null && r.deviceId !== door.deviceId && r.scannedUtc < item.scannedUtc);
    if (!flaggedLater) expect(stored[0]!.conflict, `${key}: the conflict stored`).toBe(accepted.conflict);
  }
  // what each door believes of its scans agrees with the server's acknowledgements
  for (const door of run.doors) {
    for (const local of await door.db.checkins.toArray()) {
      const key = `${door.deviceId}:${local.clientId}`;
      if (local.state === 'acked' || local.state === 'reflected')
        expect(local.checkinId, `${key}: the door's checkinId`).toBe(run.inserted.get(key)?.checkinId);
      if (local.state === 'rejected') expect(run.rejected.has(key), `${key}: rejected on the door, not by the server`).toBe(true);
      if (local.state === 'undone' && run.inserted.has(key)) stats.undoneButStored.push(key);
    }
  }
}

describe('the sync protocol under a faulty network (SPEC §6)', () => {
  it(
    `${SCHEDULES} schedules of scans on 1–3 doors with lost, duplicated and reordered deliveries, restarts and reloads: one row per accepted scan, queues emptied only by acknowledgements, conflicts per SPEC §6`,
    async () => {
      const started = performance.now();
      const details = await fc.check(
        fc.asyncProperty(scheduleArb, (schedule) => runSchedule(schedule)),
        {
          numRuns: SCHEDULES,
          seed: SEED,
          path: process.env.FC_PATH,
          endOnFailure: process.env.FC_PATH !== undefined,
          interruptAfterTimeLimit: TIME_LIMIT_MS,
          markInterruptAsFailure: false,
        },
      );
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const summary = [
        `[sync properties] seed ${details.seed}: ${details.numRuns} schedules (${stats.schedules} with shrinking), ${stats.steps} steps,`,
        `${stats.deliveries} deliveries (${stats.heldDeliveries} late), ${stats.restarts} restarts, ${stats.reloads} reloads,`,
        `${stats.inserted} rows stored (conflicts ${JSON.stringify(Object.fromEntries(stats.conflicts))}) in ${seconds} s`,
      ];
      summary.push(`; ${againElsewhereMisses.length} scans SPEC §6 flags again_elsewhere stored without it`);
      if (details.interrupted) summary.push(`— INTERRUPTED after ${TIME_LIMIT_MS / 1000} s`);
      if (stats.undoneButStored.length)
        summary.push(`; ${stats.undoneButStored.length} scans undone on the door but stored on the server (e.g. ${stats.undoneButStored[0]})`);
      console.log(summary.join(' '));
      if (details.failed) {
        const cause = details.errorInstance instanceof Error ? details.errorInstance : new Error(String(details.errorInstance));
        throw new Error(`${fc.defaultReportMessage(details) ?? `failed with seed ${details.seed}`}\n\n${cause.message}`, { cause });
      }
      expect(details.numRuns).toBeGreaterThanOrEqual(details.interrupted ? 1 : SCHEDULES);
    },
    TIME_LIMIT_MS + 120_000,
  );

  // SPEC §6: "A scan the device judged ok of an attendee who already has a check-in (not annulled)
  // from another device with an earlier scan time is stored with conflict again_elsewhere."
  // The server does not flag it yet (shared/checkin-rules.ts has no such conflict), so this is
  // expected to fail; when the rule is implemented, vitest reports it and `.fails` goes.
  it('a door’s ok scan of an attendee already checked in elsewhere earlier is stored with again_elsewhere', () => {
    expect(againElsewhereMisses.slice(0, 3)).toEqual([]);
  });
});
