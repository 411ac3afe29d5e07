/**
 * The door's clocks and counts in the reader's locale (docs/decisions/027-languages.md): each
 * Intl formatter is made on first use per locale (building one loads locale data), so a language
 * switch re-renders with the new locale's clock without paying for every locale at start.
 */
import { intlLocale } from '../i18n/i18n';

function perLocale<T>(make: (locale: string) => T): () => T {
  const made = new Map<string, T>();
  return () => {
    const locale = intlLocale();
    let value = made.get(locale);
    if (value === undefined) {
      value = make(locale);
      made.set(locale, value);
    }
    return value;
  };
}

/** `7:29 PM` / `19:29`. */
export const clock = perLocale((l) => new Intl.DateTimeFormat(l, { timeStyle: 'short' }));
/** The date and the clock, short. */
export const dayClock = perLocale((l) => new Intl.DateTimeFormat(l, { dateStyle: 'short', timeStyle: 'short' }));
/** `3 min ago` (always a number: an entry's age). */
export const shortAgo = perLocale((l) => new Intl.RelativeTimeFormat(l, { style: 'short', numeric: 'always' }));
/** `1 minute ago`, `yesterday` (the last sync). */
export const ago = perLocale((l) => new Intl.RelativeTimeFormat(l, { numeric: 'auto' }));
const numbers = perLocale((l) => new Intl.NumberFormat(l));
/** `VIP and Backstage` / `VIP und Backstage`: names joined the reader's way. */
export const list = perLocale((l) => new Intl.ListFormat(l, { style: 'long', type: 'conjunction' }));

/** A count grouped the reader's way (`102,030`, `102.030`). */
export function grouped(n: number): string {
  return numbers().format(n);
}
