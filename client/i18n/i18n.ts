/**
 * The client's i18n runtime (docs/decisions/027-languages.md): the reader's locale, its catalogue
 * loaded as its own lazy chunk (compiled to ICU message ASTs at build time, so no parser ships),
 * `t(key, values)` for text and `tx` for text with tags, and the locale for `Intl`. Switching
 * language loads the other catalogue and re-renders every `t` in place, without a reload.
 */
import { createSignal, type JSX } from 'solid-js';
import type { IntlMessageFormat } from 'intl-messageformat';
import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import {
  DEFAULT_LOCALE,
  LANG_COOKIE,
  LANG_COOKIE_MAX_AGE_S,
  LANG_PARAM,
  localeDirection,
  matchLocale,
  negotiateLocale,
  readCookie,
  type Locale,
} from '../../shared/i18n/locales';
import { messageFormat } from '../../shared/i18n/message-format';
import type en from './messages/en.json';
import type doorEn from './door/en.json';
import type adminEn from './admin/en.json';

/** Every message key, from the English catalogues (the check in test/unit/i18n.catalogue.test.ts keeps the others equal). */
export type MessageKey = keyof typeof en | keyof typeof doorEn | keyof typeof adminEn;
type Catalogue = Record<string, string | MessageFormatElement[]>;
type Value = string | number | Date | null | undefined;
/**
 * The catalogues come in bundles, each its own lazy chunk per locale: `public` (the visitor pages,
 * sign-in and what every page shares) is loaded before the first render; the door and the admin
 * add theirs when their first screen loads (`useBundle`), so a visitor never downloads their words.
 */
export type Bundle = 'public' | 'door' | 'admin';

// one literal import per bundle and locale: the bundler makes each its own chunk, fetched only when chosen
const CATALOGUES: Record<Bundle, Record<Locale, () => Promise<{ default: Catalogue }>>> = {
  public: {
    en: () => import('./messages/en.json'),
    de: () => import('./messages/de.json'),
    fr: () => import('./messages/fr.json'),
    es: () => import('./messages/es.json'),
    it: () => import('./messages/it.json'),
    nl: () => import('./messages/nl.json'),
    'pt-BR': () => import('./messages/pt-BR.json'),
    ar: () => import('./messages/ar.json'),
  },
  door: {
    en: () => import('./door/en.json'),
    de: () => import('./door/de.json'),
    fr: () => import('./door/fr.json'),
    es: () => import('./door/es.json'),
    it: () => import('./door/it.json'),
    nl: () => import('./door/nl.json'),
    'pt-BR': () => import('./door/pt-BR.json'),
    ar: () => import('./door/ar.json'),
  },
  admin: {
    en: () => import('./admin/en.json'),
    de: () => import('./admin/de.json'),
    fr: () => import('./admin/fr.json'),
    es: () => import('./admin/es.json'),
    it: () => import('./admin/it.json'),
    nl: () => import('./admin/nl.json'),
    'pt-BR': () => import('./admin/pt-BR.json'),
    ar: () => import('./admin/ar.json'),
  },
};
/** The bundles this page has asked for: a language switch loads each of them in the new locale. */
const bundles = new Set<Bundle>(['public']);

/**
 * The locale being loaded or current: an area's words asked for while a language loads are
 * fetched in that language (a page's chunk runs beside the first catalogue's load).
 */
let target: Locale = DEFAULT_LOCALE;

/** Every bundle asked for, in `next`, including those asked for while the first ones load. */
async function loadCatalogue(next: Locale): Promise<Catalogue> {
  const catalogue: Catalogue = {};
  const loaded = new Set<Bundle>();
  while (loaded.size < bundles.size) {
    const missing = [...bundles].filter((bundle) => !loaded.has(bundle));
    for (const bundle of missing) loaded.add(bundle);
    const parts = await Promise.all(missing.map(async (bundle) => (await CATALOGUES[bundle][next]()).default));
    Object.assign(catalogue, ...parts);
  }
  return catalogue;
}

const [current, setCurrent] = createSignal<{ locale: Locale; catalogue: Catalogue }>({ locale: DEFAULT_LOCALE, catalogue: {} });
/** Formats made once per message and locale (building one walks its AST and makes Intl rules). */
let formats = new Map<string, IntlMessageFormat>();

/** The reader's locale (reactive). */
export const locale = (): Locale => current().locale;

/** The language the browser asks for, in the order it asks (`navigator.languages`, also offline). */
function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}

/** intlLocale's answer per UI locale: asked for every date and price drawn (a calendar's cells), decided once. */
const intlTags = new Map<Locale, string>();

/**
 * The tag `Intl` formats with: the browser's own regional variant when it speaks the same
 * language (`en-GB` reads dates the British way under the `en` catalogue), else the locale.
 */
export function intlLocale(): string {
  const ui = locale();
  let tag = intlTags.get(ui);
  if (tag === undefined) {
    const language = ui.split('-')[0];
    tag = ui.includes('-') ? ui : (browserLanguages().find((t) => t.split('-')[0]?.toLowerCase() === language && isSupportedTag(t)) ?? ui);
    intlTags.set(ui, tag);
  }
  return tag;
}

function isSupportedTag(tag: string): boolean {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([tag]).length > 0;
  } catch {
    return false;
  }
}

/** The locale this page should speak: the link's `?lang=`, the cookie, the browser's languages, then English. */
export function negotiateClientLocale(): Locale {
  return negotiateLocale({
    param: new URLSearchParams(window.location.search).get(LANG_PARAM),
    cookie: readCookie(document.cookie, LANG_COOKIE),
    accepted: browserLanguages(),
  });
}

