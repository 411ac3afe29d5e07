import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { sweepPaymentHolds } from '../../server/modules/booking/booking.service';
import { useTestHooks } from '../helpers/hooks';
import { useTestServer } from '../helpers/test-server';
import { apiClient, loginAs } from '../helpers/http';
import { bookingBody, createHost, createType, disableIpThrottle, futureStart, recordActions, submitBooking } from '../helpers/booking';

const { server: srv, admin, db, hooks } = useTestServer({ env: { SVC_JOBS: 'off' } });
let host: number;
let calls: Array<[string, ...unknown[]]>;
const { cleanups } = useTestHooks(hooks);
const anon = () => apiClient(srv.url);

async function tokenOf(bookingId: number): Promise<string> {
  const [row] = await queryRows<{ cancel_token: string }>(db(), sql`select cancel_token from svc_bookings where booking_id = ${bookingId}`);
  return row!.cancel_token;
}
async function statusOf(bookingId: number): Promise<string> {
  const [row] = await queryRows<{ status: string }>(db(), sql`select status from svc_bookings where booking_id = ${bookingId}`);
  return row!.status;
}

/** A booking of a fresh type for `host`; returns its id and token. */
async function book(typeOverrides: Record<string, unknown> = {}, start = futureStart(5, 10)) {
  const type = await createType(admin.api, { hosts: [host], ...typeOverrides });
  const res = await submitBooking(srv.url, bookingBody(type.id, start));
  if (res.status !== 201) throw new Error(`book: ${res.status} ${JSON.stringify(res.body)}`);
  return { type, id: res.body.bookingId as number, token: await tokenOf(res.body.bookingId), start };
}

beforeAll(async () => {
  calls = recordActions(hooks(), [
    'svc_booking_cancelled',
    'svc_booking_approved',
    'svc_booking_confirmed',
    'svc_booking_declined',
    'svc_booking_rescheduled',
    'svc_booking_payment_abandoned',
  ]);
  disableIpThrottle(hooks());
});
beforeEach(async () => {
  host = await createHost(admin.api);
});
afterEach(() => {
  calls.length = 0;
});

