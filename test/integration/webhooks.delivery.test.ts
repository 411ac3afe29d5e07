/**
 * Webhook delivery (docs/api.md#webhooks): the retry schedule on a clock the test moves
 * (`runDue(nowMs)`), 24 h then failed, five days failing then disabled with the administrators
 * mailed, the same `webhook-id` on every attempt, the delivery log, and the outbound guards
 * (SSRF at save and at delivery time, no redirects, the deadline, the capped answer). A real
 * receiver on 127.0.0.1; the server allows private targets unless a test switches that off.
 */
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { attemptDelivery, configureWebhookDelivery, type DeliverJobPayload } from '../../server/modules/webhooks/webhooks.service';
import { utcMs } from '../../shared/time';
import { storedMails } from '../helpers/mail';
import { useTestServer } from '../helpers/test-server';
import { createEndpoint, deliveriesOf, startReceiver, verified, type CreatedEndpoint, type DeliveryRecord, type Receiver } from '../helpers/webhooks';

const { server: srv, admin, db } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off', SVC_WEBHOOKS_ALLOW_PRIVATE: '1' } });
/** Runs every job due at `nowMs` (the wall clock when omitted), including the ones they queue for then. */
const runAt = (nowMs?: number) => srv.server.ctx.jobs.idle(nowMs);
const env = () => srv.server.ctx.env;
let receiver: Receiver;
const created: number[] = [];

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver?.close());
afterEach(async () => {
  configureWebhookDelivery(db(), {});
  env().SVC_WEBHOOKS_ALLOW_PRIVATE = '1';
  env().SVC_EDITION = 'extended';
  for (const id of created.splice(0)) await admin.api.delete(`/webhooks/${id}`);
});

async function endpoint(events: string[] = ['ping'], url?: (path: string) => string): Promise<CreatedEndpoint> {
  const made = url
    ? await (async () => {
        const path = `/named-${Date.now()}`;
        const res = await admin.api.post('/webhooks', { url: url(path), events });
        expect(res.status).toBe(201);
        return { id: res.body.id as number, secret: res.body.secret as string, path };
      })()
    : await createEndpoint(admin.api, receiver.url, events);
  created.push(made.id);
  return made;
}

async function ping(ep: CreatedEndpoint): Promise<number> {
  const res = await admin.api.post(`/webhooks/${ep.id}/test`);
  expect(res.status).toBe(202);
  expect(res.body).toMatchObject({ type: 'ping', status: 'pending', attempts: 0 });
  return res.body.id as number;
}

async function delivery(ep: CreatedEndpoint, id: number): Promise<DeliveryRecord> {
  const row = (await deliveriesOf(db(), ep.id)).find((d) => d.id === id);
  if (!row) throw new Error(`no delivery ${id}`);
  return row;
}

/** Runs attempt after attempt at the times the delivery asks for, until it is no longer pending; answers those times. */
async function driveToEnd(ep: CreatedEndpoint, id: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const row = await delivery(ep, id);
    if (row.status !== 'pending') return times;
    const at = utcMs(row.next_attempt_utc!);
    times.push(at);
    await runAt(at);
  }
  throw new Error('the delivery never ended');
}

