/**
 * Receipts and credit notes of paid orders (docs/api.md#receipts, docs/decisions/037-receipts.md):
 * a paid order's receipt (seller from Settings, number, lines, tax per rate, total, payment date
 * and method) is downloaded by the administrator and through the payer's link, read back with
 * pdftotext; the payment's mail carries it as receipt.pdf; a refund issues a credit note with the
 * next number, mailed with the refund; Settings edited later leave issued documents as they were.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { addCategory, addVoucher } from '../helpers/categories';
import { apiClient, loginAs } from '../helpers/http';
import { outboxTo, paymentIdOf } from '../helpers/payments';
import { createEvent, resetThrottles, signUp, uniqueEmail } from '../helpers/registration';
import { useTestServer } from '../helpers/test-server';

const { server: srv, admin, hooks } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off', SVC_PUBLIC_URL: 'https://tickets.example.test' } });
const visitor = () => apiClient(srv.url);
const idle = () => srv.server.ctx.jobs.idle();

const SELLER = { sellerName: 'Leeds Arts Club Ltd', sellerAddress: '12 Park Row\nLeeds LS1 5HD', sellerTaxId: 'GB123456789' };

beforeAll(async () => {
  hooks().addFilter('svc_rsvp_client_ip', () => '', 50);
  expect((await admin.api.patch('/settings', { ...SELLER, currency: 'GBP' })).status).toBe(200);
});
beforeEach(async () => {
  await resetThrottles(srv);
});

/** The page's text as pdftotext reads it row by row (its layout mode), runs of spaces and lines joined by single spaces. */
function textOf(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-layout', '-', '-'], { input: pdf })
    .toString('utf8')
    .replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A GET as the administrator (signed in) or, `asAdmin` false, as anyone. */
async function download(url: string, asAdmin = true) {
  const res = await fetch(url, { headers: asAdmin ? { cookie: admin.cookie } : {} });
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

/** A paid order of two ticket types (one taxed at 20 % included, one at 5 % added) with a 10 % code, in `language`. */
async function paidOrder(language = 'en') {
  const event = await createEvent(admin.api, { title: 'Winter concert', capacity: 50, timezone: 'Europe/London' });
  const stalls = await addCategory(admin.api, event.id, { name: 'Stalls', priceCents: 2400, taxRateBp: 2000, taxMode: 'included' });
  const balcony = await addCategory(admin.api, event.id, { name: 'Balcony', priceCents: 1000, taxRateBp: 500, taxMode: 'added' });
  await addVoucher(admin.api, event.id, { code: 'FRIENDS', kind: 'percent', value: 1000 });
  const email = uniqueEmail('buyer');
  const res = await signUp(
    srv,
    event.id,
    {
      email,
      display_name: 'Ada Lovelace',
      voucher: 'FRIENDS',
      tickets: [
        { categoryId: stalls, quantity: 2 },
        { categoryId: balcony, quantity: 1 },
      ],
    },
    { headers: { 'accept-language': language } },
  );
  expect(res.status).toBe(201);
  const paymentId = paymentIdOf(res.body.paymentUrl);
  expect((await visitor().post(`/payments/local/${paymentId}/pay`)).status).toBe(202);
  await idle();
  const order = (await admin.api.get(`/orders/${res.body.orderId}`)).body;
  expect(order.status).toBe('paid');
  return { orderId: res.body.orderId as number, paymentId, email, order };
}

async function documents() {
  return queryRows<{ order_id: number; kind: string; number: number }>(
    srv.server.ctx.db,
    sql`select order_id, kind, number from svc_order_documents order by number`,
  );
}

describe('a paid order’s receipt', () => {
  it('is issued with the payment: the administrator and the payer download the same PDF naming seller, number, lines, taxes per rate, total, payment date and method', async () => {
    const before = (await documents()).length;
    const { orderId, paymentId, order } = await paidOrder();
    const issued = await documents();
    expect(issued).toHaveLength(before + 1);
    const number = issued.at(-1)!.number;
    const numberText = `R-${String(number).padStart(6, '0')}`;
    // stalls: 2 × 24.00 − 10 % = 43.20 gross (20 % included: net 36.00, tax 7.20);
    // balcony: 10.00 − 10 % = 9.00 net, 5 % added: tax 0.45, gross 9.45 (10.50 before the code); total 52.65
    expect(order).toMatchObject({ amountCents: 5265, taxCents: 765, netCents: 4500, currency: 'GBP' });
    // the order's page lists it, with the administrator's download
    expect(order.documents).toEqual([{ kind: 'receipt', number: numberText, issuedUtc: expect.any(String), url: `/svc/v1/orders/${orderId}/receipt.pdf` }]);

    const adminPdf = await download(`${srv.url}/svc/v1/orders/${orderId}/receipt.pdf`);
    expect(adminPdf.res.status).toBe(200);
    expect(adminPdf.res.headers.get('content-type')).toBe('application/pdf');
    expect(adminPdf.res.headers.get('content-disposition')).toBe('attachment; filename="receipt.pdf"');
    expect(adminPdf.res.headers.get('cache-control')).toBe('no-store');
    const text = textOf(adminPdf.body);
    for (const part of [
      'Leeds Arts Club Ltd',
      '12 Park Row',
      'Leeds LS1 5HD',
      'GB123456789',
      `Receipt ${numberText}`,
      '2 tickets Stalls: Winter concert £48.00',
      '1 ticket Balcony: Winter concert £10.50',
      'Code FRIENDS -£5.85',
      'Tax rate Net Tax Gross',
      '5% £9.00 £0.45 £9.45',
      '20% £36.00 £7.20 £43.20',
      'Total paid £52.65',
      'Payment method Online payment (local checkout)',
      `Order #${orderId}`,
      'Customer Ada Lovelace',
    ])
      expect(text).toContain(part);
    // the payment's date as the reader writes it, in the event's zone
    const paidOn = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'Europe/London' }).format(Date.parse(`${order.paidUtc.replace(' ', 'T')}Z`));
    expect(text).toContain(`Paid on ${paidOn}`);

    // the payer's link is on the /pay page's status, and answers the same document
    const checkout = await visitor().get(`/payments/checkout/${paymentId}`);
    expect(checkout.body).toMatchObject({
      receiptUrl: `https://tickets.example.test/svc/v1/payments/checkout/${paymentId}/receipt.pdf`,
      creditNoteUrl: null,
    });
    const payerPdf = await download(`${srv.url}/svc/v1/payments/checkout/${paymentId}/receipt.pdf`, false);
    expect(payerPdf.res.status).toBe(200);
    expect(textOf(payerPdf.body)).toBe(text);
  });

  it('is mailed with the payment: the order’s mail carries receipt.pdf, stored as a name and rendered when sent', async () => {
    const { email } = await paidOrder();
    const [mail] = await outboxTo(srv, email);
    expect(mail!.attachments.at(-1)).toMatchObject({ filename: 'receipt.pdf', contentType: 'application/pdf', content: '' });
    expect(mail!.text).toContain('Your receipt is attached as receipt.pdf.');
    await srv.server.ctx.jobs.runDue();
    const eml = readFileSync(path.join(srv.dataDir, 'mail', `${mail!.id}.eml`), 'utf8');
    const part = /Content-Type: application\/pdf; name=receipt\.pdf\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/.exec(eml);
    expect(part).not.toBeNull();
    const pdf = Buffer.from(part![1]!.replace(/\s+/g, ''), 'base64');
    expect(textOf(pdf)).toContain('Total paid £52.65');
  });

  it('is printed in the order’s language', async () => {
    const { orderId } = await paidOrder('de');
    const text = textOf((await download(`${srv.url}/svc/v1/orders/${orderId}/receipt.pdf`)).body);
    expect(text).toMatch(/Quittung R-\d{6}/);
    expect(text).toContain('Bezahlt gesamt');
    expect(text).toContain('52,65');
    expect(text).toContain('Online-Zahlung (lokale Kasse)');
  });

  it('is printed right to left in Arabic, with its number as written', async () => {
    const { orderId } = await paidOrder('ar');
    const text = textOf((await download(`${srv.url}/svc/v1/orders/${orderId}/receipt.pdf`)).body);
    expect(text).toMatch(/R-\d{6}/);
    expect(text).toContain('GB123456789');
    for (const word of ['إيصال', 'الضريبة', 'الصافي']) expect(text).toContain(word);
  });

  it('stays as issued when Settings change later', async () => {
    const { orderId } = await paidOrder();
    expect((await admin.api.patch('/settings', { sellerName: 'Renamed Club' })).status).toBe(200);
    try {
      const text = textOf((await download(`${srv.url}/svc/v1/orders/${orderId}/receipt.pdf`)).body);
      expect(text).toContain('Leeds Arts Club Ltd');
      expect(text).not.toContain('Renamed Club');
    } finally {
      await admin.api.patch('/settings', { sellerName: SELLER.sellerName });
    }
  });
});

