/**
 * Event reminders (docs/api.md#event-reminders, docs/decisions/036-event-reminders.md): one job
 * per event, due `reminderMinutes` before the start, run here with a moved clock
 * (`runDue(nowMs)`); going attendees only, once each, whatever crashes between batches; the job
 * follows the event's time, its publication and its setting. Delivered to a real SMTP server, so
 * the headers are what a mail client sees.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../server/db/client';
import type { StoredAttachment } from '../../server/mail/outbox.sql';
import { sendEventReminders } from '../../server/modules/attendees/attendees.reminders';
import { useTestServer } from '../helpers/test-server';
import { apiClient } from '../helpers/http';
import { mimeParts, startSmtpServer, type ReceivedMail } from '../helpers/smtp';
import { agedFormToken, attendeeRows, createEvent, nonce, signUp, uniqueEmail } from '../helpers/registration';
import { futureStart } from '../helpers/booking';

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp?.close());
const PUBLIC_URL = 'https://svc.example.test';
const { server: srv, admin, db } = useTestServer({ env: () => ({ SMTP_URL: smtp.url, SVC_JOBS: 'off', SVC_PUBLIC_URL: PUBLIC_URL }) });
beforeAll(() => {
  // many sign-ups from one address: the per-IP throttle is not what this file is about
  srv.server.ctx.hooks.addFilter('svc_rsvp_client_ip', () => '', 50);
});

const at = (utc: string) => Date.parse(`${utc.replace(' ', 'T')}Z`);
const HOUR = 3_600_000;
/** Runs every job due at `utc` + `offsetMs` (the moved clock), the mail deliveries included. */
const runAt = (utc: string, offsetMs = 1000) => srv.server.ctx.jobs.runDue(at(utc) + offsetMs);

interface ReminderJob {
  state: string;
  run_at_utc: string;
  last_error: string | null;
}
async function reminderJobs(eventId: number): Promise<ReminderJob[]> {
  return queryRows<ReminderJob>(
    db(),
    sql`select state, to_char(run_at_utc, 'YYYY-MM-DD HH24:MI:SS') as run_at_utc, last_error from svc_jobs
        where type = 'event.reminder' and payload->>'eventId' = ${String(eventId)} order by id`,
  );
}

interface ReminderMail {
  attendee_id: number;
  to: string;
  subject: string;
  text: string;
  language: string;
  state: string;
  attachments: StoredAttachment[];
}
/** The reminder mails of an event's attendees, oldest first. */
async function remindersOf(eventId: number): Promise<ReminderMail[]> {
  return queryRows<ReminderMail>(
    db(),
    sql`select a.id as attendee_id, o.to_address as "to", o.subject, o.text, o.language, o.state, o.attachments
        from svc_outbox o join svc_attendees a on o.topic = 'attendee:' || a.id || ':reminder'
        where a.event_id = ${eventId} order by o.id`,
  );
}

async function going(eventId: number, count: number): Promise<string[]> {
  const emails: string[] = [];
  for (let i = 0; i < count; i++) {
    const email = uniqueEmail('going');
    const res = await signUp(srv, eventId, { email });
    expect(res.status).toBe(201);
    emails.push(email);
  }
  return emails;
}

const header = (mail: ReceivedMail, name: string) => new RegExp(`^${name}: (.*)$`, 'mi').exec(mail.raw.split(/\r?\n\r?\n/)[0]!)?.[1]?.trim();