const queuedJobsOf = async (deliveryId: number) =>
  (
    await queryRows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from svc_jobs where dedupe_key like ${`webhooks.deliver:${deliveryId}:%`} and state in ('queued', 'running')`,
    )
  )[0]!.n;

describe('retries', () => {
  it('a 500 is retried after 5 s, then 5 min, with the same webhook-id; a 200 then delivers and clears the failing state', async () => {
    const ep = await endpoint();
    receiver.script(ep.path, { status: 500 }, { status: 500 });
    const id = await ping(ep);
    const first = utcMs((await delivery(ep, id)).next_attempt_utc!);
    await runAt(first);
    const afterOne = await delivery(ep, id);
    expect(afterOne).toMatchObject({ status: 'pending', attempts: 1, last_response_code: 500, last_error: 'HTTP 500: ok' });
    expect(utcMs(afterOne.next_attempt_utc!) - first).toBe(5 * SECOND);
    expect((await admin.api.get(`/webhooks/${ep.id}`)).body.failingSinceUtc).not.toBeNull();

    await runAt(utcMs(afterOne.next_attempt_utc!));
    const afterTwo = await delivery(ep, id);
    expect(afterTwo).toMatchObject({ status: 'pending', attempts: 2 });
    expect(utcMs(afterTwo.next_attempt_utc!) - utcMs(afterOne.next_attempt_utc!)).toBe(5 * MINUTE);

    await runAt(utcMs(afterTwo.next_attempt_utc!));
    expect(await delivery(ep, id)).toMatchObject({ status: 'delivered', attempts: 3, last_response_code: 200, last_error: null, next_attempt_utc: null });
    expect((await admin.api.get(`/webhooks/${ep.id}`)).body.failingSinceUtc).toBeNull();

    const requests = receiver.received(ep.path);
    expect(requests).toHaveLength(3);
    const ids = new Set(requests.map((r) => r.headers['webhook-id']));
    expect([...ids]).toEqual([afterOne.message_id]);
    for (const r of requests) expect(verified(ep.secret, r)).toMatchObject({ type: 'ping', data: { endpointId: ep.id } });
    expect(new Set(requests.map((r) => r.body)).size).toBe(1);
    expect(await queuedJobsOf(id)).toBe(0);
  });

  it('redeliver sends the same webhook-id and body again as a new series (202)', async () => {
    const ep = await endpoint();
    const id = await ping(ep);
    await runAt();
    expect((await delivery(ep, id)).status).toBe('delivered');
    const again = await admin.api.post(`/webhooks/${ep.id}/deliveries/${id}/redeliver`);
    expect(again.status).toBe(202);
    expect(again.body).toMatchObject({ id, type: 'ping', status: 'pending', attempts: 1 });
    await runAt();
    const [one, two] = receiver.received(ep.path);
    expect(two).toBeDefined();
    expect(two!.headers['webhook-id']).toBe(one!.headers['webhook-id']);
    expect(two!.body).toBe(one!.body);
    verified(ep.secret, two!);
    expect(await delivery(ep, id)).toMatchObject({ status: 'delivered', attempts: 2 });
    expect((await admin.api.post(`/webhooks/${ep.id}/deliveries/999999/redeliver`)).status).toBe(404);
  });

  it('a failing delivery is retried at 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and at the end of 24 h, then failed', async () => {
    const ep = await endpoint();
    receiver.always(ep.path, { status: 503 });
    const id = await ping(ep);
    const times = await driveToEnd(ep, id);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(gaps).toEqual([5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 24 * HOUR - (times[6]! - times[0]!)]);
    expect(times[7]! - times[0]!).toBe(24 * HOUR);
    expect(await delivery(ep, id)).toMatchObject({ status: 'failed', attempts: 8, last_response_code: 503, next_attempt_utc: null });
    expect(receiver.received(ep.path)).toHaveLength(8);
    expect(await queuedJobsOf(id)).toBe(0);
    // one day of failing does not disable it
    expect((await admin.api.get(`/webhooks/${ep.id}`)).body).toMatchObject({ active: true, disabledUtc: null });
  });

  it('a job run again after its lease ran out does not count or schedule the attempt twice', async () => {
    const ep = await endpoint();
    receiver.always(ep.path, { status: 500 });
    const id = await ping(ep);
    const [job] = await queryRows<{ payload: DeliverJobPayload }>(db(), sql`select payload from svc_jobs where dedupe_key = ${`webhooks.deliver:${id}:1`}`);
    const nowMs = Date.now();
    // the first run sent and recorded, then died before the runner marked the job done
    expect(await attemptDelivery(srv.server.ctx, job!.payload, nowMs)).toBe('retrying');
    expect(await attemptDelivery(srv.server.ctx, job!.payload, nowMs)).toBe('skipped');
    await runAt();
    expect(await delivery(ep, id)).toMatchObject({ attempts: 1, status: 'pending' });
    expect(receiver.received(ep.path)).toHaveLength(1);
    expect(await queuedJobsOf(id)).toBe(1);
  });
});

describe('auto-disable', () => {
  it('an endpoint failing for 5 days is disabled, its pending deliveries stop, and every administrator is mailed once, in their own language', async () => {
    const second = await admin.api.post('/users', {
      email: `admin2-${Date.now()}@example.test`,
      displayName: 'Second',
      role: 'administrator',
      password: 'long enough password',
      language: 'de',
    });
    expect(second.status).toBe(201);
    const ep = await endpoint();
    receiver.always(ep.path, { status: 500 });
    const first = await ping(ep);
    const t0 = utcMs((await delivery(ep, first)).next_attempt_utc!);
    await runAt(t0);
    expect((await admin.api.get(`/webhooks/${ep.id}`)).body.failingSinceUtc).not.toBeNull();
    const later = await ping(ep);

    await runAt(t0 + 5 * DAY + SECOND);
    const disabled = (await admin.api.get(`/webhooks/${ep.id}`)).body;
    expect(disabled).toMatchObject({ active: false, disabledUtc: expect.any(String), failingSinceUtc: expect.any(String) });
    expect(utcMs(disabled.disabledUtc) - utcMs(disabled.failingSinceUtc)).toBeGreaterThanOrEqual(5 * DAY);
    for (const d of [first, later]) expect((await delivery(ep, d)).status).toBe('failed');
    // whichever ran second found the endpoint disabled and stopped
    expect([(await delivery(ep, first)).last_error, (await delivery(ep, later)).last_error]).toContainEqual(
      expect.stringMatching(/disabled after failing for 5 days/),
    );
    for (const d of [first, later]) expect(await queuedJobsOf(d)).toBe(0);

    const sent = receiver.received(ep.path).length;
    await runAt(t0 + 6 * DAY);
    expect(receiver.received(ep.path)).toHaveLength(sent);
    // each administrator in their own language (the second one chose German)
    for (const [to, subject] of [
      [srv.admin.email, 'A webhook endpoint was disabled'],
      [second.body.email as string, 'Ein Webhook-Endpunkt wurde deaktiviert'],
    ] as const) {
      const mails = (await storedMails(db(), to)).filter((m) => m.subject === subject);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.text).toContain(`${receiver.url}${ep.path}`);
      expect(mails[0]!.text).not.toContain(ep.secret.slice(6));
    }
    // switched off: no test ping, no redeliver
    expect((await admin.api.post(`/webhooks/${ep.id}/test`)).status).toBe(409);
    expect((await admin.api.post(`/webhooks/${ep.id}/deliveries/${first}/redeliver`)).status).toBe(409);
  });
});

describe('the delivery log', () => {
  it('lists deliveries newest first, paginated, and shows one with its messageId and payload', async () => {
    const ep = await endpoint();
    const a = await ping(ep);
    const b = await ping(ep);
    await runAt();
    const page = await admin.api.get(`/webhooks/${ep.id}/deliveries?perPage=1`);
    expect(page.status).toBe(200);
    expect(page.headers.get('x-total-count')).toBe('2');
    expect(page.body).toEqual([
      {
        id: b,
        type: 'ping',
        status: 'delivered',
        attempts: 1,
        lastResponseCode: 200,
        durationMs: expect.any(Number),
        nextAttemptUtc: null,
        createdUtc: expect.any(String),
        lastError: null,
      },
    ]);
    expect((await admin.api.get(`/webhooks/${ep.id}/deliveries?page=2&perPage=1`)).body.map((d: { id: number }) => d.id)).toEqual([a]);
    const one = await admin.api.get(`/webhooks/${ep.id}/deliveries/${a}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({
      id: a,
      messageId: expect.stringMatching(/^msg_/),
      payload: { type: 'ping', timestamp: expect.any(String), data: { endpointId: ep.id } },
    });
    expect(one.body.messageId).toBe(receiver.received(ep.path).find((r) => JSON.parse(r.body).timestamp === one.body.payload.timestamp)?.headers['webhook-id']);
    const other = await endpoint();
    expect((await admin.api.get(`/webhooks/${other.id}/deliveries/${a}`)).status).toBe(404);
  });
});

