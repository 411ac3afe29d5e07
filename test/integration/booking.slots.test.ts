import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { bookingRepository } from '../../server/modules/booking/booking.repository';
import { slotService } from '../../server/modules/booking/slot.service';
import { generateSlots } from '../../shared/booking/slots';
import { slotRulesOf } from '../../server/modules/booking/booking-type.service';
import { useTestHooks } from '../helpers/hooks';
import { useTestServer } from '../helpers/test-server';
import { apiClient } from '../helpers/http';
import { bookingBody, createHost, createType, disableIpThrottle, futureStart, submitBooking } from '../helpers/booking';

const { server: srv, admin, hooks } = useTestServer({ env: { SVC_JOBS: 'off' } });
let host: number;
const { filter } = useTestHooks(hooks);
const anon = () => apiClient(srv.url);

const day = (n: number) => futureStart(n, 0).slice(0, 10);
const slotsOf = async (typeId: number, query = '') => anon().get(`/booking-types/${typeId}/slots${query}`);

beforeAll(async () => {
  host = await createHost(admin.api);
  disableIpThrottle(hooks());
});

describe('GET /booking-types/{id}/slots', () => {
  it('answers {slots: [...]} with the contract slot fields, sorted by UTC start, start in the requester zone', async () => {
    const type = await createType(admin.api, {
      hosts: [host],
      timezone: 'Europe/Berlin',
      weeklyWindows: {
        mon: [['09:00', '11:00']],
        tue: [['09:00', '11:00']],
        wed: [['09:00', '11:00']],
        thu: [['09:00', '11:00']],
        fri: [['09:00', '11:00']],
        sat: [['09:00', '11:00']],
        sun: [['09:00', '11:00']],
      },
    });
    const res = await slotsOf(type.id, `?from=${day(3)}&to=${day(3)}&tz=Asia/Kolkata`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['slots']);
    const slots = res.body.slots;
    expect(Array.isArray(slots)).toBe(true);
    expect(slots.length).toBeGreaterThan(0);
    for (const s of slots) {
      expect(Object.keys(s).sort()).toEqual(['capacity_left', 'end_utc', 'hosts', 'label', 'start', 'start_utc']);
      expect(s.start_utc).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(s.start).toMatch(/\+05:30$/); // half-hour zone
      expect(s.hosts).toEqual([host]);
      expect(s.capacity_left).toBe(1);
    }
    expect([...slots].map((s: any) => s.start_utc)).toEqual(slots.map((s: any) => s.start_utc).sort());
  });

  it('empty from/to are allowed (from = today, to = from + 30 days) and reach the filter raw', async () => {
    const type = await createType(admin.api, { hosts: [host] });
    const seen: unknown[][] = [];
    filter('svc_booking_slots', (list: unknown[], id: number, from: string, to: string) => (seen.push([id, from, to]), list));
    expect((await slotsOf(type.id)).status).toBe(200);
    expect((await slotsOf(type.id, '?from=&to=')).status).toBe(200);
    expect((await slotsOf(type.id, `?from=${day(2)}`)).status).toBe(200);
    expect(seen).toEqual([
      [type.id, '', ''],
      [type.id, '', ''],
      [type.id, day(2), ''],
    ]);
  });

  it('stops collecting at 750 slots before the filter runs', async () => {
    const type = await createType(admin.api, { hosts: [host], durationMinutes: 15 });
    const lengths: number[] = [];
    filter('svc_booking_slots', (list: unknown[]) => (lengths.push(list.length), list));
    const res = await slotsOf(type.id, `?from=${day(1)}&to=${day(20)}`);
    expect(lengths).toEqual([750]);
    expect(res.body.slots).toHaveLength(750);
  });

  it('generating a long range in chunks gives exactly the one-run list (agendas spread over the range)', async () => {
    const type = await createType(admin.api, { hosts: [host], durationMinutes: 60, slotIntervalMinutes: 30, bufferBeforeMinutes: 15, bufferAfterMinutes: 15 });
    for (const [d, h] of [
      [1, 10],
      [6, 23],
      [7, 23],
      [21, 23],
      [20, 8],
      [35, 9],
    ] as const) {
      expect((await submitBooking(srv.url, bookingBody(type.id, futureStart(d, h)))).status).toBe(201);
    }
    const row = (await bookingRepository.findType(srv.server.ctx.db, type.id))!;
    const nowMs = Date.now();
    const opts = { fromDay: day(1), toDay: day(40), nowMs, requesterTz: 'Europe/Berlin' };
    const chunked = await slotService(srv.server.ctx).compute(srv.server.ctx.db, row, opts);
    const busy = await bookingRepository.busyForHosts(srv.server.ctx.db, [host], '2000-01-01 00:00:00', '2100-01-01 00:00:00');
    const oneRun = generateSlots({ rules: slotRulesOf(row), bookingTypeId: type.id, busy, ...opts });
    expect(chunked.length).toBe(750);
    expect(chunked).toEqual(oneRun);
  });

  it('the filter result is cast to a zero-indexed list and re-indexed (JSON array, not an object)', async () => {
    const type = await createType(admin.api, { hosts: [host] });
    filter('svc_booking_slots', (list: Array<Record<string, unknown>>) => ({ 5: list[1], 9: list[0], x: 'junk' }));
    const res = await slotsOf(type.id, `?from=${day(2)}&to=${day(2)}`);
    expect(Array.isArray(res.body.slots)).toBe(true);
    expect(res.body.slots).toHaveLength(2);
    expect(res.body.slots[0].start_utc < res.body.slots[1].start_utc).toBe(true);
  });

  it('bad input: unknown or draft type 404, malformed from/to or tz 400', async () => {
    const draft = await createType(admin.api, { status: 'draft', hosts: [host] });
    expect((await slotsOf(999_999)).status).toBe(404);
    expect((await slotsOf(draft.id)).status).toBe(404);
    const type = await createType(admin.api, { hosts: [host] });
    for (const q of ['?from=tomorrow', '?from=2026-02-30', `?from=${day(3)}&to=${day(2)}`, '?tz=Mars/Base']) {
      const res = await slotsOf(type.id, q);
      expect(res.status, q).toBe(400);
      expect(res.body.code).toBe('svc_invalid_param');
    }
  });
});

