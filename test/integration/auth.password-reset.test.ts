/**
 * "Forgot your password?" (docs/api.md#auth): POST /auth/password-reset mails the account a
 * one-time link to the invite page, for an hour; the answer is the same whether or not an
 * account uses the address; requests are throttled per address (known or not) with the usual
 * 429; the token never reaches an answer, the REST outbox view or the logs.
 */
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { capturedLogger } from '../helpers/logs';
import { MASK } from '../../server/mail/mailer';
import { apiClient, loginAs } from '../helpers/http';
import { storedMails } from '../helpers/mail';
import { trpcClient } from '../helpers/checkin';
import { useTestServer } from '../helpers/test-server';

const PUBLIC_URL = 'https://svc.example.test';
const logs = capturedLogger();

const { server: srv, admin, db } = useTestServer({ env: { SVC_JOBS: 'off', SVC_PUBLIC_URL: PUBLIC_URL }, logger: logs.logger });
const anon = () => apiClient(srv.url);

// Each test starts with fresh throttle windows (the throttle has its own test).
beforeEach(async () => {
  await queryRows(db(), sql`delete from svc_rate_limits`);
});

let seq = 0;
async function userWithPassword(password = 'the old password') {
  const email = `forgetful-${++seq}-${Date.now()}@example.test`;
  const res = await admin.api.post('/users', { email, displayName: 'Fran', role: 'staff', password });
  expect(res.status).toBe(201);
  return { email, id: res.body.id as number };
}

const seenTokens = new Set<string>();
/** The reset links mailed to `email`, newest first. */
async function resetTokens(email: string): Promise<string[]> {
  const mails = await storedMails(db(), email);
  return mails.map((m) => {
    const match = new RegExp(`${PUBLIC_URL}/invite/([A-Za-z0-9_-]+)`).exec(m.text);
    expect(match, `a link in: ${m.text}`).not.toBeNull();
    seenTokens.add(match![1]!);
    return match![1]!;
  });
}

describe('POST /auth/password-reset', () => {
  it('mails a known address a one-time link to choose a new password, valid for an hour; the answer carries no token', async () => {
    const { email } = await userWithPassword();
    const before = Date.now();
    const res = await anon().post('/auth/password-reset', { email: email.toUpperCase() });
    expect(res.status).toBe(202);
    expect(res.body.message).toMatch(/If an account uses this address/);

    const [mail] = await storedMails(db(), email);
    expect(mail!.subject).toBe('Reset your svc password');
    const [token] = await resetTokens(email);
    expect(JSON.stringify(res.body)).not.toContain(token);
    const preview = await anon().get(`/auth/invites/${token}`);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ email, hasPassword: true });
    const expires = Date.parse(`${(preview.body.expiresUtc as string).replace(' ', 'T')}Z`);
    expect(expires - before).toBeGreaterThan(60 * 60_000 - 5_000);
    expect(expires - before).toBeLessThan(60 * 60_000 + 5_000);
  });

  it('answers an unknown address exactly as a known one, and mails nothing', async () => {
    const { email } = await userWithPassword();
    const unknown = `nobody-${Date.now()}@example.test`;
    const [{ n: before }] = (await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from svc_outbox`)) as [{ n: number }];
    const known = await anon().post('/auth/password-reset', { email });
    const missing = await anon().post('/auth/password-reset', { email: unknown });
    expect(missing.status).toBe(known.status);
    expect(missing.body).toEqual(known.body);
    expect(await storedMails(db(), unknown)).toEqual([]);
    const [{ n: after }] = (await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from svc_outbox`)) as [{ n: number }];
    expect(after - before).toBe(1);
  });

  it('the link sets the new password once and signs in; the old password and a second use are refused', async () => {
    const { email } = await userWithPassword('the old password');
    await anon().post('/auth/password-reset', { email });
    const [token] = await resetTokens(email);
    const used = await anon().post(`/auth/invites/${token}`, { password: 'a fresh password' });
    expect(used.status).toBe(200);
    expect(used.headers.get('set-cookie')).toMatch(/HttpOnly/i);

    const again = await anon().post(`/auth/invites/${token}`, { password: 'another password' });
    expect(again.status).toBe(404);
    expect(again.body.message).toMatch(/Forgot your password/);
    expect((await anon().get(`/auth/invites/${token}`)).status).toBe(404);
    expect((await anon().post('/auth/login', { email, password: 'the old password' })).status).toBe(401);
    await loginAs(srv.url, email, 'a fresh password');
  });

  it('an expired link is refused, and a newer request replaces the older link', async () => {
    const { email, id } = await userWithPassword();
    await anon().post('/auth/password-reset', { email });
    const [first] = await resetTokens(email);
    await anon().post('/auth/password-reset', { email });
    const [second] = await resetTokens(email);
    expect(second).not.toBe(first);
    expect((await anon().get(`/auth/invites/${first}`)).status).toBe(404);

    await queryRows(db(), sql`update svc_user_invites set expires_utc = now() at time zone 'utc' - interval '1 minute' where user_id = ${id}`);
    expect((await anon().get(`/auth/invites/${second}`)).status).toBe(404);
    expect((await anon().post(`/auth/invites/${second}`, { password: 'too late password' })).status).toBe(404);
  });

  it('the fourth request for one address within the hour is 429 svc_rate_limited, known or unknown alike', async () => {
    const { email } = await userWithPassword();
    const unknown = `nobody-${Date.now()}@example.test`;
    for (const address of [email, unknown]) {
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await anon().post('/auth/password-reset', { email: address })).status);
      expect(statuses).toEqual([202, 202, 202, 429]);
      const refused = await anon().post('/auth/password-reset', { email: address });
      expect(refused.body.code).toBe('svc_rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(await storedMails(db(), email)).toHaveLength(3);
  });

  it('a malformed address is 400 naming email', async () => {
    const res = await anon().post('/auth/password-reset', { email: 'not an address' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.data.params)).toContain('email');
  });

  it('is the same operation over tRPC (auth.requestPasswordReset)', async () => {
    const { email } = await userWithPassword();
    const answer = await trpcClient(srv.url).auth.requestPasswordReset.mutate({ email });
    expect(answer.message).toMatch(/If an account uses this address/);
    expect(await resetTokens(email)).toHaveLength(1);
  });

  it('the REST outbox view masks the reset token, and no log line ever holds one', async () => {
    const { email } = await userWithPassword();
    await anon().post('/auth/password-reset', { email });
    const [token] = await resetTokens(email);
    const view = await admin.api.get(`/outbox?to=${encodeURIComponent(email)}`);
    const text = (view.body as Array<{ text: string }>)[0]!.text;
    expect(text).not.toContain(token);
    expect(text).toContain(`${PUBLIC_URL}/invite/${MASK}`);
    const logged = logs.text();
    for (const seen of seenTokens) expect(logged).not.toContain(seen);
  });
});
