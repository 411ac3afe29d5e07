/**
 * Buffers on both sides (docs/decisions/005-slot-generator.md): every booking occupies its host
 * with its own type's buffers, and a candidate adds its own, so the write path refuses the
 * same pairs whichever booking comes first.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/test-server';
import { apiClient } from '../helpers/http';
import { bookingBody, createHost, createType, disableIpThrottle, futureStart, submitBooking } from '../helpers/booking';
import { useTestHooks } from '../helpers/hooks';

const { server: srv, admin, hooks } = useTestServer({ env: { SVC_JOBS: 'off' } });
const { cleanups } = useTestHooks(hooks);
beforeEach(() => {
  cleanups.push(disableIpThrottle(hooks()));
});

async function offered(typeId: number, day: string): Promise<string[]> {
  const res = await apiClient(srv.url).get(`/booking-types/${typeId}/slots?from=${day}&to=${day}`);
  return (res.body.slots as Array<{ start_utc: string }>).map((s) => s.start_utc);
}

describe('buffers on both sides, on the write path', () => {
  it('buffer after 30 min: 10:00 then 10:30 is refused, and 10:30 then 10:00 is refused too', async () => {
    for (const [first, second] of [
      [10, 10.5],
      [10.5, 10],
    ] as const) {
      const host = await createHost(admin.api);
      const type = await createType(admin.api, { hosts: [host], durationMinutes: 30, bufferAfterMinutes: 30 });
      const at = (h: number) => futureStart(4, Math.floor(h), (h % 1) * 60);
      expect((await submitBooking(srv.url, bookingBody(type.id, at(first)))).status).toBe(201);
      const refused = await submitBooking(srv.url, bookingBody(type.id, at(second)));
      expect(refused.status, `${first} then ${second}`).toBe(409);
      expect(refused.body.code).toBe('svc_booking_slot_unavailable');
      expect(await offered(type.id, at(second).slice(0, 10))).not.toContain(at(second));
    }
  });

  it('buffer before 30 min: 10:30 then 10:00 is refused, and 10:00 then 10:30 is refused too', async () => {
    for (const [first, second] of [
      [10.5, 10],
      [10, 10.5],
    ] as const) {
      const host = await createHost(admin.api);
      const type = await createType(admin.api, { hosts: [host], durationMinutes: 30, bufferBeforeMinutes: 30 });
      const at = (h: number) => futureStart(5, Math.floor(h), (h % 1) * 60);
      expect((await submitBooking(srv.url, bookingBody(type.id, at(first)))).status).toBe(201);
      expect((await submitBooking(srv.url, bookingBody(type.id, at(second)))).status, `${first} then ${second}`).toBe(409);
    }
  });

  it('two types on one host: a booking of the type with 30 min after blocks the other type’s 10:30 (which has no buffers), in both orders', async () => {
    for (const order of ['buffered first', 'plain first'] as const) {
      const host = await createHost(admin.api);
      const buffered = await createType(admin.api, { hosts: [host], durationMinutes: 30, bufferAfterMinutes: 30 });
      const plain = await createType(admin.api, { hosts: [host], durationMinutes: 30 });
      const ten = futureStart(6, 10);
      const halfPast = futureStart(6, 10, 30);
      const [a, b] =
        order === 'buffered first'
          ? [bookingBody(buffered.id, ten), bookingBody(plain.id, halfPast)]
          : [bookingBody(plain.id, halfPast), bookingBody(buffered.id, ten)];
      expect((await submitBooking(srv.url, a)).status, order).toBe(201);
      expect((await submitBooking(srv.url, b)).status, order).toBe(409);
      // 11:00 is past the buffered booking's 30 minutes after: free for the plain type
      expect((await submitBooking(srv.url, bookingBody(plain.id, futureStart(6, 11)))).status, order).toBe(201);
    }
  });
});
