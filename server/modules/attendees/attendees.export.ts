/** CSV, XLSX and JSON exports, streamed page by page so memory stays flat at any event size. */
import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { Hooks } from '../../hooks';
import type { Db } from '../../db/client';
import type { Logger } from 'pino';
import type { AppContext } from '../../context';
import type { EventRow } from '../events/events.repository';
import type { CustomFieldDefinition } from '../../../shared/custom-fields';
import { xmlSafeText } from '../../../shared/validation';
import { isUtcString, utcMs } from '../../../shared/time';
import { attendeesRepository, type AttendeeRecord } from './attendees.repository';
import type { ExportFormat } from '../../../shared/attendees-bulk';
import type { TicketCategoryRef } from '../../../shared/tickets';
import { ticketsRepository } from '../orders/tickets.repository';
import { vouchersRepository } from '../orders/vouchers.repository';
import { SERIALIZED_ATTENDEE_KEYS, SERIALIZED_CATEGORY_KEYS, serializeAttendees } from './attendees.serialize';

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
 * The event's custom fields an export gives a column each (docs/api.md#custom-fields): the
 * extended edition's definitions only.
 */
export function exportedFieldsOf(ctx: Pick<AppContext, 'env'>, event: Pick<EventRow, 'fields'>): readonly CustomFieldDefinition[] {
  return ctx.env.SVC_EDITION === 'extended' ? event.fields : [];
}

/** One export column: its header and how a serialized row gives its cell. */
interface Column {
  header: string;
  cell(item: Record<string, unknown>): unknown;
}

/** The export's own key beside the serialization's, for an event with ticket categories: the code the ticket was bought with. */
const VOUCHER_CODE_KEY = 'voucherCode';

/**
 * A page of rows as exported: the serialization, and for an event with ticket categories each
 * row's `voucherCode` (its order's code, or its free sign-up's; null without one).
 */
async function exportItems(deps: { db: Db; hooks: Hooks }, rows: AttendeeRecord[], withCategory: boolean): Promise<Record<string, unknown>[]> {
  if (rows.length === 0) return [];
  const [items, codes] = await Promise.all([
    serializeAttendees(deps, rows),
    withCategory
      ? vouchersRepository.codesOfTickets(
          deps.db,
          rows.map((r) => r.id),
        )
      : null,
  ]);
  if (!codes) return items;
  return items.map((item, i) => ({ ...item, [VOUCHER_CODE_KEY]: codes.get(rows[i]!.id) ?? null }));
}

/**
 * Columns: the serialization's own keys, then — for an event with ticket categories — the
 * category's name and the voucher code (docs/api.md#tickets), then keys that `svc_rest_attendee_response` added on the
 * first page (in order of appearance), then one per defined field (docs/api.md#custom-fields),
 * headed by its label. Keys first seen later are left out: the header is written before the rest
 * of the rows exist. An event without categories exports exactly the columns it always did.
 */
function columnsOf(firstPage: Record<string, unknown>[], definitions: readonly CustomFieldDefinition[], withCategory: boolean): Column[] {
  const keys: string[] = [...SERIALIZED_ATTENDEE_KEYS];
  const seen = new Set<string>([...keys, ...SERIALIZED_CATEGORY_KEYS, VOUCHER_CODE_KEY]);
  const extra: string[] = [];
  for (const item of firstPage) {
    for (const key of Object.keys(item)) {
      if (!seen.has(key)) {
        seen.add(key);
        extra.push(key);
      }
    }
  }
  const columns: Column[] = keys.map((key) => ({ header: key, cell: (item) => item[key] }));
  if (withCategory) {
    columns.push({ header: 'ticketCategory', cell: (item) => (item.ticketCategory as TicketCategoryRef | null)?.name ?? null });
    columns.push({ header: VOUCHER_CODE_KEY, cell: (item) => item[VOUCHER_CODE_KEY] });
  }
  columns.push(...extra.map((key) => ({ header: key, cell: (item: Record<string, unknown>) => item[key] })));
  const headers = new Set(columns.map((c) => c.header));
  for (const field of definitions) {
    // two fields with one label (or a label like "email") stay apart by their keys
    const header = headers.has(field.label) ? `${field.label} (${field.key})` : field.label;
    headers.add(header);
    columns.push({ header, cell: (item) => answerOf(item, field.key) });
  }
  return columns;
}

function answerOf(item: Record<string, unknown>, key: string): unknown {
  const answers = item.customFields;
  return typeof answers === 'object' && answers !== null && Object.hasOwn(answers, key) ? (answers as Record<string, unknown>)[key] : null;
}

/** Excel on Windows reads a CSV as UTF-8 only when it starts with a byte order mark. */
export const UTF8_BOM = '\uFEFF';

/** How a date cell reads: the serialization's own `Y-m-d H:i:s` (the column header says it is UTC). */
export const XLSX_DATE_FORMAT = 'yyyy-mm-dd hh:mm:ss';

