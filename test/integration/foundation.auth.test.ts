import http from 'node:http';
import { authService } from '../../server/auth/auth.service';
import { describe, expect, it } from 'vitest';
import { TEST_DB_KIND } from '../helpers/db';
import { startTestServer } from '../helpers/server';
import { useTestServer } from '../helpers/test-server';
import { apiClient, loginAs } from '../helpers/http';

const { server: srv, admin } = useTestServer();

describe('login and sessions', () => {
  it('a wrong password answers 401 svc_unauthorized and sets no cookie', async () => {
    const res = await fetch(`${srv.url}/svc/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: srv.admin.email, password: 'wrong password' }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: 'svc_unauthorized', message: 'Wrong email or password.', data: { status: 401 } });
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('an unknown email answers exactly like a wrong password', async () => {
    const res = await apiClient(srv.url).post('/auth/login', { email: 'nobody@example.test', password: 'whatever' });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Wrong email or password.');
  });

  it('login answers the user and sets an HttpOnly SameSite=Lax session cookie', async () => {
    const res = await fetch(`${srv.url}/svc/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: srv.admin.email.toUpperCase(), password: srv.admin.password }),
    });
    expect(res.status).toBe(200);
    const user = await res.json();
    expect(user).toMatchObject({ email: srv.admin.email, role: 'administrator' });
    expect(user).not.toHaveProperty('passwordHash');
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^svc_session=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
  });

  it('GET /auth/me answers the signed-in user, and 401 without credentials', async () => {
    expect((await admin.api.get('/auth/me')).body.email).toBe(srv.admin.email);
    const anon = await apiClient(srv.url).get('/auth/me');
    expect(anon.status).toBe(401);
    expect(anon.body.code).toBe('svc_unauthorized');
  });

  it('logout answers 204 and revokes that session', async () => {
    const s = await loginAs(srv.url, srv.admin.email, srv.admin.password);
    expect((await s.api.post('/auth/logout')).status).toBe(204);
    expect((await s.api.get('/auth/me')).status).toBe(401);
  });
});

describe('Origin check on cookie-authenticated writes', () => {
  const body = { email: 'origin-check@example.test', role: 'host', password: 'long enough password' };

  it('a cookie write without an Origin header is refused with 403', async () => {
    const res = await apiClient(srv.url).post('/users', body, { cookie: admin.cookie });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('svc_forbidden');
  });

  it('a cookie write from a foreign Origin is refused with 403', async () => {
    const res = await apiClient(srv.url).post('/users', body, { cookie: admin.cookie, origin: 'https://evil.example' });
    expect(res.status).toBe(403);
  });

  it('a cookie write from our own Origin goes through', async () => {
    const res = await admin.api.post('/users', body);
    expect(res.status).toBe(201);
  });
});

describe('API tokens', () => {
  it('a created token is shown once, works as Bearer, and is never listed', async () => {
    const created = await admin.api.post('/auth/tokens', { name: 'integration' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), name: 'integration', token: expect.any(String) });
    const list = await admin.api.get('/auth/tokens');
    expect(JSON.stringify(list.body)).not.toContain(created.body.token);
    const bearer = apiClient(srv.url, { bearer: created.body.token });
    expect((await bearer.get('/users')).status).toBe(200);
    // Bearer writes need no Origin: the token is not ambient like a cookie.
    expect((await bearer.post('/users', { email: 'via-token@example.test', role: 'host' })).status).toBe(201);
  });

  it('a revoked token answers 401', async () => {
    const created = await admin.api.post('/auth/tokens', { name: 'to revoke' });
    const bearer = apiClient(srv.url, { bearer: created.body.token });
    expect((await bearer.get('/users')).status).toBe(200);
    expect((await admin.api.delete(`/auth/tokens/${created.body.id}`)).status).toBe(204);
    const after = await bearer.get('/users');
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('svc_unauthorized');
  });

  it('an expired token is not accepted', async () => {
    const auth = authService(srv.server.ctx);
    const actor = { via: 'session' as const, role: 'administrator' as const, userId: 1, eventIds: null };
    const { token } = await auth.createApiToken({ name: 'short', role: 'administrator', expiresInDays: 1 }, actor);
    expect(await auth.authenticate({ bearerToken: token })).not.toBeNull();
    expect(await auth.authenticate({ bearerToken: token }, Date.now() + 2 * 86_400_000)).toBeNull();
  });

  it('a made-up Bearer token answers 401', async () => {
    expect((await apiClient(srv.url, { bearer: 'x'.repeat(43) }).get('/users')).status).toBe(401);
  });
});

