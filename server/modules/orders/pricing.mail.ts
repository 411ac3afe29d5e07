/**
 * An order's price in a mail (docs/api.md#tickets): the tickets, the code's discount, net and tax
 * per rate, then "Pay at the door: £18.00" when nothing is charged online — the same items the
 * page shows (`describePrice`, shared/pricing.ts), in the reader's language. A mail builder puts
 * these lines where its price belongs; the seller's lines go with them when taxes are shown.
 */
import type { Locale } from '../../../shared/i18n/locales';
import { describePrice, FULL_BP, type PricedOrder, type PriceItem } from '../../../shared/pricing';
import { translator } from '../../i18n/translate';
import { formatAmount } from './orders.mail';
import type { Seller } from '../settings/settings.service';

export interface PriceMailInput {
  priced: PricedOrder;
  currency: string;
  locale: Locale;
  /** false: nothing is charged online, so the mail says what to pay at the door. */
  onlinePayment: boolean;
  /** The code as the buyer's order holds it, when a voucher took something off. */
  voucherCode?: string | null;
  /** Category names by id; a line without one is worded as plain tickets. */
  categoryNames?: ReadonlyMap<number, string>;
  /** Named under net and tax (Settings › Seller); left out when not set or when there is no tax. */
  seller?: Seller | null;
}

/** A tax rate as the reader writes a percentage (`19 %`, `7,5 %`). */
export function formatTaxRate(rateBp: number, locale: Locale): string {
  return new Intl.NumberFormat(locale === 'en' ? 'en-GB' : locale, { style: 'percent', maximumFractionDigits: 2 }).format(rateBp / FULL_BP);
}

/** The price's lines of plain text, in `locale`. */
export function priceMailLines(input: PriceMailInput): string[] {
  const tr = translator(input.locale);
  const money = (cents: number) => formatAmount(cents, input.currency, input.locale);
  const items = describePrice(input.priced, { onlinePayment: input.onlinePayment, voucherCode: input.voucherCode });
  const line = (item: PriceItem): string => {
    switch (item.kind) {
      case 'tickets': {
        const name = input.categoryNames?.get(item.categoryId);
        return name === undefined
          ? tr('mail.price.tickets', { count: item.quantity, amount: money(item.grossCents) })
          : tr('mail.price.ticketsOf', { count: item.quantity, name, amount: money(item.grossCents) });
      }
      case 'discount':
        return tr('mail.price.discount', { code: item.code, amount: money(item.cents) });
      case 'net':
        return tr('mail.price.net', { amount: money(item.cents) });
      case 'tax':
        return tr('mail.price.tax', { rate: formatTaxRate(item.rateBp, input.locale), amount: money(item.cents) });
      case 'payAtDoor':
        return tr('mail.price.payAtDoor', { amount: money(item.cents) });
      case 'payOnline':
        return tr('mail.price.total', { amount: money(item.cents) });
      case 'nothingToPay':
        return tr('mail.price.nothingToPay');
    }
  };
  const lines = items.map(line);
  const seller = input.seller;
  if (seller?.sellerName && input.priced.taxCents > 0) {
    lines.push(tr('mail.price.seller', { name: seller.sellerName }));
    lines.push(...seller.sellerAddress.split('\n').filter((l) => l.trim() !== ''));
    if (seller.sellerTaxId) lines.push(tr('mail.price.sellerTaxId', { taxId: seller.sellerTaxId }));
  }
  return lines;
}
