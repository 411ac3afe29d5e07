/**
 * Payments of the extended edition (docs/api.md#payments): opening a checkout for a held booking
 * or order, the checkout page's view, the visitor's Pay and Cancel on the local provider, the
 * providers' webhooks (verified on the raw body, stored, then processed by a job) and refunds.
 * Every call to a provider runs in a job after commit, never inside a request.
 */
import { AppError } from '../../../shared/errors';
import type { CheckoutDto, PaymentStatus, PaymentStatusDto } from '../../../shared/payments';
import { toUtcString, utcMs } from '../../../shared/time';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { enqueueJob } from '../../jobs/queue';
import { randomToken } from '../../security/crypto';
import { bookingService } from '../booking/booking.service';
import { bookingRepository } from '../booking/booking.repository';
import { queuePaidConfirmation, queueRefundCancellation } from '../booking/booking.notifications';
import { paymentVerdict } from './payment-verdict';
import { payerDocumentUrls } from './receipts.service';
import { releaseVoucher } from './vouchers.service';
import { settingsService } from '../settings/settings.service';
import { ordersService } from './orders.service';
import { paymentsRepository as repo, type PaymentEventRow, type PaymentRow } from './payments.repository';
import { createLocalProvider, type LocalProvider } from './providers/local';
import type { PaymentProvider, ProviderEventKind, ProviderName } from './providers/provider';

export const CHECKOUT_JOB = 'payments.checkout';
export const PROCESS_EVENT_JOB = 'payments.process_event';
export const REFUND_JOB = 'payments.refund';
export const LOCAL_DELIVER_JOB = 'payments.local_deliver';
export const ORDER_HOLD_SWEEP_JOB = 'payments.order_hold_sweep';

/** The extended edition's routes answer 404 in the free edition (docs/api.md#payments). */
export function requireExtended(ctx: Pick<AppContext, 'env'>): void {
  if (ctx.env.SVC_EDITION !== 'extended') throw new AppError('svc_not_found');
}

export function paymentsEnabled(ctx: Pick<AppContext, 'env'>): boolean {
  return ctx.env.SVC_EDITION === 'extended';
}

const providerCache = new WeakMap<object, Promise<PaymentProvider>>();

/** The configured provider (SVC_PAYMENT_PROVIDER), built once per environment. */
export function paymentProvider(ctx: Pick<AppContext, 'env' | 'secret'>): Promise<PaymentProvider> {
  let provider = providerCache.get(ctx.env);
  if (!provider) {
    provider = buildProvider(ctx);
    providerCache.set(ctx.env, provider);
  }
  return provider;
}

async function buildProvider(ctx: Pick<AppContext, 'env' | 'secret'>): Promise<PaymentProvider> {
  const { env } = ctx;
  if (env.SVC_PAYMENT_PROVIDER === 'local') return createLocalProvider({ serverSecret: ctx.secret, publicUrl: env.publicUrl });
  // Loaded only when chosen: the local edition never loads the Stripe package.
  const { createStripeProvider } = await import('./providers/stripe');
  const api = env.STRIPE_API_URL ? new URL(env.STRIPE_API_URL) : null;
  return createStripeProvider({
    secretKey: env.STRIPE_SECRET_KEY!,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET!,
    ...(api
      ? { host: api.hostname, port: Number(api.port || (api.protocol === 'https:' ? 443 : 80)), protocol: api.protocol === 'https:' ? 'https' : 'http' }
      : {}),
  });
}

export interface OpenPaymentInput {
  bookingId?: number;
  orderId?: number;
  amountCents: number;
  currency: string;
  description: string;
  customerEmail: string;
}

/**
 * Opens the payment of a held booking or order in the caller's transaction: its row (the id is
 * random, the visitor's capability) and, for a provider with a hosted page, the job that
 * creates the checkout there. The visitor always starts on `/pay/{id}`.
 */
export async function openPayment(ctx: Pick<AppContext, 'env'>, tx: Db, input: OpenPaymentInput): Promise<{ id: string; url: string }> {
  const id = randomToken(24);
  const provider = ctx.env.SVC_PAYMENT_PROVIDER as ProviderName;
  await repo.insertPayment(tx, { id, provider, providerSessionId: provider === 'local' ? id : null, ...input });
  if (provider !== 'local') await enqueueJob(tx, CHECKOUT_JOB, { paymentId: id }, { dedupeKey: `payment-checkout:${id}`, maxAttempts: 6 });
  return { id, url: `${ctx.env.publicUrl}/pay/${id}` };
}

