import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { nowUtc, utcTimestamp } from '../../db/columns';
import { events } from '../events/events.sql';
import type { OrderLine, OrderSource, OrderStatus, PaymentAttention, PaymentStatus } from '../../../shared/payments';

/**
 * One payment per paid booking or order (docs/api.md#payments). Its id is our reference at the
 * provider and the visitor's capability: `/pay/{id}` shows and settles it, so it is a random
 * 32-byte token, never a counter.
 */
export const payments = pgTable(
  'svc_payments',
  {
    id: text('id').primaryKey(),
    provider: text('provider').$type<'local' | 'stripe'>().notNull(),
    bookingId: integer('booking_id'),
    orderId: integer('order_id'),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    description: text('description').notNull(),
    customerEmail: text('customer_email').notNull().default(''),
    status: text('status').$type<PaymentStatus>().notNull().default('open'),
    /** The provider's checkout id (local: the payment's own id; Stripe: `cs_…`), set once the checkout exists. */
    providerSessionId: text('provider_session_id'),
    /** Where the visitor pays at the provider (Stripe's hosted page); null for the local page. */
    checkoutUrl: text('checkout_url'),
    /** The provider's id of the captured payment (Stripe: the PaymentIntent), needed to refund. */
    paymentRef: text('payment_ref'),
    refundRef: text('refund_ref'),
    /**
     * Why an administrator should look at this payment (docs/api.md#payments): money landed that
     * confirmed nothing (`amount_mismatch`, `refunded_at_provider`, `payment_failed`,
     * `hold_released`) and was refunded. Null when nothing needs a look.
     */
    attention: text('attention').$type<PaymentAttention>(),
    createdUtc: utcTimestamp('created_utc').notNull().default(nowUtc),
    updatedUtc: utcTimestamp('updated_utc').notNull().default(nowUtc),
    paidUtc: utcTimestamp('paid_utc'),
  },
  (t) => [
    index('svc_payments_booking').on(t.bookingId),
    index('svc_payments_order').on(t.orderId),
    uniqueIndex('svc_payments_provider_session').on(t.provider, t.providerSessionId),
    index('svc_payments_provider_ref').on(t.provider, t.paymentRef),
  ],
);

/**
 * Verified provider events, stored before anything acts on them (a job processes each one), so
 * a crash between receipt and processing loses nothing; unique per provider event id, so a
 * repeated delivery is a no-op.
 */
export const paymentEvents = pgTable(
  'svc_payment_events',
  {
    id: serial('id').primaryKey(),
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    kind: text('kind').$type<'paid' | 'failed' | 'refunded'>().notNull(),
    reference: text('reference'),
    sessionId: text('session_id'),
    paymentRef: text('payment_ref'),
    amountCents: integer('amount_cents').notNull(),
    /** Uppercase ISO 4217 as the provider reported it; null when the provider's event names none (local). */
    currency: text('currency'),
    /** What processing did: confirmed, fulfilled, refunded_late, ignored… (null until processed). */
    outcome: text('outcome'),
    receivedUtc: utcTimestamp('received_utc').notNull().default(nowUtc),
    processedUtc: utcTimestamp('processed_utc'),
  },
  (t) => [
    uniqueIndex('svc_payment_events_provider_event').on(t.provider, t.eventId),
    // A payment's events are read together on every event of it (payment-verdict.ts).
    index('svc_payment_events_reference').on(t.provider, t.reference),
    index('svc_payment_events_session').on(t.provider, t.sessionId),
    index('svc_payment_events_payment_ref').on(t.provider, t.paymentRef),
  ],
);

/**
 * Paid sign-ups (docs/api.md#payments): a checkout order holds its seats while pending; a
 * commerce order comes paid (or reversed) from an outside shop, keyed by the shop's id.
 */
export const orders = pgTable(
  'svc_orders',
  {
    id: serial('id').primaryKey(),
    /** The (first) event; `lines` holds every event of a commerce order. */
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'restrict' }),
    lines: jsonb('lines').$type<OrderLine[]>().notNull(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    /** The language the order was made in; its receipts and mails use it (null = older rows). */
    language: text('language'),
    quantity: integer('quantity').notNull(),
    /** The gross total the buyer pays (after the voucher, taxes included). */
    amountCents: integer('amount_cents').notNull(),
    /** The parts of amountCents (docs/api.md#tickets for the rounding rule): net + tax = amount. */
    netCents: integer('net_cents'),
    taxCents: integer('tax_cents'),
    /** The voucher applied, as typed, and what it took off the gross; null/0 without one. */
    voucherId: integer('voucher_id'),
    voucherCode: text('voucher_code'),
    discountCents: integer('discount_cents').notNull().default(0),
    currency: text('currency').notNull(),
    status: text('status').$type<OrderStatus>().notNull(),
    source: text('source').$type<OrderSource>().notNull(),
    /** The shop's order id (commerce orders). */
    externalId: text('external_id'),
    /** The sign-up's custom answers (JSON), copied to each ticket's row when paid. */
    customFields: text('custom_fields'),
    createdUtc: utcTimestamp('created_utc').notNull().default(nowUtc),
    updatedUtc: utcTimestamp('updated_utc').notNull().default(nowUtc),
    paidUtc: utcTimestamp('paid_utc'),
  },
  (t) => [
    index('svc_orders_event_status').on(t.eventId, t.status),
    index('svc_orders_status_created').on(t.status, t.createdUtc),
    uniqueIndex('svc_orders_external')
      .on(t.source, t.externalId)
      .where(sql`${t.externalId} is not null`),
  ],
);
