/**
 * No double booking, ever (issue 4): the live-slot check and the insert are one decision in
 * PostgreSQL. These tests race real requests against one real database.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { bookings } from '../../server/modules/booking/booking.sql';
import { useTestServer } from '../helpers/test-server';
import { startServerOnDatabase } from '../helpers/second-server';
import { apiClient } from '../helpers/http';
import { bookingBody, createHost, createType, disableIpThrottle, fetchNonce, futureStart } from '../helpers/booking';

const { server: srv, admin } = useTestServer({ env: { SVC_JOBS: 'off' } });
let second: Awaited<ReturnType<typeof startServerOnDatabase>>;

beforeAll(async () => {
  expect(srv.server.ctx.database.kind).toBe('postgres');
  second = await startServerOnDatabase(srv.server.ctx.env.DATABASE_URL!, { SVC_JOBS: 'off' });
  disableIpThrottle(srv.server.ctx.hooks);
  disableIpThrottle(second.server.ctx.hooks);
});
afterAll(() => second?.close());

/** Overlapping slot-holding bookings of one host that are not seats of one group session. */
async function overlaps(hostId: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    srv.server.ctx.db,
    sql`select count(*)::int as n from svc_bookings a join svc_bookings b
          on a.host_user_id = b.host_user_id and a.booking_id < b.booking_id
         and a.start_utc < b.end_utc and b.start_utc < a.end_utc
         and not (a.booking_type_id = b.booking_type_id and a.start_utc = b.start_utc)
        where a.host_user_id = ${hostId}
          and a.status in ('confirmed', 'pending_approval', 'pending_payment')
          and b.status in ('confirmed', 'pending_approval', 'pending_payment')`,
  );
  return Number(row!.n);
}

async function seatsTaken(typeId: number, start: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    srv.server.ctx.db,
    sql`select coalesce(sum(quantity), 0)::int as n from svc_bookings where booking_type_id = ${typeId} and start_utc = ${start} and status = 'confirmed'`,
  );
  return Number(row!.n);
}

/** Resolves once a backend waits for a host's advisory lock (polls pg_stat_activity; no sleep stands in for it). */
async function waitForLockWaiter(): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const rows = await queryRows(
      srv.server.ctx.db,
      sql`select 1 from pg_stat_activity where wait_event_type = 'Lock' and wait_event = 'advisory' and datname = current_database()`,
    );
    if (rows.length > 0) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('no request queued on the host lock');
}

function post(url: string, nonce: string, body: Record<string, unknown>) {
  return apiClient(url).post('/bookings', body, { 'x-svc-nonce': nonce });
}

