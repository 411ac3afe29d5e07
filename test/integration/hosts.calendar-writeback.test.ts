import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { CALENDAR_WRITEBACK_JOB, runWriteBack } from '../../server/modules/hosts/calendar-writeback';
import { bookingBody, createType, disableIpThrottle, futureStart, submitBooking } from '../helpers/booking';
import { apiClient, loginAs } from '../helpers/http';
import { paymentIdOf } from '../helpers/payments';
import { startRadicale, type Radicale } from '../helpers/radicale';
import { useTestServer } from '../helpers/test-server';

// Bookings written into the host's CalDAV calendar (docs/api.md#host-calendars, write-back), read back from a real Radicale.
const { server: srv, admin, db, hooks } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off', SVC_WEBHOOKS_ALLOW_PRIVATE: '1' } });

let radicale: Radicale;
beforeAll(async () => {
  radicale = await startRadicale();
  disableIpThrottle(hooks());
});
afterAll(() => radicale?.stop());

const auth = () => ({ authorization: `Basic ${Buffer.from(`${radicale.username}:${radicale.password}`).toString('base64')}` });
const at = (days: number, hour: number) => futureStart(days, hour);
const day = (days: number) => futureStart(days, 0).slice(0, 10);
const stamp = (utc: string) => utc.replace(/[-: ]/g, '').replace(/^(\d{8})(\d{6})$/, '$1T$2Z');
const runJobs = (nowMs?: number) => srv.server.ctx.jobs.runDue(nowMs);

let seq = 0;
/** A signed-in host with a fresh Radicale calendar connected (as their write-back calendar unless `writeBack: false`). */
async function hostWithWriteBack(writeBack = true) {
  seq += 1;
  const email = `wb-host${seq}-${process.pid}@example.test`;
  const created = await admin.api.post('/users', { email, displayName: `Write-back host ${seq}`, role: 'host', password: 'long enough password' });
  expect(created.status).toBe(201);
  const id = created.body.id as number;
  const session = await loginAs(srv.url, email, 'long enough password');
  const calendar = await radicale.makeCalendar(`writeback-${seq}`);
  const made = await session.api.post(`/hosts/${id}/calendars`, {
    kind: 'caldav',
    url: calendar,
    username: radicale.username,
    password: radicale.password,
    writeBack,
  });
  expect(made.status).toBe(201);
  expect(made.body.writeBack).toBe(writeBack);
  return { id, session, calendar, calendarId: made.body.id as number };
}

/** The calendar's objects (their hrefs) by PROPFIND depth 1: what is really stored. */
async function objectsIn(calendar: string): Promise<string[]> {
  const res = await fetch(calendar, { method: 'PROPFIND', headers: { ...auth(), depth: '1', 'content-type': 'application/xml' } });
  expect(res.status).toBe(207);
  return [...(await res.text()).matchAll(/<(?:\w+:)?href>([^<]+\.ics)<\/(?:\w+:)?href>/g)].map((m) => decodeURIComponent(m[1]!));
}

/** GET of the booking's resource: its text, or null when it is not there. */
async function eventAt(calendar: string, uid: string): Promise<string | null> {
  const res = await fetch(`${calendar}${encodeURIComponent(uid)}.ics`, { headers: auth() });
  if (res.status === 404) return null;
  expect(res.status).toBe(200);
  return (await res.text()).replace(/\r\n /g, '');
}

async function book(typeId: number, startUtc: string) {
  const res = await submitBooking(srv.url, bookingBody(typeId, startUtc, { customerName: 'Rosa Customer' }));
  expect(res.status).toBe(201);
  const paymentUrl = res.body.paymentUrl as string | undefined;
  const [row] = await queryRows<{ cancel_token: string; customer_email: string }>(
    db(),
    sql`select cancel_token, customer_email from svc_bookings where booking_id = ${res.body.bookingId}`,
  );
  return { id: res.body.bookingId as number, uid: res.body.calendarUid as string, token: row!.cancel_token, email: row!.customer_email, paymentUrl };
}

async function slotsOn(typeId: number, days: number) {
  const res = await apiClient(srv.url).get(`/booking-types/${typeId}/slots?from=${day(days)}&to=${day(days)}`);
  expect(res.status).toBe(200);
  return res.body.slots as Array<{ start_utc: string; capacity_left: number }>;
}

async function writeBackJobs(bookingId: number) {
  return queryRows<{ state: string; attempts: number; last_error: string | null }>(
    db(),
    sql`select state, attempts, last_error from svc_jobs where type = ${CALENDAR_WRITEBACK_JOB} and (payload->>'bookingId')::int = ${bookingId} order by id`,
  );
}

