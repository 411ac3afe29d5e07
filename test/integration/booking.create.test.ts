import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryRows } from '../../server/db/client';
import { bookingRepository } from '../../server/modules/booking/booking.repository';
import { bookingService } from '../../server/modules/booking/booking.service';
import { useTestHooks } from '../helpers/hooks';
import { useTestServer } from '../helpers/test-server';
import { apiClient } from '../helpers/http';
import { bookingBody, createHost, createType, disableIpThrottle, fetchNonce, futureStart, recordActions, submitBooking, uniqueEmail } from '../helpers/booking';

const { server: srv, admin, db, hooks } = useTestServer({ env: { SVC_JOBS: 'off' } });
let hostA: number;
let hostB: number;
let calls: Array<[string, ...unknown[]]>;
const { cleanups, filter } = useTestHooks(hooks);

async function bookingCount(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from svc_bookings`);
  return Number(row!.n);
}

beforeAll(async () => {
  hostA = await createHost(admin.api, 'Ada');
  hostB = await createHost(admin.api, 'Bob');
  calls = recordActions(hooks(), ['svc_booking_created', 'svc_booking_confirmed', 'svc_booking_requested', 'svc_booking_payment_pending']);
});
beforeEach(() => {
  calls.length = 0;
  cleanups.push(disableIpThrottle(hooks()));
});

/** Fixed-window throttles: pin Date a little after a window start so 9 quick requests share one window. */
function pinClockMidWindow(windowSeconds: number) {
  const windowMs = windowSeconds * 1000;
  vi.useFakeTimers({ toFake: ['Date'], now: Math.floor(Date.now() / windowMs) * windowMs + 1000 });
  cleanups.push(() => vi.useRealTimers());
}

describe('POST /bookings, free path', () => {
  it('answers 201 {bookingId, status, startUtc, endUtc, hostUserId} and never the cancel token', async () => {
    const type = await createType(admin.api, { hosts: [hostA] });
    const start = futureStart(3, 10);
    const res = await submitBooking(srv.url, bookingBody(type.id, start));
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['bookingId', 'calendarUid', 'endUtc', 'hostUserId', 'startUtc', 'status']);
    expect(res.body).toMatchObject({ status: 'confirmed', startUtc: start, endUtc: futureStart(3, 11), hostUserId: hostA });
    const [row] = await queryRows<{ cancel_token: string }>(db(), sql`select cancel_token from svc_bookings where booking_id = ${res.body.bookingId}`);
    expect(row!.cancel_token).toHaveLength(64);
    expect(JSON.stringify(res.body)).not.toContain(row!.cancel_token);
  });

  it('fires svc_booking_created(id, row with every column as a string) then svc_booking_confirmed(id)', async () => {
    const type = await createType(admin.api, { hosts: [hostA] });
    const res = await submitBooking(srv.url, bookingBody(type.id, futureStart(3, 12), { customFields: { topic: 'tax' }, quantity: 1 }));
    expect(res.status).toBe(201);
    const id = res.body.bookingId;
    expect(calls.map((c) => c[0])).toEqual(['svc_booking_created', 'svc_booking_confirmed']);
    expect(calls[0]![1]).toBe(id);
    expect(calls[1]!.slice(1)).toEqual([id]);
    const data = calls[0]![2] as Record<string, unknown>;
    for (const value of Object.values(data)) expect(typeof value).toBe('string');
    expect(data).toMatchObject({
      booking_id: String(id),
      booking_type_id: String(type.id),
      host_user_id: String(hostA),
      status: 'confirmed',
      quantity: '1',
      start_utc: futureStart(3, 12),
      custom_fields: JSON.stringify({ topic: 'tax' }),
      payment_status: '',
    });
    expect(data.cancel_token).toMatch(/^[A-Za-z0-9_-]{64}$/);
  });

  it('writes payment_status on_site for a priced type on the free path', async () => {
    const type = await createType(admin.api, { hosts: [hostA], priceCents: 2500 });
    const res = await submitBooking(srv.url, bookingBody(type.id, futureStart(3, 14)));
    expect(res.status).toBe(201);
    expect((calls[0]![2] as Record<string, string>).payment_status).toBe('on_site');
  });

  it('a type requiring approval answers pending_approval and fires created then requested, not confirmed', async () => {
    const type = await createType(admin.api, { hosts: [hostA], requiresApproval: true });
    const res = await submitBooking(srv.url, bookingBody(type.id, futureStart(3, 16)));
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('pending_approval');
    expect(calls.map((c) => c[0])).toEqual(['svc_booking_created', 'svc_booking_requested']);
  });

  it('a callback that throws on svc_booking_confirmed turns the answer into 500 svc_internal', async () => {
    const type = await createType(admin.api, { hosts: [hostA] });
    const boom = () => {
      throw new Error('listener failed');
    };
    hooks().addAction('svc_booking_confirmed', boom, 5);
    cleanups.push(() => hooks().removeAction('svc_booking_confirmed', boom, 5));
    const res = await submitBooking(srv.url, bookingBody(type.id, futureStart(3, 18)));
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ code: 'svc_internal', message: expect.any(String), data: { status: 500 } });
  });
});

describe('POST /bookings, checks before validation (contract order)', () => {
  it('without a valid X-Svc-Nonce answers 403 svc_invalid_nonce before the client IP filter runs', async () => {
    const seen: string[] = [];
    filter('svc_booking_client_ip', (ip: string) => (seen.push(ip), ip), 20, 1);
    const type = await createType(admin.api, { hosts: [hostA] });
    const before = await bookingCount();
    const missing = await apiClient(srv.url).post('/bookings', bookingBody(type.id, futureStart(4, 10)));
    const forged = await submitBooking(srv.url, bookingBody(type.id, futureStart(4, 10)), 'abc.0123456789abcdef0123456789abcdef');
    expect(missing.status).toBe(403);
    expect(missing.body.code).toBe('svc_invalid_nonce');
    expect(forged.status).toBe(403);
    expect(seen).toEqual([]);
    expect(await bookingCount()).toBe(before);
  });

  it('svc_booking_client_ip receives REMOTE_ADDR once per submission, after the nonce check', async () => {
    const seen: string[] = [];
    filter('svc_booking_client_ip', (ip: string) => (seen.push(ip), ''), 5, 1);
    await submitBooking(srv.url, { bookingTypeId: 'not a number' });
    expect(seen).toEqual(['127.0.0.1']);
  });

  it('per-IP throttle: 8 per minute keyed by the md5 of the IP, the 9th answers 429 with Retry-After', async () => {
    for (const undo of cleanups.splice(0)) undo(); // the real client IP this time
    pinClockMidWindow(60);
    const ip = '203.0.113.7';
    filter('svc_booking_client_ip', () => ip, 10, 1);
    const nonce = await fetchNonce(srv.url);
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof submitBooking>> | undefined;
    for (let i = 0; i < 9; i++) {
      last = await submitBooking(srv.url, { customerEmail: uniqueEmail('ip') }, nonce);
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 8).every((s) => s === 400)).toBe(true); // counted even though the body is invalid
    expect(statuses[8]).toBe(429);
    expect(last!.body.code).toBe('svc_rate_limited');
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    const md5 = createHash('md5').update(ip).digest('hex');
    const rows = await queryRows<{ bucket: string; hits: number }>(db(), sql`select bucket, hits from svc_rate_limits where bucket like 'booking:ip:%'`);
    expect(rows.map((r) => r.bucket)).toContain(`booking:ip:${md5}`);
    expect(rows.some((r) => r.bucket.includes(ip))).toBe(false);
  });

  it('an empty client IP turns the per-IP throttle off', async () => {
    const nonce = await fetchNonce(srv.url);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await submitBooking(srv.url, { customerEmail: uniqueEmail('noip') }, nonce)).status);
    expect(statuses.filter((s) => s === 429)).toEqual([]);
  });

  it('per-email throttle: the 6th submission within an hour for one email answers 429, whatever the IP', async () => {
    pinClockMidWindow(3600);
    const email = uniqueEmail('same');
    const nonce = await fetchNonce(srv.url);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await submitBooking(srv.url, { customerEmail: email.toUpperCase() }, nonce)).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });

  it("the bot check / spam scoring receive the filtered IP, never the caller's credentials, and refuse before validation (nothing written)", async () => {
    const checks: Array<{ ip: string; email: string; headers: Record<string, string> }> = [];
    let refuse = true;
    srv.server.ctx.verifiers.register({
      name: 'test-bot-check',
      verify: (c) => (checks.push({ ip: c.ip, email: c.email, headers: c.headers }), refuse ? { ok: false, reason: 'bot' } : { ok: true }),
    });
    cleanups.push(() => (refuse = false));
    filter('svc_booking_client_ip', () => '198.51.100.9', 20, 1);
    const before = await bookingCount();
    const res = await apiClient(srv.url).post(
      '/bookings',
      { ...bookingBody(1, 'garbage'), customerEmail: 'bot@example.test' },
      { 'x-svc-nonce': await fetchNonce(srv.url), cookie: 'svc_session=secret-session', authorization: 'Bearer secret-token', 'x-challenge': 'answer' },
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('svc_spam_suspected');
    expect(checks.map(({ ip, email }) => ({ ip, email }))).toEqual([{ ip: '198.51.100.9', email: 'bot@example.test' }]);
    expect(checks[0]!.headers).toMatchObject({ 'x-challenge': 'answer' });
    expect(checks[0]!.headers).not.toHaveProperty('cookie');
    expect(checks[0]!.headers).not.toHaveProperty('authorization');
    expect(await bookingCount()).toBe(before);
  });
});

describe('POST /bookings, bad input gets a clear 4xx and writes nothing', () => {
  let typeId: number;
  beforeAll(async () => {
    typeId = (await createType(admin.api, { hosts: [hostA], capacity: 2 })).id;
  });

  const cases: Array<[string, () => Record<string, unknown>, number, string, string?]> = [
    ['an unknown booking type', () => bookingBody(999_999, futureStart(5, 10)), 404, 'svc_not_found'],
    ['a start not in Y-m-d H:i:s', () => bookingBody(typeId, futureStart(5, 10).replace(' ', 'T')), 400, 'svc_invalid_param', 'startUtc'],
    ['an impossible date', () => bookingBody(typeId, '2031-02-30 10:00:00'), 400, 'svc_invalid_param', 'startUtc'],
    ['a start in the past', () => bookingBody(typeId, futureStart(-1, 10)), 400, 'svc_invalid_param', 'startUtc'],
    ['a quantity above capacity', () => bookingBody(typeId, futureStart(5, 10), { quantity: 3 }), 400, 'svc_invalid_param', 'quantity'],
    ['an unknown timezone', () => bookingBody(typeId, futureStart(5, 10), { customerTz: 'Mars/Olympus_Mons' }), 400, 'svc_invalid_param', 'customerTz'],
    ['a malformed email', () => bookingBody(typeId, futureStart(5, 10), { customerEmail: 'not-an-email' }), 400, 'svc_invalid_param', 'customerEmail'],
    ['a start off the slot grid', () => bookingBody(typeId, futureStart(5, 10, 7)), 409, 'svc_booking_slot_unavailable'],
  ];
  for (const [label, body, status, code, param] of cases) {
    it(`${label} → ${status} ${code}`, async () => {
      const before = await bookingCount();
      const res = await submitBooking(srv.url, body());
      expect(res.status).toBe(status);
      expect(res.body.code).toBe(code);
      if (param) expect(res.body.data.params).toHaveProperty(param);
      expect(await bookingCount()).toBe(before);
    });
  }

  it('a draft type is unknown to the public', async () => {
    const draft = await createType(admin.api, { hosts: [hostA], status: 'draft' });
    const res = await submitBooking(srv.url, bookingBody(draft.id, futureStart(5, 10)));
    expect(res.status).toBe(404);
  });
});

describe('live slot re-validation and svc_booking_slots on the write path', () => {
  it('runs the generator for that UTC day: the filter gets (list, typeId, day, day)', async () => {
    const type = await createType(admin.api, { hosts: [hostA] });
    const seen: unknown[][] = [];
    filter('svc_booking_slots', (list: unknown[], ...rest: unknown[]) => (seen.push([list.length, ...rest]), list));
    const start = futureStart(6, 9);
    expect((await submitBooking(srv.url, bookingBody(type.id, start))).status).toBe(201);
    expect(seen).toEqual([[24, type.id, start.slice(0, 10), start.slice(0, 10)]]);
  });

  it('a slot the filter removes cannot be booked (409 svc_booking_slot_unavailable)', async () => {
    const type = await createType(admin.api, { hosts: [hostA] });
    const start = futureStart(6, 11);
    filter('svc_booking_slots', (list: Array<{ start_utc: string }>) => list.filter((s) => s.start_utc !== start));
    const res = await submitBooking(srv.url, bookingBody(type.id, start));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('svc_booking_slot_unavailable');
  });

  it('a valid slot the filter adds is bookable; an object map is cast to a list', async () => {
    const type = await createType(admin.api, { hosts: [hostA], weeklyWindows: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] } });
    const start = futureStart(6, 13);
    filter('svc_booking_slots', () => ({ a: { start_utc: start, hosts: [hostB], capacity_left: 1 } }));
    const res = await submitBooking(srv.url, bookingBody(type.id, start));
    expect(res.status).toBe(201);
    expect(res.body.hostUserId).toBe(hostB);
  });

  it('an added slot whose hosts are not real users answers 409 svc_booking_no_host', async () => {
    const type = await createType(admin.api, { hosts: [hostA] });
    const start = futureStart(6, 14, 30);
    filter('svc_booking_slots', () => [{ start_utc: start, hosts: [987_654], capacity_left: 1 }]);
    const res = await submitBooking(srv.url, bookingBody(type.id, start));
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('svc_booking_no_host');
  });

  it('an added slot with too little capacity_left, or a start not in exact Y-m-d H:i:s, is unavailable', async () => {
    const type = await createType(admin.api, { hosts: [hostA], capacity: 3 });
    const start = futureStart(6, 15, 30);
    filter('svc_booking_slots', () => [
      { start_utc: start, hosts: [hostA], capacity_left: 1 },
      { start_utc: `${futureStart(6, 17, 30).replace(' ', 'T')}Z`, hosts: [hostA], capacity_left: 5 },
    ]);
    const short = await submitBooking(srv.url, bookingBody(type.id, start, { quantity: 2 }));
    expect(short.status).toBe(409);
    expect(short.body.code).toBe('svc_booking_slot_unavailable');
    const iso = await submitBooking(srv.url, bookingBody(type.id, futureStart(6, 17, 30)));
    expect(iso.status).toBe(409);
    expect(iso.body.code).toBe('svc_booking_slot_unavailable');
  });

  it('group sessions: seats at one start are shared until capacity runs out; one booking must fit one host', async () => {
    const [c, d] = [await createHost(admin.api), await createHost(admin.api)];
    const type = await createType(admin.api, { hosts: [c, d], capacity: 2 });
    const start = futureStart(7, 10);
    const slotsAt = async () =>
      (await apiClient(srv.url).get(`/booking-types/${type.id}/slots?from=${start.slice(0, 10)}&to=${start.slice(0, 10)}`)).body.slots.find(
        (s: any) => s.start_utc === start,
      );
    expect((await slotsAt()).capacity_left).toBe(4);
    const first = await submitBooking(srv.url, bookingBody(type.id, start));
    expect((await slotsAt()).capacity_left).toBe(3);
    const second = await submitBooking(srv.url, bookingBody(type.id, start));
    expect(second.body.hostUserId).not.toBe(first.body.hostUserId); // least-loaded spreads them
    expect((await slotsAt()).capacity_left).toBe(2);
    const pair = await submitBooking(srv.url, bookingBody(type.id, start, { quantity: 2 }));
    expect(pair.status).toBe(409); // 1 + 1 seats left, but not 2 on one host
    expect(pair.body.code).toBe('svc_booking_no_host');
  });

  it('buffers: a booking blocks the host for its length plus the buffers, for any type', async () => {
    const other = await createType(admin.api, { hosts: [hostA], durationMinutes: 30 });
    const type = await createType(admin.api, { hosts: [hostA], durationMinutes: 60, slotIntervalMinutes: 15, bufferAfterMinutes: 15 });
    expect((await submitBooking(srv.url, bookingBody(other.id, futureStart(8, 11)))).status).toBe(201);
    // 09:45–10:45 + 15 min after-buffer touches 11:00: free. 10:00–11:00 + 15 overlaps 11:00–11:30: busy.
    expect((await submitBooking(srv.url, bookingBody(type.id, futureStart(8, 10)))).status).toBe(409);
    expect((await submitBooking(srv.url, bookingBody(type.id, futureStart(8, 9, 45)))).status).toBe(201);
  });
});

describe('assignment strategy', () => {
  it('default for round_robin (empty meta) is least-loaded: the host with fewer upcoming bookings', async () => {
    const [c, d] = [await createHost(admin.api), await createHost(admin.api)];
    const type = await createType(admin.api, { hosts: [c, d] });
    const args: unknown[][] = [];
    filter('svc_booking_assignment_strategy', (s: unknown, assignment: string) => (args.push([typeof s, assignment]), s), 10, 2);
    const first = await submitBooking(srv.url, bookingBody(type.id, futureStart(9, 10)));
    const second = await submitBooking(srv.url, bookingBody(type.id, futureStart(9, 12)));
    expect(args).toEqual([
      ['object', 'round_robin'],
      ['object', 'round_robin'],
    ]);
    expect(new Set([first.body.hostUserId, second.body.hostUserId])).toEqual(new Set([c, d]));
  });

  it('every other mode behaves as fixed: the first candidate, in the order the type lists its hosts', async () => {
    for (const [i, assignment] of ['fixed', 'collective', 'weighted', 'priority'].entries()) {
      const type = await createType(admin.api, { hosts: [hostB, hostA], assignment });
      const a = await submitBooking(srv.url, bookingBody(type.id, futureStart(10, 2 * i)));
      const b = await submitBooking(srv.url, bookingBody(type.id, futureStart(10, 2 * i + 1)));
      expect([a.body.hostUserId, b.body.hostUserId]).toEqual([hostB, hostB]);
    }
  });

  it('pick receives (candidate host ids, booking type id, slot UTC); an id outside the candidates is written unchecked', async () => {
    const type = await createType(admin.api, { hosts: [hostA, hostB] });
    const start = futureStart(11, 10);
    const picks: unknown[][] = [];
    filter('svc_booking_assignment_strategy', () => ({ pick: (...a: unknown[]) => (picks.push(a), 424_242) }), 10, 2);
    const res = await submitBooking(srv.url, bookingBody(type.id, start));
    expect(res.status).toBe(201);
    expect(res.body.hostUserId).toBe(424_242);
    expect(picks).toEqual([[[hostA, hostB], type.id, start]]);
  });

  it('a pick of 0 answers 409 svc_booking_no_host; a non-object strategy answers 500; nothing is written', async () => {
    const type = await createType(admin.api, { hosts: [hostA] });
    const before = await bookingCount();
    let answer: unknown = { pick: () => 0 };
    filter('svc_booking_assignment_strategy', () => answer, 10, 2);
    const zero = await submitBooking(srv.url, bookingBody(type.id, futureStart(11, 14)));
    expect(zero.status).toBe(409);
    expect(zero.body.code).toBe('svc_booking_no_host');
    answer = 'not an object';
    const bad = await submitBooking(srv.url, bookingBody(type.id, futureStart(11, 14)));
    expect(bad.status).toBe(500);
    expect(bad.body.code).toBe('svc_internal');
    expect(await bookingCount()).toBe(before);
  });
});

describe('svc_booking_awaiting_payment', () => {
  it('gets (false, typeId, resolved snake_case config); true writes pending_payment, fires payment_pending and returns the payment URL', async () => {
    const type = await createType(admin.api, { hosts: [hostA], priceCents: 4000 });
    const seen: unknown[][] = [];
    const urlArgs: unknown[][] = [];
    filter(
      'svc_booking_awaiting_payment',
      (awaiting: boolean, id: number, config: Record<string, unknown>) => (seen.push([awaiting, id, config]), true),
      10,
      3,
    );
    filter(
      'svc_booking_payment_url',
      (url: string, id: number, row: Record<string, unknown>) => (urlArgs.push([url, id, row]), `https://pay.example.test/b/${id}`),
      10,
      3,
    );
    const res = await submitBooking(srv.url, bookingBody(type.id, futureStart(12, 10)));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'pending_payment', paymentUrl: `https://pay.example.test/b/${res.body.bookingId}` });
    expect(seen[0]![0]).toBe(false);
    expect(seen[0]![1]).toBe(type.id);
    expect(seen[0]![2]).toMatchObject({
      id: type.id,
      price_cents: 4000,
      requires_approval: false,
      assignment: '',
      duration_minutes: 60,
      capacity: 1,
      hosts: [hostA],
      location_mode: 'in_person',
    });
    expect(calls.map((c) => c[0])).toEqual(['svc_booking_created', 'svc_booking_payment_pending']);
    expect(urlArgs[0]![0]).toBe('');
    expect(urlArgs[0]![1]).toBe(res.body.bookingId);
    expect(urlArgs[0]![2]).toMatchObject({ booking_id: String(res.body.bookingId), status: 'pending_payment', payment_status: 'pending' });
    expect(urlArgs[0]![2]).not.toHaveProperty('cancel_token');
  });

  it('a pending_payment booking holds its slot', async () => {
    const type = await createType(admin.api, { hosts: [hostA] });
    filter('svc_booking_awaiting_payment', () => true, 10, 1);
    const start = futureStart(12, 14);
    expect((await submitBooking(srv.url, bookingBody(type.id, start))).status).toBe(201);
    expect((await submitBooking(srv.url, bookingBody(type.id, start))).status).toBe(409);
  });

  it('is not consulted for types requiring approval, nor for admin-entered bookings', async () => {
    let consulted = 0;
    filter('svc_booking_awaiting_payment', () => (consulted++, true), 10, 1);
    const approval = await createType(admin.api, { hosts: [hostA], requiresApproval: true, priceCents: 100 });
    const plain = await createType(admin.api, { hosts: [hostA], priceCents: 100 });
    expect((await submitBooking(srv.url, bookingBody(approval.id, futureStart(12, 16)))).body.status).toBe('pending_approval');
    const byAdmin = await admin.api.post('/bookings/admin', bookingBody(plain.id, futureStart(12, 18)));
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.body.status).toBe('confirmed');
    expect(consulted).toBe(0);
  });
});

