/**
 * Every PATCH route changes only the fields it is sent: a one-field patch leaves every other
 * field as it was (a patch schema that inherited the create schema's defaults once reset them).
 */
import { describe, expect, it } from 'vitest';
import { createHost, createType } from '../helpers/booking';
import { createEvent, signUp } from '../helpers/registration';
import { useTestServer } from '../helpers/test-server';

const { server: srv, admin } = useTestServer({ env: { SVC_JOBS: 'off' } });

/** The fields of `after` that differ from `before`, but for the update time. */
function changed(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  return Object.keys(after).filter((k) => k !== 'updatedUtc' && JSON.stringify(before[k]) !== JSON.stringify(after[k]));
}

describe('a one-field PATCH changes that field only', () => {
  it('PATCH /events/{id}', async () => {
    const event = await createEvent(admin.api, {
      description: 'Kept',
      venue: 'Hall B',
      timezone: 'Asia/Tokyo',
      capacity: 12,
      waitlist: false,
      priceCents: 900,
    });
    const res = await admin.api.patch(`/events/${event.id}`, { title: 'Renamed' });
    expect(res.status).toBe(200);
    expect(changed(event, res.body)).toEqual(['title']);
  });

  it('PATCH /attendees/{id}', async () => {
    const event = await createEvent(admin.api, { status: 'published' });
    const signed = await signUp(srv, event.id, { display_name: 'Keep Me', quantity: 2 });
    const before = (await admin.api.get(`/attendees/${signed.body.id}`)).body;
    const res = await admin.api.patch(`/attendees/${signed.body.id}`, { email: 'moved@example.test' });
    expect(res.status).toBe(200);
    expect(changed(before, res.body)).toEqual(['email']);
  });

  it('PATCH /booking-types/{id}', async () => {
    const host = await createHost(admin.api);
    const type = await createType(admin.api, {
      hosts: [host],
      description: 'Kept',
      timezone: 'Europe/Berlin',
      bufferAfterMinutes: 15,
      capacity: 3,
      requiresApproval: true,
    });
    const res = await admin.api.patch(`/booking-types/${type.id}`, { title: 'Renamed' });
    expect(res.status).toBe(200);
    expect(changed(type, res.body)).toEqual(['title']);
  });

  it('PATCH /users/{id}', async () => {
    const user = (await admin.api.post('/users', { email: 'one-field@example.test', displayName: 'Keep Me', role: 'host', timezone: 'Asia/Tokyo' })).body;
    for (const patch of [{ timezone: 'America/Denver' }, { displayName: 'New Name' }]) {
      const before = (await admin.api.get(`/users/${user.id}`)).body;
      const res = await admin.api.patch(`/users/${user.id}`, patch);
      expect(res.status).toBe(200);
      expect(changed(before, res.body)).toEqual(Object.keys(patch));
    }
  });

  it('PATCH /devices/{id}', async () => {
    const event = await createEvent(admin.api);
    const device = (await admin.api.post('/devices', { name: 'Door A', eventIds: [event.id] })).body;
    const before = (await admin.api.get('/devices')).body.find((d: { id: number }) => d.id === device.id);
    const res = await admin.api.patch(`/devices/${device.id}`, { name: 'Door B' });
    expect(res.status).toBe(200);
    expect(changed(before, res.body)).toEqual(['name']);
  });

  it('PATCH /settings', async () => {
    await admin.api.patch('/settings', { currency: 'EUR', locationLabels: { phone: 'Call' }, paymentHoldHours: 6 });
    const before = (await admin.api.get('/settings')).body;
    const res = await admin.api.patch('/settings', { paymentHoldHours: 8 });
    expect(res.status).toBe(200);
    expect(changed(before, res.body)).toEqual(['paymentHoldHours']);
  });
});
