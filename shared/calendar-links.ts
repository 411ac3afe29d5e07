/**
 * "Add to Google Calendar" and "Outlook" links (docs/api.md#calendar-links): URL templates that
 * open the provider's own event composer, filled in, beside the `.ics` file. No API, no account
 * of ours: the person saves the entry themselves. One builder for the pages and the mails, so
 * both carry the same times, title, place and text (docs/decisions/034-calendar-links.md).
 */
import { CALENDAR_LENGTH_WITHOUT_END_MS, parseUtcString, toUtcString } from './time';

export interface CalendarLinkEvent {
  title: string;
  /** UTC `Y-m-d H:i:s`, as stored. */
  startUtc: string;
  /** UTC `Y-m-d H:i:s`; absent or null: the .ics's default length (CALENDAR_LENGTH_WITHOUT_END_MS). */
  endUtc?: string | null;
  location?: string;
  /** The entry's notes: a short line and the manage or cancel link. */
  details?: string;
}

export interface CalendarLinks {
  google: string;
  outlook: string;
}

export const GOOGLE_CALENDAR_URL = 'https://calendar.google.com/calendar/render';
/** Outlook.com (personal accounts); a work account's Outlook is another host (docs/decisions/034-calendar-links.md). */
export const OUTLOOK_CALENDAR_URL = 'https://outlook.live.com/calendar/0/deeplink/compose';

function parsed(value: string, field: string): Date {
  const date = parseUtcString(value);
  if (!date) throw new TypeError(`calendarLinks: ${field} must be a UTC "Y-m-d H:i:s" time, got "${value}".`);
  return date;
}

/** `2026-12-03 18:30:00` → `20261203T183000Z` (Google's `dates`). */
const compactUtc = (utc: string) => `${utc.slice(0, 10).replace(/-/g, '')}T${utc.slice(11).replace(/:/g, '')}Z`;
/** `2026-12-03 18:30:00` → `2026-12-03T18:30:00Z` (Outlook's `startdt`/`enddt`, ISO 8601). */
const isoUtc = (utc: string) => `${utc.slice(0, 10)}T${utc.slice(11)}Z`;

/**
 * Query parameters in order, empty ones left out. Spaces are `%20`, not the form encoding's `+`:
 * both providers read `%20`, and Outlook has been reported to show a `+` literally.
 */
function withQuery(base: string, params: [string, string | undefined][]): string {
  const query = new URLSearchParams(params.filter((p): p is [string, string] => p[1] !== undefined && p[1] !== ''));
  return `${base}?${query.toString().replace(/\+/g, '%20')}`;
}

/** Both links for one entry; throws on a malformed time (a stored time never is). */
export function calendarLinks(event: CalendarLinkEvent): CalendarLinks {
  const start = parsed(event.startUtc, 'startUtc');
  const endUtc = event.endUtc ? toUtcString(parsed(event.endUtc, 'endUtc')) : toUtcString(start.getTime() + CALENDAR_LENGTH_WITHOUT_END_MS);
  const startUtc = toUtcString(start);
  const location = event.location?.trim() || undefined;
  const details = event.details?.trim() || undefined;
  return {
    google: withQuery(GOOGLE_CALENDAR_URL, [
      ['action', 'TEMPLATE'],
      ['text', event.title],
      ['dates', `${compactUtc(startUtc)}/${compactUtc(endUtc)}`],
      ['details', details],
      ['location', location],
    ]),
    outlook: withQuery(OUTLOOK_CALENDAR_URL, [
      ['path', '/calendar/action/compose'],
      ['rru', 'addevent'],
      ['subject', event.title],
      ['startdt', isoUtc(startUtc)],
      ['enddt', isoUtc(endUtc)],
      ['body', details],
      ['location', location],
    ]),
  };
}
