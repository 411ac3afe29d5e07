/**
 * "Add to Google Calendar" and "Outlook.com" in the mails (docs/api.md#calendar-links): the ticket
 * mail, a paid order's mail and the booking confirmation and "moved" mails carry both composer
 * links, with the entry's times, title, place and the person's own cancel or manage link.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { apiClient } from '../helpers/http';
import { bookingBody, createType, disableIpThrottle, futureStart, submitBooking } from '../helpers/booking';
import { storedMails, type StoredMail } from '../helpers/mail';
import { paymentIdOf } from '../helpers/payments';
import { agedFormToken, attendeeRows, createEvent, nonce, resetThrottles, signUp, uniqueEmail } from '../helpers/registration';
import { useTestServer } from '../helpers/test-server';

const PUBLIC_URL = 'https://links.example.test';
const { server: srv, admin, hooks } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off', SVC_PUBLIC_URL: PUBLIC_URL } });
const anon = () => apiClient(srv.url);
let host: number;

beforeAll(async () => {
  host = (await admin.api.post('/users', { email: 'links.host@example.test', displayName: 'Lina Links', role: 'host', password: 'long enough password' })).body
    .id;
  disableIpThrottle(hooks());
  hooks().addFilter('svc_rsvp_client_ip', () => '', 50);
});
beforeEach(() => resetThrottles(srv));

/** The URLs after each label line in the text part, by label. */
function linksIn(text: string, label: 'Google Calendar' | 'Outlook.com'): URL[] {
  return [...text.matchAll(new RegExp(`^${label.replace('.', '\\.')}: (https://\\S+)$`, 'gm'))].map((m) => new URL(m[1]!));
}
const compact = (utc: string) => `${utc.replace(/[-:]/g, '').replace(' ', 'T')}Z`;
const iso = (utc: string) => `${utc.replace(' ', 'T')}Z`;
const anchorTo = (url: URL, label: string) => `<a href="${url.href.replace(/&/g, '&amp;')}">${label}</a>`;

async function mailsTo(email: string): Promise<StoredMail[]> {
  return (await storedMails(srv.server.ctx.db, email)).reverse();
}