// Each test's event lies further ahead than the last one's: a moved clock runs every job due by
// then, so an earlier test never reaches a later test's reminder.
describe('the reminder is mailed at start − lead, to going attendees', () => {
  it('an event reminds 24 h before by default: one queued job then, nothing before it, each going attendee mailed at it', async () => {
    const start = futureStart(10, 18);
    const event = await createEvent(admin.api, { title: 'Harbour talk', startsUtc: start, timezone: 'Europe/London', venue: 'Town Hall, Leeds' });
    expect(event.reminderMinutes).toBe(1440);
    expect((await admin.api.get(`/events/${event.id}`)).body.reminderMinutes).toBe(1440);
    const emails = await going(event.id, 2);
    const runAtUtc = futureStart(9, 18);
    expect(await reminderJobs(event.id)).toEqual([{ state: 'queued', run_at_utc: runAtUtc, last_error: null }]);

    await runAt(runAtUtc, -60_000);
    expect(await remindersOf(event.id)).toEqual([]);

    await runAt(runAtUtc);
    const mails = await remindersOf(event.id);
    expect(mails.map((m) => m.to).sort()).toEqual([...emails].sort());
    expect((await reminderJobs(event.id)).map((j) => j.state)).toEqual(['done']);
    const rows = await attendeeRows(srv, event.id);
    for (const mail of mails) {
      const row = rows.find((r) => r.id === mail.attendee_id)!;
      expect(mail.subject).toBe('Reminder: Harbour talk');
      expect(mail.state).toBe('sent');
      expect(mail.text).toContain('A reminder: Harbour talk is coming up.');
      // 18:00 UTC on the London clock: GMT or, in summer, BST
      expect(mail.text).toMatch(/^When: .*(18:00 GMT|19:00 BST) \(London\)$/m);
      expect(mail.text).toContain('Where: Town Hall, Leeds');
      expect(mail.text).toContain('Directions: https://www.openstreetmap.org/search?query=Town%20Hall%2C%20Leeds');
      expect(mail.text).toContain(`Your ticket code: ${row.ticket_code}`);
      expect(mail.text).toContain(`${PUBLIC_URL}/cancel/${row.cancel_token}`);
      expect(mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([['ticket.png', 'image/png']]);
      expect(Buffer.from(mail.attachments[0]!.content, 'base64').subarray(1, 4).toString()).toBe('PNG');
    }

    // the clock moves on: nothing is sent again
    await runAt(runAtUtc, HOUR);
    expect(await remindersOf(event.id)).toHaveLength(2);
  });

  it('a waitlisted and a cancelled attendee get none; a cancel after the reminder was queued withdraws it unsent', async () => {
    const start = futureStart(20, 18);
    const event = await createEvent(admin.api, { startsUtc: start, capacity: 2, waitlist: true });
    const [stays, cancels] = await going(event.id, 2);
    const waiting = uniqueEmail('waiting');
    expect((await signUp(srv, event.id, { email: waiting })).body.status).toBe('waitlist');
    const rows = await attendeeRows(srv, event.id);
    const cancelled = rows.find((r) => r.email === cancels)!;
    expect((await apiClient(srv.url).post(`/attendees/cancel/${cancelled.cancel_token}`)).status).toBe(200);

    await runAt(futureStart(19, 18));
    expect((await remindersOf(event.id)).map((m) => m.to)).toEqual([stays]);

    // queued (the job's batch committed) and not sent yet, then the attendee cancels: it never goes out
    const later = await createEvent(admin.api, { startsUtc: futureStart(22, 18) });
    const [email] = await going(later.id, 1);
    const plan = { eventId: later.id, startsUtc: later.startsUtc, minutesBefore: 1440 };
    expect(await sendEventReminders(srv.server.ctx, plan, at(futureStart(21, 18)))).toBe(1);
    const row = (await attendeeRows(srv, later.id))[0]!;
    expect((await admin.api.patch(`/attendees/${row.id}`, { status: 'cancelled' })).status).toBe(200);
    await srv.server.ctx.jobs.runDue();
    expect((await remindersOf(later.id)).map((m) => [m.to, m.state])).toEqual([[email, 'cancelled']]);
  });

  it('an attendee who signs up after the reminder ran gets none (their ticket mail is recent)', async () => {
    const event = await createEvent(admin.api, { startsUtc: futureStart(30, 18) });
    const [early] = await going(event.id, 1);
    await runAt(futureStart(29, 18));
    const [late] = await going(event.id, 1);
    await runAt(futureStart(29, 18), 12 * HOUR);
    expect((await remindersOf(event.id)).map((m) => m.to)).toEqual([early]);
    expect(late).toBeDefined();
  });
});

describe('the job follows the event', () => {
  it('a new start moves the job; the reminder names the new time; one sent for the old time is sent again for the new', async () => {
    const event = await createEvent(admin.api, { title: 'Moving night', startsUtc: futureStart(40, 18) });
    const [email] = await going(event.id, 1);
    expect((await admin.api.patch(`/events/${event.id}`, { startsUtc: futureStart(42, 20) })).status).toBe(200);
    expect(await reminderJobs(event.id)).toEqual([
      { state: 'done', run_at_utc: futureStart(39, 18), last_error: 'cancelled' },
      { state: 'queued', run_at_utc: futureStart(41, 20), last_error: null },
    ]);
    // the old time passes: nothing
    await runAt(futureStart(39, 18));
    expect(await remindersOf(event.id)).toEqual([]);
    await runAt(futureStart(41, 20));
    const [first, ...none] = await remindersOf(event.id);
    expect(none).toEqual([]);
    expect(first!.to).toBe(email);
    expect(first!.text).toMatch(/^When: .*20:00/m);

    // moved again after the reminder went out: its attendees are told the new time, once
    expect((await admin.api.patch(`/events/${event.id}`, { startsUtc: futureStart(45, 19) })).status).toBe(200);
    await runAt(futureStart(44, 19));
    await runAt(futureStart(44, 19), HOUR);
    const mails = await remindersOf(event.id);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.text).toMatch(/^When: .*19:00/m);
  });

  it('reminderMinutes: null sends none; a lead of 90 is due 90 minutes before; a title change leaves the job alone', async () => {
    const start = futureStart(50, 18);
    const event = await createEvent(admin.api, { startsUtc: start, reminderMinutes: null });
    expect(event.reminderMinutes).toBeNull();
    expect((await admin.api.get(`/events/${event.id}`)).body.reminderMinutes).toBeNull();
    await going(event.id, 1);
    expect(await reminderJobs(event.id)).toEqual([]);
    await runAt(start, -60_000);
    expect(await remindersOf(event.id)).toEqual([]);

    const other = await createEvent(admin.api, { startsUtc: futureStart(55, 18), reminderMinutes: null });
    const [email] = await going(other.id, 1);
    const patched = await admin.api.patch(`/events/${other.id}`, { reminderMinutes: 90 });
    expect(patched.body.reminderMinutes).toBe(90);
    expect(await admin.api.patch(`/events/${other.id}`, { title: 'Renamed' })).toMatchObject({ status: 200 });
    expect(await reminderJobs(other.id)).toEqual([{ state: 'queued', run_at_utc: futureStart(55, 16, 30), last_error: null }]);
    await runAt(futureStart(55, 16, 29));
    expect(await remindersOf(other.id)).toEqual([]);
    await runAt(futureStart(55, 16, 30));
    expect((await remindersOf(other.id)).map((m) => [m.to, m.subject])).toEqual([[email, 'Reminder: Renamed']]);

    // switched off after it was planned: the job is dropped
    const off = await createEvent(admin.api, { startsUtc: futureStart(57, 18) });
    await going(off.id, 1);
    expect((await admin.api.patch(`/events/${off.id}`, { reminderMinutes: null })).status).toBe(200);
    expect((await reminderJobs(off.id)).map((j) => [j.state, j.last_error])).toEqual([['done', 'cancelled']]);
    await runAt(futureStart(57, 18), -60_000);
    expect(await remindersOf(off.id)).toEqual([]);
  });

  it('unpublishing drops the job, publishing plans it again, deleting the event drops it', async () => {
    const event = await createEvent(admin.api, { startsUtc: futureStart(60, 18) });
    expect((await admin.api.patch(`/events/${event.id}`, { status: 'draft' })).status).toBe(200);
    expect((await reminderJobs(event.id)).map((j) => j.state)).toEqual(['done']);
    expect((await admin.api.patch(`/events/${event.id}`, { status: 'published' })).status).toBe(200);
    expect((await reminderJobs(event.id)).map((j) => j.state)).toEqual(['done', 'queued']);
    expect((await admin.api.delete(`/events/${event.id}`)).status).toBe(204);
    expect((await reminderJobs(event.id)).map((j) => [j.state, j.last_error])).toEqual([
      ['done', 'cancelled'],
      ['done', 'cancelled'],
    ]);
    // a draft never had one
    const draft = await createEvent(admin.api, { startsUtc: futureStart(60, 18), status: 'draft' });
    expect(await reminderJobs(draft.id)).toEqual([]);
  });
});