describe('a refund', () => {
  it('issues a credit note with the next number, mailed as credit-note.pdf, downloadable by the administrator and the payer', async () => {
    const { orderId, paymentId, email } = await paidOrder();
    const receipt = (await documents()).find((d) => d.order_id === orderId && d.kind === 'receipt')!;
    expect((await admin.api.post(`/orders/${orderId}/refund`)).status).toBe(200);
    await idle();
    const all = await documents();
    const note = all.find((d) => d.order_id === orderId && d.kind === 'credit_note')!;
    expect(note.number).toBe(receipt.number + 1);
    expect((await admin.api.get(`/orders/${orderId}`)).body.documents.map((d: { number: string }) => d.number)).toEqual([
      `R-${String(receipt.number).padStart(6, '0')}`,
      `CN-${String(note.number).padStart(6, '0')}`,
    ]);
    expect(all.at(-1)).toEqual(note);
    const noteText = `CN-${String(note.number).padStart(6, '0')}`;
    const receiptText = `R-${String(receipt.number).padStart(6, '0')}`;

    const pdf = await download(`${srv.url}/svc/v1/orders/${orderId}/credit-note.pdf`);
    expect(pdf.res.status).toBe(200);
    expect(pdf.res.headers.get('content-disposition')).toBe('attachment; filename="credit-note.pdf"');
    const text = textOf(pdf.body);
    for (const part of [
      `Credit note ${noteText}`,
      `For receipt ${receiptText}`,
      '2 tickets Stalls: Winter concert -£48.00',
      '20% -£36.00 -£7.20 -£43.20',
      'Total refunded -£52.65',
      'Leeds Arts Club Ltd',
      'GB123456789',
    ])
      expect(text).toContain(part);

    const checkout = await visitor().get(`/payments/checkout/${paymentId}`);
    expect(checkout.body.creditNoteUrl).toBe(`https://tickets.example.test/svc/v1/payments/checkout/${paymentId}/credit-note.pdf`);
    expect(textOf((await download(checkout.body.creditNoteUrl.replace('https://tickets.example.test', srv.url), false)).body)).toBe(text);
    // the receipt stays downloadable
    expect((await download(`${srv.url}/svc/v1/orders/${orderId}/receipt.pdf`)).res.status).toBe(200);

    const mails = await outboxTo(srv, email);
    const refundMail = mails.find((m) => m.attachments.some((a) => a.filename === 'credit-note.pdf'))!;
    expect(refundMail.subject).toBe(`Your refund for order #${orderId}`);
    expect(refundMail.text).toContain(`The credit note ${noteText} is attached as credit-note.pdf.`);

    // a second refund changes nothing: no second credit note
    expect((await admin.api.post(`/orders/${orderId}/refund`)).status).toBe(409);
    expect((await documents()).filter((d) => d.order_id === orderId)).toHaveLength(2);
  });
});