describe('outbound guards', () => {
  it('refuses at save time anything but http(s), credentials, and (without the allow flag) literal loopback, private and link-local addresses', async () => {
    for (const url of ['ftp://example.com/hook', 'file:///etc/passwd', 'javascript:alert(1)', 'http://user:pw@example.com/hook']) {
      const res = await admin.api.post('/webhooks', { url, events: ['ping'] });
      expect(res.status, url).toBe(400);
      expect(Object.keys(res.body.data.params), url).toEqual(['url']);
    }
    env().SVC_WEBHOOKS_ALLOW_PRIVATE = '0';
    const before = (await admin.api.get('/webhooks')).body.length;
    for (const url of [
      'http://127.0.0.1/hook',
      'http://10.1.2.3/hook',
      'http://169.254.169.254/latest',
      'http://[::1]/hook',
      'http://localhost:8080/hook',
      'http://[::ffff:127.0.0.1]/',
    ]) {
      const res = await admin.api.post('/webhooks', { url, events: ['ping'] });
      expect(res.status, url).toBe(400);
      expect(res.body.code).toBe('svc_invalid_param');
      expect(res.body.data.params.url, url).toMatch(/loopback, private or link-local/);
    }
    expect((await admin.api.get('/webhooks')).body.length).toBe(before);
    const ep = await endpoint(['ping'], () => 'https://hooks.example.com/in');
    expect((await admin.api.patch(`/webhooks/${ep.id}`, { url: 'http://192.168.1.10/' })).status).toBe(400);
  });

  it('refuses at delivery time a name that resolves to loopback: no request reaches the receiver, the delivery says why and ends failed', async () => {
    env().SVC_WEBHOOKS_ALLOW_PRIVATE = '0';
    const looked: string[] = [];
    configureWebhookDelivery(db(), {
      lookup: async (host) => {
        looked.push(host);
        return ['127.0.0.1'];
      },
    });
    const port = new URL(receiver.url).port;
    const ep = await endpoint(['ping'], (path) => `http://hooks.example.test:${port}${path}`);
    const id = await ping(ep);
    await runAt();
    expect(looked).toEqual(['hooks.example.test']);
    expect(await delivery(ep, id)).toMatchObject({
      attempts: 1,
      last_response_code: null,
      last_error: expect.stringMatching(/^refused: hooks\.example\.test resolves to a loopback/),
    });
    await driveToEnd(ep, id);
    expect((await delivery(ep, id)).status).toBe('failed');
    expect(receiver.received(ep.path)).toEqual([]);
  });

  it('does not follow a redirect: a 302 is the answer and the target is never asked', async () => {
    const ep = await endpoint();
    receiver.script(ep.path, { status: 302, headers: { location: `${receiver.url}/redirected-here` } });
    const id = await ping(ep);
    await runAt();
    expect(await delivery(ep, id)).toMatchObject({
      status: 'pending',
      last_response_code: 302,
      last_error: expect.stringContaining('redirects are not followed'),
    });
    expect(receiver.received('/redirected-here')).toEqual([]);
  });

  it('gives up on a receiver slower than the deadline', async () => {
    configureWebhookDelivery(db(), { timeoutMs: 300 });
    const ep = await endpoint();
    receiver.script(ep.path, { delayMs: 3000 });
    const id = await ping(ep);
    await runAt();
    const row = await delivery(ep, id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, last_response_code: null, last_error: 'no answer within 0.3 s' });
    const [listed] = (await admin.api.get(`/webhooks/${ep.id}/deliveries`)).body;
    expect(listed.durationMs).toBeGreaterThanOrEqual(290);
    expect(listed.durationMs).toBeLessThan(3000);
  });

  it('reads only the start of an endless answer, well within the deadline', async () => {
    configureWebhookDelivery(db(), { timeoutMs: 8000 });
    const ep = await endpoint();
    receiver.script(ep.path, { status: 500, endless: true });
    const id = await ping(ep);
    await runAt();
    const row = await delivery(ep, id);
    expect(row).toMatchObject({ status: 'pending', last_response_code: 500 });
    expect(row.last_error).toMatch(/^HTTP 500: x+$/);
    expect(row.last_error!.length).toBeLessThanOrEqual(220);
    const [listed] = (await admin.api.get(`/webhooks/${ep.id}/deliveries`)).body;
    expect(listed.durationMs).toBeLessThan(8000);
  });
});

describe('the free edition', () => {
  it('answers 404 svc_not_found on every webhook route', async () => {
    const ep = await endpoint();
    const id = await ping(ep);
    env().SVC_EDITION = 'free';
    const calls = [
      admin.api.get('/webhooks'),
      admin.api.get('/webhooks/events'),
      admin.api.post('/webhooks', { url: `${receiver.url}/free`, events: ['ping'] }),
      admin.api.get(`/webhooks/${ep.id}`),
      admin.api.patch(`/webhooks/${ep.id}`, { description: 'x' }),
      admin.api.post(`/webhooks/${ep.id}/rotate`),
      admin.api.get(`/webhooks/${ep.id}/deliveries`),
      admin.api.get(`/webhooks/${ep.id}/deliveries/${id}`),
      admin.api.post(`/webhooks/${ep.id}/deliveries/${id}/redeliver`),
      admin.api.post(`/webhooks/${ep.id}/test`),
      admin.api.delete(`/webhooks/${ep.id}`),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('svc_not_found');
    }
  });
});