describe('the ticket mail', () => {
  it('carries a Google Calendar and an Outlook.com link with the event’s times, title, venue and the attendee’s cancel link', async () => {
    const event = await createEvent(admin.api, {
      title: 'Rock & Roll night',
      startsUtc: '2099-06-12 18:30:00',
      endsUtc: '2099-06-12 22:00:00',
      venue: 'Café Müller, Leeds',
    });
    const email = uniqueEmail('links-ticket');
    expect((await signUp(srv, event.id, { email })).status).toBe(201);
    const [row] = await attendeeRows(srv, event.id);
    const cancelUrl = `${PUBLIC_URL}/cancel/${row.cancel_token}`;
    const [mail, ...rest] = await mailsTo(email);
    expect(rest).toEqual([]);

    const [google, ...moreGoogle] = linksIn(mail!.text, 'Google Calendar');
    expect(moreGoogle).toEqual([]);
    expect(google!.origin + google!.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(google!.searchParams.get('action')).toBe('TEMPLATE');
    expect(google!.searchParams.get('text')).toBe('Rock & Roll night');
    expect(google!.searchParams.get('dates')).toBe('20990612T183000Z/20990612T220000Z');
    expect(google!.searchParams.get('location')).toBe('Café Müller, Leeds');
    expect(google!.searchParams.get('details')).toBe(`Cannot come? Cancel: ${cancelUrl}`);

    const [outlook] = linksIn(mail!.text, 'Outlook.com');
    expect(outlook!.origin + outlook!.pathname).toBe('https://outlook.live.com/calendar/0/deeplink/compose');
    expect(outlook!.searchParams.get('subject')).toBe('Rock & Roll night');
    expect(outlook!.searchParams.get('startdt')).toBe('2099-06-12T18:30:00Z');
    expect(outlook!.searchParams.get('enddt')).toBe('2099-06-12T22:00:00Z');
    expect(outlook!.searchParams.get('body')).toBe(`Cannot come? Cancel: ${cancelUrl}`);
    expect(outlook!.searchParams.get('location')).toBe('Café Müller, Leeds');

    // the HTML part names the links; the cancel link there is still the site's own
    expect(mail!.html).toContain(anchorTo(google!, 'Add to Google Calendar'));
    expect(mail!.html).toContain(anchorTo(outlook!, 'Add to Outlook.com'));
    expect(mail!.html).toContain(`<a href="${cancelUrl}">`);
  });

  it('gives an event without an end the calendar file’s hour, and speaks the attendee’s language', async () => {
    const event = await createEvent(admin.api, { title: 'Quiz', startsUtc: '2099-07-01 19:00:00' });
    const email = uniqueEmail('links-de');
    const res = await anon().post(
      `/events/${event.id}/signup`,
      { email, display_name: 'Dana', quantity: 1, svc_ts: agedFormToken(srv, event.id), svc_hp: '' },
      { 'x-svc-nonce': await nonce(srv), 'accept-language': 'de' },
    );
    expect(res.status).toBe(201);
    const [mail] = await mailsTo(email);
    expect(mail!.text).toMatch(/^Google Kalender: https:\/\//m);
    const google = new URL(/^Google Kalender: (\S+)$/m.exec(mail!.text)![1]!);
    expect(google.searchParams.get('dates')).toBe('20990701T190000Z/20990701T200000Z');
    expect(google.searchParams.get('details')).toMatch(/^Sie können nicht kommen\? Stornieren: https:\/\/links\.example\.test\/cancel\//);
    expect(google.searchParams.has('location')).toBe(false);
    const outlook = new URL(/^Outlook\.com: (\S+)$/m.exec(mail!.text)![1]!);
    expect(outlook.searchParams.get('enddt')).toBe('2099-07-01T20:00:00Z');
    expect(mail!.html).toContain('>Zu Google Kalender hinzufügen</a>');
  });

  it('a waitlisted attendee’s mail offers no calendar entry: there is no seat to put in it', async () => {
    const event = await createEvent(admin.api, { title: 'Tiny room', capacity: 1, waitlist: true });
    expect((await signUp(srv, event.id)).status).toBe(201);
    const email = uniqueEmail('links-wait');
    expect((await signUp(srv, event.id, { email })).body.status).toBe('waitlist');
    const [mail] = await mailsTo(email);
    expect(linksIn(mail!.text, 'Google Calendar')).toEqual([]);
    expect(mail!.html).not.toContain('calendar.google.com');
  });

  it('a paid order’s mail gives each ticket its own links, each with that ticket’s cancel link', async () => {
    const event = await createEvent(admin.api, {
      title: 'Paid gala',
      priceCents: 1500,
      capacity: 10,
      startsUtc: '2099-08-02 20:00:00',
      endsUtc: '2099-08-02 23:30:00',
    });
    const email = uniqueEmail('links-order');
    const res = await signUp(srv, event.id, { email, quantity: 2 });
    expect(res.status).toBe(201);
    expect((await anon().post(`/payments/local/${paymentIdOf(res.body.paymentUrl)}/pay`)).status).toBe(202);
    await srv.server.ctx.jobs.idle();
    const tickets = await queryRows<{ cancel_token: string }>(
      srv.server.ctx.db,
      sql`select cancel_token from svc_attendees where event_id = ${event.id} order by id`,
    );
    expect(tickets).toHaveLength(2);
    const [mail] = await mailsTo(email);
    const google = linksIn(mail!.text, 'Google Calendar');
    const outlook = linksIn(mail!.text, 'Outlook.com');
    expect(google.map((u) => u.searchParams.get('details'))).toEqual(tickets.map((t) => `Cannot come? Cancel: ${PUBLIC_URL}/cancel/${t.cancel_token}`));
    expect(outlook.map((u) => u.searchParams.get('body'))).toEqual(tickets.map((t) => `Cannot come? Cancel: ${PUBLIC_URL}/cancel/${t.cancel_token}`));
    for (const u of google) expect(u.searchParams.get('dates')).toBe('20990802T200000Z/20990802T233000Z');
    for (const u of outlook) expect([u.searchParams.get('startdt'), u.searchParams.get('enddt')]).toEqual(['2099-08-02T20:00:00Z', '2099-08-02T23:30:00Z']);
  });
});

describe('the booking mails', () => {
  it('the confirmation and the "moved" mail carry links with the booking’s own times, title, place and manage link', async () => {
    const type = await createType(admin.api, {
      hosts: [host],
      title: 'Tax advice',
      durationMinutes: 45,
      slotIntervalMinutes: 15,
      locationMode: 'in_person',
      locationValue: '12 Main St',
    });
    const email = uniqueEmail('links-booking');
    const start = futureStart(4, 13, 30);
    const created = await submitBooking(srv.url, bookingBody(type.id, start, { customerEmail: email }));
    expect(created.status).toBe(201);
    const [row] = await queryRows<{ cancel_token: string }>(
      srv.server.ctx.db,
      sql`select cancel_token from svc_bookings where booking_id = ${created.body.bookingId}`,
    );
    const manageUrl = `${PUBLIC_URL}/manage/${row!.cancel_token}`;
    const moved = futureStart(6, 9, 15);
    expect((await anon().patch(`/bookings/${row!.cancel_token}/reschedule`, { startUtc: moved })).status).toBe(200);

    const [confirmed, movedMail] = await mailsTo(email);
    expect([confirmed!.subject, movedMail!.subject]).toEqual(['Booking confirmed: Tax advice', 'Booking moved: Tax advice']);
    for (const [mail, startUtc, endUtc] of [
      [confirmed!, start, futureStart(4, 14, 15)],
      [movedMail!, moved, futureStart(6, 10, 0)],
    ] as const) {
      const [google] = linksIn(mail.text, 'Google Calendar');
      const [outlook] = linksIn(mail.text, 'Outlook.com');
      expect(google!.searchParams.get('text')).toBe('Tax advice');
      expect(google!.searchParams.get('dates')).toBe(`${compact(startUtc)}/${compact(endUtc)}`);
      expect(google!.searchParams.get('location')).toBe('In person: 12 Main St');
      expect(google!.searchParams.get('details')).toBe(`Manage or cancel: ${manageUrl}`);
      expect(outlook!.searchParams.get('subject')).toBe('Tax advice');
      expect(outlook!.searchParams.get('startdt')).toBe(iso(startUtc));
      expect(outlook!.searchParams.get('enddt')).toBe(iso(endUtc));
      expect(outlook!.searchParams.get('body')).toBe(`Manage or cancel: ${manageUrl}`);
      expect(mail.html).toContain(anchorTo(google!, 'Add to Google Calendar'));
      expect(mail.html).toContain(anchorTo(outlook!, 'Add to Outlook.com'));
    }
  });

  it('a request awaiting approval gets no links until it is confirmed', async () => {
    const type = await createType(admin.api, { hosts: [host], title: 'Review', requiresApproval: true });
    const email = uniqueEmail('links-request');
    const asked = await submitBooking(srv.url, bookingBody(type.id, futureStart(7, 9), { customerEmail: email }));
    expect(asked.status).toBe(201);
    const [received] = await mailsTo(email);
    expect(received!.subject).toBe('Booking request received: Review');
    expect(received!.text).not.toContain('calendar.google.com');
    expect((await admin.api.post(`/bookings/${asked.body.bookingId}/approve`)).status).toBe(200);
    const [, confirmed] = await mailsTo(email);
    expect(confirmed!.subject).toBe('Booking confirmed: Review');
    expect(linksIn(confirmed!.text, 'Google Calendar')).toHaveLength(1);
  });
});
