/**
 * Apple Wallet passes (docs/api.md#wallet-pass): with `SVC_WALLET_*` certificates (made here with
 * openssl: a root, a "WWDR" intermediate and a Pass Type ID signer with an encrypted key), a
 * ticket's `.pkpass` carries pass.json (QR = the ticket code, relevant date = the start, a stable
 * serial number), icons, a manifest of every file's SHA-1 and a detached signature that
 * `openssl smime -verify` accepts against the root; a tampered manifest fails it. A confirmed
 * booking has its pass too. Without the certificates the routes answer 404
 * svc_wallet_unavailable and no payload says a pass exists.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { formatWhen } from '../../shared/time-format';
import { addCategory } from '../helpers/categories';
import { bookingBody, createHost, createType, disableIpThrottle, futureStart, submitBooking } from '../helpers/booking';
import { apiClient } from '../helpers/http';
import { attendeeRows, createEvent, resetThrottles, signUp, uniqueEmail } from '../helpers/registration';
import { useTestServer } from '../helpers/test-server';
import { makeWalletCertificates, TEST_PASS_TYPE_ID, TEST_TEAM_ID, unpackPass, verifyPassSignature } from '../helpers/wallet';

const scratch = mkdtempSync(path.join(tmpdir(), 'svc-wallet-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const certs = makeWalletCertificates(scratch);

const unpack = (pkpass: Buffer) => unpackPass(scratch, pkpass);
const verifySignature = (signature: string, manifest: string) => verifyPassSignature(certs.root, signature, manifest);

/** The app's own pass images (server/wallet/assets). */
const WALLET_ASSETS = path.join(import.meta.dirname, '../../server/wallet/assets');
const sha1 = (data: Buffer) => createHash('sha1').update(data).digest('hex');

