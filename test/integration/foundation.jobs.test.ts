import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import type { Database } from '../../server/db/client';
import { openDatabase } from '../../server/db/client';
import { jobs } from '../../server/jobs/jobs.sql';
import { backoffSeconds, enqueueJob, JobRunner, KEEP_FINISHED_JOBS_DAYS, LEASE_SECONDS, OUTBOUND_RECEIVER, pruneFinishedJobs } from '../../server/jobs/queue';
import { toUtcString } from '../../shared/time';
import { openTestDatabase, TEST_DB_KIND } from '../helpers/db';
import { queueMail } from '../../server/mail/mailer';
import { capturedLogger } from '../helpers/logs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const silent = pino({ level: 'silent' });
let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());
afterEach(async () => {
  await database.db.delete(jobs);
});

describe('durable jobs', () => {
  it('a job queued in a rolled-back transaction never runs', async () => {
    const ran: unknown[] = [];
    const runner = new JobRunner(database.db, silent);
    runner.register('t.rollback', async (p) => void ran.push(p));
    await database.db
      .transaction(async (tx) => {
        await enqueueJob(tx, 't.rollback', { n: 1 });
        throw new Error('roll back');
      })
      .catch(() => {});
    expect(await runner.runDue()).toBe(0);
    expect(ran).toEqual([]);
  });

  it('a queued job runs once and is marked done', async () => {
    const ran: unknown[] = [];
    const runner = new JobRunner(database.db, silent);
    runner.register('t.once', async (p) => void ran.push(p));
    await enqueueJob(database.db, 't.once', { n: 1 });
    expect(await runner.runDue()).toBe(1);
    expect(await runner.runDue()).toBe(0);
    expect(ran).toEqual([{ n: 1 }]);
    const [row] = await database.db.select().from(jobs);
    expect(row!.state).toBe('done');
  });

  it('a failing job is retried later with backoff, then marked failed after its last attempt', async () => {
    let calls = 0;
    const runner = new JobRunner(database.db, silent);
    runner.register('t.fail', async () => {
      calls++;
      throw new Error('smtp down');
    });
    const id = (await enqueueJob(database.db, 't.fail', {}, { maxAttempts: 2 }))!;
    expect(await runner.runDue()).toBe(1);
    let [row] = await database.db.select().from(jobs).where(eq(jobs.id, id));
    expect(row).toMatchObject({ state: 'queued', attempts: 1, lastError: 'smtp down' });
    expect(row!.runAtUtc > row!.createdUtc).toBe(true);
    expect(await runner.runDue()).toBe(0); // not due yet: backoff
    expect(await runner.runDue(Date.now() + 3_600_000)).toBe(1);
    [row] = await database.db.select().from(jobs).where(eq(jobs.id, id));
    expect(row).toMatchObject({ state: 'failed', attempts: 2 });
    expect(calls).toBe(2);
  });

  it('a pass at a moved clock runs what the wall clock has due: a job queued by a job runs in the same pass', async () => {
    const ran: string[] = [];
    const runner = new JobRunner(database.db, silent);
    runner.register('t.first', async (_p, ctx) => {
      ran.push('first');
      await enqueueJob(ctx.db, 't.second', {});
    });
    runner.register('t.second', async () => void ran.push('second'));
    await enqueueJob(database.db, 't.first', {});
    // a clock a minute behind stands for a pass that began in an earlier second than the queueing
    expect(await runner.runDue(Date.now() - 60_000)).toBe(2);
    expect(ran).toEqual(['first', 'second']);
  });

  it('backoff doubles from 5 s and is capped at an hour', () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4].map((n) => backoffSeconds(n, mid))).toEqual([5, 10, 20, 40]);
    expect(backoffSeconds(30, mid)).toBe(3600);
  });

  it('a job whose worker died is claimed again once its lease runs out', async () => {
    const runner = new JobRunner(database.db, silent);
    let calls = 0;
    runner.register('t.lease', async () => void calls++);
    const id = (await enqueueJob(database.db, 't.lease', {}))!;
    // A worker claimed it and died: running, lease in the future.
    await database.db.execute(
      sql`update svc_jobs set state = 'running', attempts = 1, locked_until_utc = (now() at time zone 'utc') + interval '5 minutes' where id = ${id}`,
    );
    expect(await runner.runDue()).toBe(0);
    expect(await runner.runDue(Date.now() + 10 * 60_000)).toBe(1);
    expect(calls).toBe(1);
  });

  it('a recurring job is queued once per interval however often it is scheduled, and each run queues the next', async () => {
    const runner = new JobRunner(database.db, silent);
    let runs = 0;
    runner.every('t.every', 60_000, async () => void runs++);
    await runner.scheduleRecurring();
    await runner.scheduleRecurring();
    expect(await runner.runDue()).toBe(1);
    expect(runs).toBe(1);
    const rows = await database.db.select().from(jobs).where(eq(jobs.type, 't.every')).orderBy(jobs.id);
    expect(rows.map((r) => r.state)).toEqual(['done', 'queued']);
    expect(rows[1]!.runAtUtc > rows[0]!.runAtUtc).toBe(true);
    expect(await runner.runDue(Date.now() + 120_000)).toBe(1);
    expect(runs).toBe(2);
  });

  it('finished jobs are dropped after the keep period; pending, running, failed and recent ones stay', async () => {
    const now = Date.parse('2030-06-20T12:00:00Z');
    const finished = (days: number) => toUtcString(now - days * 86_400_000);
    await database.db.insert(jobs).values([
      { type: 't.old', payload: {}, state: 'done', finishedUtc: finished(KEEP_FINISHED_JOBS_DAYS + 1) },
      { type: 't.recent', payload: {}, state: 'done', finishedUtc: finished(KEEP_FINISHED_JOBS_DAYS - 1) },
      { type: 't.failed', payload: {}, state: 'failed', finishedUtc: finished(90) },
      { type: 't.queued', payload: {}, state: 'queued' },
      { type: 't.running', payload: {}, state: 'running' },
    ]);
    expect(await pruneFinishedJobs(database.db, KEEP_FINISHED_JOBS_DAYS, now)).toBe(1);
    const left = await database.db.select({ type: jobs.type }).from(jobs).orderBy(jobs.id);
    expect(left.map((j) => j.type)).toEqual(['t.recent', 't.failed', 't.queued', 't.running']);
  });

  it('a dead runner’s job is taken over once its 30-second lease has run out, not before', async () => {
    expect(LEASE_SECONDS).toBeLessThanOrEqual(30);
    // What a runner killed right after its claim leaves behind: the job running under a fresh lease.
    await database.db.insert(jobs).values({
      type: 't.takeover',
      payload: {},
      state: 'running',
      attempts: 1,
      lockedUntilUtc: sql`date_trunc('second', now() at time zone 'utc') + make_interval(secs => ${LEASE_SECONDS})` as never,
    });
    const ran: string[] = [];
    const other = new JobRunner(database.db, silent);
    other.register('t.takeover', async () => void ran.push('other'));
    expect(await other.runDue(Date.now() + (LEASE_SECONDS - 5) * 1000)).toBe(0);
    expect(await other.runDue(Date.now() + (LEASE_SECONDS + 2) * 1000)).toBe(1);
    expect(ran).toEqual(['other']);
  });

  it('a live runner renews the lease of the jobs it holds (heartbeat), so a long job is not taken over', async () => {
    await enqueueJob(database.db, 't.long', {});
    const leases: string[] = [];
    const runner = new JobRunner(database.db, silent, { batchSize: 1 });
    runner.register('t.long', async () => {
      const read = async () => (await database.db.select({ until: jobs.lockedUntilUtc }).from(jobs).where(eq(jobs.type, 't.long')))[0]!.until!;
      leases.push(await read());
      expect(await runner.heartbeat()).toBe(1);
      leases.push(await read());
    });
    expect(await runner.runDue()).toBe(1);
    expect(leases).toHaveLength(2);
    expect(leases[1]! >= leases[0]!).toBe(true);
    expect(await runner.heartbeat()).toBe(0); // nothing held once it finished
  });

  it('the same dedupe key is queued once while pending', async () => {
    expect(await enqueueJob(database.db, 't.dedupe', {}, { dedupeKey: 'reminder:1' })).not.toBeNull();
    expect(await enqueueJob(database.db, 't.dedupe', {}, { dedupeKey: 'reminder:1' })).toBeNull();
  });
});

