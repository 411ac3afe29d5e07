/**
 * What Settings propose for an organization that never chose its currency and zone
 * (docs/decisions/048-first-run.md): the browser's zone, and the currency of its locale's region.
 * Proposed only: nothing is stored until the administrator saves.
 */
import { viewerTimeZone } from './forms';

const EURO_REGIONS = 'AT BE BG CY DE EE ES FI FR GR HR IE IT LT LU LV MC MT NL PT SI SK SM VA AD ME XK';

/** Region (ISO 3166) → currency (ISO 4217) for the common regions; the euro area from EURO_REGIONS. */
const REGION_CURRENCY: Record<string, string> = {
  ...Object.fromEntries(EURO_REGIONS.split(' ').map((r) => [r, 'EUR'])),
  US: 'USD',
  GB: 'GBP',
  JP: 'JPY',
  EG: 'EGP',
  BR: 'BRL',
  CH: 'CHF',
  LI: 'CHF',
  CA: 'CAD',
  AU: 'AUD',
  NZ: 'NZD',
  IN: 'INR',
  CN: 'CNY',
  HK: 'HKD',
  SG: 'SGD',
  KR: 'KRW',
  TW: 'TWD',
  MX: 'MXN',
  AR: 'ARS',
  CL: 'CLP',
  CO: 'COP',
  PE: 'PEN',
  SE: 'SEK',
  NO: 'NOK',
  DK: 'DKK',
  IS: 'ISK',
  PL: 'PLN',
  CZ: 'CZK',
  HU: 'HUF',
  RO: 'RON',
  TR: 'TRY',
  UA: 'UAH',
  IL: 'ILS',
  ZA: 'ZAR',
  NG: 'NGN',
  KE: 'KES',
  MA: 'MAD',
  TN: 'TND',
  DZ: 'DZD',
  SA: 'SAR',
  AE: 'AED',
  QA: 'QAR',
  KW: 'KWD',
  JO: 'JOD',
  LB: 'LBP',
  IQ: 'IQD',
  ID: 'IDR',
  TH: 'THB',
  MY: 'MYR',
  PH: 'PHP',
  VN: 'VND',
};

/** The region a locale names, or the likeliest one for its language ("de" → DE, "ar" → EG). */
export function localeRegion(locale: string): string | null {
  try {
    return new Intl.Locale(locale).maximize().region ?? null;
  } catch {
    return null;
  }
}

/**
 * The currency of a locale's region: "de-DE" → EUR, "en-GB" → GBP, "pt-BR" → BRL, a bare language
 * by its likeliest region ("fr" → EUR). A region not in the list proposes the US dollar, the
 * currency svc used before anything was chosen; the administrator corrects it before saving.
 */
export function currencyForLocale(locale: string): string {
  const region = localeRegion(locale);
  return (region ? REGION_CURRENCY[region] : undefined) ?? 'USD';
}

/** The browser's proposals: its locale's currency and its zone. */
export function browserRegional(): { currency: string; timeZone: string } {
  const locale = globalThis.navigator?.language || 'en-US';
  return { currency: currencyForLocale(locale), timeZone: viewerTimeZone() };
}