describe('roles', () => {
  it('staff is refused administrator routes with 403', async () => {
    await admin.api.post('/users', { email: 'staff@example.test', role: 'staff', password: 'staff password 1' });
    const staff = await loginAs(srv.url, 'staff@example.test', 'staff password 1');
    for (const path of ['/users', '/outbox', '/auth/tokens']) {
      const res = await staff.api.get(path);
      expect(res.status, path).toBe(403);
      expect(res.body.code).toBe('svc_forbidden');
    }
  });

  it('no credentials answers 401 before any lookup, even for an unknown id', async () => {
    const res = await apiClient(srv.url).get('/users/999999');
    expect(res.status).toBe(401);
  });

  it('PATCH /users/{id} changes only the fields sent: name and time zone survive a role change', async () => {
    const created = await admin.api.post('/users', { email: 'patched@example.test', displayName: 'Pat Ched', role: 'host', timezone: 'Europe/Berlin' });
    const res = await admin.api.patch(`/users/${created.body.id}`, { role: 'staff' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ role: 'staff', displayName: 'Pat Ched', timezone: 'Europe/Berlin' });
  });

  it('an administrator gets 404 svc_not_found for an unknown user id', async () => {
    const res = await admin.api.get('/users/999999');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('svc_not_found');
  });
});

describe('bad input', () => {
  it('invalid fields answer 400 svc_invalid_param naming each field, and store nothing', async () => {
    const before = (await admin.api.get('/users')).headers.get('x-total-count');
    const res = await admin.api.post('/users', { email: 'not an email', role: 'king', timezone: 'Mars/Olympus' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('svc_invalid_param');
    expect(Object.keys(res.body.data.params).sort()).toEqual(['email', 'role', 'timezone']);
    expect((await admin.api.get('/users')).headers.get('x-total-count')).toBe(before);
  });

  it('a body that is not JSON answers 400 svc_invalid_json', async () => {
    const res = await admin.api.post('/users', '{"email": ');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('svc_invalid_json');
  });

  it('a path id that is not an integer answers 400 naming id', async () => {
    const res = await admin.api.get('/users/abc');
    expect(res.status).toBe(400);
    expect(res.body.data.params).toHaveProperty('id');
  });

  it('an oversized body answers 413 without reaching the handler', async () => {
    const res = await admin.api.post('/users', { email: 'big@example.test', role: 'host', displayName: 'x'.repeat(2 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('svc_payload_too_large');
  });

  it('a body sent in chunks (no Content-Length) is limited as it comes: 413 over the limit, read as usual under it', async () => {
    const chunked = (parts: string[]) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const url = new URL(`${srv.url}/svc/v1/auth/login`);
        let answered = false;
        const req = http.request(
          { hostname: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json' }, agent: false },
          (res) => {
            answered = true;
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString('utf8')));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        // the server may answer 413 and close before the rest is written: the answer counts
        req.on('error', (err) => {
          if (!answered) reject(err);
        });
        void (async () => {
          for (const part of parts) {
            if (answered || req.destroyed) return;
            if (!req.write(part)) await new Promise((r) => req.once('drain', r));
          }
          req.end();
        })();
      });
    const over = await chunked(['{"email":"a@example.test","password":"', ...Array.from({ length: 3 }, () => 'x'.repeat(512 * 1024)), '"}']);
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body).code).toBe('svc_payload_too_large');
    const under = await chunked(['{"email":"nobody@example.test",', '"password":"wrong password here"}']);
    expect(under.status).toBe(401);
  });

  it('a database gone from under the server answers with no SQL or stack in the body: 503 svc_unavailable when the driver says the connection went (PostgreSQL), else 500 svc_internal', async () => {
    const broken = await startTestServer();
    const s = await loginAs(broken.url, broken.admin.email, broken.admin.password);
    await broken.server.ctx.database.close();
    const res = await s.api.get('/users');
    // postgres.js answers a closed pool with CONNECTION_ENDED, a connection loss (docs/api.md#errors); PGlite with an error of its own
    const [status, code] = TEST_DB_KIND === 'postgres' ? [503, 'svc_unavailable'] : [500, 'svc_internal'];
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ code, message: expect.any(String), data: expect.objectContaining({ status }) });
    expect(JSON.stringify(res.body)).not.toMatch(/select|svc_users|at /i);
    const health = await s.api.get('/health');
    expect(health.status).toBe(503);
    await broken.close().catch(() => {});
  });
});

