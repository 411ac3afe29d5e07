/**
 * An order's price in integer cents (docs/api.md#tickets, docs/decisions/030-pricing-vouchers-taxes.md):
 * the one function for unit prices, voucher discounts, net, tax and gross that the page, the order,
 * the payment and the mail all use, so every one of them shows the same figures.
 *
 * Rounding rule: a voucher's percentage is taken off each ticket's price, rounded half up to a
 * cent; tax is computed once per line, on the line's total after the discount, rounded half up.
 * An `included` price is gross: net = round(gross × 10000 / (10000 + rate)), tax = gross − net.
 * An `added` price is net: tax = round(net × rate / 10000), gross = net + tax. So net + tax = gross
 * on every line, and the totals are the sums of the lines.
 */
import { AppError } from './errors';

/** How a category's tax rate applies to its price: already inside it, or on top of it. */
export type TaxMode = 'included' | 'added';
export const TAX_MODES = ['included', 'added'] as const satisfies readonly TaxMode[];
/** What a voucher does to each ticket's price: a percentage off, an amount off, or a set price. */
export type VoucherKind = 'percent' | 'fixed' | 'set_price';
export const VOUCHER_KINDS = ['percent', 'fixed', 'set_price'] as const satisfies readonly VoucherKind[];

/** 100 % in basis points. */
export const FULL_BP = 10_000;

/** What pricing needs of a category: `priceCents` is gross when `included`, net when `added`. */
export interface PricingCategory {
  id: number;
  priceCents: number;
  /** Basis points (1900 = 19 %). */
  taxRateBp: number;
  taxMode: TaxMode;
}

export interface PricingLine {
  categoryId: number;
  quantity: number;
}

/** A voucher's terms: `value` is basis points (percent), cents off each ticket (fixed) or each ticket's price in cents (set_price). */
export interface VoucherTerms {
  kind: VoucherKind;
  value: number;
  /** The categories it applies to; null = every category. */
  categoryIds: readonly number[] | null;
}

export interface PricedLine {
  categoryId: number;
  quantity: number;
  /** The category's price per ticket, as set (gross when included, net when added). */
  unitPriceCents: number;
  /** The price per ticket after the voucher, on the same footing as `unitPriceCents`. */
  unitPaidCents: number;
  /** What the voucher took off this line's gross (0 without one, or when it does not apply here). */
  discountCents: number;
  netCents: number;
  taxCents: number;
  grossCents: number;
  taxRateBp: number;
  taxMode: TaxMode;
  /** Whether the voucher applies to this line's category. */
  discounted: boolean;
}

export interface PricedOrder {
  lines: PricedLine[];
  netCents: number;
  taxCents: number;
  /** What the buyer pays. */
  grossCents: number;
  /** What the voucher took off the gross in all. */
  discountCents: number;
  /** Tickets the voucher discounted (a voucher's uses are counted in tickets). */
  discountedQuantity: number;
  quantity: number;
}

export interface PriceOrderInput {
  categories: readonly PricingCategory[];
  lines: readonly PricingLine[];
  voucher?: VoucherTerms | null;
}

/** a / b rounded half up, for a ≥ 0 and b > 0 (integers). */
export function divideHalfUp(a: number, b: number): number {
  return Math.floor((2 * a + b) / (2 * b));
}

/** Whether the voucher's terms cover category `categoryId`. */
export function voucherAppliesTo(voucher: Pick<VoucherTerms, 'categoryIds'>, categoryId: number): boolean {
  return voucher.categoryIds === null || voucher.categoryIds.includes(categoryId);
}

/** One ticket's price after the voucher: never below 0, and never above the price (a set price does not raise it). */
export function discountedUnitPrice(priceCents: number, voucher: VoucherTerms): number {
  switch (voucher.kind) {
    case 'percent':
      return priceCents - divideHalfUp(priceCents * Math.min(voucher.value, FULL_BP), FULL_BP);
    case 'fixed':
      return Math.max(0, priceCents - voucher.value);
    case 'set_price':
      return Math.min(priceCents, Math.max(0, voucher.value));
  }
}

/** A line total's net, tax and gross under the rule above. */
export function splitTax(amountCents: number, taxRateBp: number, taxMode: TaxMode): { netCents: number; taxCents: number; grossCents: number } {
  if (taxMode === 'included') {
    const netCents = divideHalfUp(amountCents * FULL_BP, FULL_BP + taxRateBp);
    return { netCents, taxCents: amountCents - netCents, grossCents: amountCents };
  }
  const taxCents = divideHalfUp(amountCents * taxRateBp, FULL_BP);
  return { netCents: amountCents, taxCents, grossCents: amountCents + taxCents };
}

/**
 * Prices an order's lines. A line naming no given category, or a negative amount anywhere, is
 * refused with `svc_invalid_param` naming `tickets`: callers price only what they validated.
 */
