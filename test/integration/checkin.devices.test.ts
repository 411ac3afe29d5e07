import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { AppError } from '../../shared/errors';
import { devicesService, PAIRING_IP_LIMIT } from '../../server/modules/devices/devices.service';
import { useTestServer } from '../helpers/test-server';
import { apiClient } from '../helpers/http';
import { createAttendee, createEvent, pairDevice, scan, trpcClient, trpcErrorCode } from '../helpers/checkin';

const { server: srv, admin, db } = useTestServer({ env: { SVC_JOBS: 'off' } });

describe('door device pairing', () => {
  it('an administrator creates a device and gets a one-time 8-character code, valid 15 minutes, and a QR URL carrying it in the fragment', async () => {
    const event = await createEvent(db());
    const res = await admin.api.post('/devices', { name: 'Main entrance', eventIds: [event.id] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Main entrance', eventIds: [event.id], pairedUtc: null, revokedUtc: null });
    const { pairingCode, pairingExpiresUtc, pairingUrl } = res.body.pairing;
    expect(pairingCode).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    const minutes = (Date.parse(`${pairingExpiresUtc.replace(' ', 'T')}Z`) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(14);
    expect(minutes).toBeLessThanOrEqual(15);
    expect(pairingUrl).toBe(`${srv.server.ctx.env.publicUrl}/door#pair=${pairingCode.replace('-', '')}`);
  });

  it('a device for an unknown event is refused with 400 svc_invalid_param', async () => {
    const res = await admin.api.post('/devices', { name: 'Ghost', eventIds: [987_654] });
    expect(res.status).toBe(400);
    expect(res.body.data.params).toHaveProperty('eventIds');
  });

  it('pairing is single use: the code gives a token once (any case, dash optional), then 400 svc_pairing_code_invalid', async () => {
    const event = await createEvent(db());
    const created = await admin.api.post('/devices', { name: 'Side door', eventIds: [event.id] });
    const code: string = created.body.pairing.pairingCode;
    const first = await apiClient(srv.url).post('/devices/pair', { code: code.replace('-', '').toLowerCase() });
    expect(first.status).toBe(200);
    expect(first.body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.body.device).toMatchObject({ id: created.body.id, name: 'Side door' });
    const second = await apiClient(srv.url).post('/devices/pair', { code });
    expect(second.status).toBe(400);
    expect(second.body.code).toBe('svc_pairing_code_invalid');
    // Only hashes are stored.
    const [row] = await queryRows<Record<string, unknown>>(db(), sql`select * from svc_devices where id = ${created.body.id}`);
    expect(JSON.stringify(row)).not.toContain(first.body.token);
    expect(row!.pairing_code_hash).toBeNull();
  });

  it('an expired pairing code is refused', async () => {
    const event = await createEvent(db());
    const created = await admin.api.post('/devices', { name: 'Late door', eventIds: [event.id] });
    await db().execute(sql`update svc_devices set pairing_expires_utc = pairing_expires_utc - interval '16 minutes' where id = ${created.body.id}`);
    const res = await apiClient(srv.url).post('/devices/pair', { code: created.body.pairing.pairingCode });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('svc_pairing_code_invalid');
  });

  it('the device token acts as staff for its events only, and may not manage devices', async () => {
    const [mine, other] = [await createEvent(db()), await createEvent(db())];
    const device = await pairDevice(srv.url, admin.api, [mine.id], 'Scanner 7');
    const door = apiClient(srv.url, { bearer: device.token });
    expect((await door.get('/devices/me')).body).toMatchObject({ id: device.id, name: 'Scanner 7', eventIds: [mine.id] });
    expect(await trpcClient(srv.url, { bearer: device.token }).devices.me.query()).toMatchObject({ id: device.id });
    expect((await door.get('/devices')).status).toBe(403);
    expect((await door.get(`/checkins/counts?eventId=${other.id}`)).status).toBe(403);
  });

  it('a new pairing code re-pairs a device; the old token then stops working', async () => {
    const event = await createEvent(db());
    const device = await pairDevice(srv.url, admin.api, [event.id]);
    const again = await admin.api.post(`/devices/${device.id}/pairing-code`);
    expect(again.status).toBe(201);
    const repaired = await apiClient(srv.url).post('/devices/pair', { code: again.body.pairingCode });
    expect(repaired.status).toBe(200);
    expect((await apiClient(srv.url, { bearer: device.token }).get('/devices/me')).status).toBe(401);
    expect((await apiClient(srv.url, { bearer: repaired.body.token }).get('/devices/me')).status).toBe(200);
  });
});

describe('revocation', () => {
  it('a revoked device is answered 401 svc_device_revoked on REST and tRPC, and its queued scans are refused, not dropped', async () => {
    const event = await createEvent(db());
    const a = await createAttendee(db(), event.id);
    const device = await pairDevice(srv.url, admin.api, [event.id]);
    expect((await admin.api.delete(`/devices/${device.id}`)).status).toBe(204);

    const rest = await apiClient(srv.url, { bearer: device.token }).post('/checkins', { ticketCode: a.ticketCode, eventId: event.id });
    expect(rest.status).toBe(401);
    expect(rest.body.code).toBe('svc_device_revoked');

    const door = trpcClient(srv.url, { bearer: device.token });
    expect(await trpcErrorCode(door.sync.push.mutate({ items: [scan(a)] }))).toBe('svc_device_revoked');
    expect(await trpcErrorCode(door.sync.pull.query({ cursor: '0:0', eventIds: [event.id] }))).toBe('svc_device_revoked');
    const [{ n }] = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from svc_checkins where attendee_id = ${a.id}`);
    expect(n).toBe(0);

    const listed = (await admin.api.get('/devices')).body.find((d: { id: number }) => d.id === device.id);
    expect(listed.revokedUtc).not.toBeNull();
    // A revoked device cannot be paired again.
    expect((await admin.api.post(`/devices/${device.id}/pairing-code`)).status).toBe(409);
  });

  it('an unknown token is still the generic 401 svc_unauthorized', async () => {
    const res = await apiClient(srv.url, { bearer: 'x'.repeat(43) }).get('/devices/me');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('svc_unauthorized');
  });
});

describe('device list for administrators', () => {
  it('shows last-seen time and the pending count the device last reported', async () => {
    const event = await createEvent(db());
    const a = await createAttendee(db(), event.id);
    const device = await pairDevice(srv.url, admin.api, [event.id], 'Reporting door');
    await trpcClient(srv.url, { bearer: device.token }).sync.push.mutate({ items: [scan(a)], pending: 3 });
    const listed = (await admin.api.get('/devices')).body.find((d: { id: number }) => d.id === device.id);
    expect(listed.lastSeenUtc).toMatch(/^\d{4}-/);
    expect(listed.pendingCount).toBe(3);
    expect(listed.pendingReportedUtc).toMatch(/^\d{4}-/);
  });

  it('a door reporting the same pending count on every sync is written at most once a minute; a changed count at once', async () => {
    const event = await createEvent(db());
    const device = await pairDevice(srv.url, admin.api, [event.id], 'Busy door');
    const door = trpcClient(srv.url, { bearer: device.token });
    const reported = async () =>
      (
        await queryRows<{ n: number; at: string }>(
          db(),
          sql`select pending_count as n, to_char(pending_reported_utc, 'YYYY-MM-DD HH24:MI:SS') as at from svc_devices where id = ${device.id}`,
        )
      )[0]!;
    const backdate = (seconds: number) =>
      db().execute(sql`update svc_devices set pending_reported_utc = pending_reported_utc - make_interval(secs => ${seconds}) where id = ${device.id}`);
    await door.sync.pull.query({ cursor: '0:0', eventIds: [event.id], pending: 4 });
    await backdate(30);
    const first = await reported();
    await door.sync.pull.query({ cursor: '0:0', eventIds: [event.id], pending: 4 });
    expect(await reported()).toEqual(first);
    await backdate(60);
    await door.sync.pull.query({ cursor: '0:0', eventIds: [event.id], pending: 4 });
    expect((await reported()).at > first.at).toBe(true);
    await door.sync.pull.query({ cursor: '0:0', eventIds: [event.id], pending: 2 });
    expect((await reported()).n).toBe(2);
  });

  it('PATCH changes the name and events', async () => {
    const [e1, e2] = [await createEvent(db()), await createEvent(db())];
    const device = await pairDevice(srv.url, admin.api, [e1.id]);
    const res = await admin.api.patch(`/devices/${device.id}`, { name: 'Renamed', eventIds: [e1.id, e2.id] });
    expect(res.body).toMatchObject({ name: 'Renamed', eventIds: [e1.id, e2.id] });
    expect((await apiClient(srv.url, { bearer: device.token }).get(`/checkins/counts?eventId=${e2.id}`)).status).toBe(200);
  });

  it('PATCH with an empty body changes nothing and answers the device (was a 500)', async () => {
    const event = await createEvent(db());
    const device = await pairDevice(srv.url, admin.api, [event.id]);
    const res = await admin.api.patch(`/devices/${device.id}`, {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: device.id, name: 'Door A', eventIds: [event.id] });
    expect((await admin.api.patch('/devices/999999', {})).status).toBe(404);
  });
});

describe('pairing throttle', () => {
  it(`refuses with svc_rate_limited and a retry time after ${PAIRING_IP_LIMIT.limit} attempts a minute from one IP`, async () => {
    const devices = devicesService(srv.server.ctx);
    const nowMs = Date.UTC(2030, 0, 1, 12, 0, 10); // one fixed window, whatever the wall clock
    const attempt = (): Promise<AppError> =>
      devices.pair({ code: 'AAAA-AAAA', ip: '203.0.113.9' }, nowMs).then(
        () => new AppError('paired'),
        (e: AppError) => e,
      );
    for (let i = 0; i < PAIRING_IP_LIMIT.limit; i++) expect((await attempt()).code).toBe('svc_pairing_code_invalid');
    const refused = await attempt();
    expect(refused.code).toBe('svc_rate_limited');
    expect(refused.data.retryAfter).toBe(50);
  });
});
