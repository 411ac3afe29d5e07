/**
 * The first-run checklist (`GET /setup`, docs/api.md#first-run-checklist): each step is read from
 * the data, never ticked by hand, and only administrators read it.
 */
import { describe, expect, it } from 'vitest';
import { createType } from '../helpers/booking';
import { pairDevice } from '../helpers/checkin';
import { apiClient, loginAs } from '../helpers/http';
import { createEvent } from '../helpers/registration';
import { useTestServer } from '../helpers/test-server';
import { SETUP_STEPS } from '../../shared/setup';

const { server: srv, admin } = useTestServer({ env: { SVC_JOBS: 'off' } });

async function openSteps(): Promise<string[]> {
  const res = await admin.api.get('/setup');
  expect(res.status).toBe(200);
  expect(res.body.steps.map((s: { key: string }) => s.key)).toEqual([...SETUP_STEPS]);
  expect(res.body.complete).toBe(res.body.steps.every((s: { done: boolean }) => s.done));
  return res.body.steps.filter((s: { done: boolean }) => !s.done).map((s: { key: string }) => s.key);
}

describe('GET /setup', () => {
  it('starts with every step open and ticks each one when its data appears, until complete', async () => {
    expect(await openSteps()).toEqual(['organization', 'regional', 'event', 'bookingType', 'staff', 'door']);

    // a blank name names nothing
    expect((await admin.api.patch('/settings', { sellerName: '   ' })).status).toBe(200);
    expect(await openSteps()).toContain('organization');
    expect((await admin.api.patch('/settings', { sellerName: 'Hall & Co' })).status).toBe(200);
    expect(await openSteps()).toEqual(['regional', 'event', 'bookingType', 'staff', 'door']);

    // the currency alone is half the step; the zone completes it
    expect((await admin.api.patch('/settings', { currency: 'EUR' })).status).toBe(200);
    expect(await openSteps()).toContain('regional');
    expect((await admin.api.patch('/settings', { defaultTimeZone: 'Europe/Berlin' })).status).toBe(200);
    expect(await openSteps()).toEqual(['event', 'bookingType', 'staff', 'door']);

    // a draft is not published
    const draft = await createEvent(admin.api, { status: 'draft' });
    expect(await openSteps()).toContain('event');
    expect((await admin.api.patch(`/events/${draft.id}`, { status: 'published' })).status).toBe(200);
    expect(await openSteps()).toEqual(['bookingType', 'staff', 'door']);

    await createType(admin.api);
    expect(await openSteps()).toEqual(['staff', 'door']);

    expect((await admin.api.post('/users/invite', { email: 'door-staff@example.test', role: 'staff' })).status).toBe(201);
    expect(await openSteps()).toEqual(['door']);

    // a device waiting for its code is not paired, nor is a revoked one
    expect((await admin.api.post('/devices', { name: 'Unpaired', eventIds: [draft.id] })).status).toBe(201);
    expect(await openSteps()).toEqual(['door']);
    const revoked = await pairDevice(srv.url, admin.api, [draft.id], 'Revoked');
    expect((await admin.api.delete(`/devices/${revoked.id}`)).status).toBeLessThan(300);
    expect(await openSteps()).toEqual(['door']);
    await pairDevice(srv.url, admin.api, [draft.id], 'Door A');
    expect(await openSteps()).toEqual([]);
    expect((await admin.api.get('/setup')).body.complete).toBe(true);
  });

  it('answers staff 403 and the unauthenticated 401', async () => {
    expect((await admin.api.post('/users', { email: 'setup-staff@example.test', role: 'staff', password: 'long enough password' })).status).toBe(201);
    const staff = await loginAs(srv.url, 'setup-staff@example.test', 'long enough password');
    expect((await staff.api.get('/setup')).status).toBe(403);
    expect((await apiClient(srv.url).get('/setup')).status).toBe(401);
  });
});

describe('the currency and the default time zone in Settings', () => {
  it('say whether they were ever saved; a zone that is no IANA name is 400 naming the field', async () => {
    const res = await admin.api.patch('/settings', { defaultTimeZone: 'Mars/Olympus' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'svc_invalid_param', data: { params: { defaultTimeZone: expect.any(String) } } });
    const saved = await admin.api.patch('/settings', { defaultTimeZone: 'America/Sao_Paulo', currency: 'brl' });
    expect(saved.body).toMatchObject({ defaultTimeZone: 'America/Sao_Paulo', defaultTimeZoneChosen: true, currency: 'BRL', currencyChosen: true });
    expect((await admin.api.get('/settings')).body).toMatchObject({ defaultTimeZone: 'America/Sao_Paulo', currency: 'BRL' });
  });
});

describe('an install that already sells', () => {
  const second = useTestServer({ env: { SVC_JOBS: 'off' } });

  it('counts its currency as chosen once anything carries a price, so the form proposes no other currency (a save would relabel the prices)', async () => {
    expect((await second.admin.api.get('/settings')).body).toMatchObject({ currency: 'USD', currencyChosen: false });
    expect((await createEvent(second.admin.api, { priceCents: 1800 })).id).toEqual(expect.any(Number));
    expect((await second.admin.api.get('/settings')).body).toMatchObject({ currency: 'USD', currencyChosen: true });
  });
});
