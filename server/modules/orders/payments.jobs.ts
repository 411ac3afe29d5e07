/** The payment jobs (docs/api.md#payments): every provider call and every stored event runs here, after commit. */
import type { AppContext } from '../../context';
import type { JobRunner } from '../../jobs/queue';
import type { ProviderEventKind } from './providers/provider';
import { ANNOUNCE_ORDER_PAID_JOB, ANNOUNCE_ORDER_REFUNDED_JOB, ordersService } from './orders.service';
import { CHECKOUT_JOB, LOCAL_DELIVER_JOB, ORDER_HOLD_SWEEP_JOB, PROCESS_EVENT_JOB, REFUND_JOB, paymentsService } from './payments.service';

const SWEEP_INTERVAL_MS = 5 * 60_000;

export function registerPaymentJobs(runner: JobRunner, ctx: AppContext): void {
  runner.register(CHECKOUT_JOB, (payload) => paymentsService(ctx).createCheckout(String(payload.paymentId)));
  runner.register(REFUND_JOB, (payload) => paymentsService(ctx).sendRefund(String(payload.paymentId)));
  // A paid or refunded order whose writer died after its commit: its actions run here once the lease ran out.
  runner.register(ANNOUNCE_ORDER_PAID_JOB, (payload) => ordersService(ctx).announcePaid(Number(payload.orderId), payload.attendeeIds as number[]));
  runner.register(ANNOUNCE_ORDER_REFUNDED_JOB, (payload) =>
    ordersService(ctx).announceRefunded(Number(payload.orderId), payload.attendeeIds as number[], payload.refunded !== false),
  );
  runner.register(PROCESS_EVENT_JOB, async (payload, job) => {
    const outcome = await paymentsService(ctx).processEvent(Number(payload.eventRowId));
    job.logger.info({ outcome }, 'payment event processed');
  });
  runner.register(LOCAL_DELIVER_JOB, (payload) =>
    paymentsService(ctx).deliverLocalWebhook({
      paymentId: String(payload.paymentId),
      kind: payload.kind as ProviderEventKind,
      eventId: String(payload.eventId),
      amountCents: Number(payload.amountCents),
      ...(typeof payload.currency === 'string' ? { currency: payload.currency } : {}),
    }),
  );
  if (ctx.env.SVC_EDITION !== 'extended') return;
  runner.every(ORDER_HOLD_SWEEP_JOB, SWEEP_INTERVAL_MS, async (_payload, job) => {
    const expired = await paymentsService(ctx).sweep();
    if (expired.length) job.logger.info({ expired: expired.length }, 'unpaid orders released their seats');
  });
}
