import { readFileSync } from 'node:fs';
import path from 'node:path';
import ICAL from 'ical.js';
import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import type { StoredAttachment } from '../../server/mail/outbox.sql';
import { inviteUid } from '../../server/modules/booking/booking.notifications';
import { useTestServer } from '../helpers/test-server';
import { apiClient } from '../helpers/http';
import { bookingBody, createType, disableIpThrottle, futureStart, submitBooking, uniqueEmail } from '../helpers/booking';

const PUBLIC_URL = 'https://book.example.test';
const { server: srv, admin, db } = useTestServer({ env: { SVC_JOBS: 'off', SVC_PUBLIC_URL: PUBLIC_URL } });
let host: number;
const cleanups: Array<() => unknown> = [];
const anon = () => apiClient(srv.url);

interface OutboxRow {
  id: number;
  to_address: string;
  subject: string;
  text: string;
  attachments: StoredAttachment[];
  state: string;
  topic: string | null;
}
async function mailsTo(email: string): Promise<OutboxRow[]> {
  return queryRows<OutboxRow>(
    db(),
    sql`select id, to_address, subject, text, attachments, state, topic from svc_outbox where to_address = ${email} order by id`,
  );
}
const icsOf = (mail: OutboxRow) => Buffer.from(mail.attachments[0]!.content, 'base64').toString('utf8').replace(/\r\n /g, '');
async function tokenOf(bookingId: number): Promise<string> {
  const [row] = await queryRows<{ cancel_token: string }>(db(), sql`select cancel_token from svc_bookings where booking_id = ${bookingId}`);
  return row!.cancel_token;
}
async function reminderJobs(bookingId: number) {
  return queryRows<{ state: string; run_at_utc: string; last_error: string | null }>(
    db(),
    sql`select state, to_char(run_at_utc, 'YYYY-MM-DD HH24:MI:SS') as run_at_utc, last_error from svc_jobs where dedupe_key = ${`booking:${bookingId}:reminder`} order by id`,
  );
}
async function book(typeOverrides: Record<string, unknown>, start: string) {
  const type = await createType(admin.api, { hosts: [host], ...typeOverrides });
  const email = uniqueEmail('mail');
  const res = await submitBooking(srv.url, bookingBody(type.id, start, { customerEmail: email, customerName: 'Mia Mail' }));
  if (res.status !== 201) throw new Error(`book: ${res.status} ${JSON.stringify(res.body)}`);
  return { type, email, id: res.body.bookingId as number, token: await tokenOf(res.body.bookingId) };
}

beforeAll(async () => {
  const res = await admin.api.post('/users', { email: 'hana.host@example.test', displayName: 'Hana Host', role: 'host', password: 'long enough password' });
  host = res.body.id;
  disableIpThrottle(srv.server.ctx.hooks);
});
afterEach(() => {
  for (const undo of cleanups.splice(0).reverse()) undo();
});

