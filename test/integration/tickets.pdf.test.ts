/**
 * The PDF ticket (docs/api.md#pdf-ticket): `GET /tickets/{cancelToken}/ticket.pdf` answers an A4
 * PDF whose text (pdftotext) names the organization, the event, the category, the attendee and
 * the time in the event's zone, in the language the attendee signed up in, and whose QR
 * (pdftoppm, then zbarimg) is the code the door admits; waitlisted, cancelled and unknown tokens
 * get none; the ticket mail carries it as ticket.pdf.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { formatWhen } from '../../shared/time-format';
import { addCategory } from '../helpers/categories';
import { attendeeRows, createEvent, resetThrottles, signUp, uniqueEmail } from '../helpers/registration';
import { useTestServer } from '../helpers/test-server';
import { apiClient } from '../helpers/http';

const { server: srv, admin, hooks } = useTestServer({ env: { SVC_JOBS: 'off', SVC_PUBLIC_URL: 'https://tickets.example.test' } });
const scratch = mkdtempSync(path.join(tmpdir(), 'svc-pdf-'));

beforeAll(async () => {
  hooks().addFilter('svc_rsvp_client_ip', () => '', 50);
  expect((await admin.api.patch('/settings', { sellerName: 'Leeds Arts Club' })).status).toBe(200);
});
beforeEach(async () => {
  await resetThrottles(srv);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const pdfUrl = (token: string) => `${srv.url}/svc/v1/tickets/${token}/ticket.pdf`;

/** The page's text as pdftotext reads it, lines joined by single spaces (without the direction marks it adds around runs). */
function textOf(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-', '-'], { input: pdf })
    .toString('utf8')
    .replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

let files = 0;
/** What a phone's camera reads off the printed page: the page at 150 dpi, then zbar. */
function qrOf(pdf: Buffer): string {
  const base = path.join(scratch, `ticket-${++files}`);
  writeFileSync(`${base}.pdf`, pdf);
  execFileSync('pdftoppm', ['-png', '-r', '150', '-singlefile', `${base}.pdf`, base]);
  return execFileSync('zbarimg', ['--raw', '-q', `${base}.png`])
    .toString('utf8')
    .trim();
}

async function download(token: string) {
  const res = await fetch(pdfUrl(token));
  return { res, body: Buffer.from(await res.arrayBuffer()) };
}

/** A sign-up's row (with its secrets, as the mail has them). */
async function rowOf(eventId: number, email: string) {
  return (await attendeeRows(srv, eventId)).find((r) => r.email === email)!;
}

async function berlinEvent(title: string, overrides: Record<string, unknown> = {}) {
  return createEvent(admin.api, {
    title,
    venue: 'Corn Exchange',
    timezone: 'Europe/Berlin',
    startsUtc: '2099-05-01 18:00:00',
    endsUtc: '2099-05-01 20:00:00',
    capacity: 50,
    ...overrides,
  });
}

describe('GET /svc/v1/tickets/{cancelToken}/ticket.pdf', () => {
  it('answers an A4 PDF download, not cached, naming organization, event, category, attendee, seats, venue and the zone-named time; its QR is the code the door admits', async () => {
    const event = await berlinEvent('Spring gala');
    const balcony = await addCategory(admin.api, event.id, { name: 'Balcony', priceCents: 0 });
    const email = uniqueEmail('pdf-en');
    const signed = await signUp(
      srv,
      event.id,
      { email, display_name: 'Ada Lovelace', tickets: [{ categoryId: balcony, quantity: 2 }] },
      { headers: { 'accept-language': 'en' } },
    );
    expect(signed.status).toBe(201);
    const row = await rowOf(event.id, email);

    const { res, body } = await download(row.cancel_token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="ticket.pdf"');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(body.subarray(0, 5).toString()).toBe('%PDF-');
    // one A4 page (595 × 842 pt)
    const info = execFileSync('pdfinfo', ['-'], { input: body }).toString();
    expect(info).toMatch(/Pages:\s+1\n/);
    expect(info).toMatch(/Page size:\s+595\.28 x 841\.89 pts \(A4\)/);

    const text = textOf(body);
    expect(text).toContain('Leeds Arts Club');
    expect(text).toContain('Spring gala');
    expect(text).toContain('Balcony');
    expect(text).toContain('Ada Lovelace');
    expect(text).toContain('2 seats');
    expect(text).toContain('Corn Exchange');
    const when = formatWhen({ startUtc: '2099-05-01 18:00:00', endUtc: '2099-05-01 20:00:00', zone: 'Europe/Berlin', locale: 'en' }).place;
    expect(when).toBe('Fri 1 May 2099, 20:00–22:00 CEST (Berlin)');
    expect(text).toContain(when);
    // in stream order: the default reading order drops a hyphen that ends a line, and a code may end in one
    expect(execFileSync('pdftotext', ['-raw', '-', '-'], { input: body }).toString('utf8')).toContain(row.ticket_code);
    // the link as printed (a line cut in it would read as a space)
    expect(text.replace(/ /g, '')).toContain(`https://tickets.example.test/cancel/${row.cancel_token}`);

    const code = qrOf(body);
    expect(code).toBe(row.ticket_code);
    const checkin = await admin.api.post('/checkins', { ticketCode: code, eventId: event.id });
    expect(checkin.status).toBe(201);
    expect(checkin.body.verdict).toBe('ok');
  });

  it('is written in the language the attendee signed up in: German labels and the German clock', async () => {
    const event = await berlinEvent('Frühlingsgala');
    const email = uniqueEmail('pdf-de');
    expect((await signUp(srv, event.id, { email, display_name: 'Jürgen Weiß' }, { headers: { 'accept-language': 'de-DE,de;q=0.9' } })).status).toBe(201);
    const row = await rowOf(event.id, email);
    expect(row.language).toBe('de');

    const { res, body } = await download(row.cancel_token);
    expect(res.status).toBe(200);
    const text = textOf(body);
    const when = formatWhen({ startUtc: '2099-05-01 18:00:00', endUtc: '2099-05-01 20:00:00', zone: 'Europe/Berlin', locale: 'de' }).place;
    expect(when).toBe('Fr., 1. Mai 2099, 20:00–22:00 Uhr CEST (Berlin)');
    for (const expected of ['Leeds Arts Club', 'Frühlingsgala', 'Jürgen Weiß', when, 'Wann', 'Wo', 'Ticketcode', '1 Platz', 'Ticket ändern oder stornieren:']) {
      expect(text).toContain(expected);
    }
    expect(qrOf(body)).toBe(row.ticket_code);
  });

  it('is written right to left in Arabic, its letters shaped and in reading order as pdftotext reads them back, with the QR unchanged', async () => {
    const event = await berlinEvent('أمسية موسيقية');
    const category = await addCategory(admin.api, event.id, { name: 'شرفة', priceCents: 0 });
    const email = uniqueEmail('pdf-ar');
    const signed = await signUp(
      srv,
      event.id,
      { email, display_name: 'Ada Lovelace', tickets: [{ categoryId: category, quantity: 1 }] },
      { headers: { 'accept-language': 'ar' } },
    );
    expect(signed.status).toBe(201);
    const row = await rowOf(event.id, email);
    expect(row.language).toBe('ar');

    const { res, body } = await download(row.cancel_token);
    expect(res.status).toBe(200);
    const text = textOf(body);
    // Arabic words come back in reading order only if they were shaped and laid right to left
    // (the zone's brackets are neutral: pdftotext reads them back mirrored around the Latin run, so its words are checked alone)
    for (const expected of ['أمسية موسيقية', 'شرفة', 'رمز التذكرة', 'نوع التذكرة', 'المكان', 'Ada Lovelace', 'Leeds Arts Club', 'CEST', 'Berlin', 'الجمعة']) {
      expect(text).toContain(expected);
    }
    // the lines start at the right margin: the Arabic label's glyphs sit right of the page's middle
    const bbox = execFileSync('pdftotext', ['-bbox', '-', '-'], { input: body }).toString('utf8');
    // -bbox lists each word's glyphs in page order, so the Arabic word reads backwards there
    const label = new RegExp(`<word xMin="([\\d.]+)"[^>]*>${Array.from('المكان').reverse().join('')}</word>`).exec(bbox);
    expect(label).not.toBeNull();
    expect(Number(label![1])).toBeGreaterThan(595.28 / 2);
    expect(qrOf(body)).toBe(row.ticket_code);
  });

  it('names "svc" as the organization while Settings name no seller', async () => {
    expect((await admin.api.patch('/settings', { sellerName: '' })).status).toBe(200);
    try {
      const event = await berlinEvent('Plain night');
      const email = uniqueEmail('pdf-svc');
      await signUp(srv, event.id, { email });
      const text = textOf((await download((await rowOf(event.id, email)).cancel_token)).body);
      expect(text.startsWith('svc ')).toBe(true);
    } finally {
      await admin.api.patch('/settings', { sellerName: 'Leeds Arts Club' });
    }
  });

  it('refuses a waitlisted attendee (409 svc_ticket_waitlist), a cancelled one (409 svc_ticket_cancelled) and an unknown token (404), never echoing the token', async () => {
    const event = await berlinEvent('Tiny room', { capacity: 1, waitlist: true });
    const first = uniqueEmail('pdf-first');
    const second = uniqueEmail('pdf-second');
    await signUp(srv, event.id, { email: first });
    await signUp(srv, event.id, { email: second });
    const going = await rowOf(event.id, first);
    const waiting = await rowOf(event.id, second);
    expect(waiting.status).toBe('waitlist');

    const refused = async (token: string, status: number, code: string) => {
      const res = await fetch(pdfUrl(token));
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const raw = await res.text();
      expect(JSON.parse(raw)).toMatchObject({ code, data: { status } });
      expect(raw).not.toContain(token);
    };
    await refused(waiting.cancel_token, 409, 'svc_ticket_waitlist');
    expect((await admin.api.post(`/attendees/cancel/${going.cancel_token}`)).status).toBe(200);
    await refused(going.cancel_token, 409, 'svc_ticket_cancelled');
    await refused('x'.repeat(64), 404, 'svc_not_found');
    // the same length and alphabet as a real token, one character off
    const oneOff = (waiting.cancel_token[0] === 'A' ? 'B' : 'A') + waiting.cancel_token.slice(1);
    await refused(oneOff, 404, 'svc_not_found');
  });
});

describe('the OpenAPI document', () => {
  it('lists both PDF routes as application/pdf answers with their refusals', async () => {
    const doc = (await apiClient(srv.url).get('/openapi.json')).body as { paths: Record<string, Record<string, { responses: Record<string, any> }>> };
    for (const template of ['/tickets/{cancelToken}/ticket.pdf', '/tickets/signed/{ticketPdfToken}/ticket.pdf']) {
      const key = Object.keys(doc.paths).find((k) => k.endsWith(template));
      expect(key).toBeDefined();
      const op = doc.paths[key!]!.get!;
      expect(Object.keys(op.responses['200'].content)).toEqual(['application/pdf']);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '404', '409']));
    }
  });
});

