/** Shows the contract's UTC `Y-m-d H:i:s` times in the viewer's locale and timezone. */
import { parseUtcString } from '../../shared/time';
import { intlLocale } from '../i18n/i18n';

// made on first use: building an Intl formatter loads locale data (about 13 ms on a mid phone),
// which every page importing this module would otherwise pay while it loads
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** A value (an Intl formatter) made on the first call, not while its module loads. */
export function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

export function formatUtcDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const date = parseUtcString(value);
  if (!date) return value;
  const locale = intlLocale();
  let format = dateTimeFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' });
    dateTimeFormats.set(locale, format);
  }
  return format.format(date);
}

/** The ISO form for `<time datetime>`, or undefined when the value is not a valid time. */
export function isoDateTime(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  return parseUtcString(value)?.toISOString();
}

/** Cents in an ISO 4217 currency, in the reader's locale (`€45.00`, `45,00 €`); an unknown code is printed after the number. */
export function formatMoney(cents: number, currency: string): string {
  try {
    return new Intl.NumberFormat(intlLocale(), { style: 'currency', currency }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
}

const countFormats = new Map<string, Intl.NumberFormat>();
/** A count grouped the reader's way: "102,030" (en), "102.030" (de). */
export function formatCount(n: number): string {
  const tag = intlLocale();
  let format = countFormats.get(tag);
  if (!format) countFormats.set(tag, (format = new Intl.NumberFormat(tag)));
  return format.format(n);
}
