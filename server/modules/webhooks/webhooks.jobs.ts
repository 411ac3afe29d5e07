import type { AppContext } from '../../context';
import type { JobRunner } from '../../jobs/queue';

/** Filled in by the webhooks work (issue 14): delivery and auto-disable jobs. */
export function registerWebhookJobs(_runner: JobRunner, _ctx: AppContext): void {}
