import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { ALL_DAY, bookingBody, createType, disableIpThrottle, futureStart, submitBooking } from '../helpers/booking';
import { apiClient, loginAs } from '../helpers/http';
import { useTestServer } from '../helpers/test-server';

// A host's own working hours (docs/api.md#host-hours), on both databases.
const { server: srv, admin, db } = useTestServer({ env: { SVC_JOBS: 'off' } });

let userSeq = 0;
async function signedInUser(role: 'host' | 'staff', displayName: string) {
  userSeq += 1;
  const email = `hours-${role}${userSeq}-${process.pid}@example.test`;
  const created = await admin.api.post('/users', { email, displayName, role, password: 'long enough password' });
  expect(created.status).toBe(201);
  return { id: created.body.id as number, session: await loginAs(srv.url, email, 'long enough password') };
}

const NINE_TO_ELEVEN = {
  mon: [['09:00', '11:00']],
  tue: [['09:00', '11:00']],
  wed: [['09:00', '11:00']],
  thu: [['09:00', '11:00']],
  fri: [['09:00', '11:00']],
  sat: [['09:00', '11:00']],
  sun: [['09:00', '11:00']],
};
const day = (days: number) => futureStart(days, 0).slice(0, 10);
const slotStarts = async (typeId: number, d: string) =>
  ((await apiClient(srv.url).get(`/booking-types/${typeId}/slots?from=${d}&to=${d}&tz=UTC`)).body.slots as Array<{ start_utc: string; hosts: number[] }>).map(
    (s) => s.start_utc,
  );

