import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { nowUtc, utcTimestamp } from '../../db/columns';
import { events } from '../events/events.sql';
import type { TaxMode, VoucherKind } from '../../../shared/pricing';

/**
 * Ticket categories of an event (docs/api.md#tickets): each has its own price, quota inside the
 * event's capacity, sale window and order limits. An event without any sells one implicit
 * category from its own price, as before categories existed.
 */
export const ticketCategories = pgTable(
  'svc_ticket_categories',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'restrict' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** Gross or net per `taxMode`, in the settings' currency's minor unit. */
    priceCents: integer('price_cents').notNull().default(0),
    /** Seats this category may hold (going rows' quantities); null = only the event's capacity limits it. */
    quota: integer('quota'),
    saleStartsUtc: utcTimestamp('sale_starts_utc'),
    saleEndsUtc: utcTimestamp('sale_ends_utc'),
    minPerOrder: integer('min_per_order').notNull().default(1),
    /** null = no limit beyond the event's own per-sign-up limit. */
    maxPerOrder: integer('max_per_order'),
    /** Sold only through a voucher that unlocks it. */
    hidden: boolean('hidden').notNull().default(false),
    position: integer('position').notNull().default(0),
    /** Tax rate in basis points (1900 = 19 %). */
    taxRateBp: integer('tax_rate_bp').notNull().default(0),
    taxMode: text('tax_mode').$type<TaxMode>().notNull().default('included'),
    createdUtc: utcTimestamp('created_utc').notNull().default(nowUtc),
    updatedUtc: utcTimestamp('updated_utc').notNull().default(nowUtc),
  },
  (t) => [index('svc_ticket_categories_event').on(t.eventId, t.position, t.id)],
);

/**
 * Promo codes and vouchers of an event (docs/api.md#tickets). `usedCount` counts redemptions
 * under the event's sign-up lock, so a code with a limit is never redeemed past it.
 */
export const vouchers = pgTable(
  'svc_vouchers',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'restrict' }),
    /** As the organizer typed it; matched without regard to case (`codeKey` is its upper-case form). */
    code: text('code').notNull(),
    codeKey: text('code_key').notNull(),
    kind: text('kind').$type<VoucherKind>().notNull(),
    /** percent: basis points (2000 = 20 %); fixed: cents off each ticket; set_price: each ticket's price in cents. */
    value: integer('value').notNull(),
    /** Categories it applies to; null = every category of the event. */
    categoryIds: jsonb('category_ids').$type<number[]>(),
    /** Tickets it may discount in all; null = no limit. */
    maxUses: integer('max_uses'),
    /** Tickets one email may take with it; null = no limit. */
    maxUsesPerEmail: integer('max_uses_per_email'),
    validFromUtc: utcTimestamp('valid_from_utc'),
    validUntilUtc: utcTimestamp('valid_until_utc'),
    /** Whether it opens the hidden categories it applies to. */
    unlocksHidden: boolean('unlocks_hidden').notNull().default(false),
    usedCount: integer('used_count').notNull().default(0),
    createdUtc: utcTimestamp('created_utc').notNull().default(nowUtc),
    updatedUtc: utcTimestamp('updated_utc').notNull().default(nowUtc),
  },
  (t) => [uniqueIndex('svc_vouchers_event_code').on(t.eventId, t.codeKey)],
);

/**
 * One row per order (or free sign-up) a voucher discounted: the per-email limit is counted from
 * these, and cancelling or expiring the order gives its uses back.
 */
export const voucherRedemptions = pgTable(
  'svc_voucher_redemptions',
  {
    id: serial('id').primaryKey(),
    voucherId: integer('voucher_id')
      .notNull()
      .references(() => vouchers.id, { onDelete: 'cascade' }),
    /** Lower-cased email of the buyer. */
    email: text('email').notNull(),
    /** Tickets discounted. */
    quantity: integer('quantity').notNull(),
    orderId: integer('order_id'),
    /** The ticket row of a free sign-up (no order) it discounted: one redemption per discounted row. */
    attendeeId: integer('attendee_id'),
    /** Set when the order was cancelled or expired and the uses given back. */
    releasedUtc: utcTimestamp('released_utc'),
    createdUtc: utcTimestamp('created_utc').notNull().default(nowUtc),
  },
  (t) => [
    index('svc_voucher_redemptions_voucher_email').on(t.voucherId, t.email),
    index('svc_voucher_redemptions_order')
      .on(t.orderId)
      .where(sql`${t.orderId} is not null`),
  ],
);
