import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { checkinRepository } from '../../server/modules/checkin/checkin.repository';
import { useTestServer } from '../helpers/test-server';
import { apiClient } from '../helpers/http';
import { createAttendee, createEvent, pairDevice } from '../helpers/checkin';

const { server: srv, admin, db } = useTestServer({ env: { SVC_JOBS: 'off' } });
const fired: Array<unknown[]> = [];

beforeAll(async () => {
  srv.server.ctx.hooks.addAction('svc_pro_attendee_checked_in', (...args: unknown[]) => void fired.push(args), 10, 3);
});

describe('POST /svc/v1/checkins', () => {
  it('checks in by ticket code: 201 ok, one row, svc_pro_attendee_checked_in(checkinId, attendeeId, eventId) once', async () => {
    const event = await createEvent(db());
    const a = await createAttendee(db(), event.id, { name: 'Ada' });
    fired.length = 0;
    const res = await admin.api.post('/checkins', { ticketCode: a.ticketCode, eventId: event.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ attendeeId: a.id, eventId: event.id, verdict: 'ok', displayName: 'Ada', quantity: 1, previous: null, duplicate: false });
    expect(fired).toEqual([[res.body.checkinId, a.id, event.id]]);
    const rows = await queryRows<{ source: string; device_id: number | null }>(
      db(),
      sql`select source, device_id from svc_checkins where attendee_id = ${a.id}`,
    );
    expect(rows).toEqual([{ source: 'rest', device_id: null }]);
  });

  it('a re-scan creates a second row and fires a second action, answering again with the previous time and who scanned', async () => {
    const event = await createEvent(db());
    const a = await createAttendee(db(), event.id);
    const first = await admin.api.post('/checkins', { attendeeId: a.id, eventId: event.id, scannedUtc: '2030-06-01 18:05:00' });
    fired.length = 0;
    const again = await admin.api.post('/checkins', { ticketCode: a.ticketCode, eventId: event.id });
    expect(again.status).toBe(201);
    expect(again.body.verdict).toBe('again');
    expect(again.body.checkinId).not.toBe(first.body.checkinId);
    expect(again.body.previous).toEqual({ checkinId: first.body.checkinId, scannedUtc: '2030-06-01 18:05:00', deviceId: null, deviceName: 'Administrator' });
    expect(fired).toEqual([[again.body.checkinId, a.id, event.id]]);
  });

  it('again names the door device of the previous check-in', async () => {
    const event = await createEvent(db());
    const a = await createAttendee(db(), event.id);
    const device = await pairDevice(srv.url, admin.api, [event.id], 'North door');
    const door = apiClient(srv.url, { bearer: device.token });
    expect((await door.post('/checkins', { ticketCode: a.ticketCode, eventId: event.id })).status).toBe(201);
    const again = await admin.api.post('/checkins', { ticketCode: a.ticketCode, eventId: event.id });
    expect(again.body.previous).toMatchObject({ deviceId: device.id, deviceName: 'North door' });
  });

  it('a repeated clientId answers 200 with the original checkinId, stores nothing and fires nothing', async () => {
    const event = await createEvent(db());
    const a = await createAttendee(db(), event.id);
    const clientId = randomUUID();
    const first = await admin.api.post('/checkins', { ticketCode: a.ticketCode, eventId: event.id, clientId });
    expect(first.status).toBe(201);
    fired.length = 0;
    const repeat = await admin.api.post('/checkins', { ticketCode: a.ticketCode, eventId: event.id, clientId });
    expect(repeat.status).toBe(200);
    expect(repeat.body).toMatchObject({ checkinId: first.body.checkinId, verdict: 'ok', duplicate: true });
    expect(fired).toEqual([]);
    const [{ n }] = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from svc_checkins where attendee_id = ${a.id}`);
    expect(n).toBe(1);
  });

  it.each([
    ['cancelled', 409, 'svc_ticket_cancelled'],
    ['waitlist', 409, 'svc_ticket_waitlist'],
  ])('a %s attendee is refused with %i %s, logged as a failed scan, no row, no action', async (status, httpStatus, code) => {
    const event = await createEvent(db());
    const a = await createAttendee(db(), event.id, { status });
    fired.length = 0;
    const res = await admin.api.post('/checkins', { ticketCode: a.ticketCode, eventId: event.id });
    expect(res.status).toBe(httpStatus);
    expect(res.body.code).toBe(code);
    expect(fired).toEqual([]);
    const log = await queryRows<{ reason: string; code_hash: string }>(db(), sql`select reason, code_hash from svc_scan_log where attendee_id = ${a.id}`);
    expect(log).toEqual([{ reason: status, code_hash: a.codeHash }]);
    const [{ n }] = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from svc_checkins where attendee_id = ${a.id}`);
    expect(n).toBe(0);
  });

  it('a ticket of another event answers 409 svc_ticket_wrong_event', async () => {
    const [e1, e2] = [await createEvent(db()), await createEvent(db())];
    const a = await createAttendee(db(), e1.id);
    const res = await admin.api.post('/checkins', { ticketCode: a.ticketCode, eventId: e2.id });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('svc_ticket_wrong_event');
  });

  it('an unknown code answers 404 svc_ticket_unknown and the log keeps only its hash, never the code', async () => {
    const event = await createEvent(db());
    const res = await admin.api.post('/checkins', { ticketCode: 'not-a-real-ticket-code', eventId: event.id });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('svc_ticket_unknown');
    const log = await queryRows<Record<string, unknown>>(db(), sql`select * from svc_scan_log where event_id = ${event.id}`);
    expect(log).toHaveLength(1);
    expect(JSON.stringify(log)).not.toContain('not-a-real-ticket-code');
    expect(log[0]!.reason).toBe('unknown');
  });

  it('validates input before anything else: neither ticketCode nor attendeeId → 400 svc_invalid_param', async () => {
    const res = await admin.api.post('/checkins', { eventId: 1 });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('svc_invalid_param');
    expect(res.body.data.params).toHaveProperty('ticketCode');
  });

  it('needs a signed-in administrator or staff: 401 without credentials', async () => {
    const res = await apiClient(srv.url).post('/checkins', { attendeeId: 1, eventId: 1 });
    expect(res.status).toBe(401);
  });

  it('a staff device may only check in at its own events (403)', async () => {
    const [mine, other] = [await createEvent(db()), await createEvent(db())];
    const a = await createAttendee(db(), other.id);
    const device = await pairDevice(srv.url, admin.api, [mine.id]);
    const res = await apiClient(srv.url, { bearer: device.token }).post('/checkins', { ticketCode: a.ticketCode, eventId: other.id });
    expect(res.status).toBe(403);
  });
});

