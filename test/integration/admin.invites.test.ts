/**
 * Inviting users (issue 8 item 5): an administrator invites by email; the outbox carries a
 * one-time link `${publicUrl}/invite/{token}`; the public preview never uses it up; choosing
 * a password uses it up and signs in; expired, used and replaced links are refused; the
 * token never appears in REST answers or logs.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { capturedLogger } from '../helpers/logs';
import { apiClient, loginAs } from '../helpers/http';
import { useTestServer } from '../helpers/test-server';
import { storedMails } from '../helpers/mail';

const PUBLIC_URL = 'https://svc.example.test';
const logs = capturedLogger();

const { server: srv, admin, db } = useTestServer({ env: { SVC_JOBS: 'off', SVC_PUBLIC_URL: PUBLIC_URL }, logger: logs.logger });
let anon: ReturnType<typeof apiClient>;

beforeAll(async () => {
  anon = apiClient(srv.url);
});
// Each test starts with fresh throttle windows (the throttle has its own test below).
beforeEach(async () => {
  await queryRows(srv.server.ctx.db, sql`delete from svc_rate_limits`);
});

/** Every token read from the outbox, for the log check at the end. */
const seenTokens = new Set<string>();
let seq = 0;
const newEmail = () => `invitee-${++seq}-${Date.now()}@example.test`;

/** The invite links mailed to `email`, newest first. */
async function linksFor(email: string): Promise<string[]> {
  const mails = await storedMails(db(), email);
  return mails.map((m) => {
    const match = new RegExp(`${PUBLIC_URL}/invite/([A-Za-z0-9_-]+)`).exec(m.text);
    expect(match, `a link in: ${m.text}`).not.toBeNull();
    seenTokens.add(match![1]!);
    return match![1]!;
  });
}

async function invite(body: Record<string, unknown>) {
  const res = await admin.api.post('/users/invite', body);
  expect(res.status).toBe(201);
  const [token] = await linksFor(body.email as string);
  return {
    user: res.body as { id: number; hasPassword: boolean; inviteExpiresUtc: string | null; eventIds: number[] | null },
    token: token!,
    raw: JSON.stringify(res.body),
  };
}