export function paymentsService(ctx: AppContext) {
  const bookings = bookingService(ctx);
  const orders = ordersService(ctx);

  async function findOpenable(id: string, provider?: ProviderName): Promise<PaymentRow> {
    requireExtended(ctx);
    // The id is a capability: an unknown or malformed one is simply not found.
    const payment = /^[A-Za-z0-9_-]{16,64}$/.test(id) ? await repo.findPayment(ctx.db, id) : null;
    if (!payment || (provider && payment.provider !== provider)) throw new AppError('svc_not_found', 'No such payment.');
    return payment;
  }

  async function view(payment: PaymentRow): Promise<CheckoutDto> {
    const hours = await settingsService(ctx).paymentHoldHours();
    let settled = false;
    if (payment.bookingId !== null) settled = (await bookingRepository.findBooking(ctx.db, payment.bookingId))?.status === 'confirmed';
    else if (payment.orderId !== null) settled = (await repo.findOrder(ctx.db, payment.orderId))?.status === 'paid';
    // An open payment whose hold the sweeper released is over, whatever its row says until the next sweep.
    const status = payment.status === 'open' && !settled && !(await holdAlive(payment)) ? 'expired' : payment.status;
    const documents = await payerDocumentUrls(ctx, payment.id, payment.orderId);
    return {
      id: payment.id,
      provider: payment.provider,
      amountCents: payment.amountCents,
      currency: payment.currency,
      description: payment.description,
      status,
      kind: payment.bookingId !== null ? 'booking' : 'order',
      settled,
      holdUntilUtc: toUtcString(utcMs(payment.createdUtc) + hours * 3_600_000),
      checkoutUrl: payment.checkoutUrl,
      ...documents,
    };
  }

  /** Whether the booking or order this payment settles still waits for it. */
  async function holdAlive(payment: PaymentRow): Promise<boolean> {
    if (payment.bookingId !== null) return (await bookingRepository.findBooking(ctx.db, payment.bookingId))?.status === 'pending_payment';
    return (await repo.findOrder(ctx.db, payment.orderId!))?.status === 'pending_payment';
  }

  /**
   * The visitor gave up paying: under the payment's lock (the lock every event of it takes first),
   * the hold goes back and the payment closes as `status`. false when it was no longer open.
   */
  async function release(paymentId: string, status: PaymentStatus): Promise<boolean> {
    const done = await ctx.db.transaction(async (tx) => {
      const payment = await repo.findPayment(tx, paymentId, { forUpdate: true });
      if (payment?.status !== 'open') return null;
      const applied = await applyToHold(tx, payment, 'release');
      await repo.updatePayment(tx, payment.id, { status });
      return applied;
    });
    await done?.after();
    return done !== null;
  }

  function applyToHold(tx: Db, payment: PaymentRow, action: 'confirm' | 'release' | 'refund') {
    return payment.bookingId !== null ? bookings.applyPayment(tx, payment.bookingId, action) : orders.applyPayment(tx, payment.orderId!, action);
  }

  /** Queues the provider refund of a captured payment in the caller's transaction. */
  async function queueRefund(tx: Db, paymentId: string): Promise<void> {
    await repo.updatePayment(tx, paymentId, { status: 'refunding' });
    await enqueueJob(tx, REFUND_JOB, { paymentId }, { dedupeKey: `payment-refund:${paymentId}`, maxAttempts: 10 });
  }

  /**
   * Processes one stored event by what ALL stored events of its payment say, under the payment's
   * row lock (docs/decisions/024-payment-events-as-a-set.md): the final state is the same for
   * every order the provider delivers them in. A payment that confirms nothing is refunded (once)
   * and flagged for the admin; the booking's or order's mails and actions are written in this
   * same transaction (held, server/jobs/announcements.ts), so no crash or failed insert loses them.
   */
  async function reconcile(event: PaymentEventRow, paymentId: string): Promise<string> {
    const { outcome, after, warn } = await ctx.db.transaction(async (tx) => {
      const payment = (await repo.findPayment(tx, paymentId, { forUpdate: true }))!;
      // The captured payment's id, learned from its first event, also matches refunds keyed by it alone.
      const paymentRef = payment.paymentRef ?? event.paymentRef;
      const all = await repo.eventsOfPayment(tx, payment.provider, { id: payment.id, sessionId: payment.providerSessionId, paymentRef });
      const verdict = paymentVerdict(payment, all);
      const patch: Partial<PaymentRow> = paymentRef !== payment.paymentRef ? { paymentRef } : {};
      let result: string;
      let warnLate = false;
      let refundQueued = false;
      let applied: { outcome: string; after: () => Promise<void> } = { outcome: 'unchanged', after: async () => {} };
      if (verdict.action === null) {
        result = 'pending';
      } else {
        applied = await applyToHold(tx, payment, verdict.action);
        let attention = verdict.attention;
        if (verdict.action === 'confirm') {
          if (applied.outcome === 'confirmed' || applied.outcome === 'fulfilled') {
            Object.assign(patch, { status: 'paid', paidUtc: toUtcString(Date.now()) });
            if (payment.bookingId !== null) await queuePaidConfirmation(ctx, tx, payment.bookingId);
            result = applied.outcome;
          } else if (applied.outcome === 'already') {
            result = 'duplicate';
          } else {
            // Docs: a payment that lands after its hold was released is refunded, never confirmed.
            attention = 'hold_released';
            warnLate = payment.status === 'open' || payment.status === 'cancelled' || payment.status === 'expired';
            result = 'refunded_late';
          }
        } else result = verdict.action === 'release' ? 'released' : 'refunded';
        if (applied.outcome === 'cancelled' && payment.bookingId !== null) await queueRefundCancellation(ctx, tx, payment.bookingId);
        const moneyIn = verdict.action === 'refund' || result === 'refunded_late';
        if (moneyIn) {
          if (attention !== payment.attention) patch.attention = attention;
          if (verdict.refundedAtProvider) {
            if (payment.status !== 'refunded') patch.status = 'refunded';
          } else if (payment.status !== 'refunding' && payment.status !== 'refunded') {
            await queueRefund(tx, payment.id);
            refundQueued = true;
          }
        } else if (verdict.action === 'release' && payment.status === 'open') patch.status = 'expired';
        // A further refund or failure of a payment already settled that way changes nothing.
        if (verdict.action !== 'confirm' && applied.outcome === 'unchanged' && !refundQueued && patch.status === undefined && patch.attention === undefined)
          result = 'duplicate';
      }
      if (Object.keys(patch).length > 0) await repo.updatePayment(tx, payment.id, patch);
      await repo.markEventProcessed(tx, event.id, result);
      return { outcome: result, after: applied.after, warn: warnLate ? payment : null };
    });
    await after();
    // The payment id is the visitor's capability: the log names what it paid for instead.
    if (warn) ctx.logger.warn({ bookingId: warn.bookingId, orderId: warn.orderId }, 'payment landed after its hold was released: refunding it');
    if (outcome === 'refunded' || outcome === 'refunded_late') ctx.jobs.kick();
    return outcome;
  }

  return {
    view,

    async checkout(id: string): Promise<CheckoutDto> {
      return view(await findOpenable(id));
    },

    async localSession(sessionId: string) {
      const { amountCents, currency, description, status } = await findOpenable(sessionId, 'local');
      return { amountCents, currency, description, status };
    },

    /** Local provider's Pay: the server delivers the signed "paid" webhook to itself (a job). */
    async localPay(sessionId: string) {
      const payment = await findOpenable(sessionId, 'local');
      if (payment.status !== 'open' || !(await holdAlive(payment))) throw new AppError('svc_payment_closed');
      await enqueueJob(
        ctx.db,
        LOCAL_DELIVER_JOB,
        {
          paymentId: payment.id,
          kind: 'paid' satisfies ProviderEventKind,
          eventId: `evt_local_${randomToken(12)}`,
          amountCents: payment.amountCents,
          currency: payment.currency,
        },
        { dedupeKey: `local-pay:${payment.id}`, maxAttempts: 10 },
      );
      ctx.jobs.kick();
      return { amountCents: payment.amountCents, currency: payment.currency, description: payment.description, status: payment.status };
    },

    /** The visitor gives up paying: the hold is released at once, as the sweeper would (any provider). */
    async cancel(id: string, provider?: ProviderName): Promise<CheckoutDto> {
      const payment = await findOpenable(id, provider);
      if (payment.status === 'cancelled' || payment.status === 'expired') return view(payment);
      if (payment.status !== 'open' || !(await release(payment.id, 'cancelled'))) {
        const now = (await repo.findPayment(ctx.db, id))!;
        if (now.status !== 'cancelled' && now.status !== 'expired') throw new AppError('svc_payment_closed');
      }
      return view((await repo.findPayment(ctx.db, id))!);
    },

    /**
     * `POST /payments/{provider}/webhook`: the signature is checked on the raw body first; the
     * verified event is stored (once per provider event id) with the job that processes it.
     */
    async receiveWebhook(providerName: string, rawBody: string, headers: Record<string, string>): Promise<{ received: true; duplicate: boolean }> {
      requireExtended(ctx);
      if (providerName !== ctx.env.SVC_PAYMENT_PROVIDER) throw new AppError('svc_not_found', 'No such payment provider.');
      const provider = await paymentProvider(ctx);
      const event = await provider.parseWebhook(rawBody, headers);
      if (!event) return { received: true, duplicate: false };
      const stored = await ctx.db.transaction(async (tx) => {
        const row = await repo.insertEvent(tx, {
          provider: provider.name,
          eventId: event.eventId,
          kind: event.kind,
          reference: event.reference ?? null,
          sessionId: event.sessionId ?? null,
          paymentRef: event.paymentRef ?? null,
          amountCents: event.amountCents,
          currency: event.currency?.toUpperCase() ?? null,
        });
        if (row) await enqueueJob(tx, PROCESS_EVENT_JOB, { eventRowId: row.id }, { dedupeKey: `payment-event:${row.id}` });
        return row;
      });
      if (stored) ctx.jobs.kick();
      return { received: true, duplicate: stored === null };
    },

    /** The job behind a stored provider event; safe to run again (every step checks the state it changes). */
    async processEvent(eventRowId: number): Promise<string> {
      const event = await repo.findEvent(ctx.db, eventRowId);
      if (!event || event.processedUtc) return 'done';
      const payment = await repo.findPaymentFor(ctx.db, event.provider, event);
      if (!payment) {
        ctx.logger.warn({ provider: event.provider, eventId: event.eventId }, 'payment event for no known payment: ignored');
        await repo.markEventProcessed(ctx.db, event.id, 'unknown_payment');
        return 'unknown_payment';
      }
      return reconcile(event, payment.id);
    },

    /** Creates the hosted checkout at the provider (a job: the network is never inside a request). */
    async createCheckout(paymentId: string): Promise<void> {
      const payment = await repo.findPayment(ctx.db, paymentId);
      if (!payment || payment.status !== 'open' || payment.checkoutUrl) return;
      const provider = await paymentProvider(ctx);
      const session = await provider.createCheckout({
        reference: payment.id,
        amountCents: payment.amountCents,
        currency: payment.currency,
        description: payment.description,
        customerEmail: payment.customerEmail || undefined,
        successUrl: `${ctx.env.publicUrl}/pay/${payment.id}?returned=1`,
        cancelUrl: `${ctx.env.publicUrl}/pay/${payment.id}`,
      });
      await repo.updatePayment(ctx.db, payment.id, { providerSessionId: session.sessionId, checkoutUrl: session.url });
    },

    /** Sends a queued refund to the provider (a job). */
    async sendRefund(paymentId: string): Promise<void> {
      const payment = await repo.findPayment(ctx.db, paymentId);
      if (payment?.status !== 'refunding') return;
      const provider = await paymentProvider(ctx);
      const { refundId } = await provider.refund({
        reference: payment.id,
        sessionId: payment.providerSessionId ?? payment.id,
        paymentRef: payment.paymentRef,
        amountCents: payment.amountCents,
      });
      await repo.updatePayment(ctx.db, payment.id, { status: 'refunded', refundRef: refundId });
      ctx.logger.info({ bookingId: payment.bookingId, orderId: payment.orderId }, 'payment refunded');
    },

    /** The local provider delivers its signed webhook to this server's own endpoint (a job). */
    async deliverLocalWebhook(payload: { paymentId: string; kind: ProviderEventKind; eventId: string; amountCents: number; currency?: string }): Promise<void> {
      const provider = (await paymentProvider(ctx)) as LocalProvider;
      if (provider.name !== 'local') return;
      const { body, headers } = provider.webhookFor(payload.kind, payload.paymentId, payload.amountCents, payload.eventId, payload.currency);
      if (!ctx.selfUrl) throw new Error('the server is not listening yet');
      const res = await fetch(`${ctx.selfUrl}/svc/v1/payments/local/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(10_000),
      });
      await res.body?.cancel();
      if (!res.ok) throw new Error(`local webhook answered ${res.status}`);
    },

    /** Admin refund of a paid checkout order: tickets cancelled now, the money back through the provider (a job). */
    async refundOrder(orderId: number) {
      requireExtended(ctx);
      const order = await repo.findOrder(ctx.db, orderId);
      if (!order) throw new AppError('svc_not_found', 'No such order.');
      if (order.source === 'commerce')
        throw new AppError('svc_order_invalid_state', 'This order came from the shop: refund it there, and the shop reverses it here.');
      if (order.status !== 'paid') throw new AppError('svc_order_invalid_state', 'Only a paid order can be refunded.');
      const payment = await repo.latestPaymentOf(ctx.db, { orderId });
      // The payment's lock first, as its provider events take it, then the order's.
      const applied = await ctx.db.transaction(async (tx) => {
        const locked = payment && (await repo.findPayment(tx, payment.id, { forUpdate: true }));
        const done = await orders.applyPayment(tx, orderId, 'refund');
        if (done.outcome !== 'refunded') throw new AppError('svc_order_invalid_state', 'Only a paid order can be refunded.');
        if (locked?.status === 'paid') await queueRefund(tx, locked.id);
        return done;
      });
      await applied.after();
      ctx.jobs.kick();
      return orders.get(orderId);
    },

    /** Unpaid orders whose hold ran out give their seats back; payments of released bookings close. */
    async sweep(nowMs = Date.now()): Promise<number[]> {
      const hours = await settingsService(ctx).paymentHoldHours();
      const cutoff = toUtcString(nowMs - hours * 3_600_000);
      const expired = await ctx.db.transaction(async (tx) => {
        const ids = await repo.expireOrders(tx, cutoff);
        // and the codes those orders used have their uses back
        for (const orderId of ids) await releaseVoucher(tx, { orderId });
        await repo.closeOpenPayments(tx, { orderIds: ids }, 'expired');
        await repo.expireOrphanedBookingPayments(tx);
        // the seats they held go to the waitlist (docs/decisions/045-waitlist-promotion.md)
        const released = (await Promise.all(ids.map((id) => repo.findOrder(tx, id)))).filter((o) => o !== null);
        const after = released.length > 0 ? await ordersService(ctx).promoteAfterRelease(tx, released) : async () => {};
        return { ids, after };
      });
      await expired.after();
      return expired.ids;
    },

    async status(): Promise<PaymentStatusDto> {
      const settings = settingsService(ctx);
      const [holdHours, currency] = await Promise.all([settings.paymentHoldHours(), settings.currency()]);
      const extended = paymentsEnabled(ctx);
      const provider = extended ? (ctx.env.SVC_PAYMENT_PROVIDER as ProviderName) : null;
      return {
        edition: ctx.env.SVC_EDITION,
        provider,
        webhookUrl: provider ? `${ctx.env.publicUrl}/svc/v1/payments/${provider}/webhook` : null,
        configured: provider === 'local' || (provider === 'stripe' && Boolean(ctx.env.STRIPE_SECRET_KEY && ctx.env.STRIPE_WEBHOOK_SECRET)),
        commerceBridge: { enabled: extended && Boolean(ctx.env.SVC_COMMERCE_SECRET), url: `${ctx.env.publicUrl}/svc/v1/commerce/orders` },
        holdHours,
        currency,
      };
    },
  };
}

export type PaymentsService = ReturnType<typeof paymentsService>;