/** A promise a test settles when it chooses: an outbound job "waiting on its receiver". */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('the outbound lane', () => {
  it('main-lane jobs run while an outbound job is still waiting on its receiver, and runDue waits for both', async () => {
    const runner = new JobRunner(database.db, silent);
    const receiver = gate();
    const ran: string[] = [];
    runner.register(
      't.deliver',
      async () => {
        ran.push('deliver started');
        await receiver.opened;
        ran.push('deliver answered');
      },
      { lane: 'outbound' },
    );
    runner.register('t.mail', async (p) => void ran.push(`mail ${String(p.n)}`));
    // the delivery is the oldest: in one lane it would hold back at least the mails after its batch
    await enqueueJob(database.db, 't.deliver', {}, { runAtUtc: toUtcString(Date.now() - 60_000) });
    const mails = Array.from({ length: 8 }, (_, n) => `mail ${n}`);
    for (let n = 0; n < mails.length; n++) await enqueueJob(database.db, 't.mail', { n });
    const pass = runner.runDue();
    try {
      await vi.waitFor(() => expect([...ran].sort()).toEqual(['deliver started', ...mails]), { timeout: 10_000, interval: 20 });
    } finally {
      receiver.open();
    }
    expect(await pass).toBe(1 + mails.length);
    expect(ran.at(-1)).toBe('deliver answered');
    const rows = await database.db.select({ state: jobs.state }).from(jobs);
    expect(rows.every((r) => r.state === 'done')).toBe(true);
  });

  it('outbound jobs of different receivers run at once, those of one receiver one after another', async () => {
    const runner = new JobRunner(database.db, silent);
    const receivers: Array<[string, string]> = [
      ['a1', 'webhook:1'],
      ['a2', 'webhook:1'],
      ['b1', 'webhook:2'],
      ['c1', 'webhook:3'],
    ];
    const gates = new Map(receivers.map(([name]) => [name, gate()]));
    const running = new Set<string>();
    const started: string[] = [];
    let mostAtOnce = 0;
    runner.register(
      't.post',
      async (p) => {
        const name = String(p.name);
        started.push(name);
        running.add(name);
        mostAtOnce = Math.max(mostAtOnce, running.size);
        await gates.get(name)!.opened;
        running.delete(name);
      },
      { lane: 'outbound' },
    );
    for (const [name, receiver] of receivers) await enqueueJob(database.db, 't.post', { name, [OUTBOUND_RECEIVER]: receiver });
    const pass = runner.runDue();
    try {
      await vi.waitFor(() => expect([...running].sort()).toEqual(['a1', 'b1', 'c1']), { timeout: 10_000, interval: 20 });
      expect(started).not.toContain('a2'); // its receiver is busy with a1
      gates.get('a1')!.open();
      await vi.waitFor(() => expect(running.has('a2')).toBe(true), { timeout: 10_000, interval: 20 });
    } finally {
      for (const g of gates.values()) g.open();
    }
    expect(await pass).toBe(4);
    expect(mostAtOnce).toBe(3);
  });
});

