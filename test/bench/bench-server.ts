/**
 * The server a benchmark measures: a real `startServer` on a free port, logs off, jobs off unless
 * asked, on a scratch PostgreSQL database when TEST_DATABASE_URL/DATABASE_URL is set (else
 * in-memory PGlite). `close()` drops the scratch database and the data folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
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
  /** Answers with a 5xx status: a rush answers every request, none with a server error. */
  serverErrors: number;
  /** Requests that got no answer (the connection failed), counted as status 0. */
  unanswered: number;
}

/** One request of a rush, described as data so another thread can send it. */
export interface RushRequest {
  path: string;
  method: 'POST' | 'GET';
  headers: Record<string, string>;
  body?: string;
}

/**
 * The load generator, in plain JavaScript for a worker thread: real clients are not inside the
 * server, whose one JS thread would otherwise also run every client's fetch and add the
 * clients' own work to each measured latency. On this 2-core machine the worker still shares the
 * CPU with the server and PostgreSQL, so it did not raise the figures measurably; it keeps the
 * server's latencies its own. `clients` loops share the list until it is used up; each answer is
 * read whole.
 */
const RUSH_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { baseUrl, clients, requests } = workerData;
(async () => {
  let next = 0;
  const statuses = new Map();
  const latencies = [];
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, async () => {
    while (next < requests.length) {
      const r = requests[next++];
      const sent = performance.now();
      // A request the connection dropped (status 0) is counted, not thrown: one lost answer must
      // not end the rush and hide every other figure.
      let status = 0;
      try {
        const res = await fetch(baseUrl + r.path, { method: r.method, headers: r.headers, body: r.body });
        await res.arrayBuffer();
        status = res.status;
      } catch {}
      latencies.push(performance.now() - sent);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  }));
  parentPort.postMessage({ seconds: (performance.now() - started) / 1000, statuses: [...statuses], latencies });
})();
`;

/**
 * `clients` concurrent clients send `requests` to the server at `baseUrl` from a worker thread
 * (RUSH_WORKER). Answers the status counts, the throughput and the latency percentiles.
 */
export async function runRush(baseUrl: string, clients: number, requests: RushRequest[]): Promise<RushResult> {
  const worker = new Worker(RUSH_WORKER, { eval: true, workerData: { baseUrl, clients, requests } });
  try {
    const done = await new Promise<{ seconds: number; statuses: Array<[number, number]>; latencies: number[] }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    const latencies = done.latencies.sort((a, b) => a - b);
    return {
      statuses: new Map(done.statuses),
      seconds: done.seconds,
      requestsPerSecond: requests.length / done.seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      serverErrors: done.statuses.filter(([status]) => status >= 500).reduce((n, [, count]) => n + count, 0),
      unanswered: done.statuses.find(([status]) => status === 0)?.[1] ?? 0,
    };
  } finally {
    await worker.terminate();
  }
}
