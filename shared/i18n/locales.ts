/**
 * The languages svc speaks and how one is chosen for a reader (docs/decisions/027-languages.md).
 * Pure, so the server (the HTML shell's `<html lang dir>`, `Content-Language`) and the client
 * (the catalogue it loads, also offline) reach the same answer from the same inputs.
 */

/** Every locale with a complete catalogue; `en` is the fallback when nothing else matches. */
export const LOCALES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt-BR', 'ar'] as const;
export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = 'en';
/** The cookie that keeps a reader's own choice (readable by the page: the client negotiates offline too). */
export const LANG_COOKIE = 'svc_lang';
/** `?lang=de` on any page link chooses the language (and is kept in the cookie). */
export const LANG_PARAM = 'lang';
/** A choice is kept for a year; choosing again renews it. */
export const LANG_COOKIE_MAX_AGE_S = 365 * 24 * 3600;

const RTL: ReadonlySet<Locale> = new Set<Locale>(['ar']);

/** The writing direction of a locale, for `<html dir>`. */
export function localeDirection(locale: Locale): 'ltr' | 'rtl' {
  return RTL.has(locale) ? 'rtl' : 'ltr';
}

/** Each locale's name in its own language, for the language menu (a reader finds their language whatever is shown). */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
  nl: 'Nederlands',
  'pt-BR': 'Português (Brasil)',
  ar: 'العربية',
};

const BY_LOWER = new Map<string, Locale>(LOCALES.map((l) => [l.toLowerCase(), l]));

/**
 * The supported locale a BCP 47 tag asks for, or null: an exact match first (`pt-BR`), then the
 * language alone (`de-AT` → `de`, `ar-EG` → `ar`; every Portuguese → `pt-BR`, the one we have).
 */
export function matchLocale(tag: string | null | undefined): Locale | null {
  if (!tag) return null;
  const lower = tag.trim().replace(/_/g, '-').toLowerCase();
  if (!/^[a-z]{2,3}(-[a-z0-9]{1,8})*$/.test(lower)) return null;
  const exact = BY_LOWER.get(lower);
  if (exact) return exact;
  const language = lower.split('-')[0]!;
  if (language === 'pt') return 'pt-BR';
  return BY_LOWER.get(language) ?? null;
}

/**
 * The tags of an `Accept-Language` header, most wanted first (`q` order, then written order);
 * `q=0` means "not this one" and `*` names no language, so both are left out.
 */
export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .slice(0, 32) // a header is a handful of tags; a huge one costs no more than this
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      // a malformed weight reads as 0: the tag is not asked for, rather than asked for most
      const qParam = params
        .find((p) => /^\s*q\s*=/i.test(p))
        ?.replace(/^\s*q\s*=/i, '')
        .trim();
      const q = qParam === undefined ? 1 : /^[\d.]+$/.test(qParam) ? Number(qParam) : 0;
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((entry) => entry.tag !== '' && entry.tag !== '*' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}

export interface LocaleInputs {
  /** `?lang=` on the link that was opened. */
  param?: string | null;
  /** The `svc_lang` cookie: a choice made before. */
  cookie?: string | null;
  /** What the browser asks for: `Accept-Language`'s tags, or `navigator.languages` offline. */
  accepted?: readonly string[];
  /** The event's language, on an event's pages. */
  eventLocale?: string | null;
  /** The organization's default (Settings). */
  orgDefault?: string | null;
}

/**
 * The locale for a reader, in the order docs/decisions/027-languages.md gives: their explicit
 * choice (the link's `?lang=`, then the cookie), then what their browser asks for (first tag we
 * speak), then the event's language, then the organization's default, then English. An unknown
 * value at any step is passed over, never an error: a page always opens.
 */
export function negotiateLocale(inputs: LocaleInputs): Locale {
  const explicit = matchLocale(inputs.param) ?? matchLocale(inputs.cookie);
  if (explicit) return explicit;
  for (const tag of inputs.accepted ?? []) {
    const found = matchLocale(tag);
    if (found) return found;
  }
  return matchLocale(inputs.eventLocale) ?? matchLocale(inputs.orgDefault) ?? DEFAULT_LOCALE;
}

/** One cookie's value from a `Cookie` header (or `document.cookie`), or null. */
export function readCookie(header: string | null | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) {
      try {
        return decodeURIComponent(part.slice(at + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}