describe('no secret in a failed job’s log or stored error', () => {
  // A payment id is the visitor's key to /pay/{id}; a manage token is the key to their booking.
  const PAYMENT_ID = 'pay_7Hq2LrX9sKd3VbN8mZt4WcYp';
  const MANAGE_TOKEN = 'mT9xQ2vL7kR4pW8sN3bZ6yH1cJ5dF0gA';

  beforeAll(async () => {
    // A write that fails inside the database after the job built the row with its secret.
    await database.db.execute(sql`alter table svc_outbox add constraint test_fail_mail check (subject <> 'Fail me') not valid`);
  });
  afterAll(async () => {
    await database.db.execute(sql`alter table svc_outbox drop constraint test_fail_mail`);
  });

  async function failOnce(type: string, handler: Parameters<JobRunner['register']>[1]) {
    const captured = capturedLogger('debug');
    const runner = new JobRunner(database.db, captured.logger);
    runner.register(type, handler);
    const id = (await enqueueJob(database.db, type, {}))!;
    expect(await runner.runDue()).toBe(1);
    const [row] = await database.db.select().from(jobs).where(eq(jobs.id, id));
    return { row: row!, log: captured.text() };
  }

  it('a job whose query fails with a payment id among its values keeps it out of the log and last_error', async () => {
    // The payment id is bound to a cast that fails: PostgreSQL's own message quotes the value too.
    const { row, log } = await failOnce('t.payment_query', async (_p, ctx) => {
      await ctx.db.execute(sql`select ${PAYMENT_ID}::int`);
    });
    expect(row.state).toBe('queued');
    expect(row.lastError).toMatch(/Failed query/);
    expect(row.lastError).toContain('params: [redacted]');
    expect(row.lastError).not.toContain(PAYMENT_ID);
    expect(log).toMatch(/job failed/);
    expect(log).not.toContain(PAYMENT_ID);
  });

  it('a job whose mail insert fails keeps the mail and its /manage/ link out of the log and last_error', async () => {
    const { row, log } = await failOnce('t.mail_query', async (_p, ctx) => {
      await queueMail(ctx.db, { to: 'visitor@example.test', subject: 'Fail me', text: `Manage your booking: https://svc.example.test/manage/${MANAGE_TOKEN}` });
    });
    expect(row.lastError).toMatch(/Failed query/);
    expect(row.lastError).not.toContain(MANAGE_TOKEN);
    expect(row.lastError).not.toContain('visitor@example.test');
    expect(log).toMatch(/job failed/);
    expect(log).not.toContain(MANAGE_TOKEN);
    expect(log).not.toContain('visitor@example.test');
  });
});

