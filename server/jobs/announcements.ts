/**
 * Announcements that survive a crash (docs/decisions/006-jobs-and-mail.md): the contract's
 * actions after a write (`svc_booking_created` then `svc_booking_confirmed`, `svc_rsvp_submitted`)
 * run after commit, and their listeners queue the confirmation mail. A process killed between the
 * commit and those listeners used to lose the mail. Now the write's own transaction also holds a
 * job for them, leased to the writer: the writer runs the actions at once and drops the job; if
 * the writer died, a runner takes the job when the lease runs out and runs them then. A listener
 * that throws ends the chain and fails the request as the contract says, but the job stays: it
 * goes to the runners, which run the actions again (with the queue's backoff) until they run
 * through, so a mail insert that failed once is not a mail lost (docs/decisions/006-jobs-and-mail.md).
 */
import { and, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/client';
import { nowUtc } from '../db/columns';
import { databaseErrorCode } from '../db/driver-faults';
import { AppError } from '../../shared/errors';
import { jobs } from './jobs.sql';
import { backoffSeconds } from './queue';

/** Long enough for any request's listeners; short enough that a crash delays a confirmation by half a minute. */
export const ANNOUNCE_LEASE_SECONDS = 30;

/** In the writing transaction: holds the announcement `type` for the writer; answers the job's id. */
export async function holdAnnouncement(tx: Db, type: string, payload: Record<string, unknown>): Promise<number> {
  const [row] = await tx
    .insert(jobs)
    .values({
      type,
      payload,
      state: 'running',
      attempts: 0,
      lockedUntilUtc: sql`${nowUtc} + make_interval(secs => ${ANNOUNCE_LEASE_SECONDS})` as never,
    })
    .returning({ id: jobs.id });
  return row!.id;
}

/**
 * `holdAnnouncement`'s row as the select list of `insert into svc_jobs (type, payload, state,
 * attempts, locked_until_utc) select …`, for a writer that holds the job in the statement that
 * writes (the payload may name the new row's id).
 */
export function heldAnnouncementValues(type: string | Placeholder, payload: SQL): SQL {
  return sql`${type}::text, ${payload}, 'running', 0, ${nowUtc} + make_interval(secs => ${ANNOUNCE_LEASE_SECONDS}::int)`;
}

/**
 * After commit, in the writer: runs the announcement and drops its held job once it ran through.
 * When a listener throws, the error is rethrown (the request fails as the contract says) and the
 * job is handed to the runners instead of dropped: they run the whole announcement again, after
 * the queue's first backoff, until it runs through. Listeners that already ran see it again (at
 * least once, as after a crash); the mails carry once keys, so none goes twice.
 */
export async function announce<T>(db: Db, logger: Logger, jobId: number, run: () => Promise<T>): Promise<T> {
  let result: T;
  try {
    result = await run();
  } catch (err) {
    await releaseToRunners(db, logger, jobId, err);
    throw err;
  }
  // Only the writer's own hold: a runner that took it over after the lease owns it now.
  await db
    .delete(jobs)
    .where(and(eq(jobs.id, jobId), eq(jobs.state, 'running'), eq(jobs.attempts, 0)))
    .catch((err: unknown) => logger.error({ err, jobId }, 'could not drop a fired announcement; it runs again when its lease runs out'));
  return result;
}

/**
 * The writer's attempt failed: the held job is queued for a runner, counted as its first attempt.
 * The stored error names the failure's code only, never its message (it may quote bound values).
 * If even this update fails, the job keeps its lease and a runner takes it when the lease ends.
 */
async function releaseToRunners(db: Db, logger: Logger, jobId: number, err: unknown): Promise<void> {
  const code = err instanceof AppError ? err.code : (databaseErrorCode(err) ?? (err instanceof Error ? err.name : 'unknown'));
  await db
    .update(jobs)
    .set({
      state: 'queued',
      attempts: 1,
      lockedUntilUtc: null,
      runAtUtc: sql`${nowUtc} + make_interval(secs => ${backoffSeconds(1)}::int)` as never,
      lastError: `the writer's announcement failed (${code}); retried by a runner`,
    })
    .where(and(eq(jobs.id, jobId), eq(jobs.state, 'running'), eq(jobs.attempts, 0)))
    .catch((e: unknown) => logger.error({ err: e, jobId }, 'could not queue a failed announcement; it runs again when its lease runs out'));
}
