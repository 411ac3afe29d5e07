/**
 * The small server additions the admin app reads: attendee list ordering, per-attendee
 * check-in figures for the visible page, arrivals per 5 minutes, and slots of a draft
 * booking type for the administrator's preview.
 */
import { describe, expect, it } from 'vitest';
import { attendeesRepository } from '../../server/modules/attendees/attendees.repository';
import { createHost, createType } from '../helpers/booking';
import { createAttendee, createEvent } from '../helpers/checkin';
import { apiClient, loginAs } from '../helpers/http';
import { useTestServer } from '../helpers/test-server';

const { server: srv, admin, db } = useTestServer({ env: { SVC_JOBS: 'off' } });

async function staffFor(eventIds: number[]) {
  const email = `staff-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`;
  const created = await admin.api.post('/users', { email, role: 'staff', password: 'long enough password', eventIds });
  expect(created.status).toBe(201);
  return loginAs(srv.url, email, 'long enough password');
}

describe('GET /attendees ordering', () => {
  it('orders by a column in either direction, ties broken by id; the default stays id ascending', async () => {
    const event = await createEvent(db());
    const b = await createAttendee(db(), event.id, { name: 'Bea' });
    const a1 = await createAttendee(db(), event.id, { name: 'Ann' });
    const c = await createAttendee(db(), event.id, { name: 'Cid' });
    const a2 = await createAttendee(db(), event.id, { name: 'Ann' });
    const ids = async (query: string) => ((await admin.api.get(`/attendees?eventId=${event.id}${query}`)).body as Array<{ id: number }>).map((r) => r.id);

    expect(await ids('')).toEqual([b.id, a1.id, c.id, a2.id]);
    expect(await ids('&sort=displayName')).toEqual([a1.id, a2.id, b.id, c.id]);
    expect(await ids('&sort=displayName&order=desc')).toEqual([c.id, b.id, a2.id, a1.id]);
    expect(await ids('&sort=displayName&perPage=2&page=2')).toEqual([b.id, c.id]);
  });

  it('sorts by quantity numerically', async () => {
    const event = await createEvent(db());
    const rows = [];
    for (const quantity of [2, 10, 1]) {
      const a = await createAttendee(db(), event.id);
      await attendeesRepository(db()).update(a.id, { quantity });
      rows.push(a.id);
    }
    const res = await admin.api.get(`/attendees?eventId=${event.id}&sort=quantity&order=desc`);
    expect((res.body as Array<{ quantity: number }>).map((r) => r.quantity)).toEqual([10, 2, 1]);
  });

  it('an unknown sort column is 400 svc_invalid_param naming sort', async () => {
    const res = await admin.api.get('/attendees?sort=ticketCode');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('svc_invalid_param');
    expect(Object.keys(res.body.data.params)).toContain('sort');
  });
});

