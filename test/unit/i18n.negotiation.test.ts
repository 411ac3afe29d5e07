/** Choosing a reader's language: their own choice, then their browser, then the event's and the organization's, then English. */
import { describe, expect, it } from 'vitest';
import { localeDirection, matchLocale, negotiateLocale, parseAcceptLanguage, readCookie } from '../../shared/i18n/locales';

describe('negotiateLocale', () => {
  it('takes the link’s ?lang= over the cookie, the browser, the event and the organization', () => {
    expect(negotiateLocale({ param: 'de', cookie: 'fr', accepted: ['es'], eventLocale: 'it', orgDefault: 'nl' })).toBe('de');
  });

  it('takes the cookie when the link names no language, or one svc does not speak', () => {
    expect(negotiateLocale({ cookie: 'fr', accepted: ['es'] })).toBe('fr');
    expect(negotiateLocale({ param: 'xx', cookie: 'fr', accepted: ['es'] })).toBe('fr');
    expect(negotiateLocale({ param: '', cookie: 'fr' })).toBe('fr');
  });

  it('takes the first language the browser asks for that svc speaks, before the event’s', () => {
    expect(negotiateLocale({ accepted: ['ja', 'nl-BE', 'de'], eventLocale: 'it' })).toBe('nl');
  });

  it('falls back to the event’s language, then the organization’s default, then English', () => {
    expect(negotiateLocale({ accepted: ['ja'], eventLocale: 'it', orgDefault: 'nl' })).toBe('it');
    expect(negotiateLocale({ accepted: ['ja'], eventLocale: 'tlh', orgDefault: 'nl' })).toBe('nl');
    expect(negotiateLocale({ accepted: ['ja'] })).toBe('en');
    expect(negotiateLocale({})).toBe('en');
  });

  it('passes over a cookie holding a language svc does not speak, or anything that is not a tag', () => {
    expect(negotiateLocale({ cookie: 'klingon', accepted: ['ar'] })).toBe('ar');
    expect(negotiateLocale({ cookie: '<script>', accepted: ['ar'] })).toBe('ar');
  });
});

describe('matchLocale', () => {
  it('matches exactly, ignoring case and underscores', () => {
    expect(matchLocale('pt-BR')).toBe('pt-BR');
    expect(matchLocale('PT_br')).toBe('pt-BR');
    expect(matchLocale('EN')).toBe('en');
  });

  it('matches a regional tag by its language (every Portuguese reads pt-BR)', () => {
    expect(matchLocale('de-AT')).toBe('de');
    expect(matchLocale('ar-EG')).toBe('ar');
    expect(matchLocale('fr-CA')).toBe('fr');
    expect(matchLocale('pt-PT')).toBe('pt-BR');
    expect(matchLocale('es-419')).toBe('es');
  });

  it('answers null for a language svc does not speak and for text that is no tag', () => {
    for (const tag of ['ja', 'zh-Hant-TW', '', '   ', 'de;q=1', '../de', 'e', null, undefined]) expect(matchLocale(tag)).toBeNull();
  });
});

describe('parseAcceptLanguage', () => {
  it('orders tags by q, keeping written order among equals, and leaves out q=0 and *', () => {
    expect(parseAcceptLanguage('fr;q=0.5, de-CH, en;q=0.8, *;q=0.1, it;q=0')).toEqual(['de-CH', 'en', 'fr']);
    expect(parseAcceptLanguage('nl, ar')).toEqual(['nl', 'ar']);
  });

  it('reads an empty, missing or malformed header as asking for nothing', () => {
    expect(parseAcceptLanguage(undefined)).toEqual([]);
    expect(parseAcceptLanguage('')).toEqual([]);
    expect(parseAcceptLanguage(',;;,')).toEqual([]);
    expect(parseAcceptLanguage('de;q=abc')).toEqual([]);
  });

  it('with the browser’s header, negotiation picks the most wanted language svc speaks', () => {
    expect(negotiateLocale({ accepted: parseAcceptLanguage('ja;q=1, pt-PT;q=0.9, en;q=0.5') })).toBe('pt-BR');
  });
});

describe('localeDirection and readCookie', () => {
  it('writes Arabic right to left and every other locale left to right', () => {
    expect(localeDirection('ar')).toBe('rtl');
    for (const locale of ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt-BR'] as const) expect(localeDirection(locale)).toBe('ltr');
  });

  it('reads one cookie among others, and null when it is absent or badly encoded', () => {
    expect(readCookie('a=1; svc_lang=de; b=2', 'svc_lang')).toBe('de');
    expect(readCookie('xsvc_lang=fr; svc_lang_other=it', 'svc_lang')).toBeNull();
    expect(readCookie('svc_lang=%E0%A4%A', 'svc_lang')).toBeNull();
    expect(readCookie(undefined, 'svc_lang')).toBeNull();
  });
});
