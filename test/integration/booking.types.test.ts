import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { useTestHooks } from '../helpers/hooks';
import { useTestServer } from '../helpers/test-server';
import { apiClient, loginAs } from '../helpers/http';
import { ALL_DAY, bookingBody, createHost, createType, disableIpThrottle, futureStart, submitBooking } from '../helpers/booking';

const { server: srv, admin, hooks } = useTestServer({ env: { SVC_JOBS: 'off' } });
let host: number;
const { filter } = useTestHooks(hooks);
const anon = () => apiClient(srv.url);

beforeAll(async () => {
  host = await createHost(admin.api);
  disableIpThrottle(hooks());
});

describe('booking types CRUD', () => {
  it('POST answers 201 with the documented shape and defaults (interval = duration, assignment empty, capacity 1)', async () => {
    const res = await admin.api.post('/booking-types', { title: 'Café consult', durationMinutes: 30, hosts: [host] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Café consult',
      slug: 'cafe-consult',
      status: 'draft',
      durationMinutes: 30,
      slotIntervalMinutes: 30,
      timezone: 'UTC',
      hosts: [host],
      assignment: '',
      weeklyWindows: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] },
      daysOff: [],
      capacity: 1,
      priceCents: 0,
      requiresApproval: false,
      locationMode: 'in_person',
      locationValue: '',
    });
    const again = await admin.api.post('/booking-types', { title: 'Café consult', durationMinutes: 30 });
    expect(again.body.slug).toBe('cafe-consult-2');
  });

  it('validates: unknown host, bad window, unknown zone, bad assignment → 400 naming the field; taken slug → 409', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ hosts: [987_654] }, 'hosts'],
      [{ weeklyWindows: { ...ALL_DAY, mon: [['17:00', '09:00']] } }, 'weeklyWindows.mon.0'],
      [{ weeklyWindows: { ...ALL_DAY, tue: [['9:00', '10:00']] } }, 'weeklyWindows.tue.0.0'],
      [{ timezone: 'Nowhere/Special' }, 'timezone'],
      [{ assignment: 'random' }, 'assignment'],
      [{ daysOff: ['2026-13-01'] }, 'daysOff.0'],
      [{ durationMinutes: 0 }, 'durationMinutes'],
    ];
    for (const [body, param] of cases) {
      const res = await admin.api.post('/booking-types', { title: 'X', durationMinutes: 30, ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.body.data.params), JSON.stringify(body)).toContain(param);
    }
    await createType(admin.api, { slug: 'taken-slug' });
    expect((await admin.api.post('/booking-types', { title: 'Y', durationMinutes: 30, slug: 'taken-slug' })).status).toBe(409);
  });

  it('public GET lists only published types with the resolved public config (currency, location label); admin sees drafts', async () => {
    const pub = await createType(admin.api, { title: 'Public one', locationMode: 'virtual', locationValue: 'https://meet.example.test/x' });
    const draft = await createType(admin.api, { title: 'Draft one', status: 'draft' });
    const list = await anon().get('/booking-types?perPage=500');
    expect(list.status).toBe(200);
    const ids = list.body.map((t: any) => t.id);
    expect(ids).toContain(pub.id);
    expect(ids).not.toContain(draft.id);
    expect(Number(list.headers.get('x-total-count'))).toBe(list.body.length);
    const one = await anon().get(`/booking-types/${pub.id}`);
    expect(one.body).toMatchObject({ id: pub.id, currency: 'USD', locationLabel: 'Online', locationMode: 'virtual' });
    expect((await anon().get(`/booking-types/${draft.id}`)).status).toBe(404);
    expect((await admin.api.get(`/booking-types/${draft.id}`)).status).toBe(200);
    expect((await admin.api.get('/booking-types?perPage=500')).body.map((t: any) => t.id)).toContain(draft.id);
  });

  it('PATCH updates given fields only; DELETE answers 204, or 409 when the type has bookings', async () => {
    const type = await createType(admin.api, { hosts: [host] });
    const patched = await admin.api.patch(`/booking-types/${type.id}`, { title: 'Renamed', capacity: 3, assignment: 'fixed' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ title: 'Renamed', capacity: 3, assignment: 'fixed', durationMinutes: 60, hosts: [host] });
    expect((await submitBooking(srv.url, bookingBody(type.id, futureStart(3, 10)))).status).toBe(201);
    const refused = await admin.api.delete(`/booking-types/${type.id}`);
    expect(refused.status).toBe(409);
    const empty = await createType(admin.api);
    expect((await admin.api.delete(`/booking-types/${empty.id}`)).status).toBe(204);
    expect((await admin.api.get(`/booking-types/${empty.id}`)).status).toBe(404);
  });

  it('managing types is for administrators: 401 anonymous, 403 for a host', async () => {
    expect((await anon().post('/booking-types', { title: 'X', durationMinutes: 30 })).status).toBe(401);
    await admin.api.post('/users', { email: 'host-bt@example.test', role: 'host', password: 'long enough password' });
    const h = await loginAs(srv.url, 'host-bt@example.test', 'long enough password');
    expect((await h.api.post('/booking-types', { title: 'X', durationMinutes: 30 })).status).toBe(403);
    expect((await h.api.patch('/booking-types/1', { title: 'X' })).status).toBe(403);
    expect((await anon().delete('/booking-types/1')).status).toBe(401);
  });
});

