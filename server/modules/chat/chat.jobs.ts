import type { AppContext } from '../../context';
import type { JobRunner } from '../../jobs/queue';

/** Filled in by the team-chat work (issue 14): the per-event message job. */
export function registerChatJobs(_runner: JobRunner, _ctx: AppContext): void {}
