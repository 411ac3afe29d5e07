import { describe, expect, it } from 'vitest';
import { startTestServer } from '../helpers/server';
import { useTestServer } from '../helpers/test-server';
import { loginAs } from '../helpers/http';
import { createAttendee, createEvent } from '../helpers/checkin';

describe('extended edition: svc_rest_attendee_response gains checkinCount and lastCheckinUtc at priority 10', () => {
  const { server: srv, admin } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off' } });

  it('counts check-ins not annulled, in the list, the single GET and both exports', async () => {
    const db = srv.server.ctx.db;
    const event = await createEvent(db);
    const [a, b] = [await createAttendee(db, event.id), await createAttendee(db, event.id)];
    await admin.api.post('/checkins', { ticketCode: a.ticketCode, eventId: event.id, scannedUtc: '2030-06-01 18:01:00' });
    await admin.api.post('/checkins', { ticketCode: a.ticketCode, eventId: event.id, scannedUtc: '2030-06-01 18:09:00' });
    const annulled = await admin.api.post('/checkins', { ticketCode: b.ticketCode, eventId: event.id });
    await admin.api.post(`/checkins/${annulled.body.checkinId}/annul`);

    const list = await admin.api.get(`/attendees?eventId=${event.id}`);
    const byId = new Map(list.body.map((x: { id: number }) => [x.id, x]));
    expect(byId.get(a.id)).toMatchObject({ checkinCount: 2, lastCheckinUtc: '2030-06-01 18:09:00' });
    expect(byId.get(b.id)).toMatchObject({ checkinCount: 0, lastCheckinUtc: null });

    expect((await admin.api.get(`/attendees/${a.id}`)).body).toMatchObject({ checkinCount: 2, lastCheckinUtc: '2030-06-01 18:09:00' });

    const json = await admin.api.get(`/attendees/export?eventId=${event.id}&format=json`);
    expect(json.body.find((x: { id: number }) => x.id === a.id)).toMatchObject({ checkinCount: 2 });
    const csv = await admin.api.get(`/attendees/export?eventId=${event.id}&format=csv`);
    const [header, first] = (csv.body as string).trim().split('\r\n');
    expect(header!.split(',')).toEqual(expect.arrayContaining(['checkinCount', 'lastCheckinUtc']));
    expect(first).toContain('2030-06-01 18:09:00');
  });

  it('runs before a plugin listener at a later priority, which sees the added keys', async () => {
    let seen: unknown;
    srv.server.ctx.hooks.addFilter(
      'svc_rest_attendee_response',
      (serialized) => {
        seen = serialized.checkinCount;
        return serialized;
      },
      20,
    );
    const db = srv.server.ctx.db;
    const event = await createEvent(db);
    const a = await createAttendee(db, event.id);
    await admin.api.get(`/attendees/${a.id}`);
    expect(seen).toBe(0);
  });
});

describe('free edition', () => {
  it('adds no check-in keys to the attendee serialization', async () => {
    const srv = await startTestServer({ env: { SVC_JOBS: 'off' } });
    try {
      const admin = await loginAs(srv.url, srv.admin.email, srv.admin.password);
      const event = await createEvent(srv.server.ctx.db);
      const a = await createAttendee(srv.server.ctx.db, event.id);
      const res = await admin.api.get(`/attendees/${a.id}`);
      expect(res.body).not.toHaveProperty('checkinCount');
    } finally {
      await srv.close();
    }
  });
});