describe('GET /svc/v1/tickets/signed/{ticketPdfToken}/ticket.pdf (the sign-up page)', () => {
  it('answers the same ticket with the key of the sign-up answer, without the cancel link; a tampered key is 404', async () => {
    const event = await berlinEvent('Answer night');
    const email = uniqueEmail('pdf-signed');
    const signed = await signUp(srv, event.id, { email, display_name: 'Grace Hopper' });
    expect(signed.status).toBe(201);
    const key = signed.body.ticketPdfToken as string;
    expect(key).toMatch(/^\d+\.[0-9a-f]{32}$/);
    const row = await rowOf(event.id, email);
    expect(key).not.toContain(row.cancel_token);

    const res = await fetch(`${srv.url}/svc/v1/tickets/signed/${key}/ticket.pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const body = Buffer.from(await res.arrayBuffer());
    const text = textOf(body);
    expect(text).toContain('Answer night');
    expect(text).toContain('Grace Hopper');
    expect(text).toContain('The link to change or cancel your ticket is in your confirmation email.');
    expect(text).not.toContain(row.cancel_token);
    expect(body.includes(Buffer.from(row.cancel_token))).toBe(false);
    expect(qrOf(body)).toBe(row.ticket_code);

    const tampered = key.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    expect((await fetch(`${srv.url}/svc/v1/tickets/signed/${tampered}/ticket.pdf`)).status).toBe(404);
    // another row's id under this signature
    const [id, mac] = key.split('.');
    expect((await fetch(`${srv.url}/svc/v1/tickets/signed/${Number(id) + 1}.${mac}/ticket.pdf`)).status).toBe(404);
  });
});

describe('the ticket mail', () => {
  it('carries ticket.pdf, stored as a name in the outbox and rendered when sent: the .eml holds the PDF, whose QR is the ticket code', async () => {
    const event = await berlinEvent('Mail night');
    const email = uniqueEmail('pdf-mail');
    await signUp(srv, event.id, { email, display_name: 'Mary Somerville' });
    const row = await rowOf(event.id, email);
    const [stored] = await queryRows<{ id: number; text: string; attachments: Array<{ filename: string; contentType: string; content: string }> }>(
      srv.server.ctx.db,
      sql`select id, text, attachments from svc_outbox where to_address = ${email}`,
    );
    expect(stored!.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['ticket.png', 'image/png'],
      ['event.ics', 'text/calendar; charset=utf-8; method=REQUEST'],
      ['ticket.pdf', 'application/pdf'],
    ]);
    // the row keeps what to render, not the file
    expect(stored!.attachments[2]!.content).toBe('');
    expect(stored!.text).toContain('ticket.pdf');
    const listed = await admin.api.get(`/outbox?to=${encodeURIComponent(email)}`);
    expect(listed.body[0].attachments).toContainEqual({ filename: 'ticket.pdf', contentType: 'application/pdf' });

    await srv.server.ctx.jobs.runDue();
    const eml = readFileSync(path.join(srv.dataDir, 'mail', `${stored!.id}.eml`), 'utf8');
    const part = /Content-Type: application\/pdf; name=ticket\.pdf\r?\n(?:[^\r\n]+\r?\n)*\r?\n([A-Za-z0-9+/=\r\n]+)/.exec(eml);
    expect(part).not.toBeNull();
    const pdf = Buffer.from(part![1]!.replace(/\s+/g, ''), 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(textOf(pdf)).toContain('Mary Somerville');
    expect(qrOf(pdf)).toBe(row.ticket_code);
  });

  it('leaves the PDF out when the ticket was cancelled before the mail went out; the mail still goes', async () => {
    const event = await berlinEvent('Changed mind');
    const email = uniqueEmail('pdf-gone');
    await signUp(srv, event.id, { email });
    const row = await rowOf(event.id, email);
    expect((await admin.api.post(`/attendees/cancel/${row.cancel_token}`)).status).toBe(200);
    await srv.server.ctx.jobs.runDue();
    const [stored] = await queryRows<{ id: number; state: string }>(srv.server.ctx.db, sql`select id, state from svc_outbox where to_address = ${email}`);
    expect(stored!.state).toBe('saved');
    const eml = readFileSync(path.join(srv.dataDir, 'mail', `${stored!.id}.eml`), 'utf8');
    expect(eml).toMatch(/name=ticket\.png/);
    expect(eml).not.toMatch(/application\/pdf/);
  });
});