describe('settings (GET/PATCH /settings)', () => {
  it('defaults: USD, the contract labels, 24 hold hours; admin only', async () => {
    expect((await admin.api.get('/settings')).body).toEqual({
      currency: 'USD',
      locationLabels: { in_person: 'In person', virtual: 'Online', phone: 'By phone' },
      paymentHoldHours: 24,
      defaultLanguage: 'en',
      sellerName: '',
      sellerAddress: '',
      sellerTaxId: '',
      defaultTimeZone: 'UTC',
      currencyChosen: false,
      defaultTimeZoneChosen: false,
    });
    expect((await anon().get('/settings')).status).toBe(401);
  });

  it('currency accepts lowercase or padded input and stores it normalised; amounts are relabelled, not converted', async () => {
    const type = await createType(admin.api, { priceCents: 1999 });
    const res = await admin.api.patch('/settings', { currency: ' eur ' });
    expect(res.status).toBe(200);
    expect(res.body.currency).toBe('EUR');
    const [row] = await queryRows<{ value: unknown }>(srv.server.ctx.db, sql`select value from svc_settings where key = 'currency'`);
    expect(row!.value).toBe('EUR');
    expect((await anon().get(`/booking-types/${type.id}`)).body).toMatchObject({ currency: 'EUR', priceCents: 1999 });
    expect((await admin.api.patch('/settings', { currency: 'euro' })).status).toBe(400);
    await admin.api.patch('/settings', { currency: 'USD' });
  });

  it('svc_currency is the single override point, normalised (lowercase / padded answers accepted)', async () => {
    filter('svc_currency', () => '  gbp', 10, 1);
    expect((await admin.api.get('/settings')).body.currency).toBe('GBP');
  });

  it('location labels: saved overrides merge with the defaults, then svc_booking_location_labels; a mode without an entry prints nothing', async () => {
    const res = await admin.api.patch('/settings', { locationLabels: { custom: 'At our shop' } });
    expect(res.body.locationLabels).toEqual({ in_person: 'In person', virtual: 'Online', phone: 'By phone', custom: 'At our shop' });
    filter(
      'svc_booking_location_labels',
      (labels: Record<string, string>) => {
        const { phone: _phone, ...rest } = labels;
        return rest;
      },
      10,
      1,
    );
    const type = await createType(admin.api, { locationMode: 'phone', locationValue: '+1 555' });
    expect((await anon().get(`/booking-types/${type.id}`)).body.locationLabel).toBe('');
    await admin.api.patch('/settings', { locationLabels: {} });
  });

  it('hold hours: stored, passed through svc_booking_payment_hold_hours, below 1 refused', async () => {
    expect((await admin.api.patch('/settings', { paymentHoldHours: 0 })).status).toBe(400);
    expect((await admin.api.patch('/settings', { paymentHoldHours: 6 })).body.paymentHoldHours).toBe(6);
    filter('svc_booking_payment_hold_hours', () => 0.5, 10, 1);
    expect((await admin.api.get('/settings')).body.paymentHoldHours).toBe(1);
  });

  it('never exposes other svc_settings rows (the server secret)', async () => {
    const body = JSON.stringify((await admin.api.get('/settings')).body);
    expect(body).not.toContain('server_secret');
  });
});
