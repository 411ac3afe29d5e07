/**
 * The `invite.ics` attached to booking emails (docs/api.md#rest): one RFC 5545 VEVENT, sent as
 * an iTIP REQUEST when a booking is confirmed or moved and as a CANCEL when it ends.
 */
import { createHash } from 'node:crypto';
import { parseUtcString } from '../../shared/time';

export type IcsMethod = 'REQUEST' | 'CANCEL';

export interface IcsParticipant {
  name: string;
  email: string;
}

export interface IcsOrganizer extends IcsParticipant {
  /** The address the mail comes from, when it is not the organizer's (RFC 5545 §3.2.18 SENT-BY). */
  sentBy?: string;
}

/** What every calendar entry carries, an invite's or a feed's. */
export interface IcsEntry {
  /** Stable per booking: a calendar matches a CANCEL or an update to the invite by it. */
  uid: string;
  /** When this version of the entry was made (DTSTAMP), UTC `Y-m-d H:i:s`. */
  stampUtc: string;
  startUtc: string;
  endUtc: string;
  summary: string;
  description: string;
  location?: string;
  /** Absolute http(s) link, e.g. the manage page. */
  url?: string;
  /** Raise it for every update of the same uid; calendars ignore a lower one. */
  sequence: number;
}

export interface IcsInput extends IcsEntry {
  /** REQUEST gives STATUS:CONFIRMED, CANCEL gives STATUS:CANCELLED. */
  method: IcsMethod;
  organizer: IcsOrganizer;
  attendee: IcsParticipant;
}

/**
 * One UID per calendar entry and installation: `{kind}-{id}-{installation}@{host}`. The
 * installation part comes from the server secret, so two svc installations on one host name (or
 * a database restored elsewhere) never reuse each other's UIDs. The mailed invite, its updates and
 * cancel, and the page's "Add to calendar" file all carry this one UID (the server hands it to the
 * page), so a cancel removes whichever copy the person kept.
 */
export function calendarUid(ctx: { secret: string; env: { publicUrl: string } }, kind: 'booking' | 'attendee', id: number): string {
  return `${kind}-${id}-${installationOf(ctx)}@${new URL(ctx.env.publicUrl).hostname}`;
}

const installationOf = (ctx: { secret: string }) => createHash('sha256').update(`invite-uid|${ctx.secret}`).digest('hex').slice(0, 12);

/** A test for UIDs this installation gives entries of `kind` (`calendarUid`), whatever the id. */
export function isOwnCalendarUid(ctx: { secret: string; env: { publicUrl: string } }, kind: 'booking' | 'attendee'): (uid: string) => boolean {
  const prefix = `${kind}-`;
  const suffix = `-${installationOf(ctx)}@${new URL(ctx.env.publicUrl).hostname}`;
  return (uid) => uid.startsWith(prefix) && uid.endsWith(suffix) && /^\d+$/.test(uid.slice(prefix.length, uid.length - suffix.length));
}

/** RFC 5545 §3.1: content lines are folded at 75 octets, excluding the line break. */
const MAX_LINE_OCTETS = 75;
const CRLF = '\r\n';

/** One calendar entry of a subscribed feed (`buildIcsFeed`): no iTIP method, no participants. */
export interface IcsFeedEvent extends IcsEntry {
  status: 'CONFIRMED' | 'TENTATIVE';
}

/** A VEVENT's lines; `participants` (ORGANIZER, ATTENDEE) go before its SEQUENCE. */
function veventLines(event: IcsEntry, status: string, participants: string[] = []): string[] {
  return [
    'BEGIN:VEVENT',
    `UID:${escapeText(event.uid)}`,
    `DTSTAMP:${toIcsUtc(event.stampUtc, 'stampUtc')}`,
    `DTSTART:${toIcsUtc(event.startUtc, 'startUtc')}`,
    `DTEND:${toIcsUtc(event.endUtc, 'endUtc')}`,
    `SUMMARY:${escapeText(event.summary)}`,
    `DESCRIPTION:${escapeText(event.description)}`,
    ...(event.location ? [`LOCATION:${escapeText(event.location)}`] : []),
    ...(event.url ? [`URL:${toHttpUrl(event.url)}`] : []),
    ...participants,
    `SEQUENCE:${toSequence(event.sequence)}`,
    `STATUS:${status}`,
    'END:VEVENT',
  ];
}

const asText = (lines: string[]) => lines.map((line) => foldLine(line) + CRLF).join('');

/** Builds the calendar text; throws on a malformed time, URL, address or sequence. */
export function buildIcs(input: IcsInput): string {
  const status = input.method === 'CANCEL' ? 'CANCELLED' : 'CONFIRMED';
  return asText([
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//svc//booking//EN',
    `METHOD:${input.method}`,
    ...veventLines(input, status, [
      `ORGANIZER;CN=${quoteParam(input.organizer.name)}${sentByParam(input.organizer)}:${toMailto(input.organizer.email)}`,
      `ATTENDEE;CN=${quoteParam(input.attendee.name)};RSVP=FALSE:${toMailto(input.attendee.email)}`,
    ]),
    'END:VCALENDAR',
  ]);
}

