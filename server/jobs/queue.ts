import { and, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { jsonInts, jsonTexts, queryRows, type Db } from '../db/client';
import { nowUtc } from '../db/columns';
import { databaseErrorCode } from '../db/driver-faults';
import { serializeError } from '../logger';
import { jobs } from './jobs.sql';
import { toUtcString } from '../../shared/time';

export interface EnqueueOptions {
  runAtUtc?: string;
  dedupeKey?: string;
  maxAttempts?: number;
}

/**
 * Queues a job. Call it with the transaction that causes the work: the job becomes
 * visible only when that transaction commits (side effects after commit).
 */
export async function enqueueJob(db: Db, type: string, payload: Record<string, unknown>, opts: EnqueueOptions = {}): Promise<number | null> {
  const rows = await db
    .insert(jobs)
    .values({ type, payload, runAtUtc: opts.runAtUtc ?? nowUtc, dedupeKey: opts.dedupeKey ?? null, maxAttempts: opts.maxAttempts ?? 8 })
    .onConflictDoNothing()
    .returning({ id: jobs.id });
  return rows[0]?.id ?? null;
}

/** Cancels queued (not yet running) jobs of a dedupe key, e.g. a booking's reminders. */
export async function cancelQueuedJobs(db: Db, dedupeKeyPrefix: string): Promise<number> {
  const rows = await db
    .update(jobs)
    .set({ state: 'done', lastError: 'cancelled', finishedUtc: nowUtc })
    .where(and(eq(jobs.state, 'queued'), sql`${jobs.dedupeKey} like ${`${dedupeKeyPrefix.replace(/[%_\\]/g, '\\$&')}%`}`))
    .returning({ id: jobs.id });
  return rows.length;
}

export interface JobContext {
  db: Db;
  logger: Logger;
  attempt: number;
  jobId: number;
  /** The pass's clock: `runDue(nowMs)`'s, or the wall clock when the job started (tests move time with it). */
  nowMs: number;
}
export type JobHandler = (payload: Record<string, unknown>, ctx: JobContext) => Promise<void>;

export const PRUNE_FINISHED_JOBS = 'jobs.prune_finished';
/** Finished jobs are kept this long (for the logs' sake), then dropped; failed ones are kept. */
export const KEEP_FINISHED_JOBS_DAYS = 14;

/** Drops jobs done more than `keepDays` ago (recurring runs, sent mail's jobs, fired actions); answers how many. */
export async function pruneFinishedJobs(db: Db, keepDays = KEEP_FINISHED_JOBS_DAYS, nowMs = Date.now()): Promise<number> {
  const rows = await db
    .delete(jobs)
    .where(and(eq(jobs.state, 'done'), sql`${jobs.finishedUtc} < ${toUtcString(nowMs - keepDays * 86_400_000)}::timestamp`))
    .returning({ id: jobs.id });
  return rows.length;
}

/** Hourly, on whichever instance claims it: the job table keeps only what is pending, failed or recent. */
export function registerQueueJobs(runner: JobRunner, db: Db): void {
  runner.every(PRUNE_FINISHED_JOBS, 3_600_000, () => pruneFinishedJobs(db).then(() => undefined));
}

/** Retry delay after the n-th failed attempt: 5 s doubling, capped at one hour, with jitter. */
export function backoffSeconds(attempt: number, random = Math.random): number {
  const base = Math.min(3600, 5 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.75 + random() * 0.5));
}

/**
 * A failed job's error as `last_error` keeps it (the admin reads it): the message as the log's
 * error serializer writes it, so a failed query's bound values (a payment id, a whole mail with
 * its manage link) and its cause's message (PostgreSQL quotes the value it refused) are masked,
 * with the database's error code in their place (docs/decisions/006-jobs-and-mail.md).
 */
export function storedError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const { message } = serializeError(err) as { message?: unknown };
  const text = typeof message === 'string' ? message : err.name;
  const code = databaseErrorCode(err);
  return text.includes('\nparams: [redacted]') && code ? `${text} (code ${code})` : text;
}