describe('host calendar write-back', () => {
  it("a confirmed booking appears in the host's calendar under the invite's UID, and its own event blocks nothing besides itself", async () => {
    const host = await hostWithWriteBack();
    // two seats: were the booking's own event read back as busy time, the second seat would vanish
    const type = await createType(admin.api, { hosts: [host.id], capacity: 2, title: 'Group consultation' });
    const b = await book(type.id, at(5, 10));
    await runJobs();

    const event = await eventAt(host.calendar, b.uid);
    expect(event).not.toBeNull();
    expect(event).toContain(`UID:${b.uid}`);
    expect(event).toContain(`DTSTART:${stamp(at(5, 10))}`);
    expect(event).toContain(`DTEND:${stamp(at(5, 11))}`);
    expect(event).toContain('SUMMARY:Group consultation');
    expect(event).toContain('Rosa Customer');
    expect(event).toContain(b.email);
    expect(event).toContain('STATUS:CONFIRMED');
    // the manage link is the visitor's secret; no ORGANIZER/ATTENDEE, so no server mails a second invite
    expect(event).not.toContain(b.token);
    expect(event).not.toMatch(/^(ORGANIZER|ATTENDEE|METHOD)/m);
    // the mailed invite carries the same UID
    const [mail] = await queryRows<{ attachments: Array<{ filename: string; content: string }> }>(
      db(),
      sql`select attachments from svc_outbox where to_address = ${b.email} order by id limit 1`,
    );
    const invite = mail!.attachments.find((a) => a.filename === 'invite.ics')!;
    expect(Buffer.from(invite.content, 'base64').toString()).toContain(`UID:${b.uid}`);
    expect(await objectsIn(host.calendar)).toEqual([expect.stringContaining(`${b.uid}.ics`)]);

    // the host's calendar is read again: the booking's own event is not busy time
    const refreshed = await host.session.api.post(`/calendars/${host.calendarId}/refresh`);
    expect(refreshed.body).toMatchObject({ status: 'ok', busyCount: 0 });
    expect((await slotsOn(type.id, 5)).find((s) => s.start_utc === at(5, 10))).toMatchObject({ capacity_left: 1 });
    // and an event of the host's own with another UID still blocks
    await radicale.putEvent(
      host.calendar,
      'dentist',
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//svc test//EN',
        'BEGIN:VEVENT',
        'UID:dentist',
        'DTSTAMP:20260101T000000Z',
        `DTSTART:${stamp(at(5, 14))}`,
        `DTEND:${stamp(at(5, 15))}`,
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    );
    expect((await host.session.api.post(`/calendars/${host.calendarId}/refresh`)).body).toMatchObject({ busyCount: 1 });
    expect((await slotsOn(type.id, 5)).map((s) => s.start_utc)).not.toContain(at(5, 14));
  });

  it('a moved booking moves its event (same resource, new times, higher sequence); a cancelled one is removed', async () => {
    const host = await hostWithWriteBack();
    const type = await createType(admin.api, { hosts: [host.id] });
    const b = await book(type.id, at(6, 9));
    await runJobs();
    expect(await eventAt(host.calendar, b.uid)).toContain(`DTSTART:${stamp(at(6, 9))}`);

    const moved = await apiClient(srv.url).patch(`/bookings/${b.token}/reschedule`, { startUtc: at(7, 15) });
    expect(moved.status).toBe(200);
    await runJobs();
    const event = await eventAt(host.calendar, b.uid);
    expect(event).toContain(`DTSTART:${stamp(at(7, 15))}`);
    expect(event).toContain(`DTEND:${stamp(at(7, 16))}`);
    expect(event).toContain('SEQUENCE:1');
    expect(await objectsIn(host.calendar)).toHaveLength(1);

    const cancelled = await apiClient(srv.url).delete(`/bookings/${b.token}`);
    expect(cancelled.status).toBe(204);
    await runJobs();
    expect(await eventAt(host.calendar, b.uid)).toBeNull();
    expect(await objectsIn(host.calendar)).toEqual([]);
    expect((await writeBackJobs(b.id)).map((j) => j.state)).toEqual(['done', 'done', 'done']);
  });

  it('with the calendar server down the write fails without a credential in its error, is retried, and arrives once it is back', async () => {
    const host = await hostWithWriteBack();
    const type = await createType(admin.api, { hosts: [host.id] });
    await radicale.pause();
    let b: Awaited<ReturnType<typeof book>>;
    try {
      b = await book(type.id, at(8, 11));
      await runJobs();
      const [failed] = await writeBackJobs(b.id);
      expect(failed).toMatchObject({ state: 'queued', attempts: 1 });
      expect(failed!.last_error).toMatch(/could not be reached/);
      expect(failed!.last_error).not.toContain(radicale.password);
      expect(failed!.last_error).not.toContain(host.calendar);
      expect(failed!.last_error).not.toContain(Buffer.from(`${radicale.username}:${radicale.password}`).toString('base64'));
    } finally {
      await radicale.resume();
    }
    expect(await eventAt(host.calendar, b.uid)).toBeNull();
    // the retry's backoff has passed
    await runJobs(Date.now() + 3_600_000);
    expect(await eventAt(host.calendar, b.uid)).toContain(`DTSTART:${stamp(at(8, 11))}`);
    expect(await writeBackJobs(b.id)).toEqual([expect.objectContaining({ state: 'done', attempts: 2 })]);
  });

  it('a replayed write never makes a second copy, and a write that runs after the cancel removes instead of re-creating', async () => {
    const host = await hostWithWriteBack();
    const type = await createType(admin.api, { hosts: [host.id] });
    const b = await book(type.id, at(9, 10));
    await runJobs();
    // the same create again (a replayed job: the If-None-Match create finds it, 412, and updates in place)
    expect(await runWriteBack(srv.server.ctx, b.id, true)).toBe('written');
    expect(await runWriteBack(srv.server.ctx, b.id, true)).toBe('written');
    expect(await objectsIn(host.calendar)).toEqual([expect.stringContaining(`${b.uid}.ics`)]);

    // booked and cancelled before any job ran: the create job reads the booking as cancelled
    const late = await book(type.id, at(9, 14));
    expect((await apiClient(srv.url).delete(`/bookings/${late.token}`)).status).toBe(204);
    await runJobs();
    await radicale.settled();
    expect(await eventAt(host.calendar, late.uid)).toBeNull();
    const putsOf = (uid: string) =>
      radicale.requests().filter((line) => line.includes('PUT request for') && line.includes(`/${uid.slice(0, uid.indexOf('@'))}`));
    // the create, then per replay the refused If-None-Match create (412) and the update in place
    expect(putsOf(b.uid)).toHaveLength(5);
    expect(putsOf(late.uid)).toEqual([]);
    // a removal of what is not there is a success
    expect(await runWriteBack(srv.server.ctx, late.id, false)).toBe('removed');
    expect(await objectsIn(host.calendar)).toHaveLength(1);
  });

  it('a booking awaiting approval is written only once approved; a host without a write-back calendar queues nothing', async () => {
    const host = await hostWithWriteBack();
    const type = await createType(admin.api, { hosts: [host.id], requiresApproval: true });
    const b = await book(type.id, at(10, 10));
    await runJobs();
    expect(await writeBackJobs(b.id)).toEqual([]);
    expect(await eventAt(host.calendar, b.uid)).toBeNull();
    expect((await admin.api.post(`/bookings/${b.id}/approve`)).status).toBe(200);
    await runJobs();
    expect(await eventAt(host.calendar, b.uid)).toContain('STATUS:CONFIRMED');

    const readOnly = await hostWithWriteBack(false);
    const other = await book((await createType(admin.api, { hosts: [readOnly.id] })).id, at(10, 12));
    await runJobs();
    expect(await writeBackJobs(other.id)).toEqual([]);
    expect(await objectsIn(readOnly.calendar)).toEqual([]);
  });

  it('a booking awaiting payment is not written while held, and is written once paid', async () => {
    const host = await hostWithWriteBack();
    const type = await createType(admin.api, { hosts: [host.id], priceCents: 4500 });
    const b = await book(type.id, at(11, 10));
    expect(b.paymentUrl).toBeDefined();
    await runJobs();
    expect(await writeBackJobs(b.id)).toEqual([]);
    expect(await eventAt(host.calendar, b.uid)).toBeNull();

    expect((await apiClient(srv.url).post(`/payments/local/${paymentIdOf(b.paymentUrl!)}/pay`)).status).toBe(202);
    await srv.server.ctx.jobs.idle();
    expect(await eventAt(host.calendar, b.uid)).toContain(`DTSTART:${stamp(at(11, 10))}`);
  });

  it('a host has one write-back calendar: a second is refused naming writeBack, and a read-only one may be added beside it', async () => {
    const host = await hostWithWriteBack();
    const second = await radicale.makeCalendar(`writeback-second-${seq}`);
    const body = { kind: 'caldav', url: second, username: radicale.username, password: radicale.password };
    const refused = await host.session.api.post(`/hosts/${host.id}/calendars`, { ...body, writeBack: true });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'svc_invalid_param', data: { params: { writeBack: expect.any(String) } } });
    expect((await host.session.api.get(`/hosts/${host.id}/calendars`)).body).toHaveLength(1);
    const beside = await host.session.api.post(`/hosts/${host.id}/calendars`, body);
    expect(beside.status).toBe(201);
    expect(beside.body.writeBack).toBe(false);
  });
});
