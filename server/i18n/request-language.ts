/**
 * What a request says about its reader's language (docs/decisions/027-languages.md): the link's
 * `?lang=`, the `svc_lang` cookie and the browser's `Accept-Language` tags. One reading for the
 * page shell, the manifest and the rows a request writes, so they never negotiate apart.
 */
import type { Context } from 'hono';
import { LANG_COOKIE, LANG_PARAM, matchLocale, parseAcceptLanguage, readCookie, type LocaleInputs } from '../../shared/i18n/locales';

export type RequestLanguage = Pick<LocaleInputs, 'param' | 'cookie' | 'accepted'>;

/** The request's language inputs, the same under REST, tRPC and the static pages. */
export function requestLanguage(c: Context): RequestLanguage {
  return {
    param: c.req.query(LANG_PARAM) ?? null,
    cookie: readCookie(c.req.header('cookie'), LANG_COOKIE),
    accepted: parseAcceptLanguage(c.req.header('accept-language')),
  };
}

/**
 * Whether the reader (and any `more` tags, an event's language) already names a locale svc speaks:
 * then the organization's default cannot change the answer, and its look-up is skipped.
 */
export function namesSpokenLocale(reader: RequestLanguage | undefined, ...more: Array<string | null | undefined>): boolean {
  return [reader?.param, reader?.cookie, ...(reader?.accepted ?? []), ...more].some((tag) => matchLocale(tag) !== null);
}
