/** The catalogue check that `npm test` runs: complete, well-formed, same placeholders, every key used; and each rule can fail. */
import { describe, expect, it } from 'vitest';
import {
  BUNDLE_DIRS,
  checkCatalogues,
  keysInTwoBundles,
  readCatalogues,
  readClientSources,
  readServerSources,
  SERVER_MESSAGES_DIR,
  type Catalogue,
} from '../helpers/catalogue-check';

const LOCALES = ['en', 'de'];
const SOURCE = `t('a.plain'); t('a.count', { count }); tx('a.tag', { b })`;
function good(): Record<string, Catalogue> {
  return {
    en: { 'a.plain': 'Hello', 'a.count': '{count, plural, one {# seat} other {# seats}}', 'a.tag': 'For <b>{email}</b>' },
    de: { 'a.plain': 'Hallo', 'a.count': '{count, plural, one {# Platz} other {# Plätze}}', 'a.tag': 'Für <b>{email}</b>' },
  };
}

describe('the shipped catalogues', () => {
  it('every locale has every key, each message parses with the same placeholders as English, and every key is used, in every bundle', () => {
    const sources = readClientSources();
    for (const [bundle, dir] of Object.entries(BUNDLE_DIRS)) expect(checkCatalogues(readCatalogues(dir), sources), bundle).toEqual([]);
  });

  it("the server's catalogue (mails, invites, receipts, manifest, API errors) is complete and every key is used in server/", () => {
    expect(checkCatalogues(readCatalogues(SERVER_MESSAGES_DIR), readServerSources())).toEqual([]);
  });

  it('no message shows a reader the SVC_EDITION setting: the editions are named in words', () => {
    const settings: string[] = [];
    for (const [bundle, dir] of Object.entries(BUNDLE_DIRS))
      for (const [locale, catalogue] of Object.entries(readCatalogues(dir)))
        for (const [key, message] of Object.entries(catalogue))
          if (JSON.stringify(message).includes('SVC_EDITION')) settings.push(`${bundle} ${locale} ${key}`);
    expect(settings).toEqual([]);
  });

  it('no key is defined in two bundles', () => {
    const english = Object.fromEntries(Object.entries(BUNDLE_DIRS).map(([bundle, dir]) => [bundle, readCatalogues(dir).en ?? {}]));
    expect(keysInTwoBundles(english)).toEqual([]);
    expect(keysInTwoBundles({ public: { 'a.b': 'x' }, admin: { 'a.b': 'y' } })).toEqual(['a.b is in both the public and the admin bundle']);
  });
});

describe('checkCatalogues', () => {
  it('passes a complete, used pair of catalogues', () => {
    expect(checkCatalogues(good(), [SOURCE], LOCALES)).toEqual([]);
  });

  it('fails on a key missing from a locale, and on a key English does not have', () => {
    const cats = good();
    delete cats.de!['a.plain'];
    cats.de!['a.extra'] = 'Mehr';
    expect(checkCatalogues(cats, [SOURCE], LOCALES)).toEqual(['de: a.plain is missing', 'de: a.extra is not in the English catalogue']);
  });

  it('fails on a missing locale, or a catalogue for a locale svc does not offer', () => {
    const cats = good();
    delete cats.de;
    cats.ja = { ...cats.en };
    expect(checkCatalogues(cats, [SOURCE], LOCALES)).toEqual(['de: the catalogue is missing', 'ja: a catalogue for a locale svc does not offer']);
  });

  it('fails on a key no client source uses', () => {
    expect(checkCatalogues(good(), [`t('a.plain'); tx('a.tag', {})`], LOCALES)).toEqual(['en: a.count is used nowhere in client/']);
  });

  it('fails on a placeholder renamed, dropped or retyped in a translation', () => {
    for (const wrong of ['Für <b>{mail}</b>', 'Für <b>jemanden</b>', 'Für <i>{email}</i>', 'Für <b>{email, number}</b>']) {
      const cats = good();
      cats.de!['a.tag'] = wrong;
      const problems = checkCatalogues(cats, [SOURCE], LOCALES);
      expect(problems, wrong).toHaveLength(1);
      expect(problems[0], wrong).toMatch(/^de: a\.tag has other placeholders than English/);
    }
  });

  it('fails on a message that is not ICU, and on a select whose branches differ from English', () => {
    const cats = good();
    cats.de!['a.plain'] = 'Hallo {';
    cats.en!['a.sel'] = '{what, select, list {the list} other {the page}}';
    cats.de!['a.sel'] = '{what, select, liste {die Liste} other {die Seite}}';
    const problems = checkCatalogues(cats, [`${SOURCE} t('a.sel')`], LOCALES);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^de: a\.plain is not ICU MessageFormat/);
    expect(problems[1]).toBe('de: a.sel selects {what} on liste|other where English has list|other');
  });

  it('accepts plural categories a language has and English lacks (Arabic’s zero, two, few, many)', () => {
    const cats = {
      en: good().en,
      ar: { ...good().en, 'a.count': '{count, plural, zero {لا مقاعد} one {مقعد واحد} two {مقعدان} few {# مقاعد} many {# مقعدًا} other {# مقعد}}' },
    };
    expect(checkCatalogues(cats, [SOURCE], ['en', 'ar'])).toEqual([]);
  });
});
