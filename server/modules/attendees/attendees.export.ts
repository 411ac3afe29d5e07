/** CSV and JSON exports, streamed page by page so memory stays flat at any event size. */
import type { Hooks } from '../../hooks';
import type { Db } from '../../db/client';
import type { Logger } from 'pino';
import { attendeesRepository, type AttendeeRecord } from './attendees.repository';
import { SERIALIZED_ATTENDEE_KEYS, serializeAttendees } from './attendees.serialize';

export const EXPORT_PAGE_SIZE = 1000;

/** Spreadsheet formula triggers (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell's text: objects as JSON, null as empty; formula starts neutralised with a leading quote. */
export function csvCell(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (typeof value === 'object') text = JSON.stringify(value);
  else text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  // RFC 4180: fields with a comma, quote or line break are quoted, quotes doubled.
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/**
 * Columns: the serialization's own keys, then keys that `svc_rest_attendee_response` added
 * on the first page (in order of appearance). Keys first seen later are left out: the header
 * is written before the rest of the rows exist.
 */
function columnsOf(firstPage: Record<string, unknown>[]): string[] {
  const columns: string[] = [...SERIALIZED_ATTENDEE_KEYS];
  const seen = new Set(columns);
  for (const item of firstPage) {
    for (const key of Object.keys(item)) {
      if (!seen.has(key)) {
        seen.add(key);
        columns.push(key);
      }
    }
  }
  return columns;
}

export function exportAttendeesStream(deps: { db: Db; hooks: Hooks; logger: Logger }, eventId: number, format: 'csv' | 'json'): ReadableStream<Uint8Array> {
  const repo = attendeesRepository(deps.db);
  const encoder = new TextEncoder();
  let afterId = 0;
  let columns: string[] | null = null;
  let first = true;
  let done = false;

  async function nextPage(): Promise<Record<string, unknown>[] | null> {
    const rows: AttendeeRecord[] = await repo.pageOfEvent(eventId, afterId, EXPORT_PAGE_SIZE);
    if (rows.length === 0) return null;
    afterId = rows[rows.length - 1]!.id;
    return serializeAttendees(deps.hooks, rows);
  }

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (done) return;
          const items = await nextPage();
          let chunk = '';
          if (format === 'csv') {
            if (columns === null) {
              columns = columnsOf(items ?? []);
              chunk += csvLine(columns);
            }
            for (const item of items ?? []) chunk += csvLine(columns.map((c) => item[c]));
          } else {
            if (first) chunk += '[';
            for (const item of items ?? []) {
              chunk += (first ? '' : ',') + JSON.stringify(item);
              first = false;
            }
            if (!items) chunk += ']';
          }
          if (chunk) controller.enqueue(encoder.encode(chunk));
          if (!items) {
            done = true;
            controller.close();
          }
        } catch (err) {
          deps.logger.error({ err, eventId }, 'attendee export failed');
          controller.error(err);
        }
      },
    },
    { highWaterMark: 1 },
  );
}