describe('slot cache (svc_slot_cache_ttl)', () => {
  it('a cached set is reused while nothing changed (the generator does not run again)', async () => {
    const type = await createType(admin.api, { hosts: [host] });
    const q = `?from=${day(4)}&to=${day(4)}`;
    const first = await slotsOf(type.id, q);
    // A booking written behind the service's back (no epoch bump) proves the second answer came from the cache.
    await srv.server.ctx.db.execute(
      sql`insert into svc_bookings (booking_type_id, host_user_id, customer_email, customer_name, customer_tz, start_utc, end_utc, status, cancel_token)
        values (${type.id}, ${host}, 'x@example.test', 'X', 'UTC', ${futureStart(4, 10)}, ${futureStart(4, 11)}, 'confirmed', ${'t'.repeat(64)})`,
    );
    const second = await slotsOf(type.id, q);
    expect(second.body.slots).toEqual(first.body.slots);
  });

  it('every booking change invalidates it: create, cancel and reschedule are visible at once', async () => {
    const type = await createType(admin.api, { hosts: [host] });
    const q = `?from=${day(5)}&to=${day(5)}`;
    const starts = async () => (await slotsOf(type.id, q)).body.slots.map((s: any) => s.start_utc);
    const at10 = futureStart(5, 10);
    expect(await starts()).toContain(at10);
    const booked = await submitBooking(srv.url, bookingBody(type.id, at10));
    expect(await starts()).not.toContain(at10);
    const [row] = await queryRows<{ cancel_token: string }>(
      srv.server.ctx.db,
      sql`select cancel_token from svc_bookings where booking_id = ${booked.body.bookingId}`,
    );
    await anon().patch(`/bookings/${row!.cancel_token}/reschedule`, { startUtc: futureStart(5, 12) });
    expect(await starts()).toContain(at10);
    expect(await starts()).not.toContain(futureStart(5, 12));
    await anon().delete(`/bookings/${row!.cancel_token}`);
    expect(await starts()).toContain(futureStart(5, 12));
  });

  it('a booking of another type on a shared host invalidates it too; so does editing the type', async () => {
    const type = await createType(admin.api, { hosts: [host] });
    const other = await createType(admin.api, { hosts: [host] });
    const q = `?from=${day(6)}&to=${day(6)}`;
    const starts = async () => (await slotsOf(type.id, q)).body.slots.map((s: any) => s.start_utc);
    expect(await starts()).toContain(futureStart(6, 9));
    expect((await submitBooking(srv.url, bookingBody(other.id, futureStart(6, 9)))).status).toBe(201);
    expect(await starts()).not.toContain(futureStart(6, 9));
    await admin.api.patch(`/booking-types/${type.id}`, { durationMinutes: 30 });
    expect(await starts()).toContain(futureStart(6, 10, 30)); // on the new 30-minute grid only
  });

  it('TTL 0 disables caching', async () => {
    filter('svc_slot_cache_ttl', () => 0, 10, 1);
    const type = await createType(admin.api, { hosts: [host] });
    const q = `?from=${day(7)}&to=${day(7)}`;
    await slotsOf(type.id, q);
    await srv.server.ctx.db.execute(
      sql`insert into svc_bookings (booking_type_id, host_user_id, customer_email, customer_name, customer_tz, start_utc, end_utc, status, cancel_token)
        values (${type.id}, ${host}, 'x@example.test', 'X', 'UTC', ${futureStart(7, 10)}, ${futureStart(7, 11)}, 'confirmed', ${'u'.repeat(64)})`,
    );
    const starts = (await slotsOf(type.id, q)).body.slots.map((s: any) => s.start_utc);
    expect(starts).not.toContain(futureStart(7, 10));
  });

  it('the write path never trusts the cache', async () => {
    const type = await createType(admin.api, { hosts: [host] });
    const q = `?from=${day(8)}&to=${day(8)}`;
    expect((await slotsOf(type.id, q)).body.slots.map((s: any) => s.start_utc)).toContain(futureStart(8, 10));
    await srv.server.ctx.db.execute(
      sql`insert into svc_bookings (booking_type_id, host_user_id, customer_email, customer_name, customer_tz, start_utc, end_utc, status, cancel_token)
        values (${type.id}, ${host}, 'x@example.test', 'X', 'UTC', ${futureStart(8, 10)}, ${futureStart(8, 11)}, 'confirmed', ${'v'.repeat(64)})`,
    );
    const res = await submitBooking(srv.url, bookingBody(type.id, futureStart(8, 10)));
    expect(res.status).toBe(409);
  });
});
