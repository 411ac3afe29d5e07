/**
 * The calendars' background refresh (docs/api.md#host-calendars): every 5 minutes one light job
 * queues one refresh per calendar in the outbound lane, so a calendar server that never answers
 * holds one outbound slot for one deadline, never a mail (docs/decisions/023-outbound-lane.md).
 */
import type { AppContext } from '../../context';
import { enqueueJob, OUTBOUND_RECEIVER, type JobRunner } from '../../jobs/queue';
import { toUtcString } from '../../../shared/time';
import { calendarsRepository } from './calendars.repository';
import { calendarsService, REFRESH_TIMEOUT_MS } from './calendars.service';

export const CALENDARS_SCHEDULE_JOB = 'calendars.schedule_refresh';
export const CALENDAR_REFRESH_JOB = 'calendars.refresh';
/** How often each calendar is read in the background. */
export const CALENDAR_REFRESH_INTERVAL_MS = 5 * 60_000;
/** Calendars queued per pass; the rest wait for the next one (oldest read first). */
const REFRESHES_PER_PASS = 2000;

export function registerCalendarJobs(runner: JobRunner, ctx: AppContext): void {
  runner.every(CALENDARS_SCHEDULE_JOB, CALENDAR_REFRESH_INTERVAL_MS, async (_payload, job) => {
    const due = await calendarsRepository.listDue(ctx.db, toUtcString(job.nowMs - CALENDAR_REFRESH_INTERVAL_MS + 30_000), REFRESHES_PER_PASS);
    const bucket = Math.floor(job.nowMs / CALENDAR_REFRESH_INTERVAL_MS);
    for (const row of due) {
      await enqueueJob(
        ctx.db,
        CALENDAR_REFRESH_JOB,
        { calendarId: row.id, [OUTBOUND_RECEIVER]: `calendar:${row.id}` },
        // one refresh per calendar and period, however many instances schedule; a failed read is retried next period
        { dedupeKey: `${CALENDAR_REFRESH_JOB}:${row.id}:${bucket}`, maxAttempts: 1 },
      );
    }
    job.logger.debug({ queued: due.length }, 'calendar refreshes queued');
  });

  runner.register(
    CALENDAR_REFRESH_JOB,
    async (payload) => {
      const id = payload.calendarId;
      if (!Number.isSafeInteger(id)) throw new Error('a calendar refresh job is malformed');
      const row = await calendarsRepository.find(ctx.db, id as number);
      // removed since it was queued
      if (!row) return;
      await calendarsService(ctx).refreshRow(row, REFRESH_TIMEOUT_MS);
    },
    { lane: 'outbound' },
  );
}