/**
 * A subscribed calendar (a `webcal://` feed): a name the calendar app shows, a refresh hint,
 * and the entries, each under the UID its mailed invite has, so a calendar holding both shows one.
 */
export function buildIcsFeed(input: { name: string; refreshMinutes: number; events: IcsFeedEvent[] }): string {
  return asText([
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//svc//booking-feed//EN',
    'CALSCALE:GREGORIAN',
    `X-WR-CALNAME:${escapeText(input.name)}`,
    `NAME:${escapeText(input.name)}`,
    `REFRESH-INTERVAL;VALUE=DURATION:PT${Math.max(1, Math.round(input.refreshMinutes))}M`,
    `X-PUBLISHED-TTL:PT${Math.max(1, Math.round(input.refreshMinutes))}M`,
    ...input.events.flatMap((event) => veventLines(event, event.status)),
    'END:VCALENDAR',
  ]);
}

/**
 * One calendar object resource for a CalDAV PUT (RFC 4791 §4.1): one VEVENT, no METHOD, and no
 * ORGANIZER or ATTENDEE, so a server that schedules (iTIP) never mails the attendee a second invite.
 */
export function buildIcsObject(event: IcsEntry, status: 'CONFIRMED' | 'TENTATIVE' = 'CONFIRMED'): string {
  return asText(['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//svc//booking//EN', 'CALSCALE:GREGORIAN', ...veventLines(event, status), 'END:VCALENDAR']);
}

/** RFC 5545 §3.3.11 TEXT escaping; other control characters are not allowed in TEXT. */
export function escapeText(value: string): string {
  return (
    value
      .replace(/\\/g, '\\\\')
      .replace(/;/g, '\\;')
      .replace(/,/g, '\\,')
      .replace(/\r\n|\r|\n/g, '\\n')
      // eslint-disable-next-line no-control-regex -- control characters are what RFC 5545 text may not carry
      .replace(/[\u0000-\u0008\u000A-\u001F\u007F]/g, '')
  );
}

/**
 * Splits a content line into chunks of at most 75 octets, each continuation starting
 * with one space (which counts towards its 75). Splits only between code points, so a
 * multi-byte UTF-8 character is never cut.
 */
/** The UTF-8 length of one code point. */
const utf8Octets = (codePoint: number) => (codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4);

export function foldLine(line: string): string {
  if (Buffer.byteLength(line) <= MAX_LINE_OCTETS) return line;
  const chunks: string[] = [];
  let chunk = '';
  let chunkOctets = 0;
  for (const character of line) {
    const octets = utf8Octets(character.codePointAt(0)!);
    if (chunkOctets + octets > MAX_LINE_OCTETS) {
      chunks.push(chunk);
      chunk = ' ';
      chunkOctets = 1;
    }
    chunk += character;
    chunkOctets += octets;
  }
  chunks.push(chunk);
  return chunks.join(CRLF);
}

/** `2026-11-21 09:00:00` → `20261121T090000Z` (RFC 5545 §3.3.5, form 2: UTC). */
function toIcsUtc(value: string, field: string): string {
  if (parseUtcString(value) === null) {
    throw new TypeError(`buildIcs: ${field} must be a UTC "Y-m-d H:i:s" time, got "${value}".`);
  }
  return `${value.slice(0, 10).replace(/-/g, '')}T${value.slice(11).replace(/:/g, '')}Z`;
}

/** Parameter values may not contain DQUOTE or controls; quoting allows `:`, `;` and `,`. */
function quoteParam(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what a parameter value may not carry
  return `"${value.replace(/[\u0000-\u001F\u007F"]/g, '')}"`;
}

/** SENT-BY only when someone else sends on the organizer's behalf; its value is a quoted mailto URI. */
function sentByParam(organizer: IcsOrganizer): string {
  if (!organizer.sentBy || organizer.sentBy.toLowerCase() === organizer.email.toLowerCase()) return '';
  return `;SENT-BY="${toMailto(organizer.sentBy)}"`;
}

function toMailto(email: string): string {
  // A space, quote or line break would let an address end the property early.
  if (!/^[^\s"<>\\@]+@[^\s"<>\\@]+$/.test(email)) {
    throw new TypeError(`buildIcs: "${email}" is not an email address.`);
  }
  return `mailto:${email}`;
}

function toHttpUrl(value: string): string {
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`buildIcs: url must be an http(s) URL, got "${value}".`);
  }
  return url.href;
}

function toSequence(value: number): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new TypeError(`buildIcs: sequence must be a whole number of at least 0, got ${value}.`);
  }
  return value;
}
