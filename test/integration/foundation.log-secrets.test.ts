/**
 * A failed query leaves no secret in the log: the error of a failing INSERT carries the row's
 * values (drizzle's `params`, in the message and the stack too), and the one error serializer
 * drops them, on PGlite and PostgreSQL alike.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedLogger } from '../helpers/logs';
import { createEvent, signUp } from '../helpers/registration';
import { useTestServer } from '../helpers/test-server';

const captured = capturedLogger('debug');
const logLines = captured.lines;

const { server: srv, admin, db } = useTestServer({ env: { SVC_JOBS: 'off' }, logger: captured.logger });

beforeAll(async () => {
  // Writes that fail inside PostgreSQL, after the service has built the row with its secrets.
  await db().execute(sql`alter table svc_users add constraint test_fail_user check (email not like 'fail-%') not valid`);
  await db().execute(sql`alter table svc_attendees add constraint test_fail_attendee check (display_name <> 'Fail Me') not valid`);
});
afterAll(async () => {
  await db().execute(sql`alter table svc_users drop constraint test_fail_user`);
  await db().execute(sql`alter table svc_attendees drop constraint test_fail_attendee`);
});

/** Opaque runs as long as a cancel token or a SHA-256 hex: none belongs in a log line. */
const LONG_OPAQUE = /[A-Za-z0-9_-]{40,}/;

describe('no secret in any log', () => {
  it('a failing POST /users logs the error without the password or its argon2id hash', async () => {
    const before = logLines.length;
    const res = await admin.api.post('/users', { email: 'fail-1@example.test', role: 'host', password: 'Known Secret Password 42' });
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('svc_internal');
    const lines = logLines.slice(before).join('\n');
    expect(lines).toMatch(/unhandled error/);
    expect(lines).toMatch(/test_fail_user|Failed query/);
    expect(lines).not.toContain('$argon2id$');
    expect(lines).not.toContain('Known Secret Password 42');
    expect(lines).not.toMatch(LONG_OPAQUE);
  });

  it('a failing sign-up logs the error without the cancel token, the ticket code or its hash', async () => {
    const event = await createEvent(admin.api);
    const before = logLines.length;
    const res = await signUp(srv, event.id, { display_name: 'Fail Me' });
    expect(res.status).toBe(500);
    const lines = logLines.slice(before).join('\n');
    expect(lines).toMatch(/unhandled error/);
    expect(lines).toContain('params: [redacted]');
    expect(lines).not.toMatch(LONG_OPAQUE);
    expect(lines).not.toMatch(/"params":/);
  });
});