describe('reminderMinutes is checked', () => {
  it('whole minutes above 0 and at most 30 days, or null: anything else is 400 svc_invalid_param naming it, and nothing is stored', async () => {
    const [{ n: before }] = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from svc_events`);
    for (const bad of [0, -5, 1.5, 43_201, '60', true]) {
      const res = await admin.api.post('/events', { title: 'Bad lead', startsUtc: futureStart(70, 18), reminderMinutes: bad });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('svc_invalid_param');
      expect(res.body.data.params).toHaveProperty(['reminderMinutes']);
    }
    const [{ n: after }] = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from svc_events`);
    expect(after).toBe(before);

    const event = await createEvent(admin.api, { startsUtc: futureStart(70, 18), reminderMinutes: 43_200 });
    expect(event.reminderMinutes).toBe(43_200);
    const patched = await admin.api.patch(`/events/${event.id}`, { reminderMinutes: 0 });
    expect(patched.status).toBe(400);
    expect(patched.body.code).toBe('svc_invalid_param');
    expect(JSON.stringify(Object.keys(patched.body.data.params))).toContain('reminderMinutes');
    expect((await admin.api.get(`/events/${event.id}`)).body.reminderMinutes).toBe(43_200);
  });
});

describe('once per attendee, whatever crashes', () => {
  it('a run that dies after its first batch mailed it: the job mails only the rest, one mail per attendee, and a second run none', async () => {
    const start = futureStart(80, 18);
    const event = await createEvent(admin.api, { startsUtc: start });
    await going(event.id, 5);
    const ids = (await attendeeRows(srv, event.id)).map((r) => r.id as number);
    const plan = { eventId: event.id, startsUtc: event.startsUtc, minutesBefore: 1440 };
    const due = at(futureStart(79, 18)) + 1000;
    // the second batch (the 3rd and 4th attendee) fails as a killed process would: its transaction never commits
    await db().execute(sql`create function svc_test_reminder_crash() returns trigger language plpgsql as $$ begin raise exception 'simulated crash'; end $$`);
    await db().execute(
      sql.raw(`create trigger svc_test_reminder_crash before insert on svc_attendee_reminders for each row
               when (new.attendee_id = ${ids[3]}) execute function svc_test_reminder_crash()`),
    );
    try {
      await expect(sendEventReminders(srv.server.ctx, plan, due, 2)).rejects.toThrow();
    } finally {
      await db().execute(sql`drop trigger svc_test_reminder_crash on svc_attendee_reminders`);
      await db().execute(sql`drop function svc_test_reminder_crash()`);
    }
    expect((await remindersOf(event.id)).map((m) => m.attendee_id)).toEqual(ids.slice(0, 2));

    await runAt(futureStart(79, 18));
    expect((await remindersOf(event.id)).map((m) => m.attendee_id).sort((a, b) => a - b)).toEqual(ids);
    // the job again, by hand: nothing left to mail
    expect(await sendEventReminders(srv.server.ctx, plan, due)).toBe(0);
    expect(await remindersOf(event.id)).toHaveLength(5);
  });
});

