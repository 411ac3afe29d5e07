/**
 * The forms a paid ticket is kept in (issue "tickets people keep"), in real Chromium against the
 * extended edition with the local provider, Wallet certificates made with openssl and a real
 * SMTP server: a visitor signs up for two tickets, pays, and `/pay/{id}` becomes their ticket
 * page. From it: the PDF ticket, whose QR zbarimg decodes to the code the door accepts; the
 * receipt, read back with pdftotext; the Apple Wallet pass, whose signature openssl verifies;
 * the Google Calendar link, whose parameters name the event. With the clock moved to a day
 * before the start, the reminder mail goes out, and not a minute earlier.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { queryRows } from '../../server/db/client';
import { disableIpThrottle, uniqueEmail } from '../helpers/booking';
import { addCategory } from '../helpers/categories';
import { useE2e } from '../helpers/e2e';
import { createEvent } from '../helpers/registration';
import { startSmtpServer, type ReceivedMail } from '../helpers/smtp';
import { isTrpcMutation, phoneProfile, waitShowing } from '../helpers/visitor-e2e';
import { makeWalletCertificates, unpackPass, verifyPassSignature } from '../helpers/wallet';

const scratch = mkdtempSync(path.join(tmpdir(), 'svc-kept-e2e-'));
const certs = makeWalletCertificates(scratch);
const smtp = await startSmtpServer();
afterAll(() => smtp.close());

// SVC_JOBS stays on (the default): the local provider's webhook and the mails are processed by jobs.
const e2e = useE2e({
  env: { SVC_EDITION: 'extended', SMTP_URL: smtp.url, SVC_MAIL_FROM: 'svc <noreply@example.test>', ...certs.env },
  login: true,
  context: phoneProfile({ timezoneId: 'Europe/Berlin' }),
});
const cleanups: Array<() => void> = [];
beforeAll(async () => {
  const hooks = e2e.server.server.ctx.hooks;
  cleanups.push(disableIpThrottle(hooks));
  const noIp = () => '';
  hooks.addFilter('svc_rsvp_client_ip', noIp, 50);
  cleanups.push(() => hooks.removeFilter('svc_rsvp_client_ip', noIp, 50));
  const settings = { currency: 'EUR', sellerName: 'Hafen Kultur GmbH', sellerAddress: 'Kaistraße 1\n20457 Hamburg', sellerTaxId: 'DE123456789' };
  expect((await e2e.admin.api.patch('/settings', settings)).status).toBe(200);
});
afterAll(() => {
  for (const cleanup of cleanups) cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

/** `Y-m-d 18:00:00` UTC, `days` from today. */
function startInDays(days: number): string {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + days);
  return `${d.toISOString().slice(0, 10)} 18:00:00`;
}
const msOf = (utc: string) => Date.parse(`${utc.replace(' ', 'T')}Z`);
/** `2026-12-07 18:00:00` → `20261207T180000Z`, as calendar links write a UTC time. */
const compact = (utc: string) => `${utc.replace(/[-:]/g, '').replace(' ', 'T')}Z`;

async function download(page: Page, href: string | null): Promise<{ status: number; type: string | null; body: Buffer }> {
  const res = await fetch(new URL(href!, page.url()));
  return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
}

let files = 0;
function saved(body: Buffer, ext: string): string {
  const file = path.join(scratch, `file-${++files}.${ext}`);
  writeFileSync(file, body);
  return file;
}

const remindersTo = (email: string): ReceivedMail[] => smtp.received.filter((m) => m.to.includes(email) && /^Subject: Reminder: Harbour concert/m.test(m.raw));

