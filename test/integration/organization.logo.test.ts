/**
 * The organization's logo heads every mail and every PDF ticket (docs/decisions/050-organization-identity.md):
 * a mail's HTML part shows the logo's small JPEG, attached inline (`cid:`) when the mail is sent,
 * its text part unchanged; the PDF ticket draws that JPEG beside the name. Without a logo, both
 * are as they were.
 */
import { execFileSync } from 'node:child_process';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { queueMail } from '../../server/mail/mailer';
import { attendeeRows, createEvent, resetThrottles, signUp, uniqueEmail } from '../helpers/registration';
import { mimeParts, startSmtpServer } from '../helpers/smtp';
import { useTestServer } from '../helpers/test-server';

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp?.close());

const { server: srv, admin, db, hooks } = useTestServer({ env: () => ({ SVC_JOBS: 'off', SMTP_URL: smtp.url, SVC_MAIL_FROM: 'svc <noreply@example.test>' }) });

beforeAll(async () => {
  hooks().addFilter('svc_rsvp_client_ip', () => '', 50);
  expect((await admin.api.put('/settings/organization', { name: 'Hafen Kultur', accentColor: '#0b5cad' })).status).toBe(200);
});
beforeEach(async () => {
  await resetThrottles(srv);
  await admin.api.delete('/settings/organization/logo');
});

/** Uploads a logo of `width` × `height` pixels; answers its hash. */
async function uploadLogo(width: number, height: number): Promise<string> {
  const png = await sharp({ create: { width, height, channels: 3, background: '#7a1f5c' } })
    .png()
    .toBuffer();
  const res = await fetch(`${srv.url}/svc/v1/settings/organization/logo`, {
    method: 'PUT',
    headers: { cookie: admin.cookie, origin: new URL(srv.url).origin, 'content-type': 'image/png' },
    body: new Blob([new Uint8Array(png)]),
  });
  expect(res.status).toBe(200);
  return /^\/media\/([0-9a-f]{32})-/.exec(((await res.json()) as { url: string }).url)![1]!;
}

async function storedJpeg(hash: string, width: number): Promise<Buffer> {
  const [row] = await queryRows<{ bytes: Buffer }>(
    db(),
    sql`select bytes from svc_image_variants where hash = ${hash} and width = ${width} and format = 'jpg'`,
  );
  return Buffer.from(row!.bytes);
}

/** The one mail the SMTP server received for `to`, raw. */
function receivedBy(to: string): string {
  const mails = smtp.received.filter((m) => m.to.includes(to));
  expect(mails).toHaveLength(1);
  return mails[0]!.raw;
}

/** Queues a plain mail, sends what is due and answers the mail the SMTP server received. */
async function sendOne(text: string) {
  const to = uniqueEmail('logo-mail');
  await queueMail(srv.server.ctx.db, { to, subject: 'Your booking', text, language: 'en' });
  await srv.server.ctx.jobs.runDue();
  return mimeParts(receivedBy(to));
}

describe('the logo in mails', () => {
  it('a mail queued before the logo was uploaded leaves with its 320-wide JPEG inline (cid), named by the header image with the name as alt and a fixed size; the text part is unchanged', async () => {
    const to = uniqueEmail('logo-early');
    await queueMail(srv.server.ctx.db, { to, subject: 'Your booking', text: 'See you soon', language: 'en' });
    // 800 × 200: WebP at 320 and 640, JPEG at 640 (link previews) and at 320 (mails, tickets)
    const hash = await uploadLogo(800, 200);
    await srv.server.ctx.jobs.runDue();
    const parts = mimeParts(receivedBy(to));

    const image = parts.find((p) => p.type === 'image/jpeg')!;
    expect(image).toBeDefined();
    expect(image.bytes.equals(await storedJpeg(hash, 320))).toBe(true);
    expect(image.headers.get('content-id')).toBe('<organization-logo@svc>');
    expect(image.headers.get('content-disposition')).toMatch(/^inline\b/);
    // the HTML and the image it names travel together
    expect(image.within).toContain('multipart/related');

    const html = parts.find((p) => p.type === 'text/html')!.text;
    // 320 × 80 shown 48 high: 192 × 48
    expect(html).toMatch(/<p style="[^"]*color: #0b5cad;"><img src="cid:organization-logo@svc" alt="Hafen Kultur" width="192" height="48" style="[^"]*"><\/p>/);
    expect(parts.find((p) => p.type === 'text/plain')!.text.trim()).toBe('See you soon');
  });

  it('a logo wider than tall is shown at most 200 wide, its aspect kept', async () => {
    await uploadLogo(1000, 100);
    const html = (await sendOne('Wide')).find((p) => p.type === 'text/html')!.text;
    // 320 × 32: 48 high would be 480 wide; 200 wide is 20 high
    expect(html).toMatch(/<img src="cid:organization-logo@svc" alt="Hafen Kultur" width="200" height="20"/);
  });

  it('a logo stored with only its largest JPEG (uploaded before logos had a small one) heads mails with that JPEG', async () => {
    const hash = await uploadLogo(800, 200);
    await queryRows(db(), sql`delete from svc_image_variants where hash = ${hash} and width = 320 and format = 'jpg'`);
    const image = (await sendOne('Older logo')).find((p) => p.type === 'image/jpeg')!;
    expect(image.bytes.equals(await storedJpeg(hash, 640))).toBe(true);
  });

  it('after the logo is removed a mail carries no image and its header is the name, as without a logo', async () => {
    await uploadLogo(400, 100);
    expect((await admin.api.delete('/settings/organization/logo')).status).toBe(204);
    const parts = await sendOne('No logo');
    expect(parts.map((p) => p.type)).toEqual(['text/plain', 'text/html']);
    const html = parts.find((p) => p.type === 'text/html')!.text;
    expect(html).toMatch(/<p style="[^"]*color: #0b5cad;">Hafen Kultur<\/p>/);
    expect(html).not.toContain('<img');
  });
});

/** The images of a PDF as `pdfimages -list` reads them: [width, height, encoding]. */
function pdfImages(pdf: Buffer): Array<[number, number, string]> {
  const lines = execFileSync('pdfimages', ['-list', '-'], { input: pdf }).toString('utf8').trim().split('\n').slice(2);
  return lines.map((line) => {
    const cells = line.trim().split(/\s+/);
    // page num type width height color comp bpc enc …
    return [Number(cells[3]), Number(cells[4]), cells[8]!];
  });
}

async function ticketOf(title: string): Promise<Buffer> {
  const event = await createEvent(admin.api, { title, capacity: 20 });
  const email = uniqueEmail('logo-ticket');
  expect((await signUp(srv, event.id, { email })).status).toBe(201);
  const row = (await attendeeRows(srv, event.id)).find((r) => r.email === email)!;
  const res = await fetch(`${srv.url}/svc/v1/tickets/${row.cancel_token}/ticket.pdf`);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

describe('the logo on the PDF ticket', () => {
  it('a ticket rendered after a logo upload draws its 320-wide JPEG, and the name stays as text', async () => {
    await uploadLogo(800, 200);
    const pdf = await ticketOf('Logo night');
    expect(pdfImages(pdf)).toEqual([[320, 80, 'jpeg']]);
    expect(execFileSync('pdftotext', ['-', '-'], { input: pdf }).toString('utf8')).toContain('Hafen Kultur');
  });

  it('a ticket without a logo has no image', async () => {
    const pdf = await ticketOf('Plain night');
    expect(pdfImages(pdf)).toEqual([]);
  });
});
