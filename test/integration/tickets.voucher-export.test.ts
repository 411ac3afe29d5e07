/**
 * The attendee export of an event with ticket categories names the code each ticket was bought
 * with (docs/api.md#tickets): `voucherCode` in CSV, XLSX and JSON beside the category — its
 * order's code, or its free sign-up's for every row of that sign-up — and empty without one.
 */
import ExcelJS from 'exceljs';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/http';
import { useTestServer } from '../helpers/test-server';
import { addCategory, addVoucher } from '../helpers/categories';
import { createEvent, resetThrottles, signUp, uniqueEmail } from '../helpers/registration';
import { paymentIdOf } from '../helpers/payments';

const { server: srv, admin, hooks } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off' } });
beforeAll(() => hooks().addFilter('svc_rsvp_client_ip', () => '', 50));
beforeEach(() => resetThrottles(srv));

/** A paid order with one code, a sign-up a set-price code made free (two rows), one without a code; the emails in that order. */
async function soldWithCodes() {
  const event = await createEvent(admin.api, { capacity: 20 });
  const standard = await addCategory(admin.api, event.id, { name: 'Standard', priceCents: 2500 });
  const companion = await addCategory(admin.api, event.id, { name: 'Companion', priceCents: 0 });
  await addVoucher(admin.api, event.id, { code: 'Friends20', kind: 'percent', value: 2000, categoryIds: [standard] });
  await addVoucher(admin.api, event.id, { code: 'Comp', kind: 'set_price', value: 0, categoryIds: [standard] });
  const buyer = uniqueEmail('buyer');
  const order = await signUp(srv, event.id, { email: buyer, tickets: [{ categoryId: standard, quantity: 1 }], voucher: 'FRIENDS20' });
  expect((await apiClient(srv.url).post(`/payments/local/${paymentIdOf(order.body.paymentUrl)}/pay`)).status).toBe(202);
  await srv.server.ctx.jobs.idle();
  const guest = uniqueEmail('guest');
  const comped = await signUp(srv, event.id, {
    email: guest,
    tickets: [
      { categoryId: standard, quantity: 1 },
      { categoryId: companion, quantity: 1 },
    ],
    voucher: 'comp',
  });
  expect(comped.body.tickets).toHaveLength(2);
  const plain = uniqueEmail('plain');
  expect((await signUp(srv, event.id, { email: plain, tickets: [{ categoryId: companion, quantity: 1 }] })).status).toBe(201);
  return {
    event,
    expected: [
      [buyer, 'Friends20'],
      [guest, 'Comp'],
      [guest, 'Comp'],
      [plain, ''],
    ],
  };
}

describe('the voucherCode column', () => {
  it('CSV: after ticketCategory, each ticket its order’s or its sign-up’s code as the organizer wrote it, empty without one', async () => {
    const { event, expected } = await soldWithCodes();
    const [header, ...lines] = ((await admin.api.get(`/attendees/export?eventId=${event.id}&format=csv`)).body as string)
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .filter((line) => line !== '')
      .map((line) => line.split(','));
    const code = header!.indexOf('voucherCode');
    // the extended edition's check-in columns follow: the filter's keys come after the category's
    expect(header![code - 1]).toBe('ticketCategory');
    const email = header!.indexOf('email');
    // the order's ticket row is made when it is paid: it comes first here, as it was paid before the others signed up
    expect(lines.map((cells) => [cells[email], cells[code]])).toEqual(expected);
  });

  it('XLSX: the same column and cells', async () => {
    const { event, expected } = await soldWithCodes();
    const res = await fetch(`${srv.url}/svc/v1/attendees/export?eventId=${event.id}&format=xlsx`, { headers: { cookie: admin.cookie } });
    expect(res.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    // exceljs's typings predate Buffer's generic parameter
    await workbook.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as Parameters<typeof workbook.xlsx.load>[0]);
    const sheet = workbook.getWorksheet('Attendees')!;
    const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
    const header = values(1);
    const code = header.indexOf('voucherCode');
    expect(header[code - 1]).toBe('ticketCategory');
    const email = header.indexOf('email');
    const rows = Array.from({ length: sheet.rowCount - 1 }, (_, i) => values(i + 2));
    // an empty cell is a hole in exceljs's row array
    expect(rows.map((row) => [row[email], row[code] ?? ''])).toEqual(expected);
  });

  it('JSON: each item carries voucherCode, null without one', async () => {
    const { event, expected } = await soldWithCodes();
    const items = (await admin.api.get(`/attendees/export?eventId=${event.id}&format=json`)).body as Array<{
      email: string;
      voucherCode: string | null;
      ticketCategory: unknown;
    }>;
    expect(items.map((item) => [item.email, item.voucherCode ?? ''])).toEqual(expected);
    expect(items.every((item) => item.ticketCategory !== undefined && item.voucherCode !== undefined)).toBe(true);
    expect(items.at(-1)!.voucherCode).toBeNull();
  });

  it('is not added to an event without categories', async () => {
    const plain = await createEvent(admin.api, { capacity: 5 });
    expect((await signUp(srv, plain.id)).status).toBe(201);
    const csv = ((await admin.api.get(`/attendees/export?eventId=${plain.id}&format=csv`)).body as string).replace(/^\uFEFF/, '').split('\r\n');
    expect(csv[0]!.split(',')).not.toContain('voucherCode');
    expect(csv[0]!.split(',')).not.toContain('ticketCategory');
    const [item] = (await admin.api.get(`/attendees/export?eventId=${plain.id}&format=json`)).body;
    expect(item).not.toHaveProperty('voucherCode');
  });
});
