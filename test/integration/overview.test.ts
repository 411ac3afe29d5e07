/**
 * The admin overview's figures (`GET /overview`, docs/api.md#admin-overview): upcoming events with
 * seats going, waitlisted and checked in, the money paid online (administrators only), sign-ups
 * per day of the event's zone; bookings of today and this week in the reader's zone; the
 * outbox's waiting and failed counts, never its rows.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { addCategory } from '../helpers/categories';
import { bookingBody, createHost, createType, futureStart, submitBooking } from '../helpers/booking';
import { apiClient, loginAs } from '../helpers/http';
import { paymentIdOf } from '../helpers/payments';
import { createEvent, resetThrottles, signUp } from '../helpers/registration';
import { useTestServer } from '../helpers/test-server';
import { SIGNUP_DAYS } from '../../shared/overview';

const { server: srv, admin, hooks, db } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off' } });
beforeAll(() => hooks().addFilter('svc_rsvp_client_ip', () => '', 50));
beforeEach(() => resetThrottles(srv));

async function staffFor(eventIds: number[]) {
  const email = `staff-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`;
  expect((await admin.api.post('/users', { email, role: 'staff', password: 'long enough password', eventIds })).status).toBe(201);
  return loginAs(srv.url, email, 'long enough password');
}

describe('GET /overview', () => {
  it("counts an event's seats going, waitlisted and checked in, its paid money, and today's sign-ups in its own zone", async () => {
    const event = await createEvent(admin.api, { capacity: 3, waitlist: true, timezone: 'Pacific/Auckland', startsUtc: '2098-01-10 18:00:00' });
    const vip = await addCategory(admin.api, event.id, { name: 'VIP', priceCents: 2000 });
    const free = await addCategory(admin.api, event.id, { name: 'Free', priceCents: 0 });
    const paid = await signUp(srv, event.id, { tickets: [{ categoryId: vip, quantity: 1 }] });
    expect((await apiClient(srv.url).post(`/payments/local/${paymentIdOf(paid.body.paymentUrl)}/pay`)).status).toBe(202);
    await srv.server.ctx.jobs.idle();
    const going = await signUp(srv, event.id, { tickets: [{ categoryId: free, quantity: 2 }] });
    expect(going.status).toBe(201);
    expect((await signUp(srv, event.id, { tickets: [{ categoryId: free, quantity: 2 }] })).body.status).toBe('waitlist');
    expect((await admin.api.post('/checkins', { attendeeId: going.body.tickets[0].id, eventId: event.id })).status).toBe(201);

    const res = await admin.api.get('/overview?tz=Europe/Berlin');
    expect(res.status).toBe(200);
    const figures = res.body.events.find((e: { id: number }) => e.id === event.id);
    expect(figures).toMatchObject({
      capacity: 3,
      seatsGoing: 3,
      seatsWaitlisted: 2,
      seatsCheckedIn: 2,
      revenueCents: 2000,
      currency: 'USD',
      timezone: 'Pacific/Auckland',
    });
    expect(figures.signupsByDay).toHaveLength(SIGNUP_DAYS);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland' }).format(Date.now());
    expect(figures.signupsByDay.at(-1)).toEqual({ day: today, seats: 5 });
    expect(figures.signupsByDay.slice(0, -1).every((d: { seats: number }) => d.seats === 0)).toBe(true);
    expect(res.body.tz).toBe('Europe/Berlin');
  });

  it('lists events that have not ended, soonest first, at most eight; an event that ended two days ago is left out', async () => {
    const ended = await createEvent(admin.api, { startsUtc: '2020-01-01 10:00:00' });
    const later = await createEvent(admin.api, { startsUtc: '2097-03-01 10:00:00' });
    const sooner = await createEvent(admin.api, { startsUtc: '2097-02-01 10:00:00' });
    const ids = (await admin.api.get('/overview')).body.events.map((e: { id: number }) => e.id);
    expect(ids).not.toContain(ended.id);
    expect(ids.indexOf(sooner.id)).toBeLessThan(ids.indexOf(later.id));
    expect(ids.length).toBeLessThanOrEqual(8);
  });

  it("shows staff only their events' seats, no money, no outbox and no bookings", async () => {
    const theirs = await createEvent(admin.api, { startsUtc: '2096-05-01 10:00:00' });
    await createEvent(admin.api, { startsUtc: '2096-04-01 10:00:00' });
    const staff = await staffFor([theirs.id]);
    const res = await staff.api.get('/overview');
    expect(res.status).toBe(200);
    expect(res.body.events.map((e: { id: number }) => e.id)).toEqual([theirs.id]);
    expect(res.body.events[0].revenueCents).toBeNull();
    expect(res.body.outbox).toBeNull();
    expect(res.body.bookings).toBeNull();
    expect((await apiClient(srv.url).get('/overview')).status).toBe(401);
  });

  it("counts bookings not cancelled starting today and this week in the reader's zone, and the outbox's waiting and failed mails", async () => {
    const type = await createType(admin.api, { title: 'Advice', durationMinutes: 30, hosts: [await createHost(admin.api)] });
    const before = (await admin.api.get('/overview?tz=UTC')).body;
    const booked = await submitBooking(srv.url, bookingBody(type.id as number, futureStart(1, 10)));
    expect(booked.status).toBe(201);
    const after = (await admin.api.get('/overview?tz=UTC')).body;
    // tomorrow 10:00 UTC is this week unless today is Sunday
    const sunday = new Date().getUTCDay() === 0;
    expect(after.bookings.today).toBe(before.bookings.today);
    expect(after.bookings.thisWeek).toBe(before.bookings.thisWeek + (sunday ? 0 : 1));

    const [queued] = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from svc_outbox where state = 'queued'`);
    await queryRows(db(), sql`update svc_outbox set state = 'failed' where id = (select max(id) from svc_outbox)`);
    expect(after.outbox.queued).toBe(Number(queued!.n));
    const failed = (await admin.api.get('/overview')).body.outbox;
    expect(failed).toEqual({ queued: Number(queued!.n) - 1, failed: 1 });
  });

  it('refuses a zone that is not an IANA name with 400 naming tz', async () => {
    const res = await admin.api.get('/overview?tz=Mars/Olympus');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('tz');
  });
});