describe('sign-in throttles count failures only (no lock-out as a weapon)', () => {
  const password = 'owner password 123';
  const newAccount = async (email: string) => {
    await admin.api.post('/users', { email, role: 'host', password });
    return authService(srv.server.ctx);
  };
  const codeOf = (attempt: Promise<unknown>) =>
    attempt.then(
      () => 'ok',
      (e: { code: string }) => e.code,
    );

  it('25 successful sign-ins in a row never lock the account', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push((await apiClient(srv.url).post('/auth/login', { email: srv.admin.email, password: srv.admin.password })).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
  });

  it('5 failures on an account from one address refuse that address (429 with a retry time); its owner elsewhere still signs in', async () => {
    const email = 'guessed@example.test';
    const auth = await newAccount(email);
    const nowMs = Date.UTC(2030, 0, 1, 12, 0, 5);
    const attacker = { ip: '203.0.113.50' };
    for (let i = 0; i < 5; i++) expect(await codeOf(auth.login({ email, password: `guess ${i}` }, attacker, nowMs))).toBe('svc_unauthorized');
    const refused = await auth.login({ email, password }, attacker, nowMs).catch((e) => e);
    expect(refused.code).toBe('svc_rate_limited');
    expect(refused.data.retryAfter).toBeGreaterThan(0);
    expect(await codeOf(auth.login({ email, password }, { ip: '198.51.100.7' }, nowMs))).toBe('ok');
  });

  it('10 failures a minute from one address refuse it, whichever accounts it tries', async () => {
    const auth = authService(srv.server.ctx);
    const nowMs = Date.UTC(2030, 0, 2, 12, 0, 5);
    const ip = { ip: '203.0.113.60' };
    for (let i = 0; i < 10; i++) expect(await codeOf(auth.login({ email: `nobody-${i}@example.test`, password: 'x' }, ip, nowMs))).toBe('svc_unauthorized');
    expect(await codeOf(auth.login({ email: 'nobody-10@example.test', password: 'x' }, ip, nowMs))).toBe('svc_rate_limited');
  });

  it('failures spread over many addresses do not lock the owner out (past 20 an hour they are slowed, not refused)', async () => {
    const email = 'spread@example.test';
    const auth = await newAccount(email);
    const nowMs = Date.UTC(2030, 0, 3, 12, 0, 5);
    for (let i = 0; i < 21; i++) await codeOf(auth.login({ email, password: 'wrong' }, { ip: `198.18.0.${i + 1}` }, nowMs));
    expect(await codeOf(auth.login({ email, password }, { ip: '198.51.100.8' }, nowMs))).toBe('ok');
  });
});

describe('login CSRF: a cross-site form cannot sign anyone in', () => {
  const login = (headers: Record<string, string>) =>
    fetch(`${srv.url}/svc/v1/auth/login`, { method: 'POST', headers, body: JSON.stringify({ email: srv.admin.email, password: srv.admin.password }) });

  it('POST /auth/login from a foreign Origin is refused with 403 and sets no cookie, whatever its content type', async () => {
    for (const type of ['text/plain', 'application/json']) {
      const res = await login({ origin: 'http://evil.example', 'content-type': type });
      expect(res.status, type).toBe(403);
      expect((await res.json()).code).toBe('svc_forbidden');
      expect(res.headers.get('set-cookie')).toBeNull();
    }
  });

  it('a JSON body sent as text/plain is 415 svc_unsupported_media_type (what a plain HTML form can send)', async () => {
    const res = await login({ 'content-type': 'text/plain' });
    expect(res.status).toBe(415);
    expect((await res.json()).code).toBe('svc_unsupported_media_type');
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('our own pages sign in (same Origin), and the tRPC login refuses a foreign Origin too', async () => {
    expect((await login({ origin: new URL(srv.url).origin, 'content-type': 'application/json' })).status).toBe(200);
    const viaTrpc = await fetch(`${srv.url}/trpc/auth.login`, {
      method: 'POST',
      headers: { origin: 'http://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ json: { email: srv.admin.email, password: srv.admin.password } }),
    });
    expect(viaTrpc.status).toBe(403);
    expect(viaTrpc.headers.get('set-cookie')).toBeNull();
  });
});
