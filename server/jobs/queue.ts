import { and, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { jsonInts, queryRows, type Db } from '../db/client';
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
 * Runs queued jobs. Claims with FOR UPDATE SKIP LOCKED so any number of instances can
 * poll one database; a claimed job carries a lease, and a job whose worker died is
 * claimed again when the lease runs out.
 */
export class JobRunner {
  private handlers = new Map<string, JobHandler>();
  private recurring = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private inFlight: Promise<unknown> = Promise.resolve();
  private stopped = false;
  /** Jobs this runner holds now (id → attempts of its claim): their leases are renewed until they finish. */
  private readonly held = new Map<number, number>();
  /** Only a polling runner (SVC_JOBS=on) runs work on a kick; an API-only instance leaves it to the others. */
  private started = false;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly opts: { pollMs?: number; batchSize?: number } = {},
  ) {}

  register(type: string, handler: JobHandler): void {
    if (this.handlers.has(type)) throw new Error(`A job handler for "${type}" is already registered`);
    this.handlers.set(type, handler);
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

  start(): void {
    this.stopped = false;
    this.started = true;
    const tick = () => {
      if (this.stopped) return;
      this.kick();
      this.timer = setTimeout(tick, this.opts.pollMs ?? 1000);
      this.timer.unref();
    };
    tick();
  }

  /** Runs a pass now unless one is under way or this runner does not poll (used after a request queued work). */
  kick(): void {
    if (this.running || this.stopped || !this.started) return;
    this.inFlight = this.runDue().catch((err) => this.logger.error({ err }, 'job pass failed'));
  }

  /**
   * Waits for the pass under way (a kick), then runs every due job until none is left, including
   * the jobs those jobs queue: the point where everything queued so far has run (tests, shutdown).
   */
  async idle(nowMs?: number): Promise<void> {
    for (;;) {
      await this.inFlight;
      if (this.running) continue;
      if ((await this.runDue(nowMs)) === 0 && !this.running) return;
    }
  }

  /** Stops polling and waits for the jobs in flight to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.inFlight;
  }

  /** Claims and runs every job due now, until none is left; returns how many ran. */
  async runDue(nowMs?: number): Promise<number> {
    if (this.running) return 0;
    this.running = true;
    let count = 0;
    const heartbeat = setInterval(
      () => void this.heartbeat().catch((err) => this.logger.warn({ err }, 'job lease renewal failed')),
      (LEASE_SECONDS * 1000) / 3,
    );
    heartbeat.unref();
    try {
      for (;;) {
        const batch = await this.claim(nowMs);
        if (batch.length === 0) break;
        for (const job of batch) this.held.set(job.id, job.attempts);
        for (const job of batch) {
          try {
            await this.runOne(job, nowMs);
          } finally {
            this.held.delete(job.id);
          }
          count++;
        }
      }
    } finally {
      clearInterval(heartbeat);
      this.held.clear();
      this.running = false;
    }
    return count;
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

  private async claim(nowMs?: number): Promise<ClaimedJob[]> {
    // A moved clock only moves time forward: a job due by the wall clock is due at any pass clock,
    // so a job queued by a job (due "now", to the second) runs in the same pass even when the
    // wall clock crossed a second after the pass began.
    const now = nowMs === undefined ? sql`${nowUtc}` : sql`greatest(${toUtcString(nowMs)}::timestamp, ${nowUtc})`;
    return queryRows<ClaimedJob>(
      this.db,
      sql`update ${jobs} set state = 'running', attempts = attempts + 1,
            locked_until_utc = ${now} + make_interval(secs => ${LEASE_SECONDS})
          where id in (
            select id from ${jobs}
            where (state = 'queued' and run_at_utc <= ${now}) or (state = 'running' and locked_until_utc < ${now})
            order by run_at_utc, id
            limit ${this.opts.batchSize ?? DEFAULT_BATCH_SIZE}
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
