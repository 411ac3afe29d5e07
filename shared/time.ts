/** UTC `Y-m-d H:i:s`, the contract's time format for stored and sent times. */
export const UTC_DATETIME_RE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
export const UTC_DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

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

/** Parses a strict UTC `Y-m-d H:i:s` string; null when malformed or not a real time. */
export function parseUtcString(value: string): Date | null {
  if (!UTC_DATETIME_RE.test(value)) return null;
  const d = new Date(value.replace(' ', 'T') + 'Z');
  if (Number.isNaN(d.getTime()) || toUtcString(d) !== value) return null;
  return d;
}

/** Parses a strict `Y-m-d` day as UTC midnight; null when malformed or not a real day. */
export function parseUtcDate(value: string): Date | null {
  if (!UTC_DATE_RE.test(value)) return null;
  const d = new Date(value + 'T00:00:00Z');
  if (Number.isNaN(d.getTime()) || toUtcDate(d) !== value) return null;
  return d;
}

export function nowUtcString(): string {
  return toUtcString(new Date());
}

/** True when `tz` is an IANA zone this runtime knows. */
export function isValidTimeZone(tz: string): boolean {
  if (!tz || tz.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
