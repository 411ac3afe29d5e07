/**
 * Announcements that survive a crash (docs/decisions/006-jobs-and-mail.md): the contract's
 * actions after a write (`svc_booking_created` then `svc_booking_confirmed`, `svc_rsvp_submitted`)
 * run after commit, and their listeners queue the confirmation mail. A process killed between the
 * commit and those listeners used to lose the mail. Now the write's own transaction also holds a
 * job for them, leased to the writer: the writer runs the actions at once and drops the job; if
 * the writer died, a runner takes the job when the lease runs out and runs them then. A listener
 * that throws ends the chain as the contract says, and the job is dropped with it.
 */
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/client';
import { nowUtc } from '../db/columns';
import { jobs } from './jobs.sql';

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
export function heldAnnouncementValues(type: string, payload: SQL): SQL {
  return sql`${type}::text, ${payload}, 'running', 0, ${nowUtc} + make_interval(secs => ${ANNOUNCE_LEASE_SECONDS}::int)`;
}

/**
 * After commit, in the writer: runs the announcement and drops its held job, whether it ran
 * through or a listener threw (which is rethrown: the request fails as before).
 */
export async function announce<T>(db: Db, logger: Logger, jobId: number, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } finally {
    // Only the writer's own hold: a runner that took it over after the lease owns it now.
    await db
      .delete(jobs)
      .where(and(eq(jobs.id, jobId), eq(jobs.state, 'running'), eq(jobs.attempts, 0)))
      .catch((err: unknown) => logger.error({ err, jobId }, 'could not drop a fired announcement; it runs again when its lease runs out'));
  }
}
