/**
 * The sign-up form's tickets for an event that sells ticket categories (docs/api.md#tickets): a
 * number per category on offer (its price, tax, seats left and per-order limits beside it), and
 * the promo code field whose "Apply" asks the server what the code opens. The inputs are named
 * `ticket_qty_<id>` and `voucher`, so the page's draft keeps what was typed.
 */
import { For, Show, type JSX } from 'solid-js';
import { FULL_BP } from '../../../shared/pricing';
import type { OfferedTicketCategory } from '../../../shared/tickets';
import { intlLocale, t } from '../../i18n/i18n';
import { formatPrice } from '../time';

/** The input of a category's number of tickets. */
export const TICKET_QTY_PREFIX = 'ticket_qty_';
export const VOUCHER_FIELD = 'voucher';

/** Quantities by category id as the form holds them (a blank or bad number is 0). */
export function readTicketQuantities(form: HTMLFormElement, categories: readonly OfferedTicketCategory[]): Map<number, number> {
  const quantities = new Map<number, number>();
  for (const c of categories) {
    const raw = form.querySelector<HTMLInputElement>(`input[name="${TICKET_QTY_PREFIX}${c.id}"]`)?.value.trim() ?? '';
    const n = /^\d+$/.test(raw) ? Number(raw) : 0;
    if (n > 0) quantities.set(c.id, n);
  }
  return quantities;
}

const rateFormats = new Map<string, Intl.NumberFormat>();
function formatRate(rateBp: number): string {
  const locale = intlLocale();
  let format = rateFormats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 });
    rateFormats.set(locale, format);
  }
  return format.format(rateBp / FULL_BP);
}

export function TicketPicker(props: {
  categories: readonly OfferedTicketCategory[];
  currency: string;
  /** The event's own limit on one sign-up. */
  maxPerSignup: number;
  /** Whether a sold-out category's tickets join the waitlist. */
  waitlist: boolean;
  /** The code the server accepted, shown as applied. */
  appliedCode: string | null;
  codeError: string | undefined;
  applying: boolean;
  onApply: () => void;
  onRemoveCode: () => void;
}): JSX.Element {
  const price = (c: OfferedTicketCategory) => {
    if (c.priceCents === 0) return t('price.free');
    const amount = formatPrice(c.priceCents, props.currency);
    return c.taxMode === 'added' && c.taxRateBp > 0 ? t('tickets.plusTax', { amount, rate: formatRate(c.taxRateBp) }) : amount;
  };
  const most = (c: OfferedTicketCategory) => Math.min(c.maxPerOrder ?? props.maxPerSignup, props.maxPerSignup);
  return (
    <fieldset class="ticket-picker">
      <legend>{t('tickets.heading')}</legend>
      <For each={props.categories}>
        {(c) => {
          const id = `ticket-qty-${c.id}`;
          const hintId = `${id}-hint`;
          const soldOut = () => c.seatsLeft === 0;
          return (
            <div class="ticket-line">
              <div class="ticket-line-text">
                <label for={id}>{c.name}</label>
                <p id={hintId} class="v-hint">
                  <span class="ticket-price">{price(c)}</span>
                  <Show when={c.hidden}> · {t('tickets.unlocked')}</Show>
                  <Show when={soldOut()}> · {props.waitlist ? t('tickets.soldOutWaitlist') : t('tickets.soldOut')}</Show>
                  <Show when={!soldOut() && c.seatsLeft !== null && c.seatsLeft <= 10}> · {t('tickets.left', { count: c.seatsLeft })}</Show>
                  <Show when={c.minPerOrder > 1}> · {t('tickets.atLeast', { min: c.minPerOrder })}</Show>
                </p>
                <Show when={c.description}>
                  <p class="v-hint ticket-description">{c.description}</p>
                </Show>
              </div>
              <input
                id={id}
                name={`${TICKET_QTY_PREFIX}${c.id}`}
                class="ticket-qty"
                type="number"
                inputmode="numeric"
                min="0"
                max={most(c)}
                value="0"
                disabled={soldOut() && !props.waitlist}
                aria-describedby={hintId}
              />
            </div>
          );
        }}
      </For>
      <div class="field ticket-code">
        <label for="signup-voucher">{t('tickets.code')}</label>
        <div class="ticket-code-row">
          <input
            id="signup-voucher"
            name={VOUCHER_FIELD}
            type="text"
            autocomplete="off"
            autocapitalize="characters"
            maxlength={64}
            readOnly={props.appliedCode !== null}
            aria-invalid={props.codeError ? 'true' : undefined}
            aria-describedby={props.codeError ? 'signup-voucher-error' : props.appliedCode ? 'signup-voucher-applied' : undefined}
          />
          <Show
            when={props.appliedCode === null}
            fallback={
              <button type="button" class="button button-quiet" onClick={() => props.onRemoveCode()}>
                {t('tickets.removeCode')}
              </button>
            }
          >
            <button type="button" class="button button-quiet" aria-disabled={props.applying} onClick={() => !props.applying && props.onApply()}>
              {t('tickets.apply')}
            </button>
          </Show>
        </div>
        <Show when={props.appliedCode}>
          {(code) => (
            <p id="signup-voucher-applied" class="v-hint" role="status">
              {t('tickets.applied', { code: code() })}
            </p>
          )}
        </Show>
        <Show when={props.codeError}>
          <p id="signup-voucher-error" class="form-error" role="alert">
            {props.codeError}
          </p>
        </Show>
      </div>
    </fieldset>
  );
}