describe('confirmation email', () => {
  it('is queued in the outbox with invite.ics (text/calendar): UTC times, organizer, location, manage link', async () => {
    const start = futureStart(4, 13, 30);
    const b = await book({ title: 'Tax advice', durationMinutes: 45, slotIntervalMinutes: 15, locationMode: 'in_person', locationValue: '12 Main St' }, start);
    const [mail, ...rest] = await mailsTo(b.email);
    expect(rest).toEqual([]);
    expect(mail!.subject).toBe('Booking confirmed: Tax advice');
    expect(mail!.text).toContain(`${PUBLIC_URL}/manage/${b.token}`);
    expect(mail!.text).toContain('Where: In person: 12 Main St');
    // the host's zone (the type's, UTC here) with the end, then the customer's clock (Europe/Berlin)
    expect(mail!.text).toMatch(/^When: [A-Z][a-z]{2} \d{1,2} [A-Z][a-z]{2}( \d{4})?, 13:30–14:15 UTC · 1[45]:30–1[56]:15 CES?T your time$/m);
    expect(mail!.attachments.map((a) => [a.filename, a.contentType])).toEqual([['invite.ics', 'text/calendar; charset=utf-8; method=REQUEST']]);
    const ics = icsOf(mail!);
    const compact = (utc: string) => `${utc.replace(/[-:]/g, '').replace(' ', 'T')}Z`;
    expect(ics).toContain('METHOD:REQUEST');
    expect(ics).toContain(`DTSTART:${compact(start)}`);
    expect(ics).toContain(`DTEND:${compact(futureStart(4, 14, 15))}`);
    // the host organizes, the site's sender sends on her behalf (RFC 5545 SENT-BY)
    expect(ics).toContain('ORGANIZER;CN="Hana Host";SENT-BY="mailto:no-reply@svc.local":mailto:hana.host@example.test');
    expect(ics).toContain(`ATTENDEE;CN="Mia Mail";RSVP=FALSE:mailto:${b.email}`);
    expect(ics).toContain('LOCATION:In person: 12 Main St');
    expect(ics).toContain(`URL:${PUBLIC_URL}/manage/${b.token}`);
    expect(ics).toContain('SUMMARY:Tax advice');
    expect(ics).toContain('STATUS:CONFIRMED');
  });

  it('location follows the mode and the labels: virtual → "Online: link", custom → only the value', async () => {
    const v = await book({ locationMode: 'virtual', locationValue: 'https://meet.example.test/abc' }, futureStart(4, 16));
    expect(icsOf((await mailsTo(v.email))[0]!)).toContain('LOCATION:Online: https://meet.example.test/abc');
    const c = await book({ locationMode: 'custom', locationValue: 'Back office' }, futureStart(4, 18));
    expect(icsOf((await mailsTo(c.email))[0]!)).toContain('LOCATION:Back office');
  });

  it('is delivered by the mail job, not inside the request', async () => {
    const b = await book({}, futureStart(4, 20));
    expect((await mailsTo(b.email))[0]!.state).toBe('queued');
    await srv.server.ctx.jobs.runDue();
    expect((await mailsTo(b.email))[0]!.state).toBe('saved');
  });

  it('schedules a reminder job 24 h before the start (dedupe key booking:{id}:reminder) that mails the customer', async () => {
    const start = futureStart(5, 9);
    const b = await book({}, start);
    const jobs = await reminderJobs(b.id);
    expect(jobs).toEqual([{ state: 'queued', run_at_utc: futureStart(4, 9), last_error: null }]);
    await srv.server.ctx.jobs.runDue(Date.parse(`${futureStart(4, 9).replace(' ', 'T')}Z`) + 1000);
    const mails = await mailsTo(b.email);
    expect(mails.map((m) => m.subject)).toEqual(['Booking confirmed: Consultation', 'Reminder: Consultation']);
  });
});

describe('approval flow emails', () => {
  it('a request sends "request received" (no confirmation); approval sends the withheld confirmation with invite.ics', async () => {
    const b = await book({ requiresApproval: true }, futureStart(6, 10));
    const first = await mailsTo(b.email);
    expect(first.map((m) => m.subject)).toEqual(['Booking request received: Consultation']);
    expect(first[0]!.attachments).toEqual([]);
    expect(await reminderJobs(b.id)).toEqual([]);
    await admin.api.post(`/bookings/${b.id}/approve`);
    const after = await mailsTo(b.email);
    expect(after.map((m) => m.subject)).toEqual(['Booking request received: Consultation', 'Booking confirmed: Consultation']);
    expect(icsOf(after[1]!)).toContain('METHOD:REQUEST');
    expect((await reminderJobs(b.id)).map((j) => j.state)).toEqual(['queued']);
  });

  it('a decline sends the cancellation email without a calendar CANCEL: the request never had an invite', async () => {
    const b = await book({ requiresApproval: true }, futureStart(6, 12));
    await admin.api.post(`/bookings/${b.id}/decline`);
    const mails = await mailsTo(b.email);
    expect(mails.map((m) => m.subject)).toEqual(['Booking request received: Consultation', 'Booking cancelled: Consultation']);
    expect(mails[1]!.text).toContain('Your booking request was declined.');
    expect(mails[1]!.attachments).toEqual([]);
  });

  it('an approved request cancelled later still gets its calendar CANCEL', async () => {
    const b = await book({ requiresApproval: true }, futureStart(6, 14));
    await admin.api.post(`/bookings/${b.id}/approve`);
    expect((await anon().delete(`/bookings/${b.token}`)).status).toBe(204);
    const cancelled = (await mailsTo(b.email)).at(-1)!;
    expect(cancelled.subject).toBe('Booking cancelled: Consultation');
    expect(icsOf(cancelled)).toContain('METHOD:CANCEL');
  });
});

