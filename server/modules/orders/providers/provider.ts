/**
 * The one payment-provider interface (docs/api.md#payments). A provider creates a hosted
 * checkout, verifies and parses its own webhooks, and refunds. svc calls `createCheckout` and
 * `refund` only from jobs (never inside a request) and `parseWebhook` on the raw body before
 * any parsing of its own.
 */

export type ProviderName = 'local' | 'stripe';

export interface CheckoutRequest {
  /** Our payment id: the idempotency key and the metadata that leads a webhook back to the payment. */
  reference: string;
  amountCents: number;
  /** Uppercase ISO 4217. */
  currency: string;
  /** What is being paid, shown on the checkout page. */
  description: string;
  customerEmail?: string;
  /** Where the provider sends the visitor after paying, and after giving up. */
  successUrl: string;
  cancelUrl: string;
}

export interface CheckoutSession {
  /** The provider's id of the checkout (local: our reference itself; Stripe: `cs_…`). */
  sessionId: string;
  /** Where the visitor pays. */
  url: string;
}

export type ProviderEventKind = 'paid' | 'failed' | 'refunded';

/** A verified provider event, reduced to what svc acts on. */
export interface ProviderEvent {
  /** The provider's event id: a repeat of it is a no-op. */
  eventId: string;
  kind: ProviderEventKind;
  /** Our payment id, when the provider echoes the metadata back. */
  reference?: string;
  /** The provider's checkout id. */
  sessionId?: string;
  /** The provider's id of the captured payment (Stripe: the PaymentIntent), needed to refund. */
  paymentRef?: string;
  amountCents: number;
  /** ISO 4217 of what was paid, when the event says (compared with what is owed). */
  currency?: string;
}

export interface RefundRequest {
  /** Our payment id (idempotency key). */
  reference: string;
  sessionId: string;
  paymentRef: string | null;
  amountCents: number;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  createCheckout(req: CheckoutRequest): Promise<CheckoutSession>;
  /**
   * Verifies the signature over the raw body and parses the event. Throws
   * `AppError('svc_invalid_signature')` when the signature is missing or wrong; answers null for
   * a verified event svc has no use for (it is acknowledged and ignored).
   */
  parseWebhook(rawBody: string, headers: Record<string, string>): Promise<ProviderEvent | null>;
  refund(req: RefundRequest): Promise<{ refundId: string }>;
}
