/** Ticket category schemas shared by the server (REST + tRPC) and the PWA (docs/api.md#tickets). */
import { z } from 'zod';

import { VOUCHER_KINDS } from './pricing';
import { ZPositiveId, ZUtcDateTime } from './schemas';

export const TAX_MODES = ['included', 'added'] as const;
export type TaxMode = (typeof TAX_MODES)[number];

/** The most tickets of one category a single order may carry (the event's own per-sign-up limit applies too). */
export const MAX_TICKETS_PER_LINE = 1000;
/** Categories one order may mix. */
export const MAX_TICKET_LINES = 20;

const categoryFields = {
  name: z.string().trim().min(1).max(190),
  description: z.string().max(2000),
  /** Per ticket, in the settings' currency's minor unit: gross when taxMode is 'included', net when 'added'. */
  priceCents: z.number().int().min(0).max(100_000_000),
  /** Seats this category may hold inside the event's capacity; null = only the event's capacity. */
  quota: z.number().int().min(0).max(1_000_000).nullable(),
  saleStartsUtc: ZUtcDateTime.nullable(),
  saleEndsUtc: ZUtcDateTime.nullable(),
  minPerOrder: z.number().int().min(1).max(MAX_TICKETS_PER_LINE),
  /** null = only the event's maxPerSignup. */
  maxPerOrder: z.number().int().min(1).max(MAX_TICKETS_PER_LINE).nullable(),
  /** Sold only through a voucher that unlocks it (never listed to the public). */
  hidden: z.boolean(),
  position: z.number().int().min(0).max(1_000_000),
  /** Basis points: 1900 = 19 %. */
  taxRateBp: z.number().int().min(0).max(10_000),
  taxMode: z.enum(TAX_MODES),
};

export const ZCreateTicketCategoryInput = z.object({
  ...categoryFields,
  description: categoryFields.description.default(''),
  priceCents: categoryFields.priceCents.default(0),
  quota: categoryFields.quota.default(null),
  saleStartsUtc: categoryFields.saleStartsUtc.default(null),
  saleEndsUtc: categoryFields.saleEndsUtc.default(null),
  minPerOrder: categoryFields.minPerOrder.default(1),
  maxPerOrder: categoryFields.maxPerOrder.default(null),
  hidden: categoryFields.hidden.default(false),
  position: categoryFields.position.default(0),
  taxRateBp: categoryFields.taxRateBp.default(0),
  taxMode: categoryFields.taxMode.default('included'),
});
export type CreateTicketCategoryInput = z.infer<typeof ZCreateTicketCategoryInput>;

export const ZUpdateTicketCategoryInput = z.object(categoryFields).partial();
export type UpdateTicketCategoryInput = z.infer<typeof ZUpdateTicketCategoryInput>;

export const ZTicketCategoryDto = z.object({
  id: z.number().int(),
  eventId: z.number().int(),
  name: z.string(),
  description: z.string(),
  priceCents: z.number().int(),
  quota: z.number().int().nullable(),
  saleStartsUtc: z.string().nullable(),
  saleEndsUtc: z.string().nullable(),
  minPerOrder: z.number().int(),
  maxPerOrder: z.number().int().nullable(),
  hidden: z.boolean(),
  position: z.number().int(),
  taxRateBp: z.number().int(),
  taxMode: z.enum(TAX_MODES),
  /** Seats it holds: going tickets and unpaid orders' (the quota's count). */
  soldCount: z.number().int(),
  createdUtc: z.string(),
  updatedUtc: z.string(),
});
export type TicketCategoryDto = z.infer<typeof ZTicketCategoryDto>;

/** One line of a sign-up's `tickets`: a category of the event and how many of it. */
export const ZTicketLineInput = z.object({
  categoryId: ZPositiveId,
  quantity: z.number().int().min(1).max(MAX_TICKETS_PER_LINE),
});
export type TicketLineInput = z.infer<typeof ZTicketLineInput>;

/** A sign-up's `tickets`: each category at most once. */
export const ZTicketLines = z
  .array(ZTicketLineInput)
  .min(1)
  .max(MAX_TICKET_LINES)
  .refine((lines) => new Set(lines.map((l) => l.categoryId)).size === lines.length, 'each category at most once');

/** An attendee's category as its serialization names it. */
export const ZTicketCategoryRef = z.object({ id: z.number().int(), name: z.string() });
export type TicketCategoryRef = z.infer<typeof ZTicketCategoryRef>;

/** An order's total in integer cents (net + tax = gross), as priceOrder makes it (shared/pricing.ts). */
export interface OrderTotal {
  netCents: number;
  taxCents: number;
  grossCents: number;
}

/** A category as the sign-up form offers it: what a visitor needs to choose and price it, nothing an organizer keeps to themself. */
export const ZOfferedTicketCategory = ZTicketCategoryDto.pick({
  id: true,
  name: true,
  description: true,
  priceCents: true,
  taxRateBp: true,
  taxMode: true,
  minPerOrder: true,
  maxPerOrder: true,
  hidden: true,
  position: true,
}).extend({
  /** Seats left in its quota; null = only the event's places limit it. */
  seatsLeft: z.number().int().nullable(),
});
export type OfferedTicketCategory = z.infer<typeof ZOfferedTicketCategory>;

/** The terms of a code the visitor typed, so the page prices the order as the server will. */
export const ZOfferedVoucher = z.object({
  code: z.string(),
  kind: z.enum(VOUCHER_KINDS),
  value: z.number().int(),
  categoryIds: z.array(z.number().int()).nullable(),
  unlocksHidden: z.boolean(),
});
export type OfferedVoucher = z.infer<typeof ZOfferedVoucher>;

/** What the sign-up form sells (docs/api.md#tickets): the categories on sale (and hidden ones a code unlocks), the code's terms, how it is paid. */
export const ZTicketOfferDto = z.object({
  /** The event sells through ticket categories (even when none is listed now: a code may unlock one). */
  sellsCategories: z.boolean(),
  currency: z.string(),
  /** Paid tickets go through online payment (extended edition); false: they are paid at the door. */
  onlinePayment: z.boolean(),
  /** How long unpaid seats are held while the visitor pays. */
  holdHours: z.number().int(),
  categories: z.array(ZOfferedTicketCategory),
  voucher: ZOfferedVoucher.nullable(),
});
export type TicketOfferDto = z.infer<typeof ZTicketOfferDto>;