describe('cancel by token (DELETE /bookings/{token})', () => {
  it('cancels, frees the slot and fires svc_booking_cancelled(id) once', async () => {
    const b = await book();
    calls.length = 0;
    const res = await anon().delete(`/bookings/${b.token}`);
    expect(res.status).toBe(204);
    expect(await statusOf(b.id)).toBe('cancelled');
    expect(calls).toEqual([['svc_booking_cancelled', b.id]]);
    expect((await submitBooking(srv.url, bookingBody(b.type.id, b.start))).status).toBe(201);
  });

  it('a second cancel answers 409 svc_already_cancelled and fires nothing', async () => {
    const b = await book();
    await anon().delete(`/bookings/${b.token}`);
    calls.length = 0;
    const again = await anon().delete(`/bookings/${b.token}`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('svc_already_cancelled');
    expect(calls).toEqual([]);
  });

  it('an unknown, 65-character or malformed token answers 404 and changes nothing', async () => {
    const b = await book();
    calls.length = 0;
    for (const token of [
      b.token.replace(/.$/, b.token.endsWith('A') ? 'B' : 'A'),
      `${b.token}x`,
      b.token.slice(0, 63),
      '%2E%2E',
      'x'.repeat(64).replace(/x$/, '!'),
    ]) {
      const res = await anon().delete(`/bookings/${token}`);
      expect(res.status, token).toBe(404);
      expect(res.body.code).toBe('svc_not_found');
    }
    expect((await anon().get(`/bookings/${b.token}x`)).status).toBe(404);
    expect((await anon().patch(`/bookings/${b.token}x/reschedule`, { startUtc: futureStart(6, 10) })).status).toBe(404);
    expect(await statusOf(b.id)).toBe('confirmed');
    expect(calls).toEqual([]);
  });

  it('a failed cancellation update answers 500 and fires nothing', async () => {
    const b = await book();
    calls.length = 0;
    await db().execute(
      sql.raw(`create or replace function svc_test_refuse_cancel() returns trigger language plpgsql as $$
      begin if new.booking_id = ${b.id} and new.status = 'cancelled' then raise exception 'refused'; end if; return new; end $$`),
    );
    await db().execute(sql.raw(`create trigger svc_test_refuse_cancel before update on svc_bookings for each row execute function svc_test_refuse_cancel()`));
    cleanups.push(() => db().execute(sql.raw('drop trigger svc_test_refuse_cancel on svc_bookings')));
    const res = await anon().delete(`/bookings/${b.token}`);
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('svc_internal');
    expect(JSON.stringify(res.body)).not.toContain('refused');
    expect(calls).toEqual([]);
    const viaAdmin = await admin.api.patch(`/bookings/${b.id}`, { status: 'cancelled' });
    expect(viaAdmin.status).toBe(500);
    expect(calls).toEqual([]);
    expect(await statusOf(b.id)).toBe('confirmed');
  });
});

describe('admin cancel (PATCH /bookings/{id})', () => {
  it('{status: "cancelled"} cancels and fires svc_booking_cancelled', async () => {
    const b = await book();
    calls.length = 0;
    const res = await admin.api.patch(`/bookings/${b.id}`, { status: 'cancelled' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ bookingId: b.id, status: 'cancelled' });
    expect(res.body).not.toHaveProperty('cancelToken');
    expect(calls).toEqual([['svc_booking_cancelled', b.id]]);
  });

  it('anything else answers 400 (other status, a move, extra keys) and changes nothing', async () => {
    const b = await book();
    for (const body of [{ status: 'confirmed' }, { startUtc: futureStart(9, 10) }, { status: 'cancelled', startUtc: futureStart(9, 10) }, {}]) {
      const res = await admin.api.patch(`/bookings/${b.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('svc_invalid_param');
    }
    expect(await statusOf(b.id)).toBe('confirmed');
  });

  it('is an administrator operation: 401 anonymous, 403 for a host', async () => {
    expect((await anon().patch('/bookings/1', { status: 'cancelled' })).status).toBe(401);
    await admin.api.post('/users', { email: 'h-403@example.test', role: 'host', password: 'long enough password' });
    const h = await loginAs(srv.url, 'h-403@example.test', 'long enough password');
    expect((await h.api.patch('/bookings/1', { status: 'cancelled' })).status).toBe(403);
  });
});

describe('reschedule (PATCH /bookings/{token}/reschedule)', () => {
  it('moves start and end (end from the type duration), keeps the host, fires svc_booking_rescheduled(id, old, new), never calls the strategy', async () => {
    const b = await book({ durationMinutes: 45, slotIntervalMinutes: 15 });
    let strategyCalls = 0;
    const spy = (s: unknown) => (strategyCalls++, s);
    hooks().addFilter('svc_booking_assignment_strategy', spy as never, 10);
    cleanups.push(() => hooks().removeFilter('svc_booking_assignment_strategy', spy as never, 10));
    calls.length = 0;
    const next = futureStart(6, 14, 15);
    const res = await anon().patch(`/bookings/${b.token}/reschedule`, { startUtc: next });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ bookingId: b.id, startUtc: next, endUtc: futureStart(6, 15), hostUserId: host, rescheduledFrom: b.start });
    expect(res.body).not.toHaveProperty('cancelToken');
    expect(calls).toEqual([['svc_booking_rescheduled', b.id, b.start, next]]);
    expect(strategyCalls).toBe(0);
  });

  it('the booking does not block its own new time (an overlapping move is allowed)', async () => {
    const b = await book({ slotIntervalMinutes: 30 });
    const res = await anon().patch(`/bookings/${b.token}/reschedule`, { startUtc: futureStart(5, 10, 30) });
    expect(res.status).toBe(200);
  });

  it('a start not in the live list answers 409 svc_booking_slot_unavailable; the filter can block it', async () => {
    const b = await book();
    const other = await book({}, futureStart(5, 12));
    calls.length = 0;
    const taken = await anon().patch(`/bookings/${b.token}/reschedule`, { startUtc: other.start });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('svc_booking_slot_unavailable');
    const blocked = futureStart(7, 9);
    const remove = (list: Array<{ start_utc: string }>) => list.filter((s) => s.start_utc !== blocked);
    hooks().addFilter('svc_booking_slots', remove as never, 10);
    cleanups.push(() => hooks().removeFilter('svc_booking_slots', remove as never, 10));
    expect((await anon().patch(`/bookings/${b.token}/reschedule`, { startUtc: blocked })).status).toBe(409);
    expect(calls).toEqual([]);
  });

  it('bad input: malformed start 400, past start 400, cancelled booking 409', async () => {
    const b = await book();
    expect((await anon().patch(`/bookings/${b.token}/reschedule`, { startUtc: 'tomorrow' })).status).toBe(400);
    expect((await anon().patch(`/bookings/${b.token}/reschedule`, { startUtc: futureStart(-2, 10) })).status).toBe(400);
    await anon().delete(`/bookings/${b.token}`);
    const res = await anon().patch(`/bookings/${b.token}/reschedule`, { startUtc: futureStart(6, 10) });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('svc_booking_invalid_state');
  });
});

describe('approve / decline', () => {
  it('approve: pending_approval → confirmed, svc_booking_approved then svc_booking_confirmed', async () => {
    const b = await book({ requiresApproval: true });
    calls.length = 0;
    const res = await admin.api.post(`/bookings/${b.id}/approve`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('confirmed');
    expect(calls).toEqual([
      ['svc_booking_approved', b.id],
      ['svc_booking_confirmed', b.id],
    ]);
  });

  it('a second approval answers 409 svc_booking_already_approved before any action fires', async () => {
    const b = await book({ requiresApproval: true });
    await admin.api.post(`/bookings/${b.id}/approve`);
    calls.length = 0;
    const again = await admin.api.post(`/bookings/${b.id}/approve`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('svc_booking_already_approved');
    expect(calls).toEqual([]);
  });

  it('two approvals at once: exactly one succeeds', async () => {
    const b = await book({ requiresApproval: true });
    calls.length = 0;
    const results = await Promise.all([admin.api.post(`/bookings/${b.id}/approve`), admin.api.post(`/bookings/${b.id}/approve`)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(calls.filter((c) => c[0] === 'svc_booking_approved')).toHaveLength(1);
  });

  it('decline: cancelled, slot freed, svc_booking_declined then svc_booking_cancelled', async () => {
    const b = await book({ requiresApproval: true });
    calls.length = 0;
    const res = await admin.api.post(`/bookings/${b.id}/decline`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('cancelled');
    expect(calls).toEqual([
      ['svc_booking_declined', b.id],
      ['svc_booking_cancelled', b.id],
    ]);
    expect((await submitBooking(srv.url, bookingBody(b.type.id, b.start))).status).toBe(201);
  });

  it('approving a booking that is not awaiting approval, or an unknown id, is refused', async () => {
    const cancelled = await book({ requiresApproval: true });
    await admin.api.post(`/bookings/${cancelled.id}/decline`);
    expect((await admin.api.post(`/bookings/${cancelled.id}/approve`)).body.code).toBe('svc_booking_invalid_state');
    expect((await admin.api.post('/bookings/999999/approve')).status).toBe(404);
    expect((await anon().post('/bookings/1/approve')).status).toBe(401);
  });
});

describe('GET /bookings/{token} (holder view)', () => {
  it('answers the booking without the cancel token and never changes state', async () => {
    const b = await book({ locationMode: 'phone', locationValue: '+1 555 0100', priceCents: 1500 });
    calls.length = 0;
    const res = await anon().get(`/bookings/${b.token}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      bookingId: b.id,
      status: 'confirmed',
      startUtc: b.start,
      location: 'By phone: +1 555 0100',
      priceCents: 1500,
      currency: 'USD',
      canCancel: true,
      canReschedule: true,
    });
    expect(JSON.stringify(res.body)).not.toContain(b.token);
    expect(await statusOf(b.id)).toBe('confirmed');
    expect(calls).toEqual([]);
  });
});

describe('GET /bookings (admin list)', () => {
  it('filters by type, status and start-day range, paginates with X-Total-Count, never shows tokens', async () => {
    const type = await createType(admin.api, { hosts: [host] });
    const ids: number[] = [];
    for (const day of [20, 21, 22]) ids.push((await submitBooking(srv.url, bookingBody(type.id, futureStart(day, 10)))).body.bookingId);
    await admin.api.patch(`/bookings/${ids[0]}`, { status: 'cancelled' });
    const all = await admin.api.get(`/bookings?bookingTypeId=${type.id}`);
    expect(all.headers.get('x-total-count')).toBe('3');
    // upcoming first, soonest first
    expect(all.body.map((b: any) => b.bookingId)).toEqual(ids);
    expect(JSON.stringify(all.body)).not.toMatch(/cancel_?token/i);
    const confirmed = await admin.api.get(`/bookings?bookingTypeId=${type.id}&status=confirmed`);
    expect(confirmed.body.map((b: any) => b.bookingId).sort()).toEqual(ids.slice(1).sort());
    const range = await admin.api.get(`/bookings?bookingTypeId=${type.id}&from=${futureStart(21, 0).slice(0, 10)}&to=${futureStart(21, 0).slice(0, 10)}`);
    expect(range.body.map((b: any) => b.bookingId)).toEqual([ids[1]]);
    const page = await admin.api.get(`/bookings?bookingTypeId=${type.id}&perPage=2&page=2`);
    expect(page.body.map((b: any) => b.bookingId)).toEqual([ids[2]]);
    expect((await admin.api.get('/bookings?status=bogus')).status).toBe(400);
    expect((await anon().get('/bookings')).status).toBe(401);
  });
});

describe('payment-hold sweeper', () => {
  async function heldBooking(): Promise<number> {
    const type = await createType(admin.api, { hosts: [host], priceCents: 900 });
    const yes = () => true;
    hooks().addFilter('svc_booking_awaiting_payment', yes, 10);
    try {
      const res = await submitBooking(srv.url, bookingBody(type.id, futureStart(30, 10)));
      return res.body.bookingId;
    } finally {
      hooks().removeFilter('svc_booking_awaiting_payment', yes, 10);
    }
  }

  it('releases pending_payment bookings older than the hold window as abandoned: payment_abandoned fires, cancelled does not, no email', async () => {
    const id = await heldBooking();
    calls.length = 0;
    const [{ n: mailsBefore }] = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from svc_outbox`);
    expect(await sweepPaymentHolds(srv.server.ctx, Date.now() + 23 * 3_600_000)).toEqual([]);
    expect(await sweepPaymentHolds(srv.server.ctx, Date.now() + 25 * 3_600_000)).toEqual([id]);
    expect(await statusOf(id)).toBe('abandoned');
    expect(calls).toEqual([['svc_booking_payment_abandoned', id]]);
    const [{ n: mailsAfter }] = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from svc_outbox`);
    expect(mailsAfter).toBe(mailsBefore);
  });

  it('svc_booking_payment_hold_hours changes the window and is floored at 1 hour', async () => {
    const id = await heldBooking();
    const zero = () => 0;
    hooks().addFilter('svc_booking_payment_hold_hours', zero, 10);
    cleanups.push(() => hooks().removeFilter('svc_booking_payment_hold_hours', zero, 10));
    expect(await sweepPaymentHolds(srv.server.ctx, Date.now() + 30 * 60_000)).toEqual([]);
    expect(await sweepPaymentHolds(srv.server.ctx, Date.now() + 61 * 60_000)).toEqual([id]);
  });

  it('runs as a job: the queued sweep releases expired holds', async () => {
    const id = await heldBooking();
    await db().execute(sql`update svc_bookings set created_utc = created_utc - interval '2 days' where booking_id = ${id}`);
    await db().execute(sql`update svc_jobs set run_at_utc = run_at_utc - interval '1 hour' where type = 'booking.payment_hold_sweep' and state = 'queued'`);
    await srv.server.ctx.jobs.runDue();
    expect(await statusOf(id)).toBe('abandoned');
  });
});
