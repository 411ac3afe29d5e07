/**
 * One way to build an ICU message format, for the client's `t()` and the server's `translate()`
 * (docs/decisions/027-languages.md). `intl-messageformat` on its own asks `Intl` which locales it
 * supports for every message it builds and gives every message its own number, date and plural
 * rules; both are slow (a page's first render builds dozens of messages: most of its blocking
 * time on a slow phone). Here a locale is resolved once and without asking, and the `Intl`
 * objects are shared by every message of that locale.
 */
import { IntlMessageFormat, type Formatters } from 'intl-messageformat';
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';

const resolvedLocales = new Map<string, Intl.Locale>();
// The library asks `Intl.NumberFormat.supportedLocalesOf` for every message it builds, and the
// first such question loads the platform's number data (tens of milliseconds on a phone, before
// the first paint). Every locale given here is one svc ships, which every browser and Node
// speaks, so the answer is the locale itself, made once.
IntlMessageFormat.resolveLocale = (locales) => {
  const tag = typeof locales === 'string' ? locales : locales[0];
  if (tag === undefined) return undefined;
  let found = resolvedLocales.get(tag);
  if (!found) {
    found = new Intl.Locale(tag);
    resolvedLocales.set(tag, found);
  }
  return found;
};

/** `make(...args)` made once per distinct arguments. */
function sharedBy<A extends unknown[], R>(make: (...args: A) => R): (...args: A) => R {
  const made = new Map<string, R>();
  return (...args) => {
    const key = JSON.stringify(args);
    let found = made.get(key);
    if (found === undefined) {
      found = make(...args);
      made.set(key, found);
    }
    return found;
  };
}

/** The `Intl` objects every message shares (keyed by locale and options). */
const formatters: Formatters = {
  getNumberFormat: sharedBy((locales?: string | string[], options?: Intl.NumberFormatOptions) => new Intl.NumberFormat(locales, options)),
  getDateTimeFormat: sharedBy((locales?: string | string[], options?: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locales, options)),
  getPluralRules: sharedBy((locales?: string | string[], options?: Intl.PluralRulesOptions) => new Intl.PluralRules(locales, options)),
};

/** The message (its source text, or its AST compiled at build) ready to format in `locale`. */
export function messageFormat(message: string | MessageFormatElement[], locale: string): IntlMessageFormat {
  return new IntlMessageFormat(message, locale, undefined, { formatters });
}
