/**
 * "5 minutes ago" in the reader's language (Intl.RelativeTimeFormat, docs/decisions/027-languages.md):
 * the largest unit that fits, so a device seen yesterday reads "yesterday", not "1,440 minutes ago".
 */
import { parseUtcString } from '../../shared/time';
import { intlLocale } from '../i18n/i18n';

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** How long before (or after) `nowMs` the contract's UTC time `value` is, in words; '' for no valid time. */
export function formatRelativeUtc(value: string | null | undefined, nowMs = Date.now()): string {
  const date = value ? parseUtcString(value) : null;
  if (!date) return '';
  const seconds = Math.round((date.getTime() - nowMs) / 1000);
  const [unit, size] = UNITS.find(([, s]) => Math.abs(seconds) >= s) ?? ['second', 1];
  return new Intl.RelativeTimeFormat(intlLocale(), { numeric: 'auto' }).format(Math.round(seconds / size), unit);
}
