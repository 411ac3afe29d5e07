/**
 * What a mail says a ticket costs (docs/api.md#tickets): an order's price re-read from what it
 * stored (each line's unit price when ordered, its category's tax, the code's terms), or a free
 * sign-up's ticket row priced the same way. The page's figures and the mail's come from one rule
 * (`priceOrder`, shared/pricing.ts). An order whose figures no longer come out the same (a code
 * or a category edited since) gets no breakdown: the mail never prints a figure that differs
 * from what was charged.
 */
import type { Db } from '../../db/client';
import { priceOrder, voucherAppliesTo, type PricedOrder, type PricingCategory, type VoucherTerms } from '../../../shared/pricing';
import type { Locale } from '../../../shared/i18n/locales';
import type { AppContext } from '../../context';
import type { AttendeeRecord } from '../attendees/attendees.repository';
import { settingsService } from '../settings/settings.service';
import type { OrderRow } from './payments.repository';
import { priceMailLines } from './pricing.mail';
import { ticketsRepository } from './tickets.repository';
import { vouchersRepository } from './vouchers.repository';
import { voucherTermsOf } from './vouchers.service';

/** An order line without a category (an event sold at its own price) is priced as this one. */
const OWN_PRICE = 0;

export interface TicketsPrice {
  /** Null when an order's figures cannot be told again exactly (see the header): the mail then gives only what was paid. */
  priced: PricedOrder | null;
  /** Category names by id, for the lines and for each ticket's heading. */
  categoryNames: Map<number, string>;
  voucherCode: string | null;
}

async function termsOf(db: Db, voucherId: number | null): Promise<VoucherTerms | null> {
  if (voucherId === null) return null;
  const row = await vouchersRepository.find(db, voucherId);
  return row ? voucherTermsOf(row) : null;
}

/** The order's categories and its price as it was charged (`priced` null when it cannot be told again exactly); null for a shop's order. */
export async function orderPriceOf(db: Db, order: OrderRow): Promise<TicketsPrice | null> {
  const own = order.lines.length === 1 && order.lines[0]!.categoryId === undefined;
  const unitOf = (line: OrderRow['lines'][number]) =>
    line.unitPriceCents ?? (own && order.voucherId === null && order.amountCents % line.quantity === 0 ? order.amountCents / line.quantity : undefined);
  if (order.lines.some((l) => unitOf(l) === undefined)) return null;
  const ids = order.lines.flatMap((l) => (l.categoryId === undefined ? [] : [l.categoryId]));
  const stored = await ticketsRepository(db).pricingOf([...new Set(ids)]);
  const categoryNames = new Map([...stored].map(([id, c]) => [id, c.name]));
  const priced = await chargedPrice(db, order, stored, unitOf);
  return { priced, categoryNames, voucherCode: order.voucherCode };
}

async function chargedPrice(
  db: Db,
  order: OrderRow,
  stored: Map<number, PricingCategory>,
  unitOf: (line: OrderRow['lines'][number]) => number | undefined,
): Promise<PricedOrder | null> {
  const categories: PricingCategory[] = [];
  for (const line of order.lines) {
    const category = line.categoryId === undefined ? null : stored.get(line.categoryId);
    if (category === undefined) return null;
    categories.push({
      id: line.categoryId ?? OWN_PRICE,
      priceCents: unitOf(line)!,
      taxRateBp: category?.taxRateBp ?? 0,
      taxMode: category?.taxMode ?? 'included',
    });
  }
  if (new Set(categories.map((c) => c.id)).size !== categories.length) return null;
  const voucher = await termsOf(db, order.voucherId);
  if (order.voucherId !== null && voucher === null) return null;
  const priced = priceOrder({ categories, lines: order.lines.map((l) => ({ categoryId: l.categoryId ?? OWN_PRICE, quantity: l.quantity })), voucher });
  const same =
    priced.grossCents === order.amountCents &&
    priced.discountCents === order.discountCents &&
    (order.taxCents === null || priced.taxCents === order.taxCents) &&
    (order.netCents === null || priced.netCents === order.netCents);
  return same ? priced : null;
}

/**
 * A ticket row of a sign-up without an order (nothing paid online): its category's price for its
 * seats, less the code it redeemed (each discounted row holds its own redemption). Null for a
 * row without a category.
 */
export async function ticketRowPriceOf(db: Db, row: Pick<AttendeeRecord, 'id' | 'ticketCategoryId' | 'quantity'>): Promise<TicketsPrice | null> {
  if (row.ticketCategoryId === null) return null;
  const [categories, redemption] = await Promise.all([
    ticketsRepository(db).pricingOf([row.ticketCategoryId]),
    vouchersRepository.redemptionOfAttendee(db, row.id),
  ]);
  const category = categories.get(row.ticketCategoryId);
  if (!category) return null;
  const terms = await termsOf(db, redemption?.voucherId ?? null);
  const voucher = terms && voucherAppliesTo(terms, category.id) ? terms : null;
  const priced = priceOrder({ categories: [category], lines: [{ categoryId: category.id, quantity: row.quantity }], voucher });
  return { priced, categoryNames: new Map([[category.id, category.name]]), voucherCode: voucher ? (redemption?.code ?? null) : null };
}

/** The price's lines for a mail in `locale`: the tickets, the code, net and tax, then what to pay and where, and the seller. */
export async function priceLinesOf(
  ctx: AppContext,
  price: TicketsPrice,
  opts: { locale: Locale; onlinePayment: boolean; currency?: string },
): Promise<string[]> {
  if (price.priced === null) return [];
  const stored = await settingsService(ctx).currencyAndSeller();
  const currency = opts.currency ?? stored.currency;
  const seller = stored.seller;
  return priceMailLines({
    priced: price.priced,
    currency,
    locale: opts.locale,
    onlinePayment: opts.onlinePayment,
    voucherCode: price.voucherCode,
    categoryNames: price.categoryNames,
    seller,
  });
}
