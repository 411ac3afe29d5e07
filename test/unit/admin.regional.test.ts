/** The currency Settings propose from the browser's locale (docs/decisions/048-first-run.md). */
import { describe, expect, it } from 'vitest';
import { currencyForLocale } from '../../client/admin/regional';

describe('currencyForLocale', () => {
  it.each([
    ['de-DE', 'EUR'],
    ['en-GB', 'GBP'],
    ['en-US', 'USD'],
    ['ja-JP', 'JPY'],
    ['ar-EG', 'EGP'],
    ['pt-BR', 'BRL'],
    ['fr-CH', 'CHF'],
    ['nl-BE', 'EUR'],
    ['es-MX', 'MXN'],
  ])('names the currency of the region of %s: %s', (locale, currency) => {
    expect(currencyForLocale(locale)).toBe(currency);
  });

  it("takes a bare language's likeliest region", () => {
    expect(currencyForLocale('fr')).toBe('EUR');
    expect(currencyForLocale('ja')).toBe('JPY');
  });

  it('proposes US dollars for a region it does not list, or a locale it cannot read', () => {
    expect(currencyForLocale('en-AQ')).toBe('USD');
    expect(currencyForLocale('not a locale!')).toBe('USD');
  });
});
