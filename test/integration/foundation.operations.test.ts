import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/test-server';
import { apiClient } from '../helpers/http';
import { createAttendee, createEvent, pairedDoor, scan } from '../helpers/checkin';

// jobs off: a queued job stays due, so the lag is the test's to set
const { server: srv, admin, db } = useTestServer({ env: { SVC_JOBS: 'off' } });

const metricsText = async (headers: Record<string, string>) => {
  const res = await fetch(`${srv.url}/svc/v1/metrics`, { headers });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
};
const sample = (text: string, name: string, labels = '') => {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `));
  return line === undefined ? undefined : Number(line.split(' ').pop());
};

describe('the operator’s view (docs/api.md#operations)', () => {
  it('GET /ready answers the database, the oldest due job’s lag and the outbox', async () => {
    await db().execute(sql`insert into svc_jobs (type, payload, run_at_utc) values ('ops.test', '{}', (now() at time zone 'utc') - interval '120 seconds')`);
    const res = await apiClient(srv.url).get<any>('/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      database: true,
      jobs: { due: expect.any(Number), lagSeconds: expect.any(Number), failed: 0, running: false },
      outboxPending: expect.any(Number),
    });
    expect(res.body.jobs.due).toBeGreaterThanOrEqual(1);
    expect(res.body.jobs.lagSeconds).toBeGreaterThanOrEqual(100);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('GET /metrics is for administrators (an API token works for a scraper) and speaks the Prometheus text format', async () => {
    expect((await metricsText({})).status).toBe(401);
    const token = await admin.api.post<{ token: string }>('/auth/tokens', { name: 'prometheus' });
    expect(token.status).toBe(201);
    const res = await metricsText({ authorization: `Bearer ${token.body.token}` });
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const name of [
      'svc_http_requests_total',
      'svc_http_request_duration_seconds',
      'svc_jobs_due',
      'svc_jobs_lag_seconds',
      'svc_outbox_pending',
      'svc_slot_cache_bytes',
      'svc_sync_push_rows_total',
      'svc_process_resident_memory_bytes',
    ]) {
      expect(res.text, name).toContain(`# TYPE ${name} `);
    }
    expect(sample(res.text, 'svc_jobs_lag_seconds')).toBeGreaterThanOrEqual(100);
  });

  it('requests are counted under their route template, never the raw path; pushed scans by result', async () => {
    const event = await createEvent(db());
    const guest = await createAttendee(db(), event.id);
    await apiClient(srv.url).get(`/events/${event.id}`);
    const door = await pairedDoor(srv.url, admin.api, [event.id]);
    await door.client.sync.push.mutate({ items: [scan(guest), scan(guest, { verdictOnDevice: 'unknown' })] });
    const token = await admin.api.post<{ token: string }>('/auth/tokens', { name: 'prometheus 2' });
    const { text } = await metricsText({ authorization: `Bearer ${token.body.token}` });
    expect(text).toMatch(/^svc_http_requests_total\{method="GET",route="\/svc\/v1\/events\/:id",status="\d{3}"\} 1$/m);
    expect(text).not.toContain(`/events/${event.id}`);
    expect(sample(text, 'svc_http_requests_total', 'method="POST",route="/trpc/sync.push",status="200"')).toBe(1);
    expect(sample(text, 'svc_sync_push_rows_total', 'result="inserted"')).toBe(1);
    expect(sample(text, 'svc_sync_push_rows_total', 'result="rejected"')).toBe(1);
  });
});
