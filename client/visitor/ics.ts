import { CALENDAR_LENGTH_WITHOUT_END_MS, toUtcString, utcMs } from '../../shared/time';
/** An iCalendar file for "add to calendar", built on the device (RFC 5545, UTC times). */

export interface IcsEvent {
  uid: string;
  startUtc: string;
  endUtc: string;
  title: string;
  location?: string;
  description?: string;
  /** Stamp time, UTC `Y-m-d H:i:s`. */
  stampUtc: string;
}

const icsTime = (utc: string) => `${utc.replace(/[-:]/g, '').replace(' ', 'T')}Z`;

/** Text values: backslash, semicolon, comma and newlines escaped. */
export function icsText(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** Lines longer than 75 octets are folded (continuation lines start with a space). */
function fold(line: string): string {
  const bytes = new TextEncoder().encode(line);
  if (bytes.length <= 75) return line;
  const out: string[] = [];
  let current = '';
  let size = 0;
  for (const ch of line) {
    const n = new TextEncoder().encode(ch).length;
    if (size + n > (out.length === 0 ? 75 : 74)) {
      out.push(current);
      current = '';
      size = 0;
    }
    current += ch;
    size += n;
  }
  out.push(current);
  return out.join('\r\n ');
}

export function buildIcs(event: IcsEvent): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//svc//visitor//EN',
    'CALSCALE:GREGORIAN',
    'BEGIN:VEVENT',
    `UID:${event.uid}`,
    `DTSTAMP:${icsTime(event.stampUtc)}`,
    `DTSTART:${icsTime(event.startUtc)}`,
    `DTEND:${icsTime(event.endUtc)}`,
    `SUMMARY:${icsText(event.title)}`,
    ...(event.location ? [`LOCATION:${icsText(event.location)}`] : []),
    ...(event.description ? [`DESCRIPTION:${icsText(event.description)}`] : []),
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}

/**
 * An event's "Add to calendar" file as an object URL (revoke it when done), under the mailed
 * event.ics's UID: one calendar entry whichever copy the visitor keeps. An event without an end
 * lasts CALENDAR_LENGTH_WITHOUT_END_MS.
 */
export function eventIcsUrl(ev: { startsUtc: string; endsUtc: string | null; title: string; venue: string; description: string }, uid: string): string {
  const ics = buildIcs({
    uid,
    startUtc: ev.startsUtc,
    endUtc: ev.endsUtc ?? toUtcString(utcMs(ev.startsUtc) + CALENDAR_LENGTH_WITHOUT_END_MS),
    title: ev.title,
    location: ev.venue || undefined,
    description: ev.description || undefined,
    stampUtc: toUtcString(Date.now()),
  });
  return URL.createObjectURL(new Blob([ics], { type: 'text/calendar' }));
}
