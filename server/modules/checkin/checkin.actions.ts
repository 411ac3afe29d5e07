/**
 * svc_pro_attendee_checked_in survives a crash (decision 009, "Held actions").
 *
 * The statement or transaction that inserts check-in rows also writes one job holding their
 * action arguments — already claimed by the writer (state running, attempts 0, leased), so no job
 * runner takes it while the writer is alive. After commit the writer fires the actions and deletes
 * the job. If the process dies first, the lease runs out and any instance's job runner fires them.
 * If a listener throws, the actions not yet fired stay in the job, which retries them with backoff;
 * the request still answers for its stored rows. Delivery is at least once: an action can fire
 * twice only when a process dies while firing or a listener holds the batch past the lease — the
 * checkinId tells a listener it has seen a row before.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/client';
import { nowUtc } from '../../db/columns';
import type { Hooks } from '../../hooks';
import { jobs } from '../../jobs/jobs.sql';
import { backoffSeconds, HELD_LEASE_SECONDS, storedError, type JobRunner } from '../../jobs/queue';

export const CHECKIN_ACTIONS_JOB = 'checkin.actions';

/** The arguments of one svc_pro_attendee_checked_in. */
export type CheckedIn = [checkinId: number, attendeeId: number, eventId: number];

interface ActionsContext {
  db: Db;
  hooks: Hooks;
  logger: Logger;
}

/**
 * An INSERT of the held job (returning its id), for the same statement or transaction as the rows.
 * `rows` is a jsonb array of [checkinId, attendeeId, eventId] in firing order; nothing is written
 * unless `when` holds.
 */
export function holdActionsSql(rows: SQL, when: SQL = sql`true`): SQL {
  return sql`insert into ${jobs} (type, payload, state, attempts, locked_until_utc)
    select ${CHECKIN_ACTIONS_JOB}, jsonb_build_object('rows', ${rows}), 'running', 0, ${nowUtc} + make_interval(secs => ${HELD_LEASE_SECONDS})
    where ${when}
    returning id`;
}

/** Only the writer's own claim: a job a runner took over after the lease is the runner's. */
const heldByWriter = (jobId: number) => and(eq(jobs.id, jobId), eq(jobs.state, 'running'), eq(jobs.attempts, 0));
/** Only this run's claim of the job. */
const claimedBy = (jobId: number, attempts: number) => and(eq(jobs.id, jobId), eq(jobs.attempts, attempts));

/** Fires the actions in order. A throw keeps the ones not yet fired in the job (if `ours` still holds it), and is rethrown. */
async function fireHeld(ctx: ActionsContext, ours: SQL | undefined, rows: CheckedIn[]): Promise<void> {
  for (let i = 0; i < rows.length; i++) {
    try {
      await ctx.hooks.doAction('svc_pro_attendee_checked_in', ...rows[i]!);
    } catch (err) {
      await ctx.db
        .update(jobs)
        .set({ payload: { rows: rows.slice(i) } })
        .where(ours);
      throw err;
    }
  }
}

/**
 * After commit, in the request that inserted the rows: fires their actions and drops the job.
 * Never throws — the rows are stored and the caller answers for them; a failure is logged and
 * the job retries what was not fired.
 */
export async function fireCheckedIn(ctx: ActionsContext, jobId: number | null, rows: CheckedIn[]): Promise<void> {
  if (jobId === null || rows.length === 0) return;
  try {
    await fireHeld(ctx, heldByWriter(jobId), rows);
  } catch (err) {
    ctx.logger.error({ err, jobId }, 'a svc_pro_attendee_checked_in listener failed; its job retries the actions not yet fired');
    await ctx.db
      .update(jobs)
      .set({
        state: 'queued',
        lockedUntilUtc: null,
        // a listener's failed query keeps its values (ticket codes, tokens) out of the stored error
        lastError: storedError(err).slice(0, 2000),
        runAtUtc: sql`${nowUtc} + make_interval(secs => ${backoffSeconds(1)})` as never,
      })
      .where(heldByWriter(jobId))
      .catch((dbErr: unknown) => ctx.logger.error({ err: dbErr, jobId }, 'could not requeue held check-in actions; they fire when the lease runs out'));
    return;
  }
  await ctx.db
    .delete(jobs)
    .where(heldByWriter(jobId))
    .catch((err: unknown) => ctx.logger.error({ err, jobId }, 'could not drop fired check-in actions; they may fire again when the lease runs out'));
}

function heldRows(payload: Record<string, unknown>): CheckedIn[] {
  const rows = payload.rows;
  if (!Array.isArray(rows)) throw new Error('held check-in actions without rows');
  return rows.map((r) => {
    if (!Array.isArray(r) || r.length !== 3 || !r.every((n) => Number.isInteger(n))) throw new Error('a held check-in action is malformed');
    return r as CheckedIn;
  });
}

/** The runner's side: actions whose writer died (lease run out) or whose listener threw. */
export function registerCheckinJobs(runner: JobRunner, ctx: ActionsContext): void {
  runner.register(CHECKIN_ACTIONS_JOB, async (payload, job) => {
    const rows = heldRows(payload);
    await fireHeld(ctx, claimedBy(job.jobId, job.attempt), rows);
    job.logger.info({ actions: rows.length }, 'fired held check-in actions');
  });
}