describe('the reminder speaks the attendee’s language', () => {
  it('an attendee who signed up in German gets a German reminder with Content-Language: de; an English one an English one', async () => {
    const event = await createEvent(admin.api, { title: 'Frühlingstreffen', startsUtc: futureStart(90, 18), timezone: 'Europe/Berlin', venue: 'Rathaus' });
    const german = uniqueEmail('de');
    const res = await apiClient(srv.url).post(
      `/events/${event.id}/signup`,
      { email: german, display_name: 'Greta Gast', quantity: 2, svc_ts: agedFormToken(srv, event.id), svc_hp: '' },
      { 'x-svc-nonce': await nonce(srv), 'accept-language': 'de-AT,de;q=0.9' },
    );
    expect(res.status).toBe(201);
    const [english] = await going(event.id, 1);

    await runAt(futureStart(89, 18));
    const plainOf = (mail: ReceivedMail) =>
      mimeParts(mail.raw)
        .find((p) => p.type === 'text/plain')!
        .text.replace(/\r\n/g, '\n');
    // the reminder, not the ticket mail (both give directions): the one without the calendar file
    const reminder = (to: string) => smtp.received.find((m) => m.to.includes(to) && plainOf(m).includes('openstreetmap') && !plainOf(m).includes('event.ics'))!;
    const de = reminder(german);
    expect(header(de, 'Content-Language')).toBe('de');
    const text = plainOf(de);
    expect(text).toContain('Hallo Greta Gast,');
    expect(text).toContain('Zur Erinnerung: Frühlingstreffen steht bevor.');
    // 18:00 UTC on the Berlin clock, in German
    expect(text).toMatch(/^Wann: .*(19|20):00 .*\(Berlin\)$/m);
    expect(text).toContain('Wo: Rathaus');
    expect(text).toContain('Wegbeschreibung: https://www.openstreetmap.org/search?query=Rathaus');
    expect(text).toContain('Plätze: 2');
    expect(text).not.toMatch(/Hello|Reminder|Directions/);
    const html = mimeParts(de.raw).find((p) => p.type === 'text/html')!.text;
    expect(html).toContain('<html lang="de" dir="ltr">');
    // the directions line is a named link in the HTML part (its target is always OpenStreetMap)
    expect(html).toContain('<a href="https://www.openstreetmap.org/search?query=Rathaus">Wegbeschreibung</a>');
    expect(header(reminder(english!), 'Content-Language')).toBe('en');
    expect((await remindersOf(event.id)).map((m) => [m.to, m.subject, m.language])).toEqual([
      [german, 'Erinnerung: Frühlingstreffen', 'de'],
      [english, 'Reminder: Frühlingstreffen', 'en'],
    ]);
  });
});