describe('host hours', () => {
  it('a host with no stored hours reads stored: false and is available around the clock', async () => {
    const host = await signedInUser('host', 'Nia Host');
    const res = await host.session.api.get(`/hosts/${host.id}/hours`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ userId: host.id, stored: false, overrides: [], updatedUtc: null });
    expect(res.body.weekly.mon).toEqual([['00:00', '24:00']]);
  });

  it('a host stores their hours and reads them back; overrides come back sorted with `to` filled in', async () => {
    const host = await signedInUser('host', 'Ola Host');
    const body = {
      timezone: 'Europe/Berlin',
      weekly: { ...NINE_TO_ELEVEN, sat: [], sun: [] },
      overrides: [
        { from: '2030-08-01', to: '2030-08-14', windows: [] },
        { from: '2030-07-04', windows: [['12:00', '14:00']] },
      ],
    };
    const put = await host.session.api.put(`/hosts/${host.id}/hours`, body);
    expect(put.status).toBe(200);
    const got = await host.session.api.get(`/hosts/${host.id}/hours`);
    expect(got.body).toMatchObject({
      userId: host.id,
      stored: true,
      timezone: 'Europe/Berlin',
      weekly: body.weekly,
      overrides: [
        { from: '2030-07-04', to: '2030-07-04', windows: [['12:00', '14:00']] },
        { from: '2030-08-01', to: '2030-08-14', windows: [] },
      ],
    });
    expect(got.body.updatedUtc).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it("a host may read and change only their own hours, an administrator anyone's; staff and anonymous callers are refused", async () => {
    const pia = await signedInUser('host', 'Pia Host');
    const quin = await signedInUser('host', 'Quin Host');
    const staff = await signedInUser('staff', 'Sol Staff');
    const body = { timezone: 'UTC', weekly: NINE_TO_ELEVEN, overrides: [] };
    expect((await pia.session.api.get(`/hosts/${quin.id}/hours`)).status).toBe(403);
    const refused = await pia.session.api.put(`/hosts/${quin.id}/hours`, body);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('svc_forbidden');
    expect((await staff.session.api.get(`/hosts/${quin.id}/hours`)).status).toBe(403);
    expect((await apiClient(srv.url).get(`/hosts/${quin.id}/hours`)).status).toBe(401);
    expect((await admin.api.put(`/hosts/${quin.id}/hours`, body)).status).toBe(200);
    expect((await quin.session.api.get(`/hosts/${quin.id}/hours`)).body.weekly.mon).toEqual([['09:00', '11:00']]);
    expect((await admin.api.get('/hosts/99999999/hours')).status).toBe(404);
  });

  it('bad input is refused with svc_invalid_param naming the field, and nothing is stored', async () => {
    const host = await signedInUser('host', 'Rae Host');
    const good = { timezone: 'UTC', weekly: NINE_TO_ELEVEN, overrides: [] };
    const tooMany = Array.from({ length: 13 }, (_, i) => [`${String(i).padStart(2, '0')}:00`, `${String(i).padStart(2, '0')}:30`]);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...good, timezone: 'Mars/Olympus' }, 'timezone'],
      [{ ...good, weekly: { ...NINE_TO_ELEVEN, mon: [['9:00', '11:00']] } }, 'weekly'],
      [{ ...good, weekly: { ...NINE_TO_ELEVEN, mon: [['11:00', '09:00']] } }, 'weekly'],
      [{ ...good, weekly: { ...NINE_TO_ELEVEN, mon: tooMany } }, 'weekly'],
      [{ ...good, overrides: [{ from: '2030-02-30', windows: [] }] }, 'overrides'],
      [{ ...good, overrides: [{ from: '2030-03-05', to: '2030-03-01', windows: [] }] }, 'overrides'],
      [{ ...good, overrides: [{ from: '2030-03-01', to: '2031-03-05', windows: [] }] }, 'overrides'],
      [
        {
          ...good,
          overrides: [
            { from: '2030-03-01', to: '2030-03-05', windows: [] },
            { from: '2030-03-05', windows: [] },
          ],
        },
        'overrides',
      ],
      [
        { ...good, overrides: Array.from({ length: 367 }, (_, i) => ({ from: new Date(Date.UTC(2030, 0, 1 + i)).toISOString().slice(0, 10), windows: [] })) },
        'overrides',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await host.session.api.put(`/hosts/${host.id}/hours`, body);
      expect(res.status, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(res.body.code).toBe('svc_invalid_param');
      expect(
        Object.keys(res.body.data.params).some((name) => name === field || name.startsWith(`${field}.`)),
        JSON.stringify(res.body.data.params),
      ).toBe(true);
    }
    expect((await host.session.api.get(`/hosts/${host.id}/hours`)).body.stored).toBe(false);
  });

  it('the slots of a type change as soon as its host saves their hours, and a booking or a move outside them is refused', async () => {
    const host = await signedInUser('host', 'Sam Host');
    const type = await createType(admin.api, { title: 'Hours check', hosts: [host.id], weeklyWindows: ALL_DAY });
    const d = day(4);
    expect(await slotStarts(type.id, d)).toHaveLength(24);

    const put = await host.session.api.put(`/hosts/${host.id}/hours`, {
      timezone: 'UTC',
      weekly: {
        mon: [['09:00', '11:00']],
        tue: [['09:00', '11:00']],
        wed: [['09:00', '11:00']],
        thu: [['09:00', '11:00']],
        fri: [['09:00', '11:00']],
        sat: [['09:00', '11:00']],
        sun: [['09:00', '11:00']],
      },
      overrides: [{ from: day(5), windows: [] }],
    });
    expect(put.status).toBe(200);
    expect(await slotStarts(type.id, d)).toEqual([`${d} 09:00:00`, `${d} 10:00:00`]);
    expect(await slotStarts(type.id, day(5))).toEqual([]);

    const off = disableIpThrottle(srv.server.ctx.hooks);
    try {
      const outside = await submitBooking(srv.url, bookingBody(type.id, `${d} 14:00:00`));
      expect(outside.status).toBe(409);
      expect(outside.body.code).toBe('svc_booking_slot_unavailable');
      const inside = await submitBooking(srv.url, bookingBody(type.id, `${d} 10:00:00`));
      expect(inside.status).toBe(201);
      // moving it out of the hours is refused the same way, within them it is allowed
      const [row] = await queryRows<{ cancel_token: string }>(db(), sql`select cancel_token from svc_bookings where booking_id = ${inside.body.bookingId}`);
      const move = (startUtc: string) => apiClient(srv.url).patch(`/bookings/${row!.cancel_token}/reschedule`, { startUtc });
      const outOfHours = await move(`${d} 12:00:00`);
      expect(outOfHours.status).toBe(409);
      expect(outOfHours.body.code).toBe('svc_booking_slot_unavailable');
      expect((await move(`${d} 09:00:00`)).status).toBe(200);
    } finally {
      off();
    }
  });

  it("a type set to the hosts' hours alone offers them even outside its own windows", async () => {
    const host = await signedInUser('host', 'Tea Host');
    await host.session.api.put(`/hosts/${host.id}/hours`, {
      timezone: 'UTC',
      weekly: {
        ...NINE_TO_ELEVEN,
        mon: [['13:00', '15:00']],
        tue: [['13:00', '15:00']],
        wed: [['13:00', '15:00']],
        thu: [['13:00', '15:00']],
        fri: [['13:00', '15:00']],
        sat: [['13:00', '15:00']],
        sun: [['13:00', '15:00']],
      },
      overrides: [],
    });
    const intersect = await createType(admin.api, { title: 'Within', hosts: [host.id], weeklyWindows: NINE_TO_ELEVEN });
    const alone = await createType(admin.api, { title: 'Alone', hosts: [host.id], weeklyWindows: NINE_TO_ELEVEN, hoursSource: 'hosts' });
    expect(alone.hoursSource).toBe('hosts');
    expect(intersect.hoursSource).toBe('type');
    const d = day(3);
    expect(await slotStarts(intersect.id, d)).toEqual([]);
    expect(await slotStarts(alone.id, d)).toEqual([`${d} 13:00:00`, `${d} 14:00:00`]);
  });
});