describe('no double booking on PostgreSQL', () => {
  it('a start already taken is refused while another booking holds its host locks', async () => {
    const host = await createHost(admin.api);
    const type = await createType(admin.api, { hosts: [host], capacity: 1 });
    const start = futureStart(4, 15);
    const nonce = await fetchNonce(srv.url);
    expect((await post(srv.url, nonce, bookingBody(type.id, start))).status).toBe(201);
    // If the refusal queued on the host lock, this would wait for the transaction that never ends before it.
    await srv.server.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(1400000004::int4, ${host}::int4)`);
      const refused = await post(srv.url, nonce, bookingBody(type.id, start));
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('svc_booking_slot_unavailable');
    });
    expect(await seatsTaken(type.id, start)).toBe(1);
  });

  it('a booking that waited for its host lock sees the booking committed while it waited (its reads run after the lock)', async () => {
    const host = await createHost(admin.api);
    const type = await createType(admin.api, { hosts: [host], capacity: 1 });
    const start = futureStart(4, 16);
    const nonce = await fetchNonce(srv.url);
    let pending: Promise<{ status: number; body: any }> | undefined;
    await srv.server.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(1400000004::int4, ${host}::int4)`);
      // the start is still free: this request passes the unlocked check and queues on the lock
      pending = post(srv.url, nonce, bookingBody(type.id, start));
      await waitForLockWaiter();
      await tx.insert(bookings).values({
        bookingTypeId: type.id,
        hostUserId: host,
        customerEmail: 'first@example.test',
        customerName: 'First',
        customerTz: 'UTC',
        startUtc: start,
        endUtc: futureStart(4, 17),
        status: 'confirmed',
        cancelToken: `held-${type.id}`,
      });
    });
    const refused = await pending!;
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('svc_booking_slot_unavailable');
    expect(await seatsTaken(type.id, start)).toBe(1);
  });

  it('50 concurrent requests for the last seat: exactly one 201, the rest 409', async () => {
    const host = await createHost(admin.api);
    const type = await createType(admin.api, { hosts: [host], capacity: 3 });
    const start = futureStart(4, 10);
    const nonce = await fetchNonce(srv.url);
    for (let i = 0; i < 2; i++) expect((await post(srv.url, nonce, bookingBody(type.id, start))).status).toBe(201);
    const results = await Promise.all(Array.from({ length: 50 }, () => post(srv.url, nonce, bookingBody(type.id, start))));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    expect(new Set(results.filter((r) => r.status === 409).map((r) => r.body.code))).toEqual(new Set(['svc_booking_slot_unavailable']));
    expect(await seatsTaken(type.id, start)).toBe(3);
  });

  it('overlapping starts of different lengths on one host (two types): at most one wins', async () => {
    const host = await createHost(admin.api);
    const hour = await createType(admin.api, { hosts: [host], durationMinutes: 60, slotIntervalMinutes: 30 });
    const ninety = await createType(admin.api, { hosts: [host], durationMinutes: 90, slotIntervalMinutes: 30 });
    const nonce = await fetchNonce(srv.url);
    // 10:00–11:00, 09:30–11:00 and 10:30–12:00 overlap pairwise.
    const attempts = Array.from({ length: 12 }, () => [
      bookingBody(hour.id, futureStart(5, 10)),
      bookingBody(ninety.id, futureStart(5, 9, 30)),
      bookingBody(ninety.id, futureStart(5, 10, 30)),
    ]).flat();
    const results = await Promise.all(attempts.map((body) => post(srv.url, nonce, body)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status !== 201 && r.status !== 409)).toEqual([]);
    expect(await overlaps(host)).toBe(0);
  });

  it('two server instances on one database: still exactly one booking for the last seat, and no overlap', async () => {
    const host = await createHost(admin.api);
    const type = await createType(admin.api, { hosts: [host], capacity: 1, durationMinutes: 60, slotIntervalMinutes: 15 });
    const nonce = await fetchNonce(srv.url);
    const start = futureStart(6, 10);
    const same = await Promise.all(Array.from({ length: 40 }, (_, i) => post(i % 2 ? second.url : srv.url, nonce, bookingBody(type.id, start))));
    expect(same.filter((r) => r.status === 201)).toHaveLength(1);
    const shifted = await Promise.all(
      [futureStart(6, 12), futureStart(6, 12, 15), futureStart(6, 12, 30), futureStart(6, 12, 45)].flatMap((s, i) =>
        Array.from({ length: 6 }, (_, j) => post((i + j) % 2 ? second.url : srv.url, nonce, bookingBody(type.id, s))),
      ),
    );
    expect(shifted.filter((r) => r.status === 201)).toHaveLength(1);
    expect(await overlaps(host)).toBe(0);
  });

  it('a booking made on one instance invalidates the slot cache of the other', async () => {
    const host = await createHost(admin.api);
    const type = await createType(admin.api, { hosts: [host] });
    const day = futureStart(7, 0).slice(0, 10);
    const startsOn = async (url: string) =>
      (await apiClient(url).get(`/booking-types/${type.id}/slots?from=${day}&to=${day}`)).body.slots.map((s: any) => s.start_utc);
    expect(await startsOn(srv.url)).toContain(futureStart(7, 10)); // now cached on the first instance
    const nonce = await fetchNonce(second.url);
    expect((await post(second.url, nonce, bookingBody(type.id, futureStart(7, 10)))).status).toBe(201);
    expect(await startsOn(srv.url)).not.toContain(futureStart(7, 10));
  });
});
