import { describe, expect, it } from 'vitest';
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

describe('what the document declares beside the success answer', () => {
  const { server: full, admin } = useTestServer({ env: { SVC_JOBS: 'off' } });
  const documented = async (method: string, template: string) => {
    const doc = (await apiClient(full.url).get('/openapi.json')).body;
    return doc.paths[template][method] as {
      parameters: Array<{ name: string; in: string; required: boolean }>;
      responses: Record<string, unknown>;
      requestBody?: any;
    };
  };

  it('X-Svc-Nonce is a required header parameter of the three routes that check it, and of no other', async () => {
    const doc = (await apiClient(full.url).get('/openapi.json')).body;
    const withNonce: string[] = [];
    for (const [path, operations] of Object.entries(
      doc.paths as Record<string, Record<string, { parameters: Array<{ name: string; in: string; required: boolean }> }>>,
    )) {
      for (const [method, op] of Object.entries(operations)) {
        const nonce = op.parameters.find((p) => p.name === 'X-Svc-Nonce');
        if (!nonce) continue;
        expect(nonce).toMatchObject({ in: 'header', required: true });
        withNonce.push(`${method} ${path}`);
      }
    }
    expect(withNonce.sort()).toEqual(['post /bookings', 'post /events/submissions', 'post /events/{id}/signup']);
  });

  it('the sign-up body names its properties (not an opaque object) and still lets svc_cf_<key> answers through', async () => {
    const op = await documented('post', '/events/{id}/signup');
    for (const type of ['application/json', 'application/x-www-form-urlencoded']) {
      const schema = op.requestBody.content[type].schema;
      expect(Object.keys(schema.properties).sort()).toEqual(['display_name', 'email', 'quantity', 'svc_hp', 'svc_ts']);
      expect(schema.required).toEqual(['email', 'display_name', 'svc_ts']);
      expect(schema.additionalProperties).toEqual({});
    }
  });

  it('real 404, 413 and 415 answers are each declared by their route, not left to "default"', async () => {
    const anon = apiClient(full.url);
    const nonce = (await anon.get('/nonce')).body.nonce as string;
    const unsupported = await fetch(`${full.url}/svc/v1/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-svc-nonce': nonce },
      body: 'hello',
    });
    expect(unsupported.status).toBe(415);
    expect((await documented('post', '/bookings')).responses['415']).toBeDefined();

    const tooLarge = await fetch(`${full.url}/svc/v1/bookings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-svc-nonce': nonce },
      body: JSON.stringify({ padding: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(tooLarge.status).toBe(413);
    expect((await documented('post', '/bookings')).responses['413']).toBeDefined();

    expect((await admin.api.get('/users/999999')).status).toBe(404);
    expect((await documented('get', '/users/{id}')).responses['404']).toBeDefined();
    expect((await admin.api.post('/bookings/999999/approve')).status).toBe(404);
    expect((await documented('post', '/bookings/{id}/approve')).responses['404']).toBeDefined();
  });
});