interface ClaimedJob {
  id: number;
  type: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
}

/**
 * How long a claim holds a job; a job whose holder died is claimable again after it. Short, so
 * another instance takes a dead one's work within seconds: a live runner renews the lease of
 * every job it holds every third of it (a heartbeat), however long a job runs.
 */
export const LEASE_SECONDS = 30;
/**
 * The lease of work a request holds itself after its commit (check-in actions it fires at once):
 * no heartbeat runs for it, so it is long enough for any listener.
 */
export const HELD_LEASE_SECONDS = 300;
/** Jobs claimed at a time: few, so a crash strands few and they go back within one lease. */
const DEFAULT_BATCH_SIZE = 5;

/**
 * Which jobs a pass claims. `outbound` is work that waits on a receiver an administrator named
 * (webhooks, team chat): it runs beside the main lane, several at once, so a receiver that never
 * answers holds one of its slots for one attempt's deadline and never a mail or a payment
 * (docs/decisions/023-outbound-lane.md).
 */
export type JobLane = 'main' | 'outbound';
/** Outbound jobs a runner runs at once: one hanging receiver takes one slot, the others keep the schedule. */
export const OUTBOUND_CONCURRENCY = 6;
/**
 * The payload key naming an outbound job's receiver (`webhook:<endpoint id>`, `chat:<event id>`):
 * the lane runs one job per receiver at a time across every instance, so one receiver that never
 * answers holds one slot however many deliveries it has, and the others keep their schedule.
 */
export const OUTBOUND_RECEIVER = 'receiver';
/** The poll's shortest wait: a wake-up at a job's due time never turns into a busy loop. */
const MIN_WAKE_MS = 20;

export interface RunnerOptions {
  pollMs?: number;
  batchSize?: number;
  outboundConcurrency?: number;
}

/**
 * Runs queued jobs in two lanes: the main lane one job at a time, the outbound lane up to
 * `outboundConcurrency` at once. Claims with FOR UPDATE SKIP LOCKED so any number of instances
 * can poll one database, each lane claiming only its own job types; a claimed job carries a
 * lease, renewed while its runner holds it, and a job whose worker died is claimed again when the
 * lease runs out.
 */
export class JobRunner {
  private handlers = new Map<string, JobHandler>();
  private readonly outboundTypes: string[] = [];
  private recurring = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Jobs this runner holds now, in either lane (id → attempts of its claim): their leases are renewed until they finish. */
  private readonly held = new Map<number, number>();
  private heartbeatTimer: NodeJS.Timeout | null = null;
  /** Only a polling runner (SVC_JOBS=on) runs work on a kick; an API-only instance leaves it to the others. */
  private started = false;

