/**
 * Shared resources in the extended edition (docs/api.md#resources): the admin routes, the booking
 * type's `resourceIds`, and the edition's callback at priority 10 of `svc_booking_slots` that
 * removes slots whose room is full — counting the bookings of every type that needs it, each with
 * its own type's buffers — on every slot answer and again on the write path.
 */
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { registerResources } from '../../server/extended/resources';
import type { Hooks } from '../../server/hooks';
import { PRIORITY_SHARED_RESOURCES } from '../../server/hooks/priorities';
import type { PluginContext } from '../../server/plugins/load';
import { apiClient } from '../helpers/http';
import { bookingBody, createHost, createType, disableIpThrottle, futureStart, submitBooking } from '../helpers/booking';
import { useTestHooks } from '../helpers/hooks';
import { useTestServer } from '../helpers/test-server';

const { server: srv, admin, db, hooks } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off' } });
const { cleanups, filter } = useTestHooks(hooks);
beforeEach(() => {
  cleanups.push(disableIpThrottle(hooks()));
});

async function createResource(name: string, capacity = 1): Promise<number> {
  const res = await admin.api.post('/resources', { name, capacity });
  expect(res.status).toBe(201);
  return res.body.id as number;
}

/** A published all-day UTC type of one fresh host that needs `resourceIds`. */
async function typeWith(resourceIds: number[], overrides: Record<string, unknown> = {}): Promise<Record<string, any>> {
  return createType(admin.api, { hosts: [await createHost(admin.api)], resourceIds, ...overrides });
}

async function offered(typeId: number, day: string): Promise<string[]> {
  const res = await apiClient(srv.url).get(`/booking-types/${typeId}/slots?from=${day}&to=${day}`);
  expect(res.status).toBe(200);
  return (res.body.slots as Array<{ start_utc: string }>).map((s) => s.start_utc);
}

async function book(typeId: number, start: string, extra: Record<string, unknown> = {}) {
  return submitBooking(srv.url, bookingBody(typeId, start, extra));
}