describe.runIf(TEST_DB_KIND === 'postgres')('jobs on PostgreSQL with several workers', () => {
  it('two runners polling at once never run the same job twice (SKIP LOCKED)', async () => {
    // Both runners share the postgres.js pool, so their claims run on different connections at once.
    const ranBy: Record<number, string[]> = {};
    const a = new JobRunner(database.db, silent, { batchSize: 3 });
    const b = new JobRunner(database.db, silent, { batchSize: 3 });
    for (const [runner, name] of [
      [a, 'a'],
      [b, 'b'],
    ] as const) {
      runner.register('t.many', async (p) => {
        const n = Number(p.n);
        ranBy[n] ??= [];
        ranBy[n].push(name);
        await new Promise((r) => setImmediate(r));
      });
    }
    for (let n = 0; n < 60; n++) await enqueueJob(database.db, 't.many', { n });
    const [ca, cb] = await Promise.all([a.runDue(), b.runDue()]);
    expect(ca + cb).toBe(60);
    expect(Object.keys(ranBy)).toHaveLength(60);
    expect(Object.values(ranBy).every((by) => by.length === 1)).toBe(true);
  });
});

describe.runIf(TEST_DB_KIND === 'pglite')('jobs survive a restart', () => {
  it('a job queued before a restart runs after it (PGlite on disk)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-jobs-'));
    try {
      const first = await openDatabase({ dataDir: dir });
      await first.migrate();
      await enqueueJob(first.db, 't.restart', { n: 7 });
      await first.close();
      const second = await openDatabase({ dataDir: dir });
      await second.migrate();
      const ran: unknown[] = [];
      const runner = new JobRunner(second.db, silent);
      runner.register('t.restart', async (p) => void ran.push(p));
      expect(await runner.runDue()).toBe(1);
      expect(ran).toEqual([{ n: 7 }]);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