describe('with SVC_WALLET_* certificates', () => {
  const {
    server: srv,
    admin,
    hooks,
    db,
  } = useTestServer({
    env: {
      SVC_JOBS: 'off',
      SVC_PUBLIC_URL: 'https://tickets.example.test',
      ...certs.env,
    },
  });

  beforeAll(async () => {
    hooks().addFilter('svc_rsvp_client_ip', () => '', 50);
    disableIpThrottle(hooks());
    expect((await admin.api.patch('/settings', { sellerName: 'Leeds Arts Club' })).status).toBe(200);
  });
  beforeEach(async () => {
    await resetThrottles(srv);
  });

  async function download(url: string) {
    const res = await fetch(url);
    return { res, body: Buffer.from(await res.arrayBuffer()) };
  }

  async function berlinEvent(title: string) {
    return createEvent(admin.api, {
      title,
      venue: 'Corn Exchange',
      timezone: 'Europe/Berlin',
      startsUtc: '2099-05-01 18:00:00',
      endsUtc: '2099-05-01 20:00:00',
      capacity: 50,
    });
  }

  it('a ticket’s pass: pkpass download, QR = ticket code, relevant date = start, stable serial, the ticket’s facts, manifest SHA-1s and a signature openssl verifies; a tampered manifest fails', async () => {
    const event = await berlinEvent('Spring gala');
    const balcony = await addCategory(admin.api, event.id, { name: 'Balcony', priceCents: 0 });
    const email = uniqueEmail('wallet-en');
    const signed = await signUp(
      srv,
      event.id,
      { email, display_name: 'Ada Lovelace', tickets: [{ categoryId: balcony, quantity: 2 }] },
      { headers: { 'accept-language': 'en' } },
    );
    expect(signed.status).toBe(201);
    // the page learns that a pass exists from the answer
    const answered = (signed.body.tickets ?? [signed.body])[0];
    expect(answered.walletAvailable).toBe(true);
    const row = (await attendeeRows(srv, event.id)).find((r) => r.email === email)!;

    const { res, body } = await download(`${srv.url}/svc/v1/tickets/${row.cancel_token}/ticket.pkpass`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.apple.pkpass');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="ticket.pkpass"');
    expect(res.headers.get('cache-control')).toBe('no-store');

    const { dir, files } = unpack(body);
    for (const name of ['pass.json', 'manifest.json', 'signature', 'icon.png']) expect(files.has(name), name).toBe(true);

    const pass = JSON.parse(files.get('pass.json')!.toString('utf8'));
    expect(pass).toMatchObject({ formatVersion: 1, passTypeIdentifier: TEST_PASS_TYPE_ID, teamIdentifier: TEST_TEAM_ID, organizationName: 'Leeds Arts Club' });
    expect(pass.description).toBe('Ticket: Spring gala');
    expect(pass.barcodes[0]).toMatchObject({ message: row.ticket_code, format: 'PKBarcodeFormatQR' });
    expect(new Date(pass.relevantDate).toISOString()).toBe('2099-05-01T18:00:00.000Z');
    expect(pass.serialNumber).toMatch(/^ticket-[0-9a-f]{32}$/);
    // a keyed hash of the row (no count of the rows shows), the same on the next download (below)
    const ticket = pass.eventTicket;
    expect(ticket.primaryFields).toEqual([{ key: 'event', value: 'Spring gala' }]);
    const when = formatWhen({ startUtc: '2099-05-01 18:00:00', endUtc: '2099-05-01 20:00:00', zone: 'Europe/Berlin', locale: 'en' }).place;
    expect(ticket.secondaryFields).toEqual([
      { key: 'when', label: 'When', value: when },
      { key: 'where', label: 'Where', value: 'Corn Exchange' },
    ]);
    expect(ticket.auxiliaryFields).toEqual([
      { key: 'category', label: 'Ticket type', value: 'Balcony' },
      { key: 'seats', label: 'Seats', value: '2 seats' },
    ]);
    const back = Object.fromEntries(ticket.backFields.map((f: { key: string; value: string }) => [f.key, f.value]));
    expect(back).toMatchObject({ name: 'Ada Lovelace', code: row.ticket_code, manage: `https://tickets.example.test/cancel/${row.cancel_token}` });

    // manifest.json: every other file, each with its SHA-1
    const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8')) as Record<string, string>;
    const listed = [...files.keys()].filter((n) => n !== 'manifest.json' && n !== 'signature').sort();
    expect(Object.keys(manifest).sort()).toEqual(listed);
    for (const [name, hash] of Object.entries(manifest)) expect(hash, name).toBe(sha1(files.get(name)!));

    const verified = verifySignature(path.join(dir, 'signature'), path.join(dir, 'manifest.json'));
    expect(verified.stderr).toContain('Verification successful');
    expect(verified.ok).toBe(true);

    const tampered = path.join(dir, 'manifest.tampered.json');
    writeFileSync(tampered, JSON.stringify({ ...manifest, 'pass.json': sha1(Buffer.from('another pass')) }));
    expect(verifySignature(path.join(dir, 'signature'), tampered).ok).toBe(false);

    const again = unpack((await download(`${srv.url}/svc/v1/tickets/${row.cancel_token}/ticket.pkpass`)).body);
    expect(JSON.parse(again.files.get('pass.json')!.toString('utf8')).serialNumber).toBe(pass.serialNumber);
  });

  it('with an organization logo, the pass’s logo.png and logo@2x.png are that logo fitted into 160 × 50 (and 320 × 100), listed in the signed manifest; without one, the app’s', async () => {
    const event = await berlinEvent('Logo night');
    const email = uniqueEmail('wallet-logo');
    expect((await signUp(srv, event.id, { email, display_name: 'Grace Hopper' })).status).toBe(201);
    const row = (await attendeeRows(srv, event.id)).find((r) => r.email === email)!;
    const passUrl = `${srv.url}/svc/v1/tickets/${row.cancel_token}/ticket.pkpass`;
    const logo = await sharp({ create: { width: 800, height: 200, channels: 3, background: '#c2410c' } })
      .png()
      .toBuffer();
    const logoUrl = `${srv.url}/svc/v1/settings/organization/logo`;
    const headers = { cookie: admin.cookie, origin: new URL(srv.url).origin };
    const put = await fetch(logoUrl, { method: 'PUT', headers: { ...headers, 'content-type': 'image/png' }, body: new Blob([new Uint8Array(logo)]) });
    expect(put.status).toBe(200);
    try {
      const { dir, files } = unpack((await download(passUrl)).body);
      const one = await sharp(files.get('logo.png')!).metadata();
      const two = await sharp(files.get('logo@2x.png')!).metadata();
      expect([one.format, one.width, one.height]).toEqual(['png', 160, 40]);
      expect([two.format, two.width, two.height]).toEqual(['png', 320, 80]);
      // the organization's orange, not the app icon's colours
      const { dominant } = await sharp(files.get('logo.png')!).stats();
      expect(dominant.r).toBeGreaterThan(150);
      const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8')) as Record<string, string>;
      expect(manifest['logo.png']).toBe(sha1(files.get('logo.png')!));
      expect(manifest['logo@2x.png']).toBe(sha1(files.get('logo@2x.png')!));
      expect(verifySignature(path.join(dir, 'signature'), path.join(dir, 'manifest.json')).ok).toBe(true);
    } finally {
      expect((await fetch(logoUrl, { method: 'DELETE', headers })).status).toBeLessThan(300);
    }
    const without = unpack((await download(passUrl)).body).files;
    expect(without.get('logo.png')!.equals(readFileSync(path.join(WALLET_ASSETS, 'logo.png')))).toBe(true);
  });

  it('the sign-up answer’s ticketPdfToken opens the same pass without the cancel link, in the attendee’s language; a bad key is 404', async () => {
    const event = await berlinEvent('Frühlingsfest');
    const signed = await signUp(srv, event.id, { email: uniqueEmail('wallet-de'), display_name: 'Grete' }, { headers: { 'accept-language': 'de' } });
    expect(signed.status).toBe(201);
    expect(signed.body.walletAvailable).toBe(true);
    const { res, body } = await download(`${srv.url}/svc/v1/tickets/signed/${signed.body.ticketPdfToken}/ticket.pkpass`);
    expect(res.status).toBe(200);
    const { files } = unpack(body);
    const pass = JSON.parse(files.get('pass.json')!.toString('utf8'));
    expect(pass.barcodes[0].message).toBe(signed.body.ticketCode);
    expect(pass.eventTicket.secondaryFields[0].label).toBe('Wann');
    const back = Object.fromEntries(pass.eventTicket.backFields.map((f: { key: string; value: string }) => [f.key, f.value]));
    expect(back.manage).not.toContain('/cancel/');

    const bad = await fetch(`${srv.url}/svc/v1/tickets/signed/${signed.body.ticketPdfToken}x/ticket.pkpass`);
    expect(bad.status).toBe(404);
    expect((await bad.json()).code).toBe('svc_not_found');
  });

  it('a waitlisted or cancelled ticket has no pass (409), an unknown token 404; the cancel preview says a pass exists', async () => {
    const event = await createEvent(admin.api, { title: 'Tiny room', capacity: 1, waitlist: true });
    await signUp(srv, event.id, { email: uniqueEmail('wallet-first') });
    const waitEmail = uniqueEmail('wallet-wait');
    await signUp(srv, event.id, { email: waitEmail });
    const rows = await attendeeRows(srv, event.id);
    const going = rows.find((r) => r.status === 'going')!;
    const waiting = rows.find((r) => r.email === waitEmail)!;

    const preview = await apiClient(srv.url).get(`/attendees/cancel/${going.cancel_token}`);
    expect(preview.body.walletAvailable).toBe(true);

    expect(waiting.status).toBe('waitlist');
    const res = await fetch(`${srv.url}/svc/v1/tickets/${waiting.cancel_token}/ticket.pkpass`);
    expect(res.status).toBe(409);
    expect((await res.json()).code).toBe('svc_ticket_waitlist');
    expect((await apiClient(srv.url).post(`/attendees/cancel/${going.cancel_token}`, {})).status).toBe(200);
    const cancelled = await fetch(`${srv.url}/svc/v1/tickets/${going.cancel_token}/ticket.pkpass`);
    expect(cancelled.status).toBe(409);
    expect((await cancelled.json()).code).toBe('svc_ticket_cancelled');
    expect((await fetch(`${srv.url}/svc/v1/tickets/${'x'.repeat(64)}/ticket.pkpass`)).status).toBe(404);
  });

  it('a confirmed booking’s pass (manage token): no barcode, the booked time, the host; its manage payload says a pass exists; a cancelled one has none', async () => {
    const host = await createHost(admin.api, 'Dr Who');
    const type = await createType(admin.api, { hosts: [host], title: 'Consultation' });
    const start = futureStart(6, 9);
    const made = await submitBooking(srv.url, bookingBody(type.id, start, { customerName: 'Vera Visitor' }));
    expect(made.status).toBe(201);
    const [row] = await queryRows<{ cancel_token: string }>(db(), sql`select cancel_token from svc_bookings where booking_id = ${made.body.bookingId}`);
    const token = row!.cancel_token;
    expect((await apiClient(srv.url).get(`/bookings/${token}`)).body.walletAvailable).toBe(true);

    const { res, body } = await download(`${srv.url}/svc/v1/bookings/${token}/booking.pkpass`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="booking.pkpass"');
    const { dir, files } = unpack(body);
    const pass = JSON.parse(files.get('pass.json')!.toString('utf8'));
    expect(pass.barcodes ?? []).toEqual([]);
    expect(pass.serialNumber).toMatch(/^booking-[0-9a-f]{32}$/);
    expect(new Date(pass.relevantDate).toISOString()).toBe(new Date(`${start.replace(' ', 'T')}Z`).toISOString());
    expect(pass.eventTicket.primaryFields).toEqual([{ key: 'what', value: 'Consultation' }]);
    expect(JSON.stringify(pass.eventTicket.auxiliaryFields)).toContain('Dr Who');
    expect(verifySignature(path.join(dir, 'signature'), path.join(dir, 'manifest.json')).ok).toBe(true);

    expect((await apiClient(srv.url).delete(`/bookings/${token}`)).status).toBe(204);
    const gone = await fetch(`${srv.url}/svc/v1/bookings/${token}/booking.pkpass`);
    expect(gone.status).toBe(409);
    expect((await gone.json()).code).toBe('svc_booking_invalid_state');
  });
});

describe('without SVC_WALLET_* certificates', () => {
  const { server: srv, admin, hooks, db } = useTestServer({ env: { SVC_JOBS: 'off' } });
  beforeAll(() => {
    hooks().addFilter('svc_rsvp_client_ip', () => '', 50);
    disableIpThrottle(hooks());
  });

  it('the pass routes answer 404 svc_wallet_unavailable and no payload offers a pass', async () => {
    const event = await createEvent(admin.api, { title: 'No wallet here' });
    const signed = await signUp(srv, event.id, { email: uniqueEmail('nowallet') });
    expect(signed.status).toBe(201);
    expect(signed.body.walletAvailable).toBe(false);
    const row = (await attendeeRows(srv, event.id))[0]!;
    expect((await apiClient(srv.url).get(`/attendees/cancel/${row.cancel_token}`)).body.walletAvailable).toBe(false);

    for (const url of [`/tickets/${row.cancel_token}/ticket.pkpass`, `/tickets/signed/${signed.body.ticketPdfToken}/ticket.pkpass`]) {
      const res = await fetch(`${srv.url}/svc/v1${url}`);
      expect(res.status, url).toBe(404);
      expect((await res.json()).code, url).toBe('svc_wallet_unavailable');
    }

    const host = await createHost(admin.api);
    const type = await createType(admin.api, { hosts: [host] });
    const made = await submitBooking(srv.url, bookingBody(type.id, futureStart(4, 11)));
    const [b] = await queryRows<{ cancel_token: string }>(db(), sql`select cancel_token from svc_bookings where booking_id = ${made.body.bookingId}`);
    expect((await apiClient(srv.url).get(`/bookings/${b!.cancel_token}`)).body.walletAvailable).toBe(false);
    const res = await fetch(`${srv.url}/svc/v1/bookings/${b!.cancel_token}/booking.pkpass`);
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe('svc_wallet_unavailable');
  });
});