describe('admin-entered bookings (POST /bookings/admin)', () => {
  it('needs an administrator: 401 without credentials, before any lookup', async () => {
    const res = await apiClient(srv.url).post('/bookings/admin', bookingBody(999_999, futureStart(13, 10)));
    expect(res.status).toBe(401);
  });

  it('is confirmed at once even for an approval type, takes an optional free host, and still respects the live slots', async () => {
    const type = await createType(admin.api, { hosts: [hostA, hostB], requiresApproval: true });
    const start = futureStart(13, 10);
    const res = await admin.api.post('/bookings/admin', bookingBody(type.id, start, { hostUserId: hostB }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'confirmed', hostUserId: hostB });
    expect(calls.map((c) => c[0])).toEqual(['svc_booking_created', 'svc_booking_confirmed']);
    const again = await admin.api.post('/bookings/admin', bookingBody(type.id, start, { hostUserId: hostB }));
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('svc_booking_no_host');
  });
});

describe('read-back', () => {
  it('svc_booking_created receives an empty object when the read-back fails', async () => {
    const type = await createType(admin.api, { hosts: [hostA] });
    const failing = { ...bookingRepository, readBackRow: async () => Promise.reject(new Error('read-back failed')) };
    const service = bookingService(srv.server.ctx, failing);
    const created = await service.create({
      bookingTypeId: type.id,
      startUtc: futureStart(14, 10),
      quantity: 1,
      customerName: 'R',
      customerEmail: uniqueEmail(),
      customerTz: 'UTC',
    });
    expect(calls[0]).toEqual(['svc_booking_created', created.bookingId, {}]);
    expect(calls[1]).toEqual(['svc_booking_confirmed', created.bookingId]);
  });
});
