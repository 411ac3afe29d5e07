/**
 * Exporting a selection (docs/api.md#attendees-in-bulk): POST /attendees/export takes the
 * selection a bulk action takes — the ticked ids, or every row the list's search matches — and
 * answers exactly those rows as CSV, XLSX or JSON.
 */
import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { createAttendee } from '../helpers/checkin';
import { loginAs } from '../helpers/http';
import { createEvent } from '../helpers/registration';
import { useTestServer } from '../helpers/test-server';

const { server: srv, admin, db } = useTestServer({ env: { SVC_JOBS: 'off' } });

function exportSelection(body: unknown, cookie = admin.cookie): Promise<Response> {
  return fetch(`${srv.url}/svc/v1/attendees/export`, {
    method: 'POST',
    headers: { cookie, origin: new URL(srv.url).origin, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function staffCookie(eventIds: number[]): Promise<string> {
  const email = `staff-${Math.random().toString(36).slice(2)}@example.test`;
  expect((await admin.api.post('/users', { email, role: 'staff', password: 'long enough password', eventIds })).status).toBe(201);
  return (await loginAs(srv.url, email, 'long enough password')).cookie;
}

/** The exported rows' ids, read back from the file in its own format. */
async function exportedIds(res: Response, format: 'csv' | 'json' | 'xlsx'): Promise<number[]> {
  expect(res.status).toBe(200);
  if (format === 'json') return ((await res.json()) as Array<{ id: number }>).map((r) => r.id);
  if (format === 'csv') {
    const [header, ...lines] = (await res.text())
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(header!.split(',')[0]).toBe('id');
    return lines.map((line) => Number(line.split(',')[0]));
  }
  const workbook = new ExcelJS.Workbook();
  // exceljs's typings predate Buffer's generic parameter
  await workbook.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as Parameters<typeof workbook.xlsx.load>[0]);
  const sheet = workbook.getWorksheet('Attendees')!;
  const ids: number[] = [];
  sheet.eachRow((row, n) => {
    if (n > 1) ids.push(Number(row.getCell(1).value));
  });
  return ids;
}

describe('POST /attendees/export', () => {
  it('exports exactly the 3 selected ids in CSV, XLSX and JSON, with the content type and a download name', async () => {
    const event = await createEvent(admin.api, { capacity: 100 });
    const rows = [];
    for (let i = 0; i < 6; i++) rows.push(await createAttendee(db(), event.id, { name: `Row ${i}` }));
    const chosen = [rows[4]!.id, rows[1]!.id, rows[2]!.id];
    const types = { csv: 'text/csv', json: 'application/json', xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' };
    for (const format of ['csv', 'xlsx', 'json'] as const) {
      const res = await exportSelection({ eventId: event.id, ids: chosen, format });
      expect(res.headers.get('content-type')).toContain(types[format]);
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="attendees-event-${event.id}-selection.${format}"`);
      expect(await exportedIds(res, format)).toEqual([...chosen].sort((a, b) => a - b));
    }
  });

  it('exports exactly the rows a search and status match, as "select all that match" means', async () => {
    const event = await createEvent(admin.api, { capacity: 100, waitlist: true });
    const other = await createEvent(admin.api, { capacity: 100 });
    const match1 = await createAttendee(db(), event.id, { name: 'Ada Match', status: 'waitlist' });
    await createAttendee(db(), event.id, { name: 'Ada Going' });
    const match2 = await createAttendee(db(), event.id, { name: 'Ada Second', status: 'waitlist' });
    await createAttendee(db(), event.id, { name: 'Bob Waiting', status: 'waitlist' });
    // the same name at another event stays out
    await createAttendee(db(), other.id, { name: 'Ada Elsewhere', status: 'waitlist' });
    for (const format of ['csv', 'xlsx', 'json'] as const) {
      const res = await exportSelection({ eventId: event.id, query: { search: 'ada', status: 'waitlist' }, format });
      expect(await exportedIds(res, format)).toEqual([match1.id, match2.id]);
    }
    // a query that matches nothing is an empty file, not an error
    expect(await exportedIds(await exportSelection({ eventId: event.id, query: { search: 'nobody' }, format: 'json' }), 'json')).toEqual([]);
  });

  it('answers 400 naming the problem for ids of another event, bad ids, or ids and query together, and 403 to staff of another event (its own staff may export)', async () => {
    const event = await createEvent(admin.api, { capacity: 100 });
    const other = await createEvent(admin.api, { capacity: 100 });
    const mine = await createAttendee(db(), event.id);
    const theirs = await createAttendee(db(), other.id);

    const foreign = await exportSelection({ eventId: event.id, ids: [mine.id, theirs.id], format: 'csv' });
    expect(foreign.status).toBe(400);
    expect(await foreign.json()).toMatchObject({ code: 'svc_invalid_param', data: { params: { ids: 'some ids are not attendees of this event' } } });

    const malformed = await exportSelection({ eventId: event.id, ids: [0, 'x'], format: 'csv' });
    expect(malformed.status).toBe(400);
    const malformedBody = (await malformed.json()) as { code: string; data: { params: Record<string, string> } };
    expect(malformedBody.code).toBe('svc_invalid_param');
    expect(Object.keys(malformedBody.data.params).some((k) => k.startsWith('ids'))).toBe(true);

    for (const body of [
      { eventId: event.id, format: 'csv' },
      { eventId: event.id, ids: [mine.id], query: { search: 'x' }, format: 'csv' },
    ]) {
      const both = await exportSelection(body);
      expect(both.status).toBe(400);
      expect(await both.json()).toMatchObject({ code: 'svc_invalid_param', data: { params: { ids: 'send ids or query (one of them)' } } });
    }

    const badFormat = await exportSelection({ eventId: event.id, ids: [mine.id], format: 'pdf' });
    expect(badFormat.status).toBe(400);
    expect(Object.keys(((await badFormat.json()) as { data: { params: object } }).data.params)).toEqual(['format']);

    const noEvent = await exportSelection({ eventId: 999_999, ids: [mine.id], format: 'csv' });
    expect(noEvent.status).toBe(400);
    expect(await noEvent.json()).toMatchObject({ data: { params: { eventId: 'no such event' } } });

    // staff export their own events' selections, as they export the whole event, and no other's
    const ownStaff = await staffCookie([event.id]);
    expect(await exportedIds(await exportSelection({ eventId: event.id, ids: [mine.id], format: 'json' }, ownStaff), 'json')).toEqual([mine.id]);
    const otherStaff = await staffCookie([other.id]);
    expect((await exportSelection({ eventId: event.id, ids: [mine.id], format: 'json' }, otherStaff)).status).toBe(403);
  });
});
