/** Shows the contract's UTC `Y-m-d H:i:s` times in the viewer's locale and timezone. */
import { parseUtcString } from '../../shared/time';

const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatUtcDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const date = parseUtcString(value);
  return date ? dateTimeFormat.format(date) : value;
}

/** The ISO form for `<time datetime>`, or undefined when the value is not a valid time. */
export function isoDateTime(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  return parseUtcString(value)?.toISOString();
}

/** Cents in an ISO 4217 currency, in the viewer's locale (`€45.00`); an unknown code is printed after the number. */
export function formatMoney(cents: number, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
}
