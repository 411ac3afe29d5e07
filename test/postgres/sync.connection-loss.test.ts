/**
 * PostgreSQL only: a door push whose database connection is taken away (`pg_terminate_backend`,
 * as a restart or failover does) answers 503 svc_unavailable with Retry-After, logged as a lost
 * connection, like every other route (docs/decisions/018-driver-connection-loss.md). It answered
 * 500 with nothing in the log. The door keeps the batch and sends it again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import { createAttendee, createEvent, pairDevice, scan, type TestAttendee } from '../helpers/checkin';
import { createScratchPostgres, TEST_DB_KIND } from '../helpers/db';
import { loginAs } from '../helpers/http';
import { serverProcessEnv, startServerProcess } from '../helpers/process';

const CHURN_MS = 6_000;
const admin = { email: 'admin@example.test', password: 'correct horse battery staple' };

describe('a door push that loses its database connection', () => {
  it('answers 503 svc_unavailable with Retry-After and a logged warning, never 500', { timeout: 120_000 }, async () => {
    expect(TEST_DB_KIND, 'this file needs PostgreSQL (TEST_DATABASE_URL)').toBe('postgres');
    const scratch = await createScratchPostgres();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-pushloss-'));
    const killer = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
    const server = await startServerProcess(serverProcessEnv(scratch.url, dataDir, { SVC_ADMIN_EMAIL: admin.email, SVC_ADMIN_PASSWORD: admin.password }));
    const database = await openDatabase({ url: scratch.url });
    try {
      const event = await createEvent(database.db);
      const people: TestAttendee[] = [];
      for (let i = 0; i < 40; i++) people.push(await createAttendee(database.db, event.id));
      await database.close();
      const device = await pairDevice(server.url, (await loginAs(server.url, admin.email, admin.password)).api, [event.id]);

      const output = () => server.output().slice(-3000);
      const name = new URL(scratch.url).pathname.slice(1);
      const until = Date.now() + CHURN_MS;
      let terminated = 0;
      let stored = 0;
      /** Every refused push: status, svc code, Retry-After header and the body's retryAfter. */
      const refused: string[] = [];
      const doors = Array.from({ length: 4 }, async () => {
        while (Date.now() < until) {
          const items = people.map((p) => scan(p));
          const res = await fetch(`${server.url}/trpc/sync.push`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${device.token}` },
            body: JSON.stringify({ json: { items, pending: items.length } }),
          }).catch(() => null);
          if (!res) continue;
          const body = (await res.json().catch(() => null)) as { error?: { json?: { data?: { svcCode?: string; retryAfter?: number } } } } | null;
          if (res.status === 200) {
            stored++;
            continue;
          }
          const data = body?.error?.json?.data;
          refused.push(`${res.status} ${data?.svcCode} header ${res.headers.get('retry-after')} body ${data?.retryAfter}`);
        }
      });
      const churn = (async () => {
        while (Date.now() < until) {
          const rows = await killer`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name} and pid <> pg_backend_pid()`;
          terminated += rows.length;
          await new Promise((resolve) => setTimeout(resolve, 40));
        }
      })();
      await Promise.all([...doors, churn]);

      expect(terminated, 'connections taken away').toBeGreaterThan(5);
      expect(refused.length, 'some pushes lost their connection').toBeGreaterThan(0);
      // On a busy machine every push may meet a kill; once the connections stay, the batch the door
      // kept goes through on the pool's new connections. The door sends it again after Retry-After
      // as it does after any 503: postgres.js 3.4.9 can answer the first statement on a
      // reconnected connection with the error of the statement killed before it (upstream issue
      // 1223; docs/decisions/018-driver-connection-loss.md), a 503 like the others.
      const again = people.map((p) => scan(p));
      const resend = () =>
        fetch(`${server.url}/trpc/sync.push`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${device.token}` },
          body: JSON.stringify({ json: { items: again, pending: again.length } }),
        });
      let resent = await resend();
      const resendRefusals: number[] = [];
      while (resent.status === 503 && resendRefusals.length < 3) {
        resendRefusals.push(resent.status);
        await new Promise((resolve) => setTimeout(resolve, Number(resent.headers.get('retry-after')) * 1000));
        resent = await resend();
      }
      expect(resent.status, `after the churn (${stored} pushes stored during it; ${resendRefusals.length} resends refused with 503 first)`).toBe(200);
      expect([...new Set(refused)], output()).toEqual(['503 svc_unavailable header 2 body 2']);
      expect(server.output()).toContain('connection lost under a request; answered 503');
      expect(server.output()).not.toMatch(/tRPC procedure failed|unhandled error/);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      await killer.end();
      await scratch.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