/** A column of UTC times (`createdUtc`, `lastCheckinUtc`…): its cells are real dates a spreadsheet sorts and computes with. */
const isUtcColumn = (column: Column) => /Utc$/.test(column.header);

/**
 * A cell of the spreadsheet: numbers and booleans as such, a UTC time of a UTC column as a date,
 * objects as JSON, formula starts neutralised like the CSV's. Text goes without the characters XML
 * forbids (a name with U+FFFF, stored before input refused it, made readers refuse the whole file),
 * before the formula check so a stripped control character cannot uncover a formula.
 */
function xlsxCell(value: unknown, column: Column): string | number | boolean | Date | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  // exceljs writes a Date as its UTC wall-clock time, which is what the column holds
  if (typeof value === 'string' && isUtcColumn(column) && isUtcString(value)) return new Date(utcMs(value));
  const text = xmlSafeText(typeof value === 'object' ? JSON.stringify(value) : String(value));
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** How much of the zip may wait for the reader before the writer pauses. */
const XLSX_BUFFER_LIMIT = 1024 * 1024;

/**
 * The XLSX export: exceljs's streaming writer (no shared strings, rows committed page by page),
 * paused whenever the reader falls behind, so memory stays flat like the CSV's.
 */
function exportXlsxStream(
  deps: { db: Db; hooks: Hooks; logger: Logger },
  eventId: number,
  definitions: readonly CustomFieldDefinition[],
  ids: readonly number[] | undefined,
): ReadableStream<Uint8Array> {
  const repo = attendeesRepository(deps.db);
  const out = new PassThrough({ highWaterMark: XLSX_BUFFER_LIMIT });
  const produce = async () => {
    // styles carry the date cells' number format
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    // the header row stays in sight while scrolling, and filters the columns (its autoFilter is set once the columns are known)
    const sheet = workbook.addWorksheet('Attendees', { views: [{ state: 'frozen', xSplit: 0, ySplit: 1 }] });
    let afterId = 0;
    let columns: Column[] | null = null;
    const withCategory = await ticketsRepository(deps.db).eventHasCategories(eventId);
    for (;;) {
      const rows: AttendeeRecord[] = await repo.pageOfEvent(eventId, afterId, EXPORT_PAGE_SIZE, ids);
      const items = await exportItems(deps, rows, withCategory);
      if (columns === null) {
        columns = columnsOf(items, definitions, withCategory);
        sheet.addRow(columns.map((c) => xmlSafeText(c.header))).commit();
        sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: columns.length } };
      }
      for (const item of items) {
        const row = sheet.addRow(columns.map((c) => xlsxCell(c.cell(item), c)));
        row.eachCell((cell) => {
          if (cell.value instanceof Date) cell.numFmt = XLSX_DATE_FORMAT;
        });
        row.commit();
      }
      if (rows.length < EXPORT_PAGE_SIZE) break;
      afterId = rows[rows.length - 1]!.id;
      // The zip writer stops at a full buffer (pipe back-pressure); the next page waits until it drains.
      if (out.writableNeedDrain) await new Promise((resolve) => out.once('drain', resolve).once('close', resolve));
      if (out.destroyed) return;
    }
    sheet.commit();
    await workbook.commit();
  };
  produce().catch((err: unknown) => {
    deps.logger.error({ err, eventId }, 'attendee export failed');
    out.destroy(err as Error);
  });
  return Readable.toWeb(out) as ReadableStream<Uint8Array>;
}

/**
 * `definitions`: the event's custom fields in force (none in the free edition), one labelled
 * column each in CSV and XLSX; the JSON export keeps the answers in `customFields`. `ids`: only
 * these rows of the event (a selection, docs/api.md#attendees-in-bulk); every row without.
 */
export function exportAttendeesStream(
  deps: { db: Db; hooks: Hooks; logger: Logger },
  eventId: number,
  format: ExportFormat,
  definitions: readonly CustomFieldDefinition[] = [],
  ids?: readonly number[],
): ReadableStream<Uint8Array> {
  if (format === 'xlsx') return exportXlsxStream(deps, eventId, definitions, ids);
  const repo = attendeesRepository(deps.db);
  const encoder = new TextEncoder();
  let afterId = 0;
  let columns: Column[] | null = null;
  let first = true;
  let done = false;
  let categorized: Promise<boolean> | undefined;
  const withCategory = () => (categorized ??= ticketsRepository(deps.db).eventHasCategories(eventId));

  async function nextPage(): Promise<Record<string, unknown>[] | null> {
    const rows: AttendeeRecord[] = await repo.pageOfEvent(eventId, afterId, EXPORT_PAGE_SIZE, ids);
    if (rows.length === 0) return null;
    afterId = rows[rows.length - 1]!.id;
    return exportItems(deps, rows, await withCategory());
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
              columns = columnsOf(items ?? [], definitions, await withCategory());
              chunk += UTF8_BOM + csvLine(columns.map((c) => c.header));
            }
            for (const item of items ?? []) chunk += csvLine(columns.map((c) => c.cell(item)));
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