  private mainRunning = false;
  private mainInFlight: Promise<unknown> = Promise.resolve();
  /** Outbound jobs under way, each its own promise. */
  private readonly outbound = new Set<Promise<void>>();
  /** The outbound lane's claims, one after another: each claims what the free slots take then. */
  private outboundClaims: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly opts: RunnerOptions = {},
  ) {}

  /** Registers the handler of a job type; `lane: 'outbound'` for work that waits on a receiver outside. */
  register(type: string, handler: JobHandler, opts: { lane?: JobLane } = {}): void {
    if (this.handlers.has(type)) throw new Error(`A job handler for "${type}" is already registered`);
    this.handlers.set(type, handler);
    if (opts.lane === 'outbound') this.outboundTypes.push(type);
  }

  /**
   * A job that runs every `intervalMs` on whichever instance claims it: one queued job per
   * interval bucket (dedupe key `type:bucket`), and each run queues the next bucket.
   * `scheduleRecurring()` queues the current bucket at start-up.
   */
  every(type: string, intervalMs: number, handler: JobHandler): void {
    this.recurring.set(type, intervalMs);
    this.register(type, async (payload, ctx) => {
      await handler(payload, ctx);
      // the pass's clock: a run at a moved clock (runDue(nowMs)) queues the bucket after that, not one already due
      await this.queueBucket(type, intervalMs, ctx.nowMs + intervalMs);
    });
  }

  /** Queues the current bucket of every recurring job (a no-op for buckets already queued). */
  async scheduleRecurring(nowMs = Date.now()): Promise<void> {
    for (const [type, intervalMs] of this.recurring) await this.queueBucket(type, intervalMs, nowMs);
  }

  private async queueBucket(type: string, intervalMs: number, atMs: number): Promise<void> {
    const bucket = Math.floor(atMs / intervalMs);
    await enqueueJob(this.db, type, {}, { runAtUtc: toUtcString(Math.max(atMs, bucket * intervalMs)), dedupeKey: `${type}:${bucket}` });
  }

  /**
   * Polls every `pollMs`, and sooner when a queued job comes due before that (a webhook's retry
   * 5 s after a failure runs at its second, not up to a poll later).
   */
  start(): void {
    this.stopped = false;
    this.started = true;
    const pollMs = this.opts.pollMs ?? 1000;
    const tick = async () => {
      if (this.stopped) return;
      this.kick();
      let wait = pollMs;
      try {
        const dueInMs = await this.nextDueInMs();
        if (dueInMs !== null) wait = Math.min(pollMs, Math.max(MIN_WAKE_MS, dueInMs));
      } catch (err) {
        this.logger.warn({ err }, 'job poll could not read the next due time');
      }
      if (this.stopped) return;
      this.timer = setTimeout(() => void tick(), wait);
      this.timer.unref();
    };
    void tick();
  }

  /** Milliseconds until the next queued job that is not due yet, by the database's clock (the one claims judge by). */
  private async nextDueInMs(): Promise<number | null> {
    const [row] = await queryRows<{ ms: number | string | null }>(
      this.db,
      sql`select extract(epoch from (min(run_at_utc) - (now() at time zone 'utc'))) * 1000 as ms
          from ${jobs} where state = 'queued' and run_at_utc > ${nowUtc}`,
    );
    return row?.ms === null || row?.ms === undefined ? null : Math.ceil(Number(row.ms));
  }

  /** Runs a pass of each lane now unless one is under way or this runner does not poll (used after a request queued work). */
  kick(): void {
    if (this.stopped || !this.started) return;
    if (!this.mainRunning)
      void this.runMain()
        // what the pass's jobs queued for the outbound lane (an announcement's webhooks) starts now
        .then((ran) => ran > 0 && this.kickOutbound())
        .catch((err) => this.logger.error({ err }, 'job pass failed'));
    this.kickOutbound();
  }

  private kickOutbound(): void {
    void this.fillOutbound().catch((err) => this.logger.error({ err }, 'outbound job claim failed'));
  }

  /**
   * Waits for the passes under way (kicks) in both lanes, then runs every due job until none is
   * left, including the jobs those jobs queue: the point where everything queued so far has run
   * (tests, shutdown).
   */
  async idle(nowMs?: number): Promise<void> {
    for (;;) {
      await this.mainInFlight;
      await this.outboundSettled();
      if (this.mainRunning) continue;
      if ((await this.runDue(nowMs)) === 0 && !this.mainRunning && this.outbound.size === 0) return;
    }
  }

  /** Stops polling and waits for the jobs in flight, in both lanes, to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.mainInFlight;
    await this.outboundSettled();
  }

  /** Until no outbound claim or job of this runner is under way. */
  private async outboundSettled(): Promise<void> {
    for (;;) {
      await this.outboundClaims;
      if (this.outbound.size === 0) return;
      await Promise.allSettled([...this.outbound]);
    }
  }

  /**
   * Claims and runs every job due now in both lanes, side by side, until none is left (a job
   * queued by a job of the other lane included); returns how many ran.
   */
  async runDue(nowMs?: number): Promise<number> {
    let count = 0;
    for (;;) {
      const [main, outbound] = await Promise.all([this.runMain(nowMs), this.drainOutbound(nowMs)]);
      count += main + outbound;
      if (main + outbound === 0) return count;
    }
  }

  /** The main lane: claims a batch, runs it one job at a time, until none is due; 0 when a pass is under way. */
  private runMain(nowMs?: number): Promise<number> {
    if (this.mainRunning) return Promise.resolve(0);
    this.mainRunning = true;
    const pass = this.mainPass(nowMs).finally(() => (this.mainRunning = false));
    // idle() and stop() wait for whichever pass is under way, a kick's or a runDue's
    this.mainInFlight = pass.catch(() => undefined);
    return pass;
  }

  private async mainPass(nowMs?: number): Promise<number> {
    let count = 0;
    for (;;) {
      const batch = await this.claim('main', this.opts.batchSize ?? DEFAULT_BATCH_SIZE, nowMs);
      if (batch.length === 0) return count;
      // the claim's RETURNING has no order: what was queued first runs first (a booking's mails in the order they happened)
      batch.sort((a, b) => a.id - b.id);
      for (const job of batch) this.hold(job);
      try {
        for (const job of batch) {
          await this.runOne(job, nowMs);
          this.release(job.id);
          count++;
        }
      } finally {
        // a failed outcome write leaves the rest of the batch to the lease
        for (const job of batch) this.release(job.id);
      }
    }
  }

  /**
   * The outbound lane as a pass: starts due jobs in the free slots and waits until none is due
   * and none is running; a slot's wait is cut short by the poll, so a job that came due while
   * every slot's receiver is slow still starts once one frees. Answers how many it started.
   */
  private async drainOutbound(nowMs?: number): Promise<number> {
    let started = 0;
    for (;;) {
      started += await this.fillOutbound(nowMs);
      if (this.outbound.size === 0) return started;
      let timer: NodeJS.Timeout | undefined;
      const poll = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.opts.pollMs ?? 1000);
      });
      await Promise.race([...this.outbound, poll]).finally(() => clearTimeout(timer));
    }
  }

  /** Claims outbound jobs for the free slots (one claim at a time per runner) and starts them; answers how many it started. */
  private fillOutbound(nowMs?: number): Promise<number> {
    const claims = this.outboundClaims.then(async () => {
      let started = 0;
      for (;;) {
        const room = (this.opts.outboundConcurrency ?? OUTBOUND_CONCURRENCY) - this.outbound.size;
        if (room <= 0 || this.outboundTypes.length === 0) return started;
        const batch = await this.claim('outbound', room, nowMs);
        // jobs of one receiver claimed together run one after another in one slot, oldest first
        const slots = new Map<string, ClaimedJob[]>();
        for (const job of batch.sort((a, b) => a.id - b.id)) {
          const receiver = job.payload[OUTBOUND_RECEIVER];
          const key = typeof receiver === 'string' ? receiver : `job:${job.id}`;
          slots.set(key, [...(slots.get(key) ?? []), job]);
        }
        for (const slot of slots.values()) this.startOutbound(slot, nowMs);
        started += batch.length;
        if (batch.length < room) return started;
      }
    });
    this.outboundClaims = claims.catch(() => undefined);
    return claims;
  }

  /** Runs the jobs of one slot in order, holding each until it ran. */
  private startOutbound(slot: ClaimedJob[], nowMs?: number): void {
    for (const job of slot) this.hold(job);
    const run: Promise<void> = (async () => {
      for (const job of slot) {
        try {
          await this.runOne(job, nowMs);
        } catch (err) {
          this.logger.error({ err, jobId: job.id, jobType: job.type }, 'job outcome not recorded; its lease returns it');
        } finally {
          this.release(job.id);
        }
      }
    })().finally(() => {
      this.outbound.delete(run);
      // the freed slot takes the next due job now, not at the next poll
      if (this.started && !this.stopped) this.kickOutbound();
    });
    this.outbound.add(run);
  }

  /** Holds a claimed job: its lease is renewed every third of it while any job is held. */
  private hold(job: ClaimedJob): void {
    this.held.set(job.id, job.attempts);
    if (this.heartbeatTimer) return;
    this.heartbeatTimer = setInterval(
      () => void this.heartbeat().catch((err) => this.logger.warn({ err }, 'job lease renewal failed')),
      (LEASE_SECONDS * 1000) / 3,
    );
    this.heartbeatTimer.unref();
  }

  private release(id: number): void {
    this.held.delete(id);
    if (this.held.size > 0 || !this.heartbeatTimer) return;
    clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
  }

  /** Renews the lease of every job this runner holds (its own claims only); answers how many. */
  async heartbeat(): Promise<number> {
    if (this.held.size === 0) return 0;
    const ids = [...this.held.keys()];
    const rows = await queryRows<{ id: number; attempts: number }>(
      this.db,
      sql`update ${jobs} set locked_until_utc = ${nowUtc} + make_interval(secs => ${LEASE_SECONDS})
          where state = 'running' and id in ${jsonInts(ids)}
          returning id, attempts`,
    );
    return rows.filter((r) => this.held.get(r.id) === r.attempts).length;
  }

  /** Claims up to `limit` due jobs of one lane: the outbound lane its registered types, the main lane every other. */
  private async claim(lane: JobLane, limit: number, nowMs?: number): Promise<ClaimedJob[]> {
    if (lane === 'outbound' && this.outboundTypes.length === 0) return [];
    // A moved clock only moves time forward: a job due by the wall clock is due at any pass clock,
    // so a job queued by a job (due "now", to the second) runs in the same pass even when the
    // wall clock crossed a second after the pass began.
    const now = nowMs === undefined ? sql`${nowUtc}` : sql`greatest(${toUtcString(nowMs)}::timestamp, ${nowUtc})`;
    const ofLane =
      this.outboundTypes.length === 0
        ? sql``
        : lane === 'main'
          ? sql`and type not in ${jsonTexts(this.outboundTypes)}`
          : // a receiver with a job running under a live lease (on any instance) waits for it
            sql`and type in ${jsonTexts(this.outboundTypes)}
                and not exists (select 1 from ${jobs} busy
                                where busy.state = 'running' and busy.locked_until_utc >= ${now}
                                  and busy.payload->>${OUTBOUND_RECEIVER} = j.payload->>${OUTBOUND_RECEIVER})`;
    return queryRows<ClaimedJob>(
      this.db,
      sql`update ${jobs} set state = 'running', attempts = attempts + 1,
            locked_until_utc = ${now} + make_interval(secs => ${LEASE_SECONDS})
          where id in (
            select id from ${jobs} j
            where ((state = 'queued' and run_at_utc <= ${now}) or (state = 'running' and locked_until_utc < ${now})) ${ofLane}
            order by run_at_utc, id
            limit ${limit}
            for update skip locked)
          returning id, type, payload, attempts, max_attempts`,
    );
  }

  private async runOne(job: ClaimedJob, nowMs?: number): Promise<void> {
    const handler = this.handlers.get(job.type);
    const log = this.logger.child({ jobId: job.id, jobType: job.type, attempt: job.attempts });
    try {
      if (!handler) throw new Error(`No handler for job type "${job.type}"`);
      await handler(job.payload, { db: this.db, logger: log, attempt: job.attempts, jobId: job.id, nowMs: nowMs ?? Date.now() });
      // Only the claim that ran it may finish it: a job re-claimed after a lapsed lease has other attempts.
      await this.db
        .update(jobs)
        .set({ state: 'done', finishedUtc: nowUtc, lockedUntilUtc: null, lastError: null })
        .where(and(eq(jobs.id, job.id), eq(jobs.attempts, job.attempts), eq(jobs.state, 'running')));
    } catch (err) {
      const message = storedError(err);
      const final = job.attempts >= job.max_attempts;
      // the logger's error serializer masks a failed query's values, as for a request's error
      log.warn({ err, final }, 'job failed');
      await this.db
        .update(jobs)
        .set({
          state: final ? 'failed' : 'queued',
          lastError: message.slice(0, 2000),
          lockedUntilUtc: null,
          runAtUtc: sql`${nowUtc} + make_interval(secs => ${backoffSeconds(job.attempts)})` as never,
          finishedUtc: final ? nowUtc : null,
        })
        .where(and(eq(jobs.id, job.id), eq(jobs.attempts, job.attempts)));
    }
  }
}
