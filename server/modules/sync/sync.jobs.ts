import type { AppContext } from '../../context';
import type { JobRunner } from '../../jobs/queue';
import { syncService } from './sync.service';

export const PRUNE_CHANGES_JOB = 'sync.prune_changes';
const PRUNE_INTERVAL_MS = 3_600_000;

/** The retention job: hourly, one run per hour across instances, from the job table. */
export function registerSyncJobs(runner: JobRunner, ctx: AppContext): void {
  runner.every(PRUNE_CHANGES_JOB, PRUNE_INTERVAL_MS, async (_payload, job) => {
    const deleted = await syncService(ctx).pruneChanges(ctx.env.SVC_SYNC_RETENTION_DAYS);
    job.logger.info({ deleted }, 'pruned sync change log');
  });
}
