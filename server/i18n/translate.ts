/**
 * The server's words (docs/decisions/027-languages.md): mails, calendar invites, receipts, the
 * manifest and API error messages read their text from server/i18n/messages/<locale>.json,
 * ICU MessageFormat like the client's catalogues, checked by the same test. Every message is
 * parsed once per locale, on first use.
 */
import { readFileSync } from 'node:fs';
import type { IntlMessageFormat } from 'intl-messageformat';
import { DEFAULT_LOCALE, LOCALES, matchLocale, type Locale } from '../../shared/i18n/locales';
import { messageFormat } from '../../shared/i18n/message-format';
import type en from './messages/en.json';

/** Every server message key, from the English catalogue (the catalogue check keeps the others equal). */
export type ServerMessageKey = keyof typeof en;
export type MessageValues = Record<string, string | number | Date | null | undefined>;

const catalogues = new Map<Locale, Record<string, string>>();
const formats = new Map<string, IntlMessageFormat>();

function catalogue(locale: Locale): Record<string, string> {
  let found = catalogues.get(locale);
  if (!found) {
    found = JSON.parse(readFileSync(new URL(`./messages/${locale}.json`, import.meta.url), 'utf8')) as Record<string, string>;
    catalogues.set(locale, found);
  }
  return found;
}

/** A stored or asked-for language as a locale svc speaks; anything else reads as English. */
export function asLocale(language: string | null | undefined): Locale {
  return matchLocale(language) ?? DEFAULT_LOCALE;
}

/**
 * The message `key` in `locale` with `values` put in. A key a translation lacks (the check
 * forbids it, but a hand-edited deployment might) falls back to English rather than failing a mail.
 */
export function translate(locale: Locale, key: ServerMessageKey, values?: MessageValues): string {
  const chosen = key in catalogue(locale) ? locale : DEFAULT_LOCALE;
  const id = `${chosen}\u0000${key}`;
  let format = formats.get(id);
  if (!format) {
    format = messageFormat(catalogue(chosen)[key] ?? key, chosen);
    formats.set(id, format);
  }
  return String(format.format(values as Record<string, string | number | Date>));
}

/** A translator for one reader: `const tr = translator(locale); tr('mail.subject', {…})`. */
export function translator(locale: Locale): (key: ServerMessageKey, values?: MessageValues) => string {
  return (key, values) => translate(locale, key, values);
}

export { LOCALES };
