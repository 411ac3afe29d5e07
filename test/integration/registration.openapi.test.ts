import { expect, it } from 'vitest';
import { useTestServer } from '../helpers/test-server';
import { apiClient } from '../helpers/http';

const { server: srv } = useTestServer({ env: { SVC_JOBS: 'off' }, login: false });

it('the OpenAPI document lists the event, sign-up and attendee routes', async () => {
  const doc = (await apiClient(srv.url).get('/openapi.json')).body;
  const paths = Object.keys(doc.paths);
  for (const p of [
    '/events',
    '/events/{id}',
    '/events/{id}/form',
    '/events/{id}/signup',
    '/attendees',
    '/attendees/export',
    '/attendees/{id}',
    '/attendees/cancel/{token}',
  ]) {
    expect(paths.some((k) => k.endsWith(p))).toBe(true);
  }
});
