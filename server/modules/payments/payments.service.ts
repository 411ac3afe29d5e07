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
    };
  }

  /** Whether the booking or order this payment settles still waits for it. */
  async function holdAlive(payment: PaymentRow): Promise<boolean> {
    if (payment.bookingId !== null) return (await bookingRepository.findBooking(ctx.db, payment.bookingId))?.status === 'pending_payment';
    return (await repo.findOrder(ctx.db, payment.orderId!))?.status === 'pending_payment';
  }

  /** Releases the hold behind an open payment and closes the payment as `status`, in one transaction. */
  async function release(payment: PaymentRow, status: PaymentStatus): Promise<void> {
    const close = (tx: Db) =>
      repo.closeOpenPayments(tx, payment.bookingId !== null ? { bookingIds: [payment.bookingId] } : { orderIds: [payment.orderId!] }, status);
    if (payment.bookingId !== null) await bookings.releaseHold(payment.bookingId, close, status === 'expired' ? 'expired' : 'cancelled');
    else await orders.releaseHold(payment.orderId!, close);
  }

  /** Queues the provider refund of a captured payment in the caller's transaction. */
  async function queueRefund(tx: Db, paymentId: string): Promise<void> {
    await repo.updatePayment(tx, paymentId, { status: 'refunding' });
    await enqueueJob(tx, REFUND_JOB, { paymentId }, { dedupeKey: `payment-refund:${paymentId}`, maxAttempts: 10 });
  }

  async function processPaid(event: PaymentEventRow, payment: PaymentRow): Promise<string> {
    if (payment.status !== 'open' && payment.status !== 'cancelled' && payment.status !== 'expired') {
      await repo.markEventProcessed(ctx.db, event.id, 'duplicate');
      return 'duplicate';
    }
    const record = async (tx: Db, outcome: string) => {
      if (outcome === 'confirmed' || outcome === 'fulfilled') {
        await repo.updatePayment(tx, payment.id, { status: 'paid', paidUtc: toUtcString(Date.now()), paymentRef: event.paymentRef ?? payment.paymentRef });
      } else if (outcome === 'released') {
        // Docs: a payment that lands after its hold was released is refunded, never confirmed.
        await repo.updatePayment(tx, payment.id, { status: 'paid', paymentRef: event.paymentRef ?? payment.paymentRef });
        await queueRefund(tx, payment.id);
      }
      await repo.markEventProcessed(tx, event.id, outcome === 'released' ? 'refunded_late' : outcome);
    };
    const outcome =
      payment.bookingId !== null
        ? await bookings.settlePayment(payment.bookingId, (tx, o) => record(tx, o))
        : await orders.settlePayment(payment.orderId!, (tx, o) => record(tx, o));
    // The payment id is the visitor's capability: the log names what it paid for instead.
    if (outcome === 'released')
      ctx.logger.warn({ bookingId: payment.bookingId, orderId: payment.orderId }, 'payment landed after its hold was released: refunding it');
    return outcome === 'released' ? 'refunded_late' : outcome;
  }

  async function processRefunded(event: PaymentEventRow, payment: PaymentRow): Promise<string> {
    if (payment.status !== 'paid' && payment.status !== 'refunding') {
      await repo.markEventProcessed(ctx.db, event.id, 'duplicate');
      return 'duplicate';
    }
    const record = async (tx: Db) => {
      await repo.updatePayment(tx, payment.id, { status: 'refunded' });
      await repo.markEventProcessed(tx, event.id, 'refunded');
    };
    if (payment.orderId !== null) {
      const reversed = await orders.reverse(payment.orderId, 'refunded', record);
      if (!reversed) await ctx.db.transaction(record);
    } else {
      // A refunded booking keeps its status (only the holder or an admin cancels one); its payment state says refunded.
      await ctx.db.transaction(async (tx) => {
        await bookingRepository.setPaymentStatus(tx, payment.bookingId!, 'refunded');
        await record(tx);
      });
    }
    return 'refunded';
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
        { paymentId: payment.id, kind: 'paid' satisfies ProviderEventKind, eventId: `evt_local_${randomToken(12)}`, amountCents: payment.amountCents },
        { dedupeKey: `local-pay:${payment.id}`, maxAttempts: 10 },
      );
      ctx.jobs.kick();
      return { amountCents: payment.amountCents, currency: payment.currency, description: payment.description, status: payment.status };
    },

    /** The visitor gives up paying: the hold is released at once, as the sweeper would (any provider). */
    async cancel(id: string, provider?: ProviderName): Promise<CheckoutDto> {
      const payment = await findOpenable(id, provider);
      if (payment.status === 'cancelled' || payment.status === 'expired') return view(payment);
      if (payment.status !== 'open') throw new AppError('svc_payment_closed');
      await release(payment, 'cancelled');
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
      if (event.kind === 'paid') return processPaid(event, payment);
      if (event.kind === 'refunded') return processRefunded(event, payment);
      // failed: the checkout is over at the provider, so the hold goes back now.
      if (payment.status === 'open') await release(payment, 'expired');
      await repo.markEventProcessed(ctx.db, event.id, 'released');
      return 'released';
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
    async deliverLocalWebhook(payload: { paymentId: string; kind: ProviderEventKind; eventId: string; amountCents: number }): Promise<void> {
      const provider = (await paymentProvider(ctx)) as LocalProvider;
      if (provider.name !== 'local') return;
      const { body, headers } = provider.webhookFor(payload.kind, payload.paymentId, payload.amountCents, payload.eventId);
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
      await orders.reverse(orderId, 'refunded', async (tx) => {
        const payment = await repo.latestPaymentOf(tx, { orderId });
        if (payment?.status === 'paid') await queueRefund(tx, payment.id);
      });
      ctx.jobs.kick();
      return orders.get(orderId);
    },

    /** Unpaid orders whose hold ran out give their seats back; payments of released bookings close. */
    async sweep(nowMs = Date.now()): Promise<number[]> {
      const hours = await settingsService(ctx).paymentHoldHours();
      const cutoff = toUtcString(nowMs - hours * 3_600_000);
      const expired = await ctx.db.transaction(async (tx) => {
        const ids = await repo.expireOrders(tx, cutoff);
        await repo.closeOpenPayments(tx, { orderIds: ids }, 'expired');
        await repo.expireOrphanedBookingPayments(tx);
        return ids;
      });
      return expired;
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