describe('a failed check-in insert', () => {
  it('the repository returns 0 when the insert fails (no such event: foreign key)', async () => {
    const id = await checkinRepository(db()).insert({
      attendeeId: 1,
      eventId: 999_999,
      scannedUtc: '2030-06-01 18:00:00',
      deviceId: null,
      userId: null,
      clientId: randomUUID(),
      source: 'rest',
      conflict: null,
    });
    expect(id).toBe(0);
  });

  it('POST /checkins answers 500 svc_internal and fires nothing', async () => {
    const event = await createEvent(db());
    const a = await createAttendee(db(), event.id);
    // A trigger that refuses this attendee's check-ins stands in for a failing database write.
    await db().execute(
      sql.raw(`create function svc_test_refuse() returns trigger language plpgsql as $$ begin
                 if new.attendee_id = ${a.id} then raise exception 'refused by test'; end if; return new; end $$`),
    );
    await db().execute(sql.raw('create trigger svc_test_refuse before insert on svc_checkins for each row execute function svc_test_refuse()'));
    try {
      fired.length = 0;
      const res = await admin.api.post('/checkins', { ticketCode: a.ticketCode, eventId: event.id });
      expect(res.status).toBe(500);
      expect(res.body.code).toBe('svc_internal');
      expect(fired).toEqual([]);
    } finally {
      await db().execute(sql.raw('drop trigger svc_test_refuse on svc_checkins'));
      await db().execute(sql.raw('drop function svc_test_refuse()'));
    }
  });
});

describe('annul and counts', () => {
  it('counts going attendees, distinct checked-in attendees, scans and conflicts; an annulled check-in is kept but not counted', async () => {
    const event = await createEvent(db());
    const [a, b] = [await createAttendee(db(), event.id), await createAttendee(db(), event.id)];
    await createAttendee(db(), event.id, { status: 'cancelled' });
    const first = await admin.api.post('/checkins', { ticketCode: a.ticketCode, eventId: event.id });
    await admin.api.post('/checkins', { ticketCode: a.ticketCode, eventId: event.id });
    const third = await admin.api.post('/checkins', { ticketCode: b.ticketCode, eventId: event.id });

    const before = await admin.api.get(`/checkins/counts?eventId=${event.id}`);
    expect(before.body).toEqual({
      eventId: event.id,
      attendeesGoing: 2,
      seatsGoing: 2,
      checkedIn: 2,
      seatsCheckedIn: 2,
      seatsWaitlisted: 0,
      placesLeft: null,
      scans: 3,
      conflicts: 0,
      annulled: 0,
      rejectedScans: 0,
      // an event without ticket categories has no per-category breakdown
      categories: [],
      currency: 'USD',
    });

    const annulled = await admin.api.post(`/checkins/${third.body.checkinId}/annul`);
    expect(annulled.status).toBe(200);
    expect(annulled.body.annulledUtc).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect((await admin.api.post(`/checkins/${third.body.checkinId}/annul`)).status).toBe(409);

    const after = await admin.api.get(`/checkins/counts?eventId=${event.id}`);
    expect(after.body).toMatchObject({ checkedIn: 1, scans: 2, annulled: 1 });
    const list = await admin.api.get(`/checkins?eventId=${event.id}`);
    expect(list.headers.get('x-total-count')).toBe('3');
    expect(list.body.map((c: { id: number }) => c.id)).toContain(first.body.checkinId);

    // b is checked in again as if for the first time: the annulled scan does not count.
    const rescan = await admin.api.post('/checkins', { ticketCode: b.ticketCode, eventId: event.id });
    expect(rescan.body.verdict).toBe('ok');
  });

  it('door staff may undo their own recent check-in but not another door’s', async () => {
    const event = await createEvent(db());
    const a = await createAttendee(db(), event.id);
    const [d1, d2] = [await pairDevice(srv.url, admin.api, [event.id], 'D1'), await pairDevice(srv.url, admin.api, [event.id], 'D2')];
    const door1 = apiClient(srv.url, { bearer: d1.token });
    const door2 = apiClient(srv.url, { bearer: d2.token });
    const c = await door1.post('/checkins', { ticketCode: a.ticketCode, eventId: event.id });
    expect((await door2.post(`/checkins/${c.body.checkinId}/annul`)).status).toBe(403);
    expect((await door1.post(`/checkins/${c.body.checkinId}/annul`)).status).toBe(200);
  });

  it('counts are refused to staff of other events', async () => {
    const [mine, other] = [await createEvent(db()), await createEvent(db())];
    const device = await pairDevice(srv.url, admin.api, [mine.id]);
    const door = apiClient(srv.url, { bearer: device.token });
    expect((await door.get(`/checkins/counts?eventId=${mine.id}`)).status).toBe(200);
    expect((await door.get(`/checkins/counts?eventId=${other.id}`)).status).toBe(403);
  });
});
