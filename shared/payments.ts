/** Payment, order and commerce schemas shared by the server (REST + tRPC) and the PWA (docs/api.md#payments). */
import { z } from 'zod';
import { ZPositiveId, ZQueryId } from './schemas';
import { ZVoucherCode } from './vouchers';

export const PAYMENT_PROVIDERS = ['local', 'stripe'] as const;
export const ZPaymentProvider = z.enum(PAYMENT_PROVIDERS);

/** open: waiting for the visitor; paid; cancelled (the visitor gave up); expired (the hold ran out); refunding → refunded. */
export const PAYMENT_STATUSES = ['open', 'paid', 'cancelled', 'expired', 'refunding', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export const ZPaymentStatus = z.enum(PAYMENT_STATUSES);

/**
 * Why a payment needs an administrator's look: it landed but confirmed nothing, and was refunded —
 * the amount or currency differed from what was owed, the provider refunded it or reported it
 * failed, or its hold had been released first (docs/api.md#payments).
 */
export const PAYMENT_ATTENTIONS = ['amount_mismatch', 'refunded_at_provider', 'payment_failed', 'hold_released'] as const;
export type PaymentAttention = (typeof PAYMENT_ATTENTIONS)[number];
export const ZPaymentAttention = z.enum(PAYMENT_ATTENTIONS);

export const ORDER_STATUSES = ['pending_payment', 'paid', 'refunded', 'expired', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const ZOrderStatus = z.enum(ORDER_STATUSES);

/** checkout: a paid sign-up through the payment provider; commerce: an outside shop's order. */
export const ORDER_SOURCES = ['checkout', 'commerce'] as const;
export type OrderSource = (typeof ORDER_SOURCES)[number];

export const ZOrderLine = z.object({
  eventId: ZPositiveId,
  quantity: z.number().int().min(1).max(1000),
  /** A sign-up's ticket category (docs/api.md#tickets); absent on commerce orders and events without categories. */
  categoryId: ZPositiveId.optional(),
  /** The category's price per ticket when ordered, in cents (as its taxMode reads it). */
  unitPriceCents: z.number().int().min(0).optional(),
});
export type OrderLine = z.infer<typeof ZOrderLine>;

/** A paid sign-up's answer (201): the seats are held until `holdUntilUtc` while the visitor pays. */
export const ZOrderCreatedDto = z.object({
  orderId: z.number().int(),
  status: z.literal('pending_payment'),
  paymentUrl: z.string(),
});
export type OrderCreatedDto = z.infer<typeof ZOrderCreatedDto>;

/** What the checkout page shows (public: the unguessable payment id is the capability). */
export const ZCheckoutDto = z.object({
  id: z.string(),
  provider: ZPaymentProvider,
  amountCents: z.number().int(),
  currency: z.string(),
  description: z.string(),
  status: ZPaymentStatus,
  /** booking or order: what this payment settles. */
  kind: z.enum(['booking', 'order']),
  /** The booking's or order's own state, so the page can say "confirmed" once the payment is processed. */
  settled: z.boolean(),
  /** When an unpaid hold is released (UTC `Y-m-d H:i:s`). */
  holdUntilUtc: z.string(),
  /** The provider's hosted page (Stripe), once it exists; null for the local page. */
  checkoutUrl: z.string().nullable(),
  /** A paid order's receipt (PDF) and, once refunded, its credit note; null while there is none (docs/api.md#receipts). */
  receiptUrl: z.string().nullable(),
  creditNoteUrl: z.string().nullable(),
});
export type CheckoutDto = z.infer<typeof ZCheckoutDto>;

/** `GET /payments/local/{sessionId}` (docs/api.md#payments). */
export const ZLocalSessionDto = z.object({
  amountCents: z.number().int(),
  currency: z.string(),
  description: z.string(),
  status: ZPaymentStatus,
});

export const ZOrderDto = z.object({
  id: z.number().int(),
  eventId: z.number().int(),
  eventTitle: z.string(),
  lines: z.array(ZOrderLine),
  email: z.string(),
  name: z.string(),
  quantity: z.number().int(),
  /** What the buyer pays (after the voucher, taxes included). */
  amountCents: z.number().int(),
  /** Its net and tax parts (docs/api.md#tickets); null for an order made before ticket categories or from a shop. */
  netCents: z.number().int().nullable(),
  taxCents: z.number().int().nullable(),
  /** The code the buyer used (as the organizer wrote it) and what it took off; null and 0 without one. */
  voucherCode: z.string().nullable(),
  discountCents: z.number().int(),
  currency: z.string(),
  status: ZOrderStatus,
  source: z.enum(ORDER_SOURCES),
  externalId: z.string().nullable(),
  provider: ZPaymentProvider.nullable(),
  paymentStatus: ZPaymentStatus.nullable(),
  /** Why the admin should look at this order's payment (money that confirmed nothing, refunded), or null. */
  paymentAttention: ZPaymentAttention.nullable(),
  createdUtc: z.string(),
  paidUtc: z.string().nullable(),
});
export type OrderDto = z.infer<typeof ZOrderDto>;

export const ZOrderTicketDto = z.object({
  attendeeId: z.number().int(),
  eventId: z.number().int(),
  displayName: z.string(),
  email: z.string(),
  status: z.string(),
});
/** An issued receipt or credit note of the order (docs/api.md#receipts); `url` is the administrator's download. */
export const ZOrderDocumentDto = z.object({
  kind: z.enum(['receipt', 'credit_note']),
  number: z.string(),
  issuedUtc: z.string(),
  url: z.string(),
});
export type OrderDocumentDto = z.infer<typeof ZOrderDocumentDto>;
export const ZOrderDetailDto = ZOrderDto.extend({ tickets: z.array(ZOrderTicketDto), documents: z.array(ZOrderDocumentDto) });
export type OrderDetailDto = z.infer<typeof ZOrderDetailDto>;

export const ZOrderListQuery = z.object({
  eventId: ZQueryId.optional(),
  status: ZOrderStatus.optional(),
  search: z.string().trim().max(190).optional(),
  /** Orders with at least one ticket of this category. */
  ticketCategoryId: ZQueryId.optional(),
  /** Orders that used this code, without regard to case (the whole code, not a part). */
  voucherCode: ZVoucherCode.optional(),
});

/** Settings › Payments (admin): what is configured, never a secret. */
export const ZPaymentStatusDto = z.object({
  edition: z.enum(['free', 'extended']),
  provider: ZPaymentProvider.nullable(),
  /** Where the provider must send its webhooks. */
  webhookUrl: z.string().nullable(),
  /** Stripe: both keys set; local: always. */
  configured: z.boolean(),
  commerceBridge: z.object({ enabled: z.boolean(), url: z.string() }),
  holdHours: z.number().int(),
  currency: z.string(),
});
export type PaymentStatusDto = z.infer<typeof ZPaymentStatusDto>;

/** The commerce bridge's body (docs/api.md#payments). */
export const ZCommerceOrderInput = z.object({
  id: z.union([z.string().trim().min(1).max(190), z.number().int().nonnegative()]),
  status: z.enum(['paid', 'refunded', 'cancelled']),
  email: z
    .string()
    .trim()
    .max(254)
    .pipe(z.email({ message: 'must be a valid email address' })),
  name: z.string().trim().min(1).max(190),
  // a shop names events and quantities; categories are the sign-up's
  lines: z
    .array(ZOrderLine.pick({ eventId: true, quantity: true }))
    .min(1)
    .max(50),
});
export type CommerceOrderInput = z.infer<typeof ZCommerceOrderInput>;

/**
 * `GET /payments/checkout/{id}/tickets` (docs/api.md#payments): once a paid order is settled, the
 * payer's page shows its tickets. Only a going ticket carries its code, the PDF's key and its
 * calendar UID; a cancelled one is listed with its status. Empty for a booking or an order that is
 * not paid.
 */
export const ZPaidTicketDto = z.object({
  attendeeId: z.number().int(),
  status: z.string(),
  displayName: z.string(),
  quantity: z.number().int(),
  ticketCategoryId: z.number().int().nullable(),
  /** The ticket type's name (null without categories). */
  ticketType: z.string().nullable(),
  ticketCode: z.string().optional(),
  /** The key to its PDF ticket and Wallet pass, `GET /tickets/signed/{ticketPdfToken}/ticket.pdf` (never the cancel token). */
  ticketPdfToken: z.string().optional(),
  /** Whether the server makes Apple Wallet passes (`…/ticket.pkpass` with the same key). */
  walletAvailable: z.boolean(),
  /** The UID of the mailed event.ics, for the page's "Add to calendar" file. */
  calendarUid: z.string().optional(),
});
export type PaidTicketDto = z.infer<typeof ZPaidTicketDto>;

export const ZPaidTicketsDto = z.object({
  event: z
    .object({
      id: z.number().int(),
      title: z.string(),
      startsUtc: z.string(),
      endsUtc: z.string().nullable(),
      timezone: z.string(),
      venue: z.string(),
      description: z.string(),
    })
    .nullable(),
  tickets: z.array(ZPaidTicketDto),
});
export type PaidTicketsDto = z.infer<typeof ZPaidTicketsDto>;
