/**
 * Attendees in bulk (docs/api.md#attendees-in-bulk): an administrator adds a comp ticket, acts on
 * a selection as a durable job with progress, and writes to an event's people through the outbox.
 * Every row fires the contract's hooks exactly as its single-row route does.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../server/db/client';
import { attendeesRepository } from '../../server/modules/attendees/attendees.repository';
import { createAttendee } from '../helpers/checkin';
import { loginAs } from '../helpers/http';
import { createEvent } from '../helpers/registration';
import { useTestServer } from '../helpers/test-server';

const { server: srv, admin, db, hooks } = useTestServer({ env: { SVC_JOBS: 'off' } });

type Call = [string, ...unknown[]];
const calls: Call[] = [];
const undo: Array<() => void> = [];
const HOOKS = ['svc_rsvp_submitted', 'svc_attendee_status_changed', 'svc_rsvp_cancelled', 'svc_pro_attendee_checked_in'] as const;
function record(): void {
  for (const name of HOOKS) {
    const cb = (...args: unknown[]) => void calls.push([name, ...args]);
    hooks().addAction(name, cb as never, 99, 3);
    undo.push(() => hooks().removeAction(name, cb as never, 99));
  }
}
afterEach(() => {
  for (const u of undo.splice(0)) u();
  calls.length = 0;
});

async function staffSession(eventIds: number[]) {
  const email = `staff-${Math.random().toString(36).slice(2)}@example.test`;
  expect((await admin.api.post('/users', { email, role: 'staff', password: 'long enough password', eventIds })).status).toBe(201);
  return loginAs(srv.url, email, 'long enough password');
}

async function mailsTo(addresses: string[], subjectLike = '%'): Promise<number> {
  if (addresses.length === 0) return 0;
  const rows = await queryRows<{ n: number }>(
    db(),
    sql`select count(*)::int as n from svc_outbox where to_address in (${sql.join(
      addresses.map((a) => sql`${a}`),
      sql`, `,
    )}) and subject like ${subjectLike}`,
  );
  return Number(rows[0]!.n);
}

const statusOf = async (id: number) => (await attendeesRepository(db()).findById(id))!.status;
const emailOf = async (id: number) => (await attendeesRepository(db()).findById(id))!.email;

describe('POST /events/{id}/attendees', () => {
  it('adds a comp ticket with or without its mail, never beyond capacity, administrators only', async () => {
    record();
    const event = await createEvent(admin.api, { capacity: 3, waitlist: true });
    const bad = await admin.api.post(`/events/${event.id}/attendees`, { email: 'not-an-address', displayName: '', quantity: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('svc_invalid_param');
    expect(Object.keys(bad.body.data.params).sort()).toEqual(['displayName', 'email', 'quantity']);

    const staff = await staffSession([event.id]);
    expect((await staff.api.post(`/events/${event.id}/attendees`, { email: 'x@example.test', displayName: 'X', quantity: 1 })).status).toBe(403);

    const mailed = await admin.api.post(`/events/${event.id}/attendees`, { email: 'comp@example.test', displayName: 'Comp Guest', quantity: 2 });
    expect(mailed.status).toBe(201);
    expect(mailed.body).toMatchObject({ status: 'going', quantity: 2, email: 'comp@example.test' });
    const quiet = await admin.api.post(`/events/${event.id}/attendees`, { email: 'quiet@example.test', displayName: 'Quiet', quantity: 1, notify: false });
    expect(quiet.status).toBe(201);
    // both fire svc_rsvp_submitted as a sign-up does; only the first is mailed
    expect(calls.filter((c) => c[0] === 'svc_rsvp_submitted').map((c) => c[1])).toEqual([mailed.body.id, quiet.body.id]);
    expect(await mailsTo(['comp@example.test'])).toBe(1);
    expect(await mailsTo(['quiet@example.test'])).toBe(0);

    // the event is full now: going is refused with the seats left, the waitlist takes the person
    const full = await admin.api.post(`/events/${event.id}/attendees`, { email: 'late@example.test', displayName: 'Late', quantity: 1 });
    expect(full.status).toBe(409);
    expect(full.body).toMatchObject({ code: 'svc_event_full', data: { seatsLeft: 0 } });
    const waiting = await admin.api.post(`/events/${event.id}/attendees`, { email: 'late@example.test', displayName: 'Late', quantity: 1, status: 'waitlist' });
    expect(waiting.body.status).toBe('waitlist');
    expect((await admin.api.post('/events/999999/attendees', { email: 'a@example.test', displayName: 'A', quantity: 1 })).status).toBe(404);
  });
});

describe('POST /attendees/bulk and GET /jobs/{id}', () => {
  it('names the bad field, refuses staff, and hides other jobs', async () => {
    const event = await createEvent(admin.api, { capacity: 10 });
    const a = await createAttendee(db(), event.id);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ eventId: event.id, action: 'cancel' }, 'ids'],
      [{ eventId: event.id, action: 'cancel', ids: [a.id], query: {} }, 'ids'],
      [{ eventId: event.id, action: 'message', ids: [a.id] }, 'message'],
      [{ eventId: event.id, action: 'explode', ids: [a.id] }, 'action'],
      [{ eventId: 999999, action: 'cancel', ids: [a.id] }, 'eventId'],
      [{ eventId: event.id, action: 'cancel', ids: [a.id, 999999] }, 'ids'],
    ];
    for (const [body, field] of cases) {
      const res = await admin.api.post('/attendees/bulk', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('svc_invalid_param');
      expect(Object.keys(res.body.data.params)).toContain(field);
    }
    const staff = await staffSession([event.id]);
    expect((await staff.api.post('/attendees/bulk', { eventId: event.id, action: 'cancel', ids: [a.id] })).status).toBe(403);
    const started = await admin.api.post('/attendees/bulk', { eventId: event.id, action: 'resend', ids: [a.id] });
    expect(started.status).toBe(202);
    expect((await staff.api.get(`/jobs/${started.body.jobId}`)).status).toBe(403);
    // a job of another kind (a mail's) is not found: its payload never shows
    const [other] = await queryRows<{ id: number }>(db(), sql`select id from svc_jobs where type <> 'attendees.bulk' order by id desc limit 1`);
    expect((await admin.api.get(`/jobs/${other!.id}`)).status).toBe(404);
  });

  it('moves the waitlist to going within capacity, then cancels, each row a status change with its mail; progress reaches the total', async () => {
    record();
    const event = await createEvent(admin.api, { capacity: 5, waitlist: true });
    for (let i = 0; i < 3; i++) await createAttendee(db(), event.id);
    const waitlisted = [];
    for (let i = 0; i < 4; i++) waitlisted.push((await createAttendee(db(), event.id, { status: 'waitlist' })).id);

    const going = await admin.api.post('/attendees/bulk', { eventId: event.id, action: 'going', query: { status: 'waitlist' } });
    expect(going.status).toBe(202);
    expect(going.body.count).toBe(4);
    expect((await admin.api.get(`/jobs/${going.body.jobId}`)).body).toMatchObject({ state: 'queued', total: 4, done: 0 });
    await srv.server.ctx.jobs.runDue();
    const moved = waitlisted.slice(0, 2);
    expect((await admin.api.get(`/jobs/${going.body.jobId}`)).body).toMatchObject({
      action: 'going',
      state: 'done',
      total: 4,
      done: 2,
      failed: 2,
      skipped: 0,
      undo: [{ action: 'waitlist', ids: moved }],
    });
    expect(await Promise.all(waitlisted.map(statusOf))).toEqual(['going', 'going', 'waitlist', 'waitlist']);
    expect(calls.filter((c) => c[0] === 'svc_attendee_status_changed')).toEqual(moved.map((id) => ['svc_attendee_status_changed', id, 'going', 'waitlist']));
    // the moved rows are mailed their ticket, as a single PATCH does
    expect(await mailsTo(await Promise.all(moved.map(emailOf)))).toBe(2);

    calls.length = 0;
    const cancel = await admin.api.post('/attendees/bulk', { eventId: event.id, action: 'cancel', ids: moved });
    expect(cancel.body.count).toBe(2);
    await srv.server.ctx.jobs.runDue();
    const cancelled = (await admin.api.get(`/jobs/${cancel.body.jobId}`)).body;
    expect(cancelled).toMatchObject({ state: 'done', total: 2, done: 2, failed: 0, undo: [{ action: 'going', ids: moved }] });
    expect(calls).toEqual(moved.map((id) => ['svc_attendee_status_changed', id, 'cancelled', 'going']));
    expect(calls.some((c) => c[0] === 'svc_rsvp_cancelled')).toBe(false);

    // undo: the inverse request the job answers puts the rows back, a status change again
    calls.length = 0;
    const undone = await admin.api.post('/attendees/bulk', { eventId: event.id, ...cancelled.undo[0] });
    await srv.server.ctx.jobs.runDue();
    expect((await admin.api.get(`/jobs/${undone.body.jobId}`)).body).toMatchObject({ done: 2 });
    expect(await Promise.all(moved.map(statusOf))).toEqual(['going', 'going']);
    expect(calls).toEqual(moved.map((id) => ['svc_attendee_status_changed', id, 'going', 'cancelled']));
  });

  it('resends tickets and checks in through the check-in service, skipping what is already done', async () => {
    record();
    const event = await createEvent(admin.api, { capacity: 10 });
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await createAttendee(db(), event.id, { name: `Searchable ${i}` })).id);
    const waiting = await createAttendee(db(), event.id, { status: 'waitlist', name: 'Searchable W' });

    const resend = await admin.api.post('/attendees/bulk', { eventId: event.id, action: 'resend', query: { search: 'searchable' } });
    expect(resend.body.count).toBe(4);
    await srv.server.ctx.jobs.runDue();
    expect(await mailsTo(await Promise.all([...ids, waiting.id].map(emailOf)))).toBe(4);

    const first = await admin.api.post('/attendees/bulk', { eventId: event.id, action: 'checkin', ids: [ids[0]] });
    await srv.server.ctx.jobs.runDue();
    expect((await admin.api.get(`/jobs/${first.body.jobId}`)).body).toMatchObject({ done: 1 });
    calls.length = 0;
    const all = await admin.api.post('/attendees/bulk', { eventId: event.id, action: 'checkin', ids: [...ids, waiting.id] });
    await srv.server.ctx.jobs.runDue();
    // the waitlisted row is refused as the door refuses it; the one already in is left alone
    expect((await admin.api.get(`/jobs/${all.body.jobId}`)).body).toMatchObject({ total: 4, done: 2, failed: 1, skipped: 1 });
    expect(calls.filter((c) => c[0] === 'svc_pro_attendee_checked_in').map((c) => c[2])).toEqual(ids.slice(1));
  });
});

describe('POST /events/{id}/messages', () => {
  it('counts and previews first, then queues one mail per person in their language, listed in the outbox', async () => {
    const event = await createEvent(admin.api, { capacity: 10, waitlist: true, title: 'Harbour walk' });
    const going = [];
    for (let i = 0; i < 3; i++) going.push((await createAttendee(db(), event.id)).id);
    const waiting = (await createAttendee(db(), event.id, { status: 'waitlist' })).id;
    await createAttendee(db(), event.id, { status: 'cancelled' });
    await db().execute(sql`update svc_attendees set language = 'de' where id = ${going[1]!}`);

    const bad = await admin.api.post(`/events/${event.id}/messages`, { to: 'everyone', subject: '', body: 'x' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.data.params).sort()).toEqual(['subject', 'to']);
    const staff = await staffSession([event.id]);
    expect((await staff.api.post(`/events/${event.id}/messages`, { to: 'all', subject: 'S', body: 'B' })).status).toBe(403);

    const words = { subject: 'Meet at gate 3', body: 'We start at the north gate, not the south one.' };
    const dry = await admin.api.post(`/events/${event.id}/messages`, { to: 'going', ...words, dryRun: true });
    expect(dry.status).toBe(202);
    expect(dry.body).toMatchObject({ count: 3, jobId: null, preview: { subject: words.subject } });
    expect(dry.body.preview.text).toContain(words.body);
    expect(dry.body.preview.text).toContain('Harbour walk');
    expect(await mailsTo(await Promise.all(going.map(emailOf)), words.subject)).toBe(0);

    const sent = await admin.api.post(`/events/${event.id}/messages`, { to: 'all', ...words });
    expect(sent.body.count).toBe(4);
    await srv.server.ctx.jobs.runDue();
    expect((await admin.api.get(`/jobs/${sent.body.jobId}`)).body).toMatchObject({ action: 'message', state: 'done', total: 4, done: 4 });
    expect(await mailsTo(await Promise.all([...going, waiting].map(emailOf)), words.subject)).toBe(4);
    const [german] = await queryRows<{ text: string }>(
      db(),
      sql`select text from svc_outbox where to_address = ${await emailOf(going[1]!)} and subject = ${words.subject}`,
    );
    expect(german!.text).toContain('Diese Nachricht betrifft Harbour walk');
    expect(german!.text).toContain(words.body);
    // the outbox lists them, their secrets masked
    const listed = await admin.api.get('/outbox?perPage=50');
    expect((listed.body as Array<{ subject: string }>).filter((m) => m.subject === words.subject)).toHaveLength(4);
  });
});
