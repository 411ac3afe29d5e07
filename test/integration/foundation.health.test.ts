import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/test-server';
import { apiClient } from '../helpers/http';

const { server: srv } = useTestServer({ login: false });

describe('system routes', () => {
  it('GET /health answers 200 {ok:true} once the database answers', async () => {
    const res = await apiClient(srv.url).get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
  });

  it('unknown REST routes answer 404 with the documented error body (docs/api.md#errors)', async () => {
    const res = await apiClient(srv.url).get('/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'svc_not_found', message: expect.any(String), data: { status: 404 } });
  });

  it('GET /openapi.json documents the routes from their zod schemas', async () => {
    const res = await apiClient(srv.url).get<any>('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const login = res.body.paths['/auth/login'].post;
    expect(login.requestBody.content['application/json'].schema.properties).toHaveProperty('email');
    expect(login.requestBody.content['application/json'].schema.required).toEqual(expect.arrayContaining(['email', 'password']));
    expect(res.body.paths['/users/{id}'].patch.parameters[0]).toMatchObject({ name: 'id', in: 'path', required: true });
  });

  it('GET /nonce gives a nonce and its expiry', async () => {
    const res = await apiClient(srv.url).get<any>('/nonce');
    expect(res.status).toBe(200);
    expect(res.body.nonce).toMatch(/^\w+\.[0-9a-f]{32}$/);
    expect(res.body.expiresUtc).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });
});
