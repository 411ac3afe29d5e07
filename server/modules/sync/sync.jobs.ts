import type { AppContext } from '../../context';
import { enqueueJob, type JobRunner } from '../../jobs/queue';
import { syncService } from './sync.service';

export const PRUNE_CHANGES_JOB = 'sync.prune_changes';

/** The retention job: one queued at a time across instances (dedupe key), run from the job table. */
export function registerSyncJobs(runner: JobRunner, ctx: AppContext): void {
  runner.register(PRUNE_CHANGES_JOB, async (_payload, job) => {
    const deleted = await syncService(ctx).pruneChanges(ctx.env.SVC_SYNC_RETENTION_DAYS);
    job.logger.info({ deleted }, 'pruned sync change log');
  });
}

/** Periodic maintenance: queue the retention job (a no-op while one is already queued). */
export async function scheduleSyncMaintenance(ctx: AppContext): Promise<void> {
  await enqueueJob(ctx.db, PRUNE_CHANGES_JOB, {}, { dedupeKey: PRUNE_CHANGES_JOB });
}
