/**
 * Dates, times, ages and prices as the visitor reads them, from the contract's UTC
 * `Y-m-d H:i:s` strings. Times themselves are printed by `shared/time-format.ts`, the one
 * format the pages and the emails share.
 */
import { toUtcDate, utcMs } from '../../shared/time';
import { formatSlotClock, formatWhen, isHandMadeEnglish } from '../../shared/time-format';
import { formatMoney } from '../ui/format';
import { intlLocale } from '../i18n/i18n';

// Building an Intl formatter loads locale data (the first one tens of milliseconds on a mid phone,
// each further one a few): every formatter here is made once and kept, never per call or per
// calendar cell, so a page's first render does not pay for dozens of them.
let detectedZone: string | undefined;

/** The device's zone (asked once per page load). */
export function detectTimeZone(): string {
  if (detectedZone === undefined) {
    try {
      detectedZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    } catch {
      detectedZone = 'UTC';
    }
  }
  return detectedZone;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();
/** The calendar day (`Y-m-d`) an instant falls on in `tz`. */
export function dayInZone(instant: Date | number, tz: string): string {
  let format = dayFormats.get(tz);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(tz, format);
  }
  const parts = Object.fromEntries(format.formatToParts(instant).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

const clockFormats = new Map<string, Intl.DateTimeFormat>();
/**
 * A slot button's clock in the reader's locale and `tz`: `14:30` (de), `2:30 م` (ar), the same
 * form as the summary beside it (`formatWhen`): a 24-hour English keeps svc's `HH:MM`, a 12-hour
 * English (en-US) reads `2:30 PM` like its summary.
 * A 24-hour locale keeps two-digit hours, like the times printed around it.
 */
export function slotClock(utc: string, tz: string): string {
  const ms = utcMs(utc);
  const locale = intlLocale();
  if (Number.isNaN(ms) || isHandMadeEnglish(locale)) return formatSlotClock(utc, tz);
  const key = `${locale}|${tz}`;
  let format = clockFormats.get(key);
  if (!format) {
    try {
      const cycle = new Intl.DateTimeFormat(locale, { hour: 'numeric' }).resolvedOptions().hourCycle;
      const hour = cycle === 'h23' || cycle === 'h24' ? '2-digit' : 'numeric';
      format = new Intl.DateTimeFormat(locale, { timeZone: tz, hour, minute: '2-digit' });
    } catch {
      return formatSlotClock(utc, tz); // a zone this engine does not know: svc's own 24-hour form, in UTC
    }
    clockFormats.set(key, format);
  }
  return format.format(ms);
}

/** `14:30` in `tz` (24-hour, like every time svc prints). */
export function timeInZone(utc: string, tz: string): string {
  return formatSlotClock(utc, tz);
}

/** `Thu 3 Dec, 14:30 GMT (London)` in `tz`, in the reader's language. */
export function dateTimeInZone(utc: string, tz: string): string {
  return formatWhen({ startUtc: utc, zone: tz, locale: intlLocale() }).text;
}

/** A zone as people read it: `America/New York`. */
export function zoneInWords(tz: string): string {
  return tz.replace(/_/g, ' ');
}

/** A calendar day (`Y-m-d`) in words: `Tuesday, 5 May`. */
const formats = new Map<string, Intl.DateTimeFormat>();
function utcFormat(name: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const locale = intlLocale();
  const key = `${name}|${locale}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', ...options });
    formats.set(key, format);
  }
  return format;
}

export function dayInWords(day: string, withYear = false): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const options: Intl.DateTimeFormatOptions = { weekday: 'long', day: 'numeric', month: 'long', ...(withYear ? { year: 'numeric' } : {}) };
  return utcFormat(withYear ? 'day-year' : 'day', options).format(Date.UTC(y, m - 1, d));
}

export function monthInWords(year: number, month: number): string {
  return utcFormat('month', { month: 'long', year: 'numeric' }).format(Date.UTC(year, month - 1, 1));
}

/** Monday-first weekday names, short. */
export function weekdayNames(style: 'short' | 'long' = 'short'): string[] {
  const format = utcFormat(`weekday-${style}`, { weekday: style });
  // 2024-01-01 was a Monday
  return Array.from({ length: 7 }, (_, i) => format.format(Date.UTC(2024, 0, 1 + i)));
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The month as weeks of 7 cells (Monday first); `null` pads days outside the month. */
export function monthGrid(year: number, month: number): Array<Array<string | null>> {
  const first = new Date(Date.UTC(year, month - 1, 1));
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const lead = (first.getUTCDay() + 6) % 7; // Monday = 0
  const cells: Array<string | null> = Array.from({ length: lead }, () => null);
  for (let d = 1; d <= days; d += 1) cells.push(`${year}-${pad(month)}-${pad(d)}`);
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: Array<Array<string | null>> = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

export function addMonths(year: number, month: number, delta: number): { year: number; month: number } {
  const index = year * 12 + (month - 1) + delta;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

/**
 * The UTC days (`from`, `to`, inclusive) whose slots cover every local day of the month in
 * any zone (one day either side), never before today.
 */
export function monthQueryRange(year: number, month: number, nowMs = Date.now()): { from: string; to: string } {
  const from = Math.max(Date.UTC(year, month - 1, 0), Date.UTC(new Date(nowMs).getUTCFullYear(), new Date(nowMs).getUTCMonth(), new Date(nowMs).getUTCDate()));
  const to = Date.UTC(year, month, 1);
  return { from: toUtcDate(from), to: toUtcDate(Math.max(from, to)) };
}

const relativeFormats = new Map<string, Intl.RelativeTimeFormat>();

/** "5 minutes ago", "yesterday" — the age of a stored copy. */
export function formatAge(fetchedAt: number, now = Date.now()): string {
  const seconds = Math.round((fetchedAt - now) / 1000);
  const locale = intlLocale();
  let format = relativeFormats.get(locale);
  if (!format) {
    format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
    relativeFormats.set(locale, format);
  }
  const abs = Math.abs(seconds);
  if (abs < 60) return format.format(Math.min(0, seconds), 'second');
  if (abs < 3600) return format.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return format.format(Math.round(seconds / 3600), 'hour');
  return format.format(Math.round(seconds / 86_400), 'day');
}

/** Cents in the site currency (contract "Currency": an ISO 4217 code; relabelled, never converted). */
export const formatPrice = formatMoney;
