import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { apiClient } from '../helpers/http';

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({ env: { SVC_JOBS: 'off' } });
});
afterAll(() => srv?.close());

it('the OpenAPI document lists the event, sign-up and attendee routes', async () => {
  const doc = (await apiClient(srv.url).get('/openapi.json')).body;
  const paths = Object.keys(doc.paths);
  for (const p of ['/events', '/events/{id}', '/events/{id}/form', '/events/{id}/signup', '/attendees', '/attendees/export', '/attendees/{id}', '/attendees/cancel/{token}']) {
    expect(paths.some((k) => k.endsWith(p))).toBe(true);
  }
});
