/**
 * PostgreSQL only: the server keeps serving while PostgreSQL takes its connections away under
 * load (`pg_terminate_backend`, as a restart or failover does). Requests caught in it fail on
 * their own, each with 503 svc_unavailable and Retry-After (never a 500); the process stays up
 * and answers again once the pool has reconnected.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { createScratchPostgres, TEST_DB_KIND } from '../helpers/db';
import { serverProcessEnv, startServerProcess } from '../helpers/process';

const CHURN_MS = 10_000;
/** Every request is answered, a refusal included, well within this. */
const ANSWER_WITHIN_MS = 20_000;

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
      /** Every refused answer: its status, code and Retry-After ("REST" or "tRPC"). */
      const refused: string[] = [];
      let answered = 0;
      const unanswered: string[] = [];
      const trpcList = `${server.url}/trpc/events.list?input=${encodeURIComponent(JSON.stringify({ json: {} }))}`;
      const load = Array.from({ length: 6 }, async (_, i) => {
        const viaTrpc = i % 2 === 1;
        while (Date.now() < until && !died) {
          // bounded: a request the server never answers is a finding with its name, not a test timeout
          const res = await fetch(viaTrpc ? trpcList : `${server.url}/svc/v1/events`, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) }).catch(
            (error: Error) => {
              if (error.name === 'TimeoutError') unanswered.push(viaTrpc ? 'tRPC events.list' : 'REST GET /events');
              return null;
            },
          );
          if (!res) continue;
          answered++;
          const body = (await res.json().catch(() => null)) as {
            code?: string;
            error?: { json?: { data?: { svcCode?: string; retryAfter?: number } } };
          } | null;
          if (res.status === 200) continue;
          refused.push(
            viaTrpc
              ? `tRPC ${res.status} ${body?.error?.json?.data?.svcCode} retry ${body?.error?.json?.data?.retryAfter}`
              : `REST ${res.status} ${body?.code} retry ${res.headers.get('retry-after')}`,
          );
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
      expect(unanswered, `requests the server never answered:\n${server.output().slice(-4000)}`).toEqual([]);
      expect(terminated, 'connections taken away').toBeGreaterThan(5);
      expect(answered).toBeGreaterThan(0);
      // A request that lost its connection is told to retry, in both transports.
      expect(refused.length, 'some requests lost their connection').toBeGreaterThan(0);
      expect(new Set(refused)).toEqual(new Set(refused.filter((r) => /^(REST 503 svc_unavailable retry 2|tRPC 503 svc_unavailable retry 2)$/.test(r))));

      // Back to normal: readiness and a public list answer (polled, the pool reconnects on demand).
      const deadline = Date.now() + 20_000;
      let ready = 0;
      while (Date.now() < deadline && !died) {
        ready = (await fetch(`${server.url}/svc/v1/ready`, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) }).catch(() => null))?.status ?? 0;
        if (ready === 200) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(died, `the server process ${died ?? ''}:\n${server.output()}`).toBeNull();
      expect(ready).toBe(200);
      expect((await fetch(`${server.url}/svc/v1/events`, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) })).status).toBe(200);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      await admin.end();
      await scratch.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
