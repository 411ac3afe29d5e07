/**
 * What each ticket category of an event sold and earned, for the admin dashboard
 * (docs/decisions/032-category-sales.md). The check-in module's counts call this; the orders
 * module never calls check-in (STYLE §11).
 *
 * - soldCount: the seats counted against the category's quota (going tickets and seats held by
 *   unpaid orders), the figure `GET /events/{id}/ticket-categories` shows.
 * - revenueCents: the money of paid orders. Each order's amount is split over its lines in
 *   proportion to each line's gross after the order's voucher (priceOrder's rule, from the unit
 *   price the order recorded), with the leftover cents to the largest remainders, so the
 *   categories' parts sum to exactly what was paid. Refunded and expired orders earn nothing.
 * - atDoorCents: what going tickets without an order owe at the door: each row's quantity at its
 *   category's gross price after the voucher its sign-up redeemed.
 */
import type { Db } from '../../db/client';
import type { OrderLine } from '../../../shared/payments';
import {
  discountedUnitPrice,
  splitProportionally,
  splitTax,
  voucherAppliesTo,
  type TaxMode,
  type VoucherKind,
  type VoucherTerms,
} from '../../../shared/pricing';
import { paymentsRepository } from './payments.repository';
import { ticketsRepository } from './tickets.repository';

export interface CategorySales {
  /** Seats the category may hold; null = only the event's capacity limits it. */
  quota: number | null;
  soldCount: number;
  revenueCents: number;
  atDoorCents: number;
}

export interface SalesCategory {
  id: number;
  priceCents: number;
  taxRateBp: number;
  taxMode: TaxMode;
}

/** A voucher's terms as joined to an order or a sign-up's row (all null without one). */
export interface JoinedVoucher {
  voucherKind: VoucherKind | null;
  voucherValue: number | null;
  voucherCategoryIds: number[] | null;
}

export interface PaidOrderForSales extends JoinedVoucher {
  amountCents: number;
  lines: OrderLine[];
}

export interface TicketWithoutOrder extends JoinedVoucher {
  categoryId: number;
  quantity: number;
}

function termsOf(row: JoinedVoucher): VoucherTerms | null {
  return row.voucherKind === null || row.voucherValue === null ? null : { kind: row.voucherKind, value: row.voucherValue, categoryIds: row.voucherCategoryIds };
}

/** A line's gross after the voucher, as priceOrder computes it (shared/pricing.ts). */
function grossAfterVoucher(unitPriceCents: number, quantity: number, category: SalesCategory | undefined, voucher: VoucherTerms | null): number {
  const unit = category && voucher && voucherAppliesTo(voucher, category.id) ? discountedUnitPrice(unitPriceCents, voucher) : unitPriceCents;
  return category ? splitTax(unit * quantity, category.taxRateBp, category.taxMode).grossCents : unit * quantity;
}

/**
 * Paid orders' money per category of `eventId` (null: lines of the event without one of its
 * categories). A line without a recorded unit price (a shop's order) makes the whole order split
 * by ticket count.
 */
export function revenueByCategory(eventId: number, categories: readonly SalesCategory[], orders: readonly PaidOrderForSales[]): Map<number | null, number> {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const revenue = new Map<number | null, number>();
  for (const order of orders) {
    const voucher = termsOf(order);
    const byCount = order.lines.some((l) => l.unitPriceCents === undefined);
    const weights = order.lines.map((l) =>
      byCount
        ? l.quantity
        : grossAfterVoucher(l.unitPriceCents!, l.quantity, l.eventId === eventId && l.categoryId !== undefined ? byId.get(l.categoryId) : undefined, voucher),
    );
    const parts = splitProportionally(order.amountCents, weights);
    order.lines.forEach((line, i) => {
      if (line.eventId !== eventId) return;
      const key = line.categoryId !== undefined && byId.has(line.categoryId) ? line.categoryId : null;
      revenue.set(key, (revenue.get(key) ?? 0) + parts[i]!);
    });
  }
  return revenue;
}

/** What tickets without an order owe at the door, per category. */
export function atDoorByCategory(categories: readonly SalesCategory[], tickets: readonly TicketWithoutOrder[]): Map<number, number> {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const owed = new Map<number, number>();
  for (const ticket of tickets) {
    const category = byId.get(ticket.categoryId);
    if (!category) continue;
    owed.set(category.id, (owed.get(category.id) ?? 0) + grossAfterVoucher(category.priceCents, ticket.quantity, category, termsOf(ticket)));
  }
  return owed;
}

/** Sales of each category of the event by its id, and the paid money of the event's lines without a category. */
export async function categorySalesOfEvent(db: Db, eventId: number): Promise<{ byCategory: Map<number, CategorySales>; uncategorizedRevenueCents: number }> {
  const [categories, orders, tickets] = await Promise.all([
    ticketsRepository(db).listOfEvent(eventId),
    paymentsRepository.paidOrdersOfEvent(db, eventId),
    ticketsRepository(db).ticketsWithoutOrder(eventId),
  ]);
  const revenue = revenueByCategory(eventId, categories, orders);
  const atDoor = atDoorByCategory(categories, tickets);
  const byCategory = new Map(
    categories.map((c): [number, CategorySales] => [
      c.id,
      { quota: c.quota, soldCount: c.soldCount, revenueCents: revenue.get(c.id) ?? 0, atDoorCents: atDoor.get(c.id) ?? 0 },
    ]),
  );
  return { byCategory, uncategorizedRevenueCents: revenue.get(null) ?? 0 };
}