export function priceOrder(input: PriceOrderInput): PricedOrder {
  const byId = new Map(input.categories.map((c) => [c.id, c]));
  const voucher = input.voucher ?? null;
  const lines = input.lines.map((line, i): PricedLine => {
    const category = byId.get(line.categoryId);
    if (!category) throw new AppError('svc_invalid_param', undefined, { params: { [`tickets.${i}.categoryId`]: `is not a ticket category of this event` } });
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 0)
      throw new AppError('svc_invalid_param', undefined, { params: { [`tickets.${i}.quantity`]: 'must be a whole number of tickets' } });
    if (category.priceCents < 0 || category.taxRateBp < 0)
      throw new AppError('svc_invalid_param', undefined, { params: { priceCents: 'must not be negative' } });
    const discounted = voucher !== null && voucherAppliesTo(voucher, category.id);
    const unitPaidCents = discounted ? discountedUnitPrice(category.priceCents, voucher) : category.priceCents;
    const listed = splitTax(category.priceCents * line.quantity, category.taxRateBp, category.taxMode);
    const paid = splitTax(unitPaidCents * line.quantity, category.taxRateBp, category.taxMode);
    return {
      categoryId: category.id,
      quantity: line.quantity,
      unitPriceCents: category.priceCents,
      unitPaidCents,
      discountCents: listed.grossCents - paid.grossCents,
      ...paid,
      taxRateBp: category.taxRateBp,
      taxMode: category.taxMode,
      discounted,
    };
  });
  const sum = (pick: (l: PricedLine) => number) => lines.reduce((total, l) => total + pick(l), 0);
  return {
    lines,
    netCents: sum((l) => l.netCents),
    taxCents: sum((l) => l.taxCents),
    grossCents: sum((l) => l.grossCents),
    discountCents: sum((l) => l.discountCents),
    discountedQuantity: sum((l) => (l.discounted ? l.quantity : 0)),
    quantity: sum((l) => l.quantity),
  };
}

/**
 * `amountCents` split into parts proportional to `weights` that sum to it exactly
 * (docs/decisions/032-category-sales.md): each part rounded down, then the cents left over given
 * one each to the largest remainders, the earlier part first on a tie. When every weight is 0 the
 * parts are equal shares. Integer arithmetic throughout (BigInt), so no product loses a cent.
 */
export function splitProportionally(amountCents: number, weights: readonly number[]): number[] {
  if (weights.length === 0) return [];
  const even = weights.every((w) => w <= 0);
  const w = weights.map((x) => BigInt(even ? 1 : Math.max(0, x)));
  const total = w.reduce((a, b) => a + b, 0n);
  const amount = BigInt(amountCents);
  const parts = w.map((x) => (amount * x) / total);
  const remainders = w.map((x, i) => ({ i, r: (amount * x) % total }));
  let left = Number(amount - parts.reduce((a, b) => a + b, 0n));
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of remainders) {
    if (left <= 0) break;
    parts[i]! += 1n;
    left -= 1;
  }
  return parts.map(Number);
}

/** What visibility needs of a category and a voucher. */
export interface VisibilityCategory {
  id: number;
  hidden: boolean;
}

/**
 * The categories a visitor may see and buy: every category that is not hidden, and the hidden
 * ones a voucher that unlocks hidden categories applies to.
 */
export function visibleCategories<C extends VisibilityCategory>(
  categories: readonly C[],
  voucher?: (Pick<VoucherTerms, 'categoryIds'> & { unlocksHidden: boolean }) | null,
): C[] {
  return categories.filter((c) => !c.hidden || (voucher?.unlocksHidden === true && voucherAppliesTo(voucher, c.id)));
}

/**
 * One line of an order's price as a person reads it, in the order shown: the tickets, the code's
 * discount, net and tax per rate when there is tax, then what to do — pay at the door (no online
 * payment), continue to payment (online), or nothing to pay. The page and the mail word these
 * from their own catalogues, so both say the same thing about the same figures.
 */
export type PriceItem =
  | { kind: 'tickets'; categoryId: number; quantity: number; grossCents: number }
  | { kind: 'discount'; code: string; cents: number }
  | { kind: 'net'; cents: number }
  | { kind: 'tax'; rateBp: number; cents: number }
  | { kind: 'payAtDoor'; cents: number }
  | { kind: 'payOnline'; cents: number }
  | { kind: 'nothingToPay' };

export function describePrice(priced: PricedOrder, opts: { onlinePayment: boolean; voucherCode?: string | null }): PriceItem[] {
  const items: PriceItem[] = priced.lines
    .filter((l) => l.quantity > 0)
    // before the code: the tickets, less the code's discount, make the total (a receipt's reading)
    .map((l) => ({ kind: 'tickets', categoryId: l.categoryId, quantity: l.quantity, grossCents: l.grossCents + l.discountCents }));
  if (priced.discountCents > 0 && opts.voucherCode) items.push({ kind: 'discount', code: opts.voucherCode, cents: priced.discountCents });
  if (priced.taxCents > 0) {
    items.push({ kind: 'net', cents: priced.netCents });
    const byRate = new Map<number, number>();
    for (const l of priced.lines) if (l.taxCents > 0) byRate.set(l.taxRateBp, (byRate.get(l.taxRateBp) ?? 0) + l.taxCents);
    for (const [rateBp, cents] of [...byRate].sort((a, b) => a[0] - b[0])) items.push({ kind: 'tax', rateBp, cents });
  }
  if (priced.grossCents === 0) {
    // a free event says nothing about paying; a priced one made free by a code says so
    if (priced.lines.some((l) => l.unitPriceCents > 0 && l.quantity > 0)) items.push({ kind: 'nothingToPay' });
  } else {
    items.push(opts.onlinePayment ? { kind: 'payOnline', cents: priced.grossCents } : { kind: 'payAtDoor', cents: priced.grossCents });
  }
  return items;
}