describe('GET /checkins/stats', () => {
  it('answers count, last scan time and conflicts of the named attendees of the event, annulled check-ins left out', async () => {
    const event = await createEvent(db());
    const seen = await createAttendee(db(), event.id);
    const twice = await createAttendee(db(), event.id);
    const never = await createAttendee(db(), event.id);
    await admin.api.post('/checkins', { attendeeId: seen.id, eventId: event.id, scannedUtc: '2030-06-01 18:01:00' });
    await admin.api.post('/checkins', { attendeeId: twice.id, eventId: event.id, scannedUtc: '2030-06-01 18:02:00' });
    await admin.api.post('/checkins', { attendeeId: twice.id, eventId: event.id, scannedUtc: '2030-06-01 18:07:00' });
    const annulled = await admin.api.post('/checkins', { attendeeId: twice.id, eventId: event.id, scannedUtc: '2030-06-01 18:09:00' });
    expect((await admin.api.post(`/checkins/${annulled.body.checkinId}/annul`)).status).toBe(200);

    const res = await admin.api.get(`/checkins/stats?eventId=${event.id}&attendeeIds=${seen.id},${twice.id},${never.id}`);
    expect(res.status).toBe(200);
    const byId = new Map((res.body as Array<{ attendeeId: number }>).map((s) => [s.attendeeId, s]));
    expect(byId.get(seen.id)).toEqual({ attendeeId: seen.id, checkinCount: 1, lastCheckinUtc: '2030-06-01 18:01:00', conflicts: 0 });
    expect(byId.get(twice.id)).toEqual({ attendeeId: twice.id, checkinCount: 2, lastCheckinUtc: '2030-06-01 18:07:00', conflicts: 0 });
    expect(byId.has(never.id)).toBe(false);
  });

  it('counts only check-ins of the event asked about', async () => {
    const event = await createEvent(db());
    const other = await createEvent(db());
    const a = await createAttendee(db(), event.id);
    await admin.api.post('/checkins', { attendeeId: a.id, eventId: event.id });
    const res = await admin.api.get(`/checkins/stats?eventId=${other.id}&attendeeIds=${a.id}`);
    expect(res.body).toEqual([]);
  });

  it('malformed ids are 400 (an id past the integer range too, not a 500); more than 500 ids are 400', async () => {
    expect((await admin.api.get('/checkins/stats?eventId=1&attendeeIds=1,x')).status).toBe(400);
    const huge = await admin.api.get('/checkins/stats?eventId=1&attendeeIds=1,3000000000');
    expect(huge.status).toBe(400);
    expect(huge.body.data.params).toEqual({ attendeeIds: 'must be comma-separated attendee ids' });
    const many = Array.from({ length: 501 }, (_, i) => i + 1).join(',');
    expect((await admin.api.get(`/checkins/stats?eventId=1&attendeeIds=${many}`)).status).toBe(400);
  });

  it('staff read stats of their own events only; no credentials is 401', async () => {
    const mine = await createEvent(db());
    const theirs = await createEvent(db());
    const staff = await staffFor([mine.id]);
    expect((await staff.api.get(`/checkins/stats?eventId=${mine.id}&attendeeIds=1`)).status).toBe(200);
    expect((await staff.api.get(`/checkins/stats?eventId=${theirs.id}&attendeeIds=1`)).status).toBe(403);
    expect((await apiClient(srv.url).get(`/checkins/stats?eventId=${mine.id}&attendeeIds=1`)).status).toBe(401);
  });
});

describe('GET /checkins/arrivals', () => {
  it('groups check-ins not annulled into 5-minute buckets of scan time, oldest first, empty buckets left out', async () => {
    const event = await createEvent(db());
    const people = await Promise.all([1, 2, 3, 4].map(() => createAttendee(db(), event.id)));
    const times = ['2030-06-01 18:00:00', '2030-06-01 18:04:59', '2030-06-01 18:05:00', '2030-06-01 18:31:10'];
    for (const [i, a] of people.entries()) await admin.api.post('/checkins', { attendeeId: a.id, eventId: event.id, scannedUtc: times[i] });
    const extra = await admin.api.post('/checkins', { attendeeId: people[0]!.id, eventId: event.id, scannedUtc: '2030-06-01 18:32:00' });
    await admin.api.post(`/checkins/${extra.body.checkinId}/annul`);

    const res = await admin.api.get(`/checkins/arrivals?eventId=${event.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      eventId: event.id,
      bucketMinutes: 5,
      buckets: [
        { startUtc: '2030-06-01 18:00:00', scans: 2 },
        { startUtc: '2030-06-01 18:05:00', scans: 1 },
        { startUtc: '2030-06-01 18:30:00', scans: 1 },
      ],
    });
  });

  it('an unknown event is 404; staff of another event 403', async () => {
    expect((await admin.api.get('/checkins/arrivals?eventId=999999')).status).toBe(404);
    const mine = await createEvent(db());
    const theirs = await createEvent(db());
    const staff = await staffFor([mine.id]);
    expect((await staff.api.get(`/checkins/arrivals?eventId=${theirs.id}`)).status).toBe(403);
    expect((await staff.api.get(`/checkins/arrivals?eventId=${mine.id}`)).status).toBe(200);
  });
});

describe('GET /booking-types/{id}/slots of a draft', () => {
  it('answers the administrator (preview) and stays 404 to the public', async () => {
    const host = await createHost(admin.api);
    const draft = await createType(admin.api, { status: 'draft', hosts: [host] });
    const asAdmin = await admin.api.get(`/booking-types/${draft.id}/slots`);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body.slots.length).toBeGreaterThan(0);
    expect((await apiClient(srv.url).get(`/booking-types/${draft.id}/slots`)).status).toBe(404);
  });
});
