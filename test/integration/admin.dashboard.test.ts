/**
 * What the event dashboard and the bookings page read from the server (docs/api.md): the
 * check-in figures in seats (checked in, going, places left, waitlisted), re-entries marked in
 * the check-in list, and the bookings list upcoming first with a name/email search and days
 * in the admin's zone.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { attendeesRepository } from '../../server/modules/attendees/attendees.repository';
import { eventsRepository } from '../../server/modules/events/events.repository';
import { createHost, createType, futureStart } from '../helpers/booking';
import { createAttendee, createEvent } from '../helpers/checkin';
import { useTestServer } from '../helpers/test-server';

const { admin, db } = useTestServer({ env: { SVC_JOBS: 'off' } });

async function attendeeWith(eventId: number, quantity: number, status = 'going') {
  const a = await createAttendee(db(), eventId, { status });
  await attendeesRepository(db()).update(a.id, { quantity });
  return a;
}

const checkIn = async (eventId: number, attendeeId: number, scannedUtc?: string) => {
  const res = await admin.api.post('/checkins', { eventId, attendeeId, ...(scannedUtc ? { scannedUtc } : {}) });
  expect(res.status).toBe(201);
  return res.body.checkinId as number;
};

describe('GET /checkins/counts in seats', () => {
  it('counts seats checked in (going, a check-in not annulled), seats going, places left and seats waitlisted', async () => {
    const event = await createEvent(db());
    await eventsRepository(db()).update(event.id, { capacity: 10 });
    const party = await attendeeWith(event.id, 3); // checked in twice: 3 seats, once
    await attendeeWith(event.id, 2); // not here yet
    const undone = await attendeeWith(event.id, 1); // checked in, then undone
    await attendeeWith(event.id, 4, 'waitlist');
    await attendeeWith(event.id, 5, 'cancelled');
    await checkIn(event.id, party.id, '2030-06-01 18:00:00');
    await checkIn(event.id, party.id, '2030-06-01 18:30:00');
    const mistaken = await checkIn(event.id, undone.id);
    expect((await admin.api.post(`/checkins/${mistaken}/annul`)).status).toBe(200);

    const res = await admin.api.get(`/checkins/counts?eventId=${event.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      seatsCheckedIn: 3,
      seatsGoing: 6,
      placesLeft: 4,
      seatsWaitlisted: 4,
      checkedIn: 1,
      attendeesGoing: 3,
      scans: 2,
      annulled: 1,
    });
  });

  it('places left is null for an unlimited event and never below 0 for an overfull one', async () => {
    const open = await createEvent(db());
    await attendeeWith(open.id, 2);
    expect((await admin.api.get(`/checkins/counts?eventId=${open.id}`)).body.placesLeft).toBeNull();

    const full = await createEvent(db());
    await eventsRepository(db()).update(full.id, { capacity: 1 });
    await attendeeWith(full.id, 3);
    expect((await admin.api.get(`/checkins/counts?eventId=${full.id}`)).body).toMatchObject({ placesLeft: 0, seatsGoing: 3 });
  });
});

describe('GET /checkins repeat', () => {
  it('marks a re-entry (an earlier check-in of the attendee stands) as repeat, the first entry not', async () => {
    const event = await createEvent(db());
    const guest = await createAttendee(db(), event.id);
    const other = await createAttendee(db(), event.id);
    const first = await checkIn(event.id, guest.id, '2030-06-01 18:00:00');
    const again = await checkIn(event.id, guest.id, '2030-06-01 18:40:00');
    const solo = await checkIn(event.id, other.id, '2030-06-01 18:10:00');
    const rows = (await admin.api.get(`/checkins?eventId=${event.id}`)).body as Array<{ id: number; repeat: boolean }>;
    expect(Object.fromEntries(rows.map((r) => [r.id, r.repeat]))).toEqual({ [first]: false, [again]: true, [solo]: false });

    // once the first entry is undone, the later one is the first that stands
    await admin.api.post(`/checkins/${first}/annul`);
    const after = (await admin.api.get(`/checkins?eventId=${event.id}`)).body as Array<{ id: number; repeat: boolean }>;
    expect(after.find((r) => r.id === again)!.repeat).toBe(false);
  });
});

describe('GET /bookings order, search and local days', () => {
  it('lists upcoming bookings first, soonest first, then past ones, latest first; q finds name or email in any case', async () => {
    const host = await createHost(admin.api, 'Quinn');
    const type = await createType(admin.api, { title: `Order ${Date.now()}`, hosts: [host] });
    const make = async (days: number, name: string, email: string) => {
      const res = await admin.api.post('/bookings/admin', {
        bookingTypeId: type.id,
        startUtc: futureStart(days, 10),
        customerName: name,
        customerEmail: email,
        customerTz: 'UTC',
      });
      expect(res.status).toBe(201);
      return res.body.bookingId as number;
    };
    const tag = `z${Date.now()}`;
    const later = await make(3, `Lena ${tag}`, `lena-${tag}@example.test`);
    const soon = await make(1, `Milo ${tag}`, `milo-${tag}@example.test`);
    const recentPast = await make(2, `Nora ${tag}`, `nora-${tag}@example.test`);
    const olderPast = await make(4, `Omar ${tag}`, `OMAR.${tag}@Example.test`);
    const moveToPast = (id: number, days: number) =>
      queryRows(
        db(),
        sql`update svc_bookings set start_utc = now() at time zone 'utc' - make_interval(days => ${days}),
              end_utc = now() at time zone 'utc' - make_interval(days => ${days}) + interval '1 hour' where booking_id = ${id}`,
      );
    await moveToPast(recentPast, 1);
    await moveToPast(olderPast, 5);

    const ids = async (query: string) =>
      ((await admin.api.get(`/bookings?bookingTypeId=${type.id}${query}`)).body as Array<{ bookingId: number }>).map((b) => b.bookingId);
    expect(await ids('')).toEqual([soon, later, recentPast, olderPast]);
    expect(await ids(`&q=${encodeURIComponent(`MILO ${tag}`)}`)).toEqual([soon]);
    expect(await ids(`&q=omar.${tag}@example`)).toEqual([olderPast]);
    expect(await ids(`&q=${tag}`)).toHaveLength(4);
    expect(await ids('&q=nobody-here')).toEqual([]);
    // % and _ are literal characters, not wildcards
    expect(await ids('&q=%25')).toEqual([]);
  });

  it('from/to are days in tz when given: 23:00 UTC is the next day in Tokyo', async () => {
    const host = await createHost(admin.api, 'Tomo');
    const type = await createType(admin.api, { title: `Zones ${Date.now()}`, hosts: [host] });
    const startUtc = futureStart(5, 23);
    const res = await admin.api.post('/bookings/admin', {
      bookingTypeId: type.id,
      startUtc,
      customerName: 'Late Owl',
      customerEmail: 'owl@example.test',
      customerTz: 'Asia/Tokyo',
    });
    expect(res.status).toBe(201);
    const utcDay = startUtc.slice(0, 10);
    const tokyoDay = new Date(Date.parse(`${utcDay}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const count = async (query: string) => ((await admin.api.get(`/bookings?bookingTypeId=${type.id}${query}`)).body as unknown[]).length;
    expect(await count(`&from=${tokyoDay}&to=${tokyoDay}&tz=Asia/Tokyo`)).toBe(1);
    expect(await count(`&from=${utcDay}&to=${utcDay}&tz=Asia/Tokyo`)).toBe(0);
    expect(await count(`&from=${utcDay}&to=${utcDay}`)).toBe(1);
    expect(await count(`&from=${tokyoDay}&to=${tokyoDay}`)).toBe(0);
  });

  it('an unknown zone is 400 naming tz', async () => {
    const res = await admin.api.get('/bookings?tz=Mars/Olympus');
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.data.params)).toContain('tz');
  });
});