describe('refused', () => {
  it('an unknown order, an order without a receipt, an unknown or malformed payment id: 404 svc_not_found', async () => {
    const { orderId } = await paidOrder();
    for (const url of [
      `/svc/v1/orders/999999/receipt.pdf`,
      `/svc/v1/orders/${orderId}/credit-note.pdf`,
      `/svc/v1/payments/checkout/${'x'.repeat(32)}/receipt.pdf`,
      `/svc/v1/payments/checkout/bad!/receipt.pdf`,
    ]) {
      const res = await fetch(`${srv.url}${url}`, { headers: url.startsWith('/svc/v1/orders') ? { cookie: admin.cookie } : {} });
      expect(res.status, url).toBe(404);
      expect((await res.json()).code, url).toBe('svc_not_found');
    }
    // an unpaid order has no receipt yet, and its payment link none either
    const event = await createEvent(admin.api, { priceCents: 1500, capacity: 5 });
    const held = await signUp(srv, event.id, {});
    const paymentId = paymentIdOf(held.body.paymentUrl);
    expect((await visitor().get(`/payments/checkout/${paymentId}`)).body).toMatchObject({ receiptUrl: null, creditNoteUrl: null });
    const res = await fetch(`${srv.url}/svc/v1/payments/checkout/${paymentId}/receipt.pdf`);
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe('svc_not_found');
  });

  it('the admin route to a visitor (401) and to staff (403)', async () => {
    const { orderId } = await paidOrder();
    const anonymous = await fetch(`${srv.url}/svc/v1/orders/${orderId}/receipt.pdf`);
    expect(anonymous.status).toBe(401);
    const staffEmail = uniqueEmail('staff');
    expect((await admin.api.post('/users', { email: staffEmail, role: 'staff', password: 'long enough password' })).status).toBe(201);
    const staff = await loginAs(srv.url, staffEmail, 'long enough password');
    const refused = await staff.api.get(`/orders/${orderId}/receipt.pdf`);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('svc_forbidden');
  });
});

describe('the OpenAPI document', () => {
  it('lists the four receipt routes as application/pdf answers with their 404', async () => {
    const doc = (await visitor().get('/openapi.json')).body as { paths: Record<string, Record<string, { responses: Record<string, any> }>> };
    for (const template of [
      '/orders/{id}/receipt.pdf',
      '/orders/{id}/credit-note.pdf',
      '/payments/checkout/{id}/receipt.pdf',
      '/payments/checkout/{id}/credit-note.pdf',
    ]) {
      const key = Object.keys(doc.paths).find((k) => k.endsWith(template));
      expect(key, template).toBeDefined();
      const op = doc.paths[key!]!.get!;
      expect(Object.keys(op.responses['200'].content)).toEqual(['application/pdf']);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '404']));
    }
  });
});
