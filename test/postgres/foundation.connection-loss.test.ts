/**
 * PostgreSQL only: the server keeps serving while PostgreSQL takes its connections away under
 * load (`pg_terminate_backend`, as a restart or failover does). Requests caught in it fail on
 * their own; the process stays up and answers again once the pool has reconnected.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { createScratchPostgres, TEST_DB_KIND } from '../helpers/db';
import { serverProcessEnv, startServerProcess } from '../helpers/process';

const CHURN_MS = 10_000;

describe('connections lost under load', () => {
  it('the process survives PostgreSQL terminating its connections again and again, and answers afterwards', { timeout: 120_000 }, async () => {
    expect(TEST_DB_KIND, 'this file needs PostgreSQL (TEST_DATABASE_URL)').toBe('postgres');
    const scratch = await createScratchPostgres();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-connloss-'));
    const admin = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
    const server = await startServerProcess(
      serverProcessEnv(scratch.url, dataDir, { SVC_ADMIN_EMAIL: 'admin@example.test', SVC_ADMIN_PASSWORD: 'correct horse battery staple' }),
    );
    let died: string | null = null;
    void server.exited.then(({ code, signal }) => (died = `exited with ${code ?? signal}`));
    try {
      const name = new URL(scratch.url).pathname.slice(1);
      const until = Date.now() + CHURN_MS;
      let terminated = 0;
      const load = Array.from({ length: 6 }, async () => {
        while (Date.now() < until && !died) {
          const res = await fetch(`${server.url}/svc/v1/events`).catch(() => null);
          await res?.arrayBuffer().catch(() => undefined);
        }
      });
      const churn = (async () => {
        while (Date.now() < until && !died) {
          const rows = await admin`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name} and pid <> pg_backend_pid()`;
          terminated += rows.length;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      await Promise.all([...load, churn]);
      expect(terminated, 'connections taken away').toBeGreaterThan(5);

      // Back to normal: readiness and a public list answer (polled, the pool reconnects on demand).
      const deadline = Date.now() + 20_000;
      let ready = 0;
      while (Date.now() < deadline && !died) {
        ready = (await fetch(`${server.url}/svc/v1/ready`).catch(() => null))?.status ?? 0;
        if (ready === 200) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(died, `the server process ${died ?? ''}:\n${server.output()}`).toBeNull();
      expect(ready).toBe(200);
      expect((await fetch(`${server.url}/svc/v1/events`)).status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      await admin.end();
      await scratch.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