describe('POST /users/invite', () => {
  it('creates the user without a password and queues a mail with a one-time link to the public invite page', async () => {
    const email = newEmail();
    const before = Date.now();
    const { user, token, raw } = await invite({ email, displayName: 'Dana', role: 'staff', eventIds: [3] });
    expect(user).toMatchObject({ email, displayName: 'Dana', role: 'staff', eventIds: [3], hasPassword: false });
    const expires = Date.parse(`${user.inviteExpiresUtc!.replace(' ', 'T')}Z`);
    expect(expires - before).toBeGreaterThan(7 * 86_400_000 - 5_000);
    expect(expires - before).toBeLessThan(7 * 86_400_000 + 5_000);
    // 256 random bits, base64url; never in the answer
    expect(token.length).toBeGreaterThanOrEqual(43);
    expect(raw).not.toContain(token);
    // only the hash is stored
    const rows = await queryRows<{ token_hash: string }>(srv.server.ctx.db, sql`select token_hash from svc_user_invites where user_id = ${user.id}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).not.toContain(token);
    // the users list shows the pending invite
    const list = (await admin.api.get('/users')).body as Array<{ id: number; hasPassword: boolean; inviteExpiresUtc: string | null }>;
    expect(list.find((u) => u.id === user.id)).toMatchObject({ hasPassword: false, inviteExpiresUtc: user.inviteExpiresUtc });
    expect(list.find((u) => u.id !== user.id)).toMatchObject({ hasPassword: true, inviteExpiresUtc: null });
  });

  it('the mail is delivered by the job, and the invited user cannot sign in before choosing a password', async () => {
    const email = newEmail();
    await invite({ email, role: 'host' });
    await srv.server.ctx.jobs.runDue();
    const mails = (await admin.api.get('/outbox?perPage=500')).body as Array<{ to: string; state: string; subject: string }>;
    expect(mails.find((m) => m.to === email)).toMatchObject({ subject: 'You are invited to svc', state: expect.stringMatching(/^(sent|saved)$/) });
    const login = await anon.post('/auth/login', { email, password: 'anything at all' });
    expect(login.status).toBe(401);
  });

  it('an email already in use is 409; only administrators may invite', async () => {
    expect((await admin.api.post('/users/invite', { email: srv.admin.email, role: 'host' })).status).toBe(409);
    expect((await anon.post('/users/invite', { email: newEmail(), role: 'host' })).status).toBe(401);
    const staffEmail = newEmail();
    await admin.api.post('/users', { email: staffEmail, role: 'staff', password: 'long enough password' });
    const staff = await loginAs(srv.url, staffEmail, 'long enough password');
    expect((await staff.api.post('/users/invite', { email: newEmail(), role: 'host' })).status).toBe(403);
  });
});

describe('the public invite link', () => {
  it('GET shows who is invited and never uses the link up', async () => {
    const email = newEmail();
    const { token } = await invite({ email, displayName: 'Eli', role: 'host' });
    for (let i = 0; i < 2; i++) {
      const res = await anon.get(`/auth/invites/${token}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ email, displayName: 'Eli', role: 'host', hasPassword: false, expiresUtc: expect.any(String) });
    }
  });

  it('POST sets the password, signs in with a session cookie, and the link cannot be used again', async () => {
    const email = newEmail();
    const { user, token } = await invite({ email, role: 'staff', eventIds: [7] });
    const res = await anon.post(`/auth/invites/${token}`, { password: 'a brand new password' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, email, role: 'staff', eventIds: [7], hasPassword: true, inviteExpiresUtc: null });
    expect(JSON.stringify(res.body)).not.toContain(token);
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect(res.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    const me = await apiClient(srv.url, { cookie }).get('/auth/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email });
    // the password works for a normal sign-in too
    await loginAs(srv.url, email, 'a brand new password');

    const again = await anon.post(`/auth/invites/${token}`, { password: 'another password' });
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ code: 'svc_not_found' });
    expect((await anon.get(`/auth/invites/${token}`)).status).toBe(404);
  });

  it('a password shorter than 8 characters is 400 and leaves the link usable', async () => {
    const { token } = await invite({ email: newEmail(), role: 'host' });
    const res = await anon.post(`/auth/invites/${token}`, { password: 'short' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'svc_invalid_param', data: { params: { password: expect.any(String) } } });
    expect((await anon.get(`/auth/invites/${token}`)).status).toBe(200);
  });

  it('an expired link is refused on GET and POST', async () => {
    const { user, token } = await invite({ email: newEmail(), role: 'host' });
    await queryRows(srv.server.ctx.db, sql`update svc_user_invites set expires_utc = '2020-01-01 00:00:00' where user_id = ${user.id}`);
    expect((await anon.get(`/auth/invites/${token}`)).status).toBe(404);
    const res = await anon.post(`/auth/invites/${token}`, { password: 'a brand new password' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'svc_not_found', message: expect.stringMatching(/expired/) });
  });

  it('an unknown link is 404; a malformed one is 400', async () => {
    expect((await anon.get(`/auth/invites/${'x'.repeat(43)}`)).status).toBe(404);
    expect((await anon.get('/auth/invites/short')).status).toBe(400);
  });

  it('re-inviting replaces the link: the old one stops working, its unsent mail is withdrawn, the new one works', async () => {
    const email = newEmail();
    const { user, token: first } = await invite({ email, role: 'host' });
    const res = await admin.api.post(`/users/${user.id}/invite`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: user.id, hasPassword: false, inviteExpiresUtc: expect.any(String) });
    const [second] = await linksFor(email);
    expect(second).not.toBe(first);
    const mails = await storedMails(db());
    expect(mails.find((m) => m.to === email && m.text.includes(first))?.state).toBe('cancelled');
    expect((await anon.get(`/auth/invites/${first}`)).status).toBe(404);
    expect((await anon.post(`/auth/invites/${second!}`, { password: 'a brand new password' })).status).toBe(200);
  });

  it('a password link for a user who has one resets it: the old password and sessions keep working until the new one is chosen', async () => {
    const email = newEmail();
    const created = await admin.api.post('/users', { email, role: 'host', password: 'the old password' });
    const old = await loginAs(srv.url, email, 'the old password');
    await admin.api.post(`/users/${created.body.id}/invite`);
    const [token] = await linksFor(email);
    const mails = (await admin.api.get('/outbox?perPage=500')).body as Array<{ to: string; subject: string }>;
    expect(mails.find((m) => m.to === email)?.subject).toBe('Set a new password for svc');
    expect((await anon.get(`/auth/invites/${token}`)).body).toMatchObject({ hasPassword: true });
    expect((await old.api.get('/auth/me')).status).toBe(200);

    expect((await anon.post(`/auth/invites/${token}`, { password: 'the new password' })).status).toBe(200);
    expect((await old.api.get('/auth/me')).status).toBe(401);
    expect((await anon.post('/auth/login', { email, password: 'the old password' })).status).toBe(401);
    await loginAs(srv.url, email, 'the new password');
  });

  it('an administrator typing a password voids the pending link', async () => {
    const { user, token } = await invite({ email: newEmail(), role: 'host' });
    const res = await admin.api.patch(`/users/${user.id}`, { password: 'typed by the admin' });
    expect(res.body).toMatchObject({ hasPassword: true, inviteExpiresUtc: null });
    expect((await anon.get(`/auth/invites/${token}`)).status).toBe(404);
  });

  it('choosing a password is throttled per address like sign-in', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await anon.post(`/auth/invites/${'y'.repeat(43)}`, { password: 'a brand new password' })).status);
    expect(statuses.slice(0, 10).every((s) => s === 404)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('the routes are in the OpenAPI document', async () => {
    const doc = (await anon.get('/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const paths = Object.keys(doc.paths);
    expect(paths.some((p) => /\/users\/invite$/.test(p))).toBe(true);
    expect(paths.some((p) => /\/users\/\{id\}\/invite$/.test(p))).toBe(true);
    expect(paths.some((p) => /\/auth\/invites\/\{token\}$/.test(p))).toBe(true);
  });

  it('no invite token ever reaches the logs', async () => {
    const { token } = await invite({ email: newEmail(), role: 'host' });
    await anon.get(`/auth/invites/${token}`);
    await anon.post(`/auth/invites/${token}`, { password: 'a brand new password' });
    await srv.server.ctx.jobs.runDue();
    const text = logs.text();
    expect(text).toContain('/auth/invites/');
    expect(seenTokens.size).toBeGreaterThan(5);
    for (const seen of seenTokens) expect(text).not.toContain(seen);
  });
});
