/**
 * The server a benchmark measures: a real `startServer` on a free port, logs off, jobs off unless
 * asked, on a scratch PostgreSQL database when TEST_DATABASE_URL/DATABASE_URL is set (else
 * in-memory PGlite). `close()` drops the scratch database and the data folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadEnv } from '../../server/env';
import { startServer, type RunningServer } from '../../server/main';
import { createScratchPostgres } from '../helpers/db';
import { percentile } from './support';

export interface BenchServer {
  server: RunningServer;
  /** 'PostgreSQL' or 'PGlite', for the figures' names. */
  kind: 'PostgreSQL' | 'PGlite';
  close(): Promise<void>;
}

/** Whether the environment names a PostgreSQL server to measure on. */
export const postgresConfigured = (): boolean => Boolean(process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL);

export async function startBenchServer(opts: { postgres?: boolean; env?: Record<string, string> } = {}): Promise<BenchServer> {
  const usePostgres = opts.postgres ?? postgresConfigured();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-bench-'));
  const scratch = usePostgres ? await createScratchPostgres() : null;
  const env = loadEnv({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    SVC_DATA_DIR: dataDir,
    SVC_JOBS: 'off',
    SVC_ADMIN_EMAIL: 'admin@example.test',
    SVC_ADMIN_PASSWORD: 'correct horse battery staple',
    SVC_SECRET: 'bench-secret-bench-secret-bench-secret-0123456789',
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    ...opts.env,
  });
  const server = await startServer(env, { memoryDb: !scratch });
  return {
    server,
    kind: scratch ? 'PostgreSQL' : 'PGlite',
    async close() {
      await server.close();
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface RushResult {
  /** Answers by HTTP status. */
  statuses: Map<number, number>;
  seconds: number;
  requestsPerSecond: number;
  /** Milliseconds from request to whole answer. */
  p50: number;
  p99: number;
}

/**
 * `clients` concurrent loops share one list of `attempts` requests until it is used up; each
 * answer is read whole. Answers the status counts, the throughput and the latency percentiles.
 */
export async function runRush(clients: number, attempts: number, send: (i: number) => Promise<Response>): Promise<RushResult> {
  let next = 0;
  const statuses = new Map<number, number>();
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < attempts) {
        const i = next++;
        const sent = performance.now();
        const res = await send(i);
        await res.arrayBuffer();
        latencies.push(performance.now() - sent);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { statuses, seconds, requestsPerSecond: attempts / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}
