import { For, Show, type JSX } from 'solid-js';
import { describePrice, FULL_BP, type PricedOrder, type PriceItem } from '../../../shared/pricing';
import { intlLocale, t } from '../../i18n/i18n';
import { formatPrice } from '../time';

// one formatter per language, made on first use (a language switch must not keep the old one)
const percentFormats = new Map<string, Intl.NumberFormat>();
function formatRate(rateBp: number): string {
  const locale = intlLocale();
  let format = percentFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 });
    percentFormats.set(locale, format);
  }
  return format.format(rateBp / FULL_BP);
}

/**
 * An order's price before the visitor commits (docs/api.md#tickets): the tickets, the code's
 * discount, net and tax per rate, then — honestly — what happens next. Without online payment it
 * says "Pay at the door: £18.00" and the form's own button stays; with it, the submit button says
 * "Continue to payment" with the total and how long the seats are held while the visitor pays.
 * The figures are `priceOrder`'s, the same the server stores and the mail repeats.
 */
export function PriceSummary(props: {
  priced: PricedOrder;
  currency: string;
  /** Whether this order goes through online payment. */
  onlinePayment: boolean;
  /** Settings' payment hold, shown beside the button. */
  holdHours: number;
  voucherCode?: string | null;
  categoryNames?: ReadonlyMap<number, string>;
  /** The form is being sent: the button is not pressed twice. */
  busy?: boolean;
}): JSX.Element {
  const items = () => describePrice(props.priced, { onlinePayment: props.onlinePayment, voucherCode: props.voucherCode });
  const money = (cents: number) => formatPrice(cents, props.currency);
  const amountLine = (item: PriceItem): string | null => {
    switch (item.kind) {
      case 'tickets': {
        const name = props.categoryNames?.get(item.categoryId);
        return name === undefined
          ? t('price.tickets', { count: item.quantity, amount: money(item.grossCents) })
          : t('price.ticketsOf', { count: item.quantity, name, amount: money(item.grossCents) });
      }
      case 'discount':
        return t('price.discount', { code: item.code, amount: money(item.cents) });
      case 'net':
        return t('price.net', { amount: money(item.cents) });
      case 'tax':
        return t('price.tax', { rate: formatRate(item.rateBp), amount: money(item.cents) });
      default:
        return null;
    }
  };
  const breakdown = () => items().flatMap((item) => amountLine(item) ?? []);
  const ending = () => items().at(-1);
  /** The amount to pay and how, when there is one. */
  const payment = () => {
    const last = ending();
    return last?.kind === 'payAtDoor' || last?.kind === 'payOnline' ? last : undefined;
  };

  return (
    <div class="price-summary">
      <ul class="price-lines">
        <For each={breakdown()}>{(text) => <li>{text}</li>}</For>
      </ul>
      <Show when={ending()?.kind === 'nothingToPay'}>
        <p>{t('price.nothingToPay')}</p>
      </Show>
      <Show when={payment()}>
        {(pay) => (
          <Show when={pay().kind === 'payOnline'} fallback={<p class="price-pay-at-door">{t('price.payAtDoor', { amount: money(pay().cents) })}</p>}>
            <p class="price-total">{t('price.total', { amount: money(pay().cents) })}</p>
            <p class="field-hint">{t('price.holdNote', { hours: props.holdHours })}</p>
            <button type="submit" class="button" aria-disabled={props.busy === true}>
              {t('price.continue')}
            </button>
          </Show>
        )}
      </Show>
    </div>
  );
}

/** Whether `PriceSummary` shows its own submit button (online payment of a non-zero total): the form then hides its own. */
export function priceSummaryHasButton(priced: PricedOrder, onlinePayment: boolean): boolean {
  return describePrice(priced, { onlinePayment }).at(-1)?.kind === 'payOnline';
}
