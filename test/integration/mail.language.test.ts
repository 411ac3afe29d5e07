/**
 * Mails in the recipient's own language (docs/decisions/027-languages.md, "Mails"): the language
 * is negotiated from the sign-up's or booking's request, stored on the row, and every later mail
 * (an administrator's action, a job) reads it from there, never from the request that causes it.
 * Delivered to a real SMTP server, so the headers are what a mail client sees.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../server/db/client';
import { createPluginContext } from '../../server/plugins/load';
import { useTestServer } from '../helpers/test-server';
import { apiClient } from '../helpers/http';
import { mimeParts, startSmtpServer, type ReceivedMail } from '../helpers/smtp';
import { agedFormToken, createEvent, nonce, uniqueEmail } from '../helpers/registration';
import { bookingBody, createHost, createType, disableIpThrottle, fetchNonce, futureStart } from '../helpers/booking';

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp?.close());
const { server: srv, admin } = useTestServer({ env: () => ({ SMTP_URL: smtp.url, SVC_JOBS: 'off', SVC_PUBLIC_URL: 'https://svc.example.test' }) });
let host: number;
beforeAll(async () => {
  host = await createHost(admin.api, 'Noor');
  disableIpThrottle(srv.server.ctx.hooks);
});

/** The delivered mails to `to`, in the order they arrived, after the send jobs ran. */
async function deliveredTo(to: string): Promise<ReceivedMail[]> {
  await srv.server.ctx.jobs.runDue();
  return smtp.received.filter((m) => m.to.includes(to));
}
const header = (mail: ReceivedMail, name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(mail.raw.split(/\r?\n\r?\n/)[0]!)?.[1]?.trim();
/** A leaf part of the mail, its line breaks as the template wrote them (SMTP carries CRLF). */
const part = (mail: ReceivedMail, type: string) => {
  const found = mimeParts(mail.raw).find((p) => p.type === type)!;
  return { ...found, text: type === 'text/calendar' ? found.text : found.text.replace(/\r\n/g, '\n') };
};
const unfold = (ics: string) => ics.replace(/\r\n /g, '');

async function storedLanguage(table: 'svc_attendees' | 'svc_bookings', email: string): Promise<string | null> {
  const column = table === 'svc_attendees' ? sql`email` : sql`customer_email`;
  const [row] = await queryRows<{ language: string | null }>(srv.server.ctx.db, sql`select language from ${sql.identifier(table)} where ${column} = ${email}`);
  return row!.language;
}

describe('the mail speaks the language the visitor signed up or booked in', () => {
  it('a sign-up sent with Accept-Language: de-AT is stored as de and gets a German ticket mail with Content-Language: de', async () => {
    const event = await createEvent(admin.api, { title: 'Frühlingstreffen', startsUtc: '2099-05-01 18:00:00', timezone: 'Europe/Berlin', venue: 'Rathaus' });
    const email = uniqueEmail('de');
    const res = await apiClient(srv.url).post(
      `/events/${event.id}/signup`,
      { email, display_name: 'Greta Gast', quantity: 2, svc_ts: agedFormToken(srv, event.id), svc_hp: '' },
      { 'x-svc-nonce': await nonce(srv), 'accept-language': 'de-AT,de;q=0.9,en;q=0.5' },
    );
    expect(res.status).toBe(201);
    expect(await storedLanguage('svc_attendees', email)).toBe('de');

    const [mail, ...more] = await deliveredTo(email);
    expect(more).toEqual([]);
    expect(header(mail!, 'Content-Language')).toBe('de');
    const text = part(mail!, 'text/plain').text;
    expect(text).toContain('Hallo Greta Gast,');
    expect(text).toContain('Sie sind für Frühlingstreffen angemeldet.');
    expect(text).toContain('Plätze: 2');
    expect(text).toContain('Wo: Rathaus');
    // the date in German, in the place's zone
    expect(text).toMatch(/^Wann: .*20:00.*\(Berlin\)$/m);
    expect(text).not.toMatch(/Hello|You are registered|Cannot come/);
    expect(part(mail!, 'text/html').text).toContain('<html lang="de" dir="ltr">');
    const ics = unfold(part(mail!, 'text/calendar').text);
    expect(ics).toMatch(/^DESCRIPTION:Sie können nicht kommen\? Stornieren: https:\/\/svc\.example\.test\/cancel\//m);
  });

  it('?lang=fr on the sign-up link wins over the browser and the cookie', async () => {
    const event = await createEvent(admin.api, { title: 'Atelier' });
    const email = uniqueEmail('fr');
    const res = await apiClient(srv.url).post(
      `/events/${event.id}/signup?lang=fr`,
      { email, display_name: 'Chloé', quantity: 1, svc_ts: agedFormToken(srv, event.id), svc_hp: '' },
      { 'x-svc-nonce': await nonce(srv), 'accept-language': 'de', cookie: 'svc_lang=nl' },
    );
    expect(res.status).toBe(201);
    expect(await storedLanguage('svc_attendees', email)).toBe('fr');
    const [mail] = await deliveredTo(email);
    expect(header(mail!, 'Content-Language')).toBe('fr');
    expect(part(mail!, 'text/plain').text).toContain('Vous êtes inscrit à Atelier.');
  });

  it('an Arabic booking is confirmed in Arabic, right to left, with an Arabic invite; the English-speaking administrator’s cancel later mails her in Arabic too', async () => {
    const type = await createType(admin.api, { hosts: [host], title: 'استشارة', durationMinutes: 30 });
    const body = bookingBody(type.id, futureStart(5, 10), { customerName: 'ليلى' });
    const email = body.customerEmail as string;
    const res = await apiClient(srv.url).post('/bookings', body, {
      'x-svc-nonce': await fetchNonce(srv.url),
      cookie: 'svc_lang=ar',
      'accept-language': 'en-US',
    });
    expect(res.status).toBe(201);
    expect(await storedLanguage('svc_bookings', email)).toBe('ar');

    const [confirmation] = await deliveredTo(email);
    expect(header(confirmation!, 'Content-Language')).toBe('ar');
    const text = part(confirmation!, 'text/plain').text;
    expect(text).toContain('مرحبًا ليلى،');
    expect(text).toContain('تم تأكيد حجزك.');
    expect(text).toContain('الموضوع: استشارة');
    expect(text).not.toMatch(/Hello|Your booking|Manage or cancel/);
    expect(part(confirmation!, 'text/html').text).toContain('<html lang="ar" dir="rtl">');
    const invite = unfold(part(confirmation!, 'text/calendar').text);
    expect(invite).toMatch(/^SUMMARY:استشارة$/m);
    expect(invite).toMatch(/^DESCRIPTION:الإدارة أو الإلغاء: https:\/\/svc\.example\.test\/manage\//m);

    // the administrator works in English: the customer still reads Arabic
    const cancelled = await admin.api.patch(`/bookings/${res.body.bookingId}`, { status: 'cancelled' }, { 'accept-language': 'en' });
    expect(cancelled.status).toBe(200);
    const [, cancellation, ...more] = await deliveredTo(email);
    expect(more).toEqual([]);
    expect(header(cancellation!, 'Content-Language')).toBe('ar');
    expect(part(cancellation!, 'text/plain').text).toContain('أُلغي حجزك.');
    expect(unfold(part(cancellation!, 'text/calendar').text)).toMatch(/^METHOD:CANCEL$/m);
  });

  it('a booking without any language in its request takes the organization’s default, and English mail stays English', async () => {
    const type = await createType(admin.api, { hosts: [host], title: 'Check-up', durationMinutes: 30 });
    const body = bookingBody(type.id, futureStart(6, 11));
    const email = body.customerEmail as string;
    await queryRows(
      srv.server.ctx.db,
      sql`insert into svc_settings (key, value) values ('default_language', '"it"'::jsonb) on conflict (key) do update set value = excluded.value`,
    );
    try {
      const res = await apiClient(srv.url).post('/bookings', body, { 'x-svc-nonce': await fetchNonce(srv.url) });
      expect(res.status).toBe(201);
      expect(await storedLanguage('svc_bookings', email)).toBe('it');
      const [mail] = await deliveredTo(email);
      expect(header(mail!, 'Content-Language')).toBe('it');
      expect(part(mail!, 'text/plain').text).toContain('La sua prenotazione è confermata.');
    } finally {
      await queryRows(srv.server.ctx.db, sql`delete from svc_settings where key = 'default_language'`);
    }
    const english = bookingBody(type.id, futureStart(6, 13));
    const res = await apiClient(srv.url).post('/bookings', english, { 'x-svc-nonce': await fetchNonce(srv.url), 'accept-language': 'en-GB' });
    expect(res.status).toBe(201);
    const [mail] = await deliveredTo(english.customerEmail as string);
    expect(header(mail!, 'Content-Language')).toBe('en');
    expect(mail!.raw).toContain('Subject: Booking confirmed: Check-up');
    expect(part(mail!, 'text/plain').text).toMatch(/^Hello Vera Visitor,\n\nYour booking is confirmed\.\n\nWhat: Check-up\nWhen: .* your time$/m);
  });

  it('a plugin writing to a person learns their language from their newest sign-up, and its mail says so in Content-Language', async () => {
    const event = await createEvent(admin.api, { title: 'Atelier', startsUtc: '2099-06-01 18:00:00', timezone: 'Europe/Paris' });
    const email = uniqueEmail('plugin-fr');
    const res = await apiClient(srv.url).post(
      `/events/${event.id}/signup`,
      { email, display_name: 'Chloé', quantity: 1, svc_ts: agedFormToken(srv, event.id), svc_hp: '' },
      { 'x-svc-nonce': await nonce(srv), 'accept-language': 'fr-CA' },
    );
    expect(res.status).toBe(201);
    const plugin = createPluginContext(srv.server.ctx.db, srv.server.ctx.env, srv.server.ctx.logger, srv.server.ctx.verifiers);
    // the address in another case is the same person; an address svc never met gets the default
    expect(await plugin.mail.languageOf(email.toUpperCase())).toBe('fr');
    expect(await plugin.mail.languageOf(uniqueEmail('stranger'))).toBe('en');
    await plugin.mail.queue({ to: email, subject: 'Merci', text: 'Merci d’être venue.', language: await plugin.mail.languageOf(email) });
    const mails = await deliveredTo(email);
    const fromPlugin = mails.find((m) => m.raw.includes('Subject: Merci'));
    expect(header(fromPlugin!, 'Content-Language')).toBe('fr');
  });
});