/** Keeps the reader's choice (the server reads the same cookie for the next page's shell). */
function rememberChoice(chosen: Locale): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${LANG_COOKIE}=${chosen}; Path=/; Max-Age=${LANG_COOKIE_MAX_AGE_S}; SameSite=Lax${secure}`;
}

/**
 * Loads `next`'s catalogue and makes it current: `<html lang dir>` follow. A catalogue that
 * cannot load (an old build's chunk gone, offline before the worker cached it) leaves the
 * page in the language it had, or English, rather than blank.
 */
export async function useLocale(next: Locale): Promise<void> {
  target = next;
  let catalogue: Catalogue;
  try {
    catalogue = await loadCatalogue(next);
  } catch (error) {
    console.warn(`[svc] the ${next} catalogue could not load`, error);
    if (target === next) target = current().locale;
    if (next !== DEFAULT_LOCALE && Object.keys(current().catalogue).length === 0) await useLocale(DEFAULT_LOCALE);
    return;
  }
  if (target !== next) return; // a later choice is loading; it wins
  formats = new Map();
  setCurrent({ locale: next, catalogue });
  if (typeof document === 'undefined') return; // a unit test in Node
  document.documentElement.lang = next;
  document.documentElement.dir = localeDirection(next);
  followManifest(next);
}

/**
 * Points the manifest link at `next`'s copy (server/manifest.ts): the worker's shell links the
 * plain one, and a switch of language should rename an app installed after it. Each locale's copy
 * is precached, so this works offline.
 */
function followManifest(next: Locale): void {
  const link = document.querySelector('link[rel="manifest"]');
  const href = `/manifest.webmanifest?${LANG_PARAM}=${next}`;
  if (link && link.getAttribute('href') !== href) link.setAttribute('href', href);
}

/**
 * Adds a bundle's words in the current locale (the door's and the admin's first screens await
 * it at module level, so they render translated). Asking again costs nothing.
 */
export async function useBundle(bundle: Bundle): Promise<void> {
  if (bundles.has(bundle)) return;
  bundles.add(bundle);
  const loc = target;
  let added: Catalogue;
  try {
    added = (await CATALOGUES[bundle][loc]()).default;
  } catch (error) {
    console.warn(`[svc] the ${loc} ${bundle} catalogue could not load`, error);
    if (loc === DEFAULT_LOCALE) return;
    added = (await CATALOGUES[bundle][DEFAULT_LOCALE]()).default;
  }
  // the words join the catalogue as it is now (the page's own may have arrived while these
  // loaded); a language still loading, or chosen meanwhile, loads this bundle itself
  if (current().locale === loc) setCurrent((now) => ({ locale: loc, catalogue: { ...now.catalogue, ...added } }));
}

/** The page's start: the negotiated locale, a `?lang=` choice kept in the cookie. */
export async function startI18n(): Promise<void> {
  const chosen = matchLocale(new URLSearchParams(window.location.search).get(LANG_PARAM));
  if (chosen) rememberChoice(chosen);
  await useLocale(negotiateClientLocale());
}

/** The language menu's choice: kept, loaded, and shown in place; a `?lang=` in the address gives way to it. */
export async function chooseLocale(next: Locale): Promise<void> {
  rememberChoice(next);
  const url = new URL(window.location.href);
  if (url.searchParams.has(LANG_PARAM)) {
    url.searchParams.delete(LANG_PARAM);
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash);
  }
  await useLocale(next);
}

function formatFor(key: string): IntlMessageFormat | null {
  const { locale: loc, catalogue } = current();
  const message = catalogue[key];
  if (message === undefined) return null;
  let format = formats.get(key);
  if (!format) {
    format = messageFormat(message, loc);
    formats.set(key, format);
  }
  return format;
}

/** The message `key` in the reader's language with `values` put in (reactive: it follows a language switch). */
export function t(key: MessageKey, values?: Record<string, Value>): string {
  const format = formatFor(key);
  if (!format) return key;
  return String(format.format(values as Record<string, string | number | Date>));
}

/**
 * A message with tags (`<b>{email}</b>`) as JSX: each tag name in `values` is a function that
 * wraps its chunks (`{ b: (chunks) => <strong>{chunks}</strong> }`), so the sentence stays one
 * message a translator can reorder, never glued from pieces.
 */
export function tx(key: MessageKey, values: Record<string, Value | ((chunks: JSX.Element[]) => JSX.Element)>): JSX.Element {
  const format = formatFor(key);
  if (!format) return key;
  return format.format<JSX.Element>(values as Record<string, string | number | Date | ((chunks: JSX.Element[]) => JSX.Element)>) as JSX.Element;
}

/**
 * Loads what `Intl` needs for the reader's language (the time-zone data, the locale's date
 * patterns, number and plural rules): the first formatter of each kind costs tens of
 * milliseconds on a slow phone. Run in a task of its own before the first render, so the page's
 * later tasks (its data arriving, the slot grid) do not pay for it
 * (docs/decisions/019-fast-first-paint.md).
 */
export function warmIntl(): void {
  const tag = intlLocale();
  try {
    Intl.DateTimeFormat().resolvedOptions();
    new Intl.DateTimeFormat(tag, {
      weekday: 'short',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZoneName: 'short',
    }).format(0);
    new Intl.NumberFormat(tag, { style: 'currency', currency: 'EUR' }).format(1);
    new Intl.PluralRules(tag).select(1);
  } catch {
    // a platform without one of these formats through the fallbacks as before
  }
}