describe('a paid ticket in every form it is kept in', () => {
  test('sign up, pay, the tickets on /pay; the PDF’s QR decodes to the code, the receipt reads back, the pass verifies, the Google link names the event, the reminder comes a day before', async () => {
    const startsUtc = startInDays(10);
    const endsUtc = startsUtc.replace('18:00:00', '21:00:00');
    const event = await createEvent(e2e.admin.api, {
      title: 'Harbour concert',
      startsUtc,
      endsUtc,
      timezone: 'Europe/Berlin',
      venue: 'Hafenhalle, Hamburg',
      capacity: 50,
      maxPerSignup: 5,
    });
    expect(event.reminderMinutes).toBe(1440);
    await addCategory(e2e.admin.api, event.id, { name: 'Standard', priceCents: 2500, taxRateBp: 1900, taxMode: 'included' });
    const email = uniqueEmail('kept');

    // sign up for two tickets and pay
    const page = await e2e.openPage(`/events/${event.id}`);
    await page.getByRole('heading', { level: 1, name: 'Harbour concert' }).waitFor();
    await page.getByLabel('Your name').fill('Hanna Hafen');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Standard').fill('2');
    const [signup] = await Promise.all([
      // the app holds the post until the form token is 3 s old (the server's minimum fill time)
      page.waitForResponse((r) => isTrpcMutation(r, 'attendees.signup'), { timeout: 15_000 }),
      page.getByRole('button', { name: 'Continue to payment' }).click(),
    ]);
    expect(signup.status()).toBe(200);
    await page.waitForURL((url) => url.pathname.startsWith('/pay/'));
    await page.getByRole('button', { name: 'Pay €50.00' }).click();

    // the payer's page is now the ticket page
    await waitShowing(page, page.getByRole('heading', { level: 2, name: 'Your tickets' }), 'the tickets after paying');
    await waitShowing(page, page.locator('.paid-tickets img.v-ticket-qr').nth(1), 'the second ticket’s QR');
    const rows = await queryRows<{ ticket_code: string }>(
      e2e.db(),
      sql`select ticket_code from svc_attendees where event_id = ${event.id} and email = ${email} and status = 'going' order by id`,
    );
    expect(rows).toHaveLength(2);
    const codes = rows.map((r) => r.ticket_code);
    expect(await page.locator('.paid-tickets .v-ticket-code').allInnerTexts()).toEqual(codes);

    // the PDF ticket: its QR decodes to the code the door accepts
    const pdf = await download(page, await page.locator('.paid-tickets a.v-ticket-pdf').first().getAttribute('href'));
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    const pdfFile = saved(pdf.body, 'pdf');
    execFileSync('pdftoppm', ['-r', '150', '-png', '-singlefile', pdfFile, pdfFile.replace(/\.pdf$/, '')]);
    const decoded = execFileSync('zbarimg', ['-q', '--raw', pdfFile.replace(/\.pdf$/, '.png')], { encoding: 'utf8' }).trim();
    expect(decoded).toBe(codes[0]);

    // the receipt: seller, a number, the lines, the tax and the total, read back from the PDF
    await waitShowing(page, page.getByRole('link', { name: 'Receipt (PDF)' }), 'the receipt link');
    const receipt = await download(page, await page.getByRole('link', { name: 'Receipt (PDF)' }).getAttribute('href'));
    expect(receipt.status).toBe(200);
    const receiptText = execFileSync('pdftotext', ['-layout', saved(receipt.body, 'pdf'), '-'], { encoding: 'utf8' });
    for (const expected of ['Hafen Kultur GmbH', 'DE123456789', 'Hanna Hafen', 'Standard', '€50.00', '19']) expect(receiptText).toContain(expected);
    expect(receiptText).toMatch(/R-\d{6}/);

    // the Apple Wallet pass: the code as its QR, signed so that openssl verifies it
    const pass = await download(page, await page.locator('.paid-tickets a.v-ticket-wallet').first().getAttribute('href'));
    expect(pass.status).toBe(200);
    expect(pass.type).toBe('application/vnd.apple.pkpass');
    const unpacked = unpackPass(scratch, pass.body);
    const passJson = JSON.parse(unpacked.files.get('pass.json')!.toString('utf8'));
    expect(passJson.barcodes[0].message).toBe(codes[0]);
    const verified = verifyPassSignature(certs.root, path.join(unpacked.dir, 'signature'), path.join(unpacked.dir, 'manifest.json'));
    expect(verified.stderr).toContain('Verification successful');
    expect(verified.ok).toBe(true);

    // the Google Calendar link opens the composer with the event's title, times and place
    const google = new URL((await page.locator('.paid-tickets [data-calendar="google"]').first().getAttribute('href'))!);
    expect(google.searchParams.get('action')).toBe('TEMPLATE');
    expect(google.searchParams.get('text')).toBe('Harbour concert');
    expect(google.searchParams.get('dates')).toBe(`${compact(startsUtc)}/${compact(endsUtc)}`);
    expect(google.searchParams.get('location')).toBe('Hafenhalle, Hamburg');

    // the reminder: nothing a minute before the day-ahead mark, then one per ticket, once
    const jobs = e2e.server.server.ctx.jobs;
    const dayBefore = msOf(startsUtc) - 24 * 3_600_000;
    await jobs.runDue(dayBefore - 60_000);
    await jobs.idle();
    expect(remindersTo(email)).toHaveLength(0);
    await jobs.runDue(dayBefore + 1000);
    await jobs.idle();
    const reminders = remindersTo(email);
    expect(reminders.length).toBeGreaterThan(0);
    expect(reminders.every((m) => m.raw.includes('Hafenhalle'))).toBe(true);
    await jobs.runDue(dayBefore + 3_600_000);
    await jobs.idle();
    expect(remindersTo(email)).toHaveLength(reminders.length);
  });
});