async function resourceCount(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from svc_resources`);
  return Number(row!.n);
}

describe('admin /resources', () => {
  it('creates (201), lists (bare array + X-Total-Count), reads, renames, changes the capacity and deletes (204)', async () => {
    const created = await admin.api.post('/resources', { name: '  Room Alpha  ' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Room Alpha', capacity: 1, bookingTypeIds: [] });
    const id = created.body.id as number;

    const list = await admin.api.get('/resources');
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body.map((r: { id: number }) => r.id)).toContain(id);
    expect(Number(list.headers.get('x-total-count'))).toBe(list.body.length);

    expect((await admin.api.get(`/resources/${id}`)).body).toMatchObject({ id, name: 'Room Alpha', capacity: 1 });
    const renamed = await admin.api.patch(`/resources/${id}`, { name: 'Room A', capacity: 3 });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id, name: 'Room A', capacity: 3 });
    expect((await admin.api.patch(`/resources/${id}`, {})).body).toMatchObject({ name: 'Room A', capacity: 3 });

    expect((await admin.api.delete(`/resources/${id}`)).status).toBe(204);
    const gone = await admin.api.get(`/resources/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('svc_not_found');
    expect((await admin.api.patch(`/resources/${id}`, { name: 'x' })).status).toBe(404);
    expect((await admin.api.delete(`/resources/${id}`)).status).toBe(404);
  });

  it('bad input answers 400 svc_invalid_param naming the field, and stores nothing', async () => {
    const before = await resourceCount();
    for (const [body, field] of [
      [{ name: '   ' }, 'name'],
      [{}, 'name'],
      [{ name: 'Room', capacity: 0 }, 'capacity'],
      [{ name: 'Room', capacity: 2.5 }, 'capacity'],
      [{ name: 'Room', capacity: 1001 }, 'capacity'],
      [{ name: 'x'.repeat(191) }, 'name'],
    ] as const) {
      const res = await admin.api.post('/resources', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('svc_invalid_param');
      expect(res.body.data.params).toHaveProperty(field);
    }
    const id = await createResource('Room Beta', 2);
    const patch = await admin.api.patch(`/resources/${id}`, { capacity: 'many' });
    expect(patch.status).toBe(400);
    expect(patch.body.data.params).toHaveProperty('capacity');
    expect((await admin.api.get(`/resources/${id}`)).body.capacity).toBe(2);
    expect((await admin.api.get('/resources/abc')).status).toBe(400);
    expect(await resourceCount()).toBe(before + 1);
  });

  it('is for administrators only', async () => {
    expect((await apiClient(srv.url).get('/resources')).status).toBe(401);
  });

  it('DELETE of a resource a booking type needs answers 409 svc_conflict naming the type, and deletes nothing; once detached it goes', async () => {
    const id = await createResource('Room Gamma');
    const type = await typeWith([id], { title: 'Massage with oils' });
    expect((await admin.api.get(`/resources/${id}`)).body.bookingTypeIds).toEqual([type.id]);
    const refused = await admin.api.delete(`/resources/${id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('svc_conflict');
    expect(refused.body.message).toContain('Massage with oils');
    expect(refused.body.data.bookingTypes).toEqual([{ id: type.id, title: 'Massage with oils' }]);
    expect((await admin.api.get(`/resources/${id}`)).status).toBe(200);

    expect((await admin.api.patch(`/booking-types/${type.id}`, { resourceIds: [] })).body.resourceIds).toEqual([]);
    expect((await admin.api.delete(`/resources/${id}`)).status).toBe(204);
  });

  it('answers 404 svc_not_found in the free edition, before reading the input', async () => {
    const id = await createResource('Room Delta');
    const env = srv.server.ctx.env;
    env.SVC_EDITION = 'free';
    try {
      for (const res of [
        await admin.api.get('/resources'),
        await admin.api.post('/resources', { name: 'Room' }),
        await admin.api.post('/resources', { name: '' }),
        await admin.api.get(`/resources/${id}`),
        await admin.api.patch(`/resources/${id}`, { name: 'Renamed' }),
        await admin.api.delete(`/resources/${id}`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('svc_not_found');
      }
    } finally {
      env.SVC_EDITION = 'extended';
    }
    expect((await admin.api.get(`/resources/${id}`)).body.name).toBe('Room Delta');
  });
});

describe('the booking type’s resourceIds', () => {
  it('is stored distinct and ascending, and answered by create, update, get and the list', async () => {
    const a = await createResource('Room Epsilon');
    const b = await createResource('Projector 1');
    const type = await typeWith([b, a, b]);
    expect(type.resourceIds).toEqual([a, b].sort((x, y) => x - y));
    expect((await admin.api.get(`/booking-types/${type.id}`)).body.resourceIds).toEqual(type.resourceIds);
    const listed = (await admin.api.get('/booking-types?perPage=500')).body.find((t: { id: number }) => t.id === type.id);
    expect(listed.resourceIds).toEqual(type.resourceIds);
    const patched = await admin.api.patch(`/booking-types/${type.id}`, { resourceIds: [a] });
    expect(patched.body.resourceIds).toEqual([a]);
    expect((await admin.api.patch(`/booking-types/${type.id}`, { title: 'Renamed' })).body.resourceIds).toEqual([a]);
    expect((await createType(admin.api)).resourceIds).toEqual([]);
  });

  it('unknown ids answer 400 naming resourceIds, and nothing is stored', async () => {
    const a = await createResource('Room Zeta');
    const [before] = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from svc_booking_types`);
    const created = await admin.api.post('/booking-types', { title: 'Ghost room', durationMinutes: 30, resourceIds: [a, 987_654] });
    expect(created.status).toBe(400);
    expect(created.body.code).toBe('svc_invalid_param');
    expect(created.body.data.params.resourceIds).toContain('987654');
    const [after] = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from svc_booking_types`);
    expect(after!.n).toBe(before!.n);

    const type = await typeWith([a]);
    const patched = await admin.api.patch(`/booking-types/${type.id}`, { resourceIds: [987_654], title: 'Changed' });
    expect(patched.status).toBe(400);
    expect(patched.body.data.params).toHaveProperty('resourceIds');
    expect((await admin.api.get(`/booking-types/${type.id}`)).body).toMatchObject({ title: type.title, resourceIds: [a] });
    expect((await admin.api.post('/booking-types', { title: 'Bad', durationMinutes: 30, resourceIds: ['x'] })).body.data.params).toHaveProperty(
      'resourceIds.0',
    );
  });
});

describe('the shared-resource callback at priority 10 of svc_booking_slots', () => {
  it('is registered by the edition at PRIORITY_SHARED_RESOURCES (10) with 4 accepted arguments', () => {
    const registered: Array<[string, number, number]> = [];
    const recorder = { addFilter: (name: string, _cb: unknown, priority: number, accepted: number) => registered.push([name, priority, accepted]) };
    registerResources(recorder as unknown as Hooks, { db: db() } as PluginContext);
    expect(PRIORITY_SHARED_RESOURCES).toBe(10);
    expect(registered).toEqual([['svc_booking_slots', 10, 4]]);
  });

  it('a plugin at 9 still sees the slot whose room is full; one at 11 no longer does', async () => {
    const room = await createResource('Room Eta');
    const first = await typeWith([room]);
    const second = await typeWith([room]);
    const start = futureStart(3, 10);
    expect((await book(first.id, start)).status).toBe(201);
    const seen: Record<number, string[]> = {};
    for (const priority of [9, 11]) {
      filter(
        'svc_booking_slots',
        (list: Array<{ start_utc: string }>, typeId: number) => {
          if (typeId === second.id) seen[priority] = list.map((s) => s.start_utc);
          return list;
        },
        priority,
      );
    }
    expect(await offered(second.id, start.slice(0, 10))).not.toContain(start);
    expect(seen[9]).toContain(start);
    expect(seen[11]).not.toContain(start);
    expect(seen[11]).toContain(futureStart(3, 11));
  });

  it('a second type sharing the room loses every start whose padded span meets a booking of the first, buffers of both counted', async () => {
    const room = await createResource('Room Theta');
    // The first type keeps the room 30 min after each booking; the second needs it 15 min before.
    const first = await typeWith([room], { bufferAfterMinutes: 30 });
    const second = await typeWith([room], { bufferBeforeMinutes: 15, slotIntervalMinutes: 15 });
    const other = await typeWith([], { slotIntervalMinutes: 15 });
    const at = (h: number, m = 0) => futureStart(4, h, m);
    const day = at(0).slice(0, 10);
    expect((await book(first.id, at(10))).status).toBe(201); // the room is taken 10:00–11:30

    const starts = await offered(second.id, day);
    // 09:00 needs 08:45–10:00 and 11:45 needs 11:30–12:45: free. 09:15 … 11:30 meet 10:00–11:30.
    expect(starts).toContain(at(9));
    expect(starts).toContain(at(11, 45));
    for (const taken of [at(9, 15), at(9, 45), at(10), at(11), at(11, 30)]) expect(starts).not.toContain(taken);
    expect(await offered(other.id, day)).toContain(at(10)); // a type without the room is not touched

    const refused = await book(second.id, at(11, 30));
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('svc_booking_slot_unavailable');
    expect((await book(second.id, at(11, 45))).status).toBe(201); // the room is taken 11:30–12:45

    // And the other way round: the second type's booking (with its 15 min before) blocks the first's.
    const firstStarts = await offered(first.id, day);
    expect(firstStarts).not.toContain(at(12));
    expect(firstStarts).toContain(at(13));
    expect((await book(first.id, at(12))).status).toBe(409);
  });

  it('capacity 2 allows two overlapping bookings and refuses the third; raising it offers the start again at once', async () => {
    const room = await createResource('Room Iota', 2);
    const types = [await typeWith([room]), await typeWith([room]), await typeWith([room])];
    const start = futureStart(5, 10);
    const day = start.slice(0, 10);
    expect(await offered(types[2]!.id, day)).toContain(start); // cached now
    expect((await book(types[0]!.id, start)).status).toBe(201);
    expect(await offered(types[2]!.id, day)).toContain(start);
    expect((await book(types[1]!.id, start)).status).toBe(201);
    expect(await offered(types[2]!.id, day)).not.toContain(start);
    expect((await book(types[2]!.id, start)).status).toBe(409);

    expect((await admin.api.patch(`/resources/${room}`, { capacity: 3 })).status).toBe(200);
    expect(await offered(types[2]!.id, day)).toContain(start);
    expect((await book(types[2]!.id, start)).status).toBe(201);
  });

  it('a type needing two resources is refused when either is full, and only bookings that hold a slot count', async () => {
    const room = await createResource('Room Kappa');
    const projector = await createResource('Projector Kappa');
    const talk = await typeWith([room, projector]);
    const projectorOnly = await typeWith([projector]);
    const start = futureStart(6, 10);
    const day = start.slice(0, 10);
    const booked = await book(projectorOnly.id, start);
    expect(booked.status).toBe(201);
    expect(await offered(talk.id, day)).not.toContain(start);
    expect((await admin.api.patch(`/bookings/${booked.body.bookingId}`, { status: 'cancelled' })).status).toBe(200);
    expect(await offered(talk.id, day)).toContain(start);
    expect((await book(talk.id, start)).status).toBe(201);
    expect(await offered(projectorOnly.id, day)).not.toContain(start);
  });

  it('seats of one group session share the room: a full room still lets a visitor join the session, not start another', async () => {
    const room = await createResource('Studio Lambda');
    const yoga = await typeWith([room], { capacity: 3 });
    const pilates = await typeWith([room]);
    const start = futureStart(7, 10);
    const day = start.slice(0, 10);
    expect((await book(yoga.id, start)).status).toBe(201);
    const slot = (await apiClient(srv.url).get(`/booking-types/${yoga.id}/slots?from=${day}&to=${day}`)).body.slots.find(
      (s: { start_utc: string }) => s.start_utc === start,
    );
    expect(slot).toMatchObject({ hosts: yoga.hosts, capacity_left: 2 });
    expect((await book(yoga.id, start, { quantity: 2 })).status).toBe(201);
    expect(await offered(yoga.id, day)).not.toContain(start); // all three seats taken
    expect(await offered(pilates.id, day)).not.toContain(start);
    expect((await book(pilates.id, start)).status).toBe(409);
  });

  it('a reschedule is checked too, and the moved booking does not block its own new time', async () => {
    const room = await createResource('Room Mu');
    const first = await typeWith([room], { durationMinutes: 60, slotIntervalMinutes: 30 });
    const second = await typeWith([room]);
    const at = (h: number, m = 0) => futureStart(8, h, m);
    const moved = await book(first.id, at(10));
    expect(moved.status).toBe(201);
    expect((await book(second.id, at(12))).status).toBe(201);
    const [row] = await queryRows<{ cancel_token: string }>(db(), sql`select cancel_token from svc_bookings where booking_id = ${moved.body.bookingId}`);
    const reschedule = (startUtc: string) => apiClient(srv.url).patch(`/bookings/${row!.cancel_token}/reschedule`, { startUtc });
    const clash = await reschedule(at(11, 30));
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('svc_booking_slot_unavailable');
    expect((await reschedule(at(10, 30))).status).toBe(200); // overlaps only its own old time
  });
});
