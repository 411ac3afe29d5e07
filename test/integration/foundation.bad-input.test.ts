/**
 * Bad input is a 4xx naming the problem, never a 500: a NUL character (PostgreSQL refuses 0x00
 * in text), an unpaired UTF-16 surrogate or a Unicode noncharacter anywhere in a path, query,
 * body or tRPC input, and malformed percent-encoding. Signed webhook bodies: foundation.bad-input.signed.test.ts.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { apiClient } from '../helpers/http';
import { createEvent, resetThrottles, signUp } from '../helpers/registration';
import { useTestServer } from '../helpers/test-server';

const { server: srv, admin } = useTestServer({ env: { SVC_JOBS: 'off' }, client: true });

describe('a NUL character is 400 svc_invalid_param naming the field, on every transport', () => {
  it('in a JSON body (the login email)', async () => {
    const res = await apiClient(srv.url).post('/auth/login', { email: 'a\u0000@example.test', password: 'whatever' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'svc_invalid_param', data: { params: { email: 'must not contain a NUL character' } } });
  });

  it('in a path parameter (a cancel token) and in a query string (the attendee search)', async () => {
    const byPath = await apiClient(srv.url).get('/attendees/cancel/abc%00def');
    expect(byPath.status).toBe(400);
    expect(byPath.body.data.params).toEqual({ token: 'must not contain a NUL character' });
    const byQuery = await admin.api.get('/attendees?search=%00');
    expect(byQuery.status).toBe(400);
    expect(byQuery.body.data.params).toEqual({ search: 'must not contain a NUL character' });
  });

  it('in a nested field (settings labels) and in a tRPC input', async () => {
    const nested = await admin.api.patch('/settings', { locationLabels: { phone: 'Ca\u0000ll' } });
    expect(nested.status).toBe(400);
    expect(nested.body.data.params).toEqual({ 'locationLabels.phone': 'must not contain a NUL character' });
    const res = await fetch(`${srv.url}/trpc/booking.byToken?input=${encodeURIComponent(JSON.stringify({ json: { token: 'x\u0000y' } }))}`);
    const body = await res.json();
    expect(res.status).toBe(400);
    expect(body.error.json.data).toMatchObject({ svcCode: 'svc_invalid_param', params: { token: 'must not contain a NUL character' } });
  });
});

describe('malformed percent-encoding in a page path is 404, not 500', () => {
  for (const path of ['/%zz', '/%', '/%E0%A4%A', '/%C0%AE%C0%AE/etc/passwd']) {
    it(path, async () => {
      const res = await fetch(`${srv.url}${path}`);
      expect(res.status).toBe(404);
      expect((await res.json()).code).toBe('svc_not_found');
    });
  }
});

describe('transport refusals answer in our error shape', () => {
  it("an unreadable tRPC body is svc_invalid_json with our message, not the JSON parser's text", async () => {
    const res = await fetch(`${srv.url}/trpc/auth.login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{bad' });
    const body = await res.json();
    expect(res.status).toBe(400);
    expect(body.error.json.data.svcCode).toBe('svc_invalid_json');
    expect(body.error.json.message).toBe('The request body could not be read.');
  });

  it('a body nested 5,000 deep is 400 svc_invalid_param, not a stack overflow (500), on REST and tRPC', async () => {
    const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
    const rest = await admin.api.post('/events', deep);
    expect(rest.status).toBe(400);
    expect(rest.body).toMatchObject({ code: 'svc_invalid_param', data: { status: 400 } });
    const res = await fetch(`${srv.url}/trpc/events.create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: admin.cookie, origin: srv.url },
      body: `{"json":${deep}}`,
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.json.data.svcCode).toBe('svc_invalid_param');
  });

  it('an unknown tRPC procedure is svc_not_found', async () => {
    const res = await fetch(`${srv.url}/trpc/nothing.here`);
    expect(res.status).toBe(404);
    expect((await res.json()).error.json.data.svcCode).toBe('svc_not_found');
  });

  it('a 100 KB query string is 431 svc_request_too_large with the error body', async () => {
    const res = await fetch(`${srv.url}/svc/v1/events?search=${'x'.repeat(100_000)}`);
    expect(res.status).toBe(431);
    expect(await res.json()).toMatchObject({ code: 'svc_request_too_large', data: { status: 431 } });
  });
});

describe('an unpaired surrogate or a noncharacter is 400 svc_invalid_param naming the field, and nothing is stored', () => {
  const count = async (table: 'svc_rate_limits' | 'svc_attendees') =>
    (await queryRows<{ n: number }>(srv.server.ctx.db, sql`select count(*)::int as n from ${sql.identifier(table)}`))[0]!.n;

  it('in the login email, on REST and tRPC (its throttle key was cast to jsonb: a 500)', async () => {
    const before = await count('svc_rate_limits');
    for (const email of ['\uD800@example.test', 'a\uDC00b@example.test']) {
      const res = await apiClient(srv.url).post('/auth/login', { email, password: 'whatever' });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'svc_invalid_param', data: { params: { email: 'must not contain an unpaired UTF-16 surrogate' } } });
    }
    const res = await fetch(`${srv.url}/trpc/auth.login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ json: { email: '\uD800@example.test', password: 'whatever' } }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.json.data).toMatchObject({
      svcCode: 'svc_invalid_param',
      params: { email: 'must not contain an unpaired UTF-16 surrogate' },
    });
    expect(await count('svc_rate_limits')).toBe(before);
  });

  it('in a visitor’s name (U+FFFE, U+FFFF and U+FDD0 made the XLSX export a file readers refuse)', async () => {
    const event = await createEvent(admin.api);
    const before = await count('svc_attendees');
    for (const name of ['Ada\uFFFE', 'Ada\uFFFF', '\uFDD0Ada', 'Ada\u{10FFFF}']) {
      await resetThrottles(srv);
      const res = await signUp(srv, event.id, { display_name: name });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'svc_invalid_param',
        data: { params: { display_name: 'must not contain a Unicode noncharacter (U+FFFE, U+FFFF, U+FDD0–U+FDEF)' } },
      });
    }
    expect(await count('svc_attendees')).toBe(before);
  });

  it('in a key of a nested object, named without the character', async () => {
    const res = await admin.api.patch('/settings', { locationLabels: { 'ph\uD800one': 'Call' } });
    expect(res.status).toBe(400);
    expect(res.body.data.params).toEqual({ 'locationLabels.phone': 'must not contain an unpaired UTF-16 surrogate' });
  });
});