describe('cancellation', () => {
  it('sends the cancellation email with an ics METHOD:CANCEL for the same UID and clears pending reminders', async () => {
    const b = await book({}, futureStart(7, 10));
    expect((await reminderJobs(b.id)).map((j) => j.state)).toEqual(['queued']);
    expect((await anon().delete(`/bookings/${b.token}`)).status).toBe(204);
    const mails = await mailsTo(b.email);
    expect(mails.map((m) => m.subject)).toEqual(['Booking confirmed: Consultation', 'Booking cancelled: Consultation']);
    const cancelIcs = icsOf(mails[1]!);
    expect(cancelIcs).toContain('METHOD:CANCEL');
    expect(cancelIcs).toContain('STATUS:CANCELLED');
    const uid = /UID:(.+)/.exec(icsOf(mails[0]!))![1];
    expect(cancelIcs).toContain(`UID:${uid}`);
    expect(await reminderJobs(b.id)).toEqual([{ state: 'done', run_at_utc: futureStart(6, 10), last_error: 'cancelled' }]);
  });

  it('a throwing listener at a lower priority number on svc_booking_cancelled prevents both the email and the reminder clearing', async () => {
    const b = await book({}, futureStart(7, 14));
    const boom = () => {
      throw new Error('plugin failed');
    };
    srv.server.ctx.hooks.addAction('svc_booking_cancelled', boom, 5);
    cleanups.push(() => srv.server.ctx.hooks.removeAction('svc_booking_cancelled', boom, 5));
    const res = await admin.api.patch(`/bookings/${b.id}`, { status: 'cancelled' });
    expect(res.status).toBe(500);
    expect((await mailsTo(b.email)).map((m) => m.subject)).toEqual(['Booking confirmed: Consultation']);
    expect((await reminderJobs(b.id)).map((j) => j.state)).toEqual(['queued']);
    // The held announcement is run again by a runner (docs/decisions/006-jobs-and-mail.md), and the thrower still stops it.
    await srv.server.ctx.jobs.runDue(Date.now() + 60_000);
    expect((await mailsTo(b.email)).map((m) => m.subject)).toEqual(['Booking confirmed: Consultation']);
    expect((await reminderJobs(b.id)).map((j) => j.state)).toEqual(['queued']);
  });
});

describe('reschedule', () => {
  it('moves the reminder and sends the updated invite', async () => {
    const b = await book({}, futureStart(8, 10));
    const res = await anon().patch(`/bookings/${b.token}/reschedule`, { startUtc: futureStart(9, 15) });
    expect(res.status).toBe(200);
    const jobs = await reminderJobs(b.id);
    expect(jobs.map((j) => [j.state, j.run_at_utc])).toEqual([
      ['done', futureStart(7, 10)],
      ['queued', futureStart(8, 15)],
    ]);
    const mails = await mailsTo(b.email);
    expect(mails.map((m) => m.subject)).toEqual(['Booking confirmed: Consultation', 'Booking moved: Consultation']);
    expect(icsOf(mails[1]!)).toContain(`DTSTART:${futureStart(9, 15).replace(/[-:]/g, '').replace(' ', 'T')}Z`);
  });

  it('the "Booking moved" mail names the new time and the old one', async () => {
    const b = await book({ durationMinutes: 30 }, futureStart(8, 12));
    expect((await anon().patch(`/bookings/${b.token}/reschedule`, { startUtc: futureStart(9, 16) })).status).toBe(200);
    const moved = (await mailsTo(b.email)).at(-1)!;
    expect(moved.subject).toBe('Booking moved: Consultation');
    // the type's zone is UTC here; the customer's clock (Europe/Berlin) follows
    expect(moved.text).toMatch(/^Now: .*, 16:00–16:30 UTC · /m);
    expect(moved.text).toMatch(/^Was: .*, 12:00–12:30 UTC · /m);
    expect(moved.text).not.toMatch(/^When:/m);
  });
});

