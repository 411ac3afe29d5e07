/**
 * Two booking types with different hosts share one room (docs/api.md#resources): the host locks
 * do not order their bookings, the room's row lock does. Real requests race on real PostgreSQL,
 * through two server instances, and the room is never double-booked.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { apiClient } from '../helpers/http';
import { bookingBody, createHost, createType, disableIpThrottle, fetchNonce, futureStart } from '../helpers/booking';
import { startServerOnDatabase } from '../helpers/second-server';
import { useTestServer } from '../helpers/test-server';

const EXTENDED = { SVC_EDITION: 'extended', SVC_JOBS: 'off' };
const { server: srv, admin } = useTestServer({ env: EXTENDED });
let second: Awaited<ReturnType<typeof startServerOnDatabase>>;

beforeAll(async () => {
  expect(srv.server.ctx.database.kind).toBe('postgres');
  second = await startServerOnDatabase(srv.server.ctx.env.DATABASE_URL!, EXTENDED);
  disableIpThrottle(srv.server.ctx.hooks);
  disableIpThrottle(second.server.ctx.hooks);
});
afterAll(() => second?.close());

/** Two types of two different hosts that both need a fresh one-room resource. */
async function twoTypesSharingARoom(overrides: Array<Record<string, unknown>> = [{}, {}]) {
  const room = await admin.api.post('/resources', { name: `Room ${Date.now()}`, capacity: 1 });
  expect(room.status).toBe(201);
  const types = [];
  for (const extra of overrides) types.push(await createType(admin.api, { hosts: [await createHost(admin.api)], resourceIds: [room.body.id], ...extra }));
  return { roomId: room.body.id as number, types };
}

/** Pairs of slot-holding bookings that need the room and whose padded spans overlap (seats of one session aside). */
async function roomOverlaps(roomId: number): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    srv.server.ctx.db,
    sql`with used as (
          select b.booking_id, b.booking_type_id, b.host_user_id, b.start_utc,
                 b.start_utc - make_interval(mins => t.buffer_before_minutes) as occupied_from,
                 b.end_utc + make_interval(mins => t.buffer_after_minutes) as occupied_to
          from svc_bookings b
          join svc_booking_types t on t.id = b.booking_type_id
          join svc_booking_type_resources l on l.booking_type_id = b.booking_type_id and l.resource_id = ${roomId}
          where b.status in ('confirmed', 'pending_approval', 'pending_payment'))
        select count(*)::int as n from used a join used b on a.booking_id < b.booking_id
          and a.occupied_from < b.occupied_to and b.occupied_from < a.occupied_to
          and not (a.booking_type_id = b.booking_type_id and a.host_user_id = b.host_user_id and a.start_utc = b.start_utc)`,
  );
  return Number(row!.n);
}

function post(url: string, nonce: string, body: Record<string, unknown>) {
  return apiClient(url).post('/bookings', body, { 'x-svc-nonce': nonce });
}

describe('a room shared by two types on PostgreSQL', () => {
  it('50 concurrent bookings on two types (different hosts), one of each type per start: exactly one booking per start, the rest 409', async () => {
    const { roomId, types } = await twoTypesSharingARoom();
    // 25 starts an hour apart (no two overlap); each is asked for once by each type, on different instances.
    const starts = Array.from({ length: 25 }, (_, k) => futureStart(3 + Math.floor(k / 12), 8 + (k % 12)));
    const nonce = await fetchNonce(srv.url);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => {
        const body = bookingBody(types[i % 2]!.id, starts[Math.floor(i / 2)]!);
        return post(i % 2 ? second.url : srv.url, nonce, body).then((res) => ({ res, start: body.startUtc as string }));
      }),
    );
    expect(results.filter((r) => r.res.status !== 201 && r.res.status !== 409).map((r) => r.res.body)).toEqual([]);
    const won = results.filter((r) => r.res.status === 201);
    expect(won.map((r) => r.start).sort()).toEqual(starts);
    expect(new Set(results.filter((r) => r.res.status === 409).map((r) => r.res.body.code))).toEqual(new Set(['svc_booking_slot_unavailable']));
    expect(await roomOverlaps(roomId)).toBe(0);
  });

  it('three pairwise overlapping starts of two types (one with a 30 min buffer after), 30 requests: exactly one wins', async () => {
    const { roomId, types } = await twoTypesSharingARoom([{ bufferAfterMinutes: 30, slotIntervalMinutes: 30 }, { slotIntervalMinutes: 30 }]);
    const nonce = await fetchNonce(srv.url);
    // 10:00 of the first keeps the room until 11:30; 11:00 of the second needs it from 11:00.
    const attempts = Array.from({ length: 10 }, (_, i) => [
      { url: i % 2 ? second.url : srv.url, body: bookingBody(types[0]!.id, futureStart(4, 10)) },
      { url: i % 2 ? srv.url : second.url, body: bookingBody(types[1]!.id, futureStart(4, 11)) },
      { url: i % 2 ? second.url : srv.url, body: bookingBody(types[1]!.id, futureStart(4, 10, 30)) },
    ]).flat();
    const results = await Promise.all(attempts.map((a) => post(a.url, nonce, a.body)));
    expect(results.filter((r) => r.status !== 201 && r.status !== 409)).toEqual([]);
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(await roomOverlaps(roomId)).toBe(0);
  });
});
