/**
 * One way to print a time, for the visitor pages and the emails alike (docs/api.md: times are
 * stored and sent in UTC): the place's zone first, with its abbreviation and city —
 * `Thu 3 Dec, 18:30–21:00 GMT (London)` — then the viewer's clock when it differs —
 * `13:30–16:00 EST your time`. Always 24-hour `HH:MM` and an end time when there is one, so a
 * slot button, a summary and an email never disagree on how a time looks.
 *
 * Words are English (`en-GB`) unless the reader's `locale` is another language: then the day,
 * the clock and the range come from `Intl` in that language (`Sa., 5. Dez., 19:30–22:30 GMT
 * (London)`), with the zone still first. Every formatter names its `timeZone`, so the output
 * never depends on the zone of the machine running it.
 */
import { utcMs } from './time';

const LOCALE = 'en-GB';
const MINUTE_MS = 60_000;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(kind: string, zone: string, options: Intl.DateTimeFormatOptions, locale = LOCALE): Intl.DateTimeFormat {
  const key = `${kind}|${locale}|${zone}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { timeZone: zone, ...options });
    formatters.set(key, format);
  }
  return format;
}

/** A known IANA zone, else UTC: a bad stored zone prints in UTC rather than throwing in a page or a mail job. */
function safeZone(zone: string | null | undefined): string {
  if (!zone) return 'UTC';
  try {
    formatter('probe', zone, {});
    return zone;
  } catch {
    return 'UTC';
  }
}

function parts(format: Intl.DateTimeFormat, ms: number): Record<string, string> {
  return Object.fromEntries(format.formatToParts(ms).map((p) => [p.type, p.value]));
}

/** `18:30` in `zone`: 24-hour, two-digit hours, everywhere. */
export function formatClock(ms: number, zone: string): string {
  const p = parts(formatter('clock', safeZone(zone), { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }), ms);
  return `${p.hour}:${p.minute}`;
}

/** `Thu 3 Dec` in `zone`, with the year when it is not the year of `nowMs` (`Thu 3 Dec 2027`). */
export function formatDay(ms: number, zone: string, nowMs = Date.now()): string {
  const z = safeZone(zone);
  const p = parts(formatter('day', z, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }), ms);
  const thisYear = parts(formatter('day', z, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }), nowMs).year;
  return `${p.weekday} ${p.day} ${p.month}${p.year === thisYear ? '' : ` ${p.year}`}`;
}

const OFFSET_NAME_RE = /^(GMT|UTC)[+\-−]/;

/**
 * The zone's short name at `ms`: `GMT`/`BST`, `CET`, `EST`/`EDT`, `UTC`; a zone without a common
 * abbreviation gets its offset (`GMT+5:30` for Asia/Kolkata), which is still unambiguous.
 */
export function zoneAbbreviation(ms: number, zone: string): string {
  const z = safeZone(zone);
  const british = parts(formatter('abbr', z, { timeZoneName: 'short' }), ms).timeZoneName ?? z;
  if (!OFFSET_NAME_RE.test(british)) return british;
  // en-GB knows European names, en-US the American ones (EST, PDT)
  const american = parts(formatter('abbr', z, { timeZoneName: 'short' }, 'en-US'), ms).timeZoneName ?? british;
  return OFFSET_NAME_RE.test(american) ? british : american;
}

/** The city an IANA zone is named after (`Europe/London` → `London`, `America/Argentina/Buenos_Aires` → `Buenos Aires`); '' for UTC and `Etc/…`. */
export function zoneCity(zone: string): string {
  if (!zone.includes('/') || zone.startsWith('Etc/')) return '';
  return zone.slice(zone.lastIndexOf('/') + 1).replace(/_/g, ' ');
}

/** How far `zone` is ahead of UTC at `ms`, in minutes. */
function offsetMinutes(ms: number, zone: string): number {
  const p = parts(
    formatter('offset', safeZone(zone), { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', hourCycle: 'h23' }),
    ms,
  );
  const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute));
  return Math.round((wall - Math.floor(ms / MINUTE_MS) * MINUTE_MS) / MINUTE_MS);
}

interface SpanOptions {
  /** Print the start's day (`Thu 3 Dec, `); the end's day is printed whenever it differs. */
  withDay: boolean;
  nowMs: number;
  /** A reader's locale other than English: the span comes from Intl in that language. */
  locale?: string | null;
}

const twelveHour = new Map<string, boolean>();
/** Whether a locale's own clock is 12-hour (`en-US` "3:00 PM"), decided once per tag. */
function usesTwelveHourClock(locale: string): boolean {
  let answer = twelveHour.get(locale);
  if (answer === undefined) {
    try {
      const cycle = new Intl.DateTimeFormat(locale, { hour: 'numeric' }).resolvedOptions().hourCycle;
      answer = cycle === 'h11' || cycle === 'h12';
    } catch {
      answer = false;
    }
    twelveHour.set(locale, answer);
  }
  return answer;
}

/**
 * True when svc's hand-made English form applies (`Thu 3 Dec, 18:30–21:00 GMT`, en-GB's 24-hour
 * clock): no locale, bare `en` (mails, which know the language but not the region), or a regional
 * English with a 24-hour clock (en-GB, en-IE). A regional English whose clock is 12-hour (en-US,
 * en-CA, en-AU) reads Intl's own form, "3:00 PM", like every other language.
 */
export function isHandMadeEnglish(locale: string | null | undefined): boolean {
  if (!locale) return true;
  if (!/^en(-|$)/i.test(locale)) return false;
  return !locale.includes('-') || !usesTwelveHourClock(locale);
}

/** A known locale tag for Intl, else English (a bad tag from a cookie or a stored row never throws here). */
function safeLocale(locale: string): string {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([locale])[0] ?? LOCALE;
  } catch {
    return LOCALE;
  }
}

/** The span in another language: Intl's own day, clock and range forms, then the zone's abbreviation. */
function formatLocalizedSpan(startMs: number, endMs: number | null, zone: string, options: SpanOptions & { locale: string }): string {
  const locale = safeLocale(options.locale);
  const year = parts(formatter('year', zone, { year: 'numeric' }), startMs).year !== parts(formatter('year', zone, { year: 'numeric' }), options.nowMs).year;
  const fields: Intl.DateTimeFormatOptions = {
    ...(options.withDay ? { weekday: 'short', day: 'numeric', month: 'short', ...(year ? { year: 'numeric' } : {}) } : {}),
    hour: 'numeric',
    minute: '2-digit',
  };
  const format = formatter(`span-${options.withDay}-${year}`, zone, fields, locale);
  const startAbbr = zoneAbbreviation(startMs, zone);
  if (endMs === null || endMs <= startMs) return `${format.format(startMs)} ${startAbbr}`;
  const endAbbr = zoneAbbreviation(endMs, zone);
  if (endAbbr !== startAbbr) return `${format.format(startMs)} ${startAbbr} – ${format.format(endMs)} ${endAbbr}`;
  // a range on another day names that day even when the start's is left out
  const endFormat =
    formatDay(endMs, zone, options.nowMs) === formatDay(startMs, zone, options.nowMs)
      ? format
      : formatter(`span-true-${year}`, zone, { weekday: 'short', day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' }, locale);
  return format === endFormat ? `${format.formatRange(startMs, endMs)} ${endAbbr}` : `${format.format(startMs)} – ${endFormat.format(endMs)} ${endAbbr}`;
}

/**
 * `Thu 3 Dec, 18:30–21:00 GMT`; across midnight `Thu 3 Dec, 22:00 – Fri 4 Dec, 01:00 GMT`;
 * across a clock change each end keeps its own abbreviation (`23:00 GMT – Sun 29 Mar, 03:00 BST`).
 */
function formatSpan(startMs: number, endMs: number | null, zone: string, options: SpanOptions): string {
  if (!isHandMadeEnglish(options.locale)) return formatLocalizedSpan(startMs, endMs, zone, { ...options, locale: options.locale! });
  const startDay = formatDay(startMs, zone, options.nowMs);
  const head = `${options.withDay ? `${startDay}, ` : ''}${formatClock(startMs, zone)}`;
  const startAbbr = zoneAbbreviation(startMs, zone);
  if (endMs === null || endMs <= startMs) return `${head} ${startAbbr}`;
  const endDay = formatDay(endMs, zone, options.nowMs);
  const endAbbr = zoneAbbreviation(endMs, zone);
  const sameDay = endDay === startDay;
  const tail = `${sameDay ? '' : `${endDay}, `}${formatClock(endMs, zone)} ${endAbbr}`;
  if (endAbbr !== startAbbr) return `${head} ${startAbbr} – ${tail}`;
  return sameDay ? `${head}–${tail}` : `${head} – ${tail}`;
}

export interface WhenInput {
  /** UTC `Y-m-d H:i:s` (the contract's format). */
  startUtc: string;
  endUtc?: string | null;
  /** Where it happens: the event's zone, or the booking type's (the host's). */
  zone: string;
  /** The reader's zone; its clock is added when it reads differently from the place's. */
  viewerZone?: string | null;
  /** For "is this year" (tests pin it). */
  nowMs?: number;
  /** The reader's locale (`de`, `ar`); English when absent. */
  locale?: string | null;
  /** The reader's clock in words, in their language: `13:30 EST your time` by default. */
  yourTime?: (time: string) => string;
}

export interface When {
  /** `Thu 3 Dec, 18:30–21:00 GMT (London)` */
  place: string;
  /** `13:30–16:00 EST your time`, or null when the reader's clock shows the same. */
  yours: string | null;
  /** Both, joined: `Thu 3 Dec, 18:30–21:00 GMT (London) · 13:30–16:00 EST your time`. */
  text: string;
}

/** A time (or a start–end range) as the place reads it, then as the reader reads it when that differs. */
export function formatWhen(input: WhenInput): When {
  const startMs = utcMs(input.startUtc);
  if (Number.isNaN(startMs)) return { place: input.startUtc, yours: null, text: input.startUtc };
  const endParsed = input.endUtc ? utcMs(input.endUtc) : Number.NaN;
  const endMs = Number.isNaN(endParsed) ? null : endParsed;
  const nowMs = input.nowMs ?? Date.now();
  const zone = safeZone(input.zone);
  const city = zoneCity(zone);
  const locale = input.locale ?? null;
  const place = `${formatSpan(startMs, endMs, zone, { withDay: true, nowMs, locale })}${city ? ` (${city})` : ''}`;

  const viewer = input.viewerZone ? safeZone(input.viewerZone) : null;
  const differs =
    viewer !== null &&
    viewer !== zone &&
    (offsetMinutes(startMs, viewer) !== offsetMinutes(startMs, zone) || (endMs !== null && offsetMinutes(endMs, viewer) !== offsetMinutes(endMs, zone)));
  if (!differs) return { place, yours: null, text: place };
  // the reader's day is only printed when it is not the place's day
  const withDay = formatDay(startMs, viewer, nowMs) !== formatDay(startMs, zone, nowMs);
  const span = formatSpan(startMs, endMs, viewer, { withDay, nowMs, locale });
  const yours = input.yourTime ? input.yourTime(span) : `${span} your time`;
  return { place, yours, text: `${place} · ${yours}` };
}

/** A slot button's label: the start as `HH:MM` in the reader's zone (the day and zone are shown around it). */
export function formatSlotClock(startUtc: string, zone: string): string {
  const ms = utcMs(startUtc);
  return Number.isNaN(ms) ? startUtc : formatClock(ms, zone);
}
