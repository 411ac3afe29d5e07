/**
 * The Stripe provider: a hosted Checkout Session per payment, webhooks verified with the
 * endpoint's signing secret, refunds against the captured PaymentIntent. Every write carries an
 * idempotency key derived from our payment id, so a job that runs twice asks Stripe once.
 *
 * The secret key goes to the Stripe client and nowhere else: it is never logged and never part
 * of an error this module throws.
 */

import Stripe from 'stripe';
import { AppError } from '../../../../shared/errors';
import { assertCleanText } from '../../../../shared/validation';
import type { CheckoutRequest, CheckoutSession, PaymentProvider, ProviderEvent, ProviderEventKind, RefundRequest } from './provider';

export interface StripeProviderOptions {
  secretKey: string;
  webhookSecret: string;
  /** Only for tests: point the client at a local stub instead of Stripe's API. */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
}

/** Automatic retries of a failed request (connection errors, 409, 5xx); each reuses the idempotency key. */
const MAX_NETWORK_RETRIES = 2;
/** Per attempt; Stripe's default is 80 s, far longer than a job should wait. */
const TIMEOUT_MS = 20_000;
const SIGNATURE_HEADER = 'stripe-signature';
/** Seconds a signature's timestamp may be off, either way (Stripe's default tolerance). */
const TOLERANCE_SECONDS = 300;
/** The metadata key that leads a Stripe object back to our payment. */
const METADATA_KEY = 'svc_payment';

export function createStripeProvider(opts: StripeProviderOptions): PaymentProvider {
  const stripe = new Stripe(opts.secretKey, {
    maxNetworkRetries: MAX_NETWORK_RETRIES,
    timeout: TIMEOUT_MS,
    telemetry: false,
    ...(opts.host !== undefined ? { host: opts.host } : {}),
    ...(opts.port !== undefined ? { port: opts.port } : {}),
    ...(opts.protocol !== undefined ? { protocol: opts.protocol } : {}),
  });
  const webhookSecret = opts.webhookSecret;

  return {
    name: 'stripe',

    async createCheckout(req: CheckoutRequest): Promise<CheckoutSession> {
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              price_data: {
                currency: req.currency.toLowerCase(),
                unit_amount: req.amountCents,
                product_data: { name: req.description },
              },
              quantity: 1,
            },
          ],
          success_url: req.successUrl,
          cancel_url: req.cancelUrl,
          ...(req.customerEmail ? { customer_email: req.customerEmail } : {}),
          client_reference_id: req.reference,
          metadata: { [METADATA_KEY]: req.reference },
          payment_intent_data: { metadata: { [METADATA_KEY]: req.reference } },
        },
        { idempotencyKey: `svc-checkout-${req.reference}` },
      );
      if (!session.url) throw new Error(`Stripe answered checkout session ${session.id} without a url`);
      return { sessionId: session.id, url: session.url };
    },

    async parseWebhook(rawBody: string, headers: Record<string, string>): Promise<ProviderEvent | null> {
      const signature = headers[SIGNATURE_HEADER];
      if (!signature) throw new AppError('svc_invalid_signature');
      // constructEvent refuses only signatures too old; one dated too far ahead is as suspect.
      const signedAt = Number(/(?:^|,)\s*t=(\d{1,12})(?:,|$)/.exec(signature)?.[1] ?? NaN);
      if (!(signedAt <= Math.floor(Date.now() / 1000) + TOLERANCE_SECONDS)) throw new AppError('svc_invalid_signature');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, webhookSecret, TOLERANCE_SECONDS);
      } catch (err) {
        throw new AppError('svc_invalid_signature', undefined, undefined, { cause: err });
      }
      // Signed does not mean storable: a NUL in an id answered 500 from its look-up.
      assertCleanText(event);
      return toProviderEvent(event);
    },

    async refund(req: RefundRequest): Promise<{ refundId: string }> {
      if (req.paymentRef == null) throw new Error(`Payment ${req.reference} has no Stripe PaymentIntent to refund`);
      const refund = await stripe.refunds.create(
        { payment_intent: req.paymentRef, amount: req.amountCents },
        { idempotencyKey: `svc-refund-${req.reference}` },
      );
      return { refundId: refund.id };
    },
  };
}

/** Reduces a verified Stripe event to what svc acts on; null for anything else. */
function toProviderEvent(event: Stripe.Event): ProviderEvent | null {
  switch (event.type) {
    case 'checkout.session.completed':
      // Card payments are paid at completion; delayed methods (SEPA, bank transfer) finish later
      // with checkout.session.async_payment_succeeded or _failed.
      if (event.data.object.payment_status !== 'paid') return null;
      return fromSession(event.id, 'paid', event.data.object);
    case 'checkout.session.async_payment_succeeded':
      return fromSession(event.id, 'paid', event.data.object);
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired':
      return fromSession(event.id, 'failed', event.data.object);
    case 'charge.refunded': {
      const charge = event.data.object;
      // A partial refund leaves the payment paid; only a full refund changes its state.
      if (charge.refunded !== true) return null;
      return {
        eventId: event.id,
        kind: 'refunded',
        reference: charge.metadata?.[METADATA_KEY] ?? undefined,
        paymentRef: idOf(charge.payment_intent),
        amountCents: charge.amount_refunded,
        currency: charge.currency.toUpperCase(),
      };
    }
    default:
      return null;
  }
}

function fromSession(eventId: string, kind: ProviderEventKind, session: Stripe.Checkout.Session): ProviderEvent {
  return {
    eventId,
    kind,
    sessionId: session.id,
    reference: session.metadata?.[METADATA_KEY] ?? session.client_reference_id ?? undefined,
    paymentRef: idOf(session.payment_intent),
    amountCents: session.amount_total ?? 0,
    ...(session.currency ? { currency: session.currency.toUpperCase() } : {}),
  };
}

/** An expandable field: the id itself, or the expanded object carrying it. */
function idOf(field: string | { id: string } | null | undefined): string | undefined {
  if (field == null) return undefined;
  return typeof field === 'string' ? field : field.id;
}