describe('invites other tools read right', () => {
  /** The VEVENT of a mail's invite, as ical.js (the parser of several calendar apps) reads it. */
  function eventOf(mail: OutboxRow) {
    const calendar = new ICAL.Component(ICAL.parse(Buffer.from(mail.attachments[0]!.content, 'base64').toString('utf8')));
    const event = calendar.getFirstSubcomponent('vevent')!;
    return {
      method: calendar.getFirstPropertyValue('method'),
      uid: String(event.getFirstPropertyValue('uid')),
      sequence: Number(event.getFirstPropertyValue('sequence')),
      start: (event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString(),
      attendee: event.getFirstProperty('attendee')!.getParameter('cn'),
    };
  }

  it('SEQUENCE grows with every change, even two reschedules within one second; the UID stays, and is unique per installation', async () => {
    const b = await book({}, futureStart(10, 9));
    const moves = [futureStart(11, 9), futureStart(12, 9)];
    for (const start of moves) expect((await anon().patch(`/bookings/${b.token}/reschedule`, { startUtc: start })).status).toBe(200);
    expect((await anon().delete(`/bookings/${b.token}`)).status).toBeLessThan(300);
    const events = (await mailsTo(b.email)).map(eventOf);
    expect(events.map((e) => e.method)).toEqual(['REQUEST', 'REQUEST', 'REQUEST', 'CANCEL']);
    expect(events.map((e) => e.sequence)).toEqual([0, 1, 2, 3]);
    expect(new Set(events.map((e) => e.uid)).size).toBe(1);
    expect(events[2]!.start).toBe(`${moves[1]!.replace(' ', 'T')}.000Z`);
    const { secret } = srv.server.ctx;
    expect(events[0]!.uid).toBe(inviteUid({ secret, env: srv.server.ctx.env }, b.id));
    expect(inviteUid({ secret: `${secret}-another-installation`, env: srv.server.ctx.env }, b.id)).not.toBe(events[0]!.uid);
  });

  it('the booking page\'s "Add to calendar" file and the mailed invite carry one UID', async () => {
    const type = await createType(admin.api, { hosts: [host] });
    const email = uniqueEmail('uid');
    const res = await submitBooking(srv.url, bookingBody(type.id, futureStart(13, 11), { customerEmail: email }));
    expect(res.status).toBe(201);
    const [mail] = await mailsTo(email);
    expect(res.body.calendarUid).toBe(eventOf(mail!).uid);
    expect(res.body.calendarUid).toMatch(/^booking-\d+-[0-9a-f]{12}@book\.example\.test$/);
  });

  it('an accented name survives: the part says charset=utf-8 and its iTIP method (RFC 6047)', async () => {
    const type = await createType(admin.api, { hosts: [host] });
    const email = uniqueEmail('accent');
    const res = await submitBooking(srv.url, bookingBody(type.id, futureStart(13, 9), { customerEmail: email, customerName: 'Zoë Ångström' }));
    expect(res.status).toBe(201);
    const [mail] = await mailsTo(email);
    expect(mail!.attachments[0]!.contentType).toBe('text/calendar; charset=utf-8; method=REQUEST');
    expect(eventOf(mail!).attendee).toBe('Zoë Ångström');
    // the mail job writes the message as sent; its calendar part carries the same parameters
    await srv.server.ctx.jobs.runDue();
    const eml = readFileSync(path.join(srv.dataDir, 'mail', `${mail!.id}.eml`), 'utf8');
    expect(eml).toMatch(/Content-Type: text\/calendar; charset=utf-8; method=REQUEST/i);
  });
});
