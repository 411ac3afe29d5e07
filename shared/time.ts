/** UTC `Y-m-d H:i:s`, the contract's time format for stored and sent times. */
export const UTC_DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
/** A wall-clock time `HH:MM`, 00:00–23:59, or 24:00 for the end of a day. */
export const CLOCK_RE = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;

/** The days of a week, in the order weekly windows list them. */
/** An event without an end takes this long in a calendar file (the mailed one and the page's alike). */
export const CALENDAR_LENGTH_WITHOUT_END_MS = 3_600_000;

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Formats an instant as UTC `Y-m-d H:i:s`. */
export function toUtcString(date: Date | number): string {
  const d = typeof date === 'number' ? new Date(date) : date;
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** Formats an instant as UTC `Y-m-d`. */
export function toUtcDate(date: Date | number): string {
  return toUtcString(date).slice(0, 10);
}

const UTC_DATETIME_PARTS_RE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

function daysInMonth(year: number, month: number): number {
  return month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** The fields of a strict UTC `Y-m-d H:i:s` string that names a real time; null otherwise. */
function utcFields(value: string): [number, number, number, number, number, number] | null {
  const m = UTC_DATETIME_PARTS_RE.exec(value);
  if (!m) return null;
  const f = [+m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!, +m[6]!] as [number, number, number, number, number, number];
  const [year, month, day, hour, minute, second] = f;
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) return null;
  return f;
}

/** True for a strict UTC `Y-m-d H:i:s` string naming a real time; no Date is made (it runs for every item of a sync push). */
export const isUtcString = (value: string): boolean => utcFields(value) !== null;

/** Parses a strict UTC `Y-m-d H:i:s` string; null when malformed or not a real time. */
export function parseUtcString(value: string): Date | null {
  const f = utcFields(value);
  if (!f) return null;
  const d = new Date(0);
  d.setUTCFullYear(f[0], f[1] - 1, f[2]);
  d.setUTCHours(f[3], f[4], f[5], 0);
  return d;
}

/** Epoch milliseconds of a UTC `Y-m-d H:i:s` string (a stored time); NaN when malformed. */
export function utcMs(value: string): number {
  return parseUtcString(value)?.getTime() ?? Number.NaN;
}

/** Parses a strict `Y-m-d` day as UTC midnight; null when malformed or not a real day. */
export function parseUtcDate(value: string): Date | null {
  if (!UTC_DATE_RE.test(value)) return null;
  const d = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || toUtcDate(d) !== value) return null;
  return d;
}

export function nowUtcString(): string {
  return toUtcString(new Date());
}

/** Answers of isValidTimeZone: building a formatter to ask costs ~0.1 ms, and one request may ask several times. */
const zoneValidity = new Map<string, boolean>();
const ZONE_MEMO_MAX = 1000;

/** True when `tz` is an IANA zone this runtime knows. */
export function isValidTimeZone(tz: string): boolean {
  if (!tz || tz.length > 64) return false;
  const known = zoneValidity.get(tz);
  if (known !== undefined) return known;
  let valid: boolean;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    valid = true;
  } catch {
    valid = false;
  }
  // bounded: only the first names asked about are remembered (a stream of junk names cannot grow it)
  if (zoneValidity.size < ZONE_MEMO_MAX) zoneValidity.set(tz, valid);
  return valid;
}
