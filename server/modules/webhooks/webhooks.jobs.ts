/** The delivery chain's jobs (docs/api.md#webhooks): one job per attempt, each queuing the next at the schedule's time. */
import type { AppContext } from '../../context';
import type { JobRunner } from '../../jobs/queue';
import { attemptDelivery, WEBHOOK_DELIVER_JOB, type DeliverJobPayload } from './webhooks.service';

function deliverPayload(payload: Record<string, unknown>): DeliverJobPayload {
  const { deliveryId, attempt, step, seriesStartMs } = payload;
  if (![deliveryId, attempt, step, seriesStartMs].every((n) => Number.isSafeInteger(n))) throw new Error('a webhook delivery job is malformed');
  return { deliveryId, attempt, step, seriesStartMs } as DeliverJobPayload;
}

export function registerWebhookJobs(runner: JobRunner, ctx: AppContext): void {
  runner.register(
    WEBHOOK_DELIVER_JOB,
    async (payload, job) => {
      const outcome = await attemptDelivery(ctx, deliverPayload(payload), job.nowMs);
      job.logger.debug({ deliveryId: payload.deliveryId, outcome }, 'webhook attempt');
    },
    // a receiver that never answers holds one outbound slot for one attempt's deadline, never a mail (docs/decisions/023-outbound-lane.md)
    { lane: 'outbound' },
  );
}
