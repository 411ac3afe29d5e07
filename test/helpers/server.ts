import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLIENT_DIST, ensureClientBuilt } from '../../server/build-client';
import { loadEnv } from '../../server/env';
import { startServer, type RunningServer } from '../../server/main';
import { openApiRecorder } from './openapi-check';
import { createScratchPostgres, TEST_DB_KIND } from './db';
import type { Logger } from '../../server/logger';

export interface TestServer {
  url: string;
  admin: { email: string; password: string };
  server: RunningServer;
  dataDir: string;
  close(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  client?: boolean;
  clientDir?: string;
  logger?: Logger;
}

/**
 * The real server on a random port, on a fresh database of the project's kind
 * (PGlite in memory, or a scratch PostgreSQL database). `client: true` serves the PWA build,
 * from `clientDir` when given (a test that deploys another version there) instead of dist/client.
 * E2E tests run on PGlite unless SVC_TEST_DB=postgres.
 */
export async function startTestServer(opts: StartOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-test-'));
  const scratch = TEST_DB_KIND === 'postgres' ? await createScratchPostgres() : null;
  const admin = { email: 'admin@example.test', password: 'correct horse battery staple' };
  const env = loadEnv({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    SVC_DATA_DIR: dataDir,
    SVC_ADMIN_EMAIL: admin.email,
    SVC_ADMIN_PASSWORD: admin.password,
    SVC_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    ...opts.env,
  });
  if (opts.client || opts.env?.SVC_SERVE_CLIENT) ensureClientBuilt();
  const departures: string[] = [];
  const server = await startServer(env, {
    memoryDb: !scratch,
    staticDir: opts.client ? (opts.clientDir ?? CLIENT_DIST) : undefined,
    logger: opts.logger,
    restMiddleware: [openApiRecorder(departures)],
  });
  return {
    url: server.url,
    admin,
    server,
    dataDir,
    async close() {
      await server.close();
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
      if (departures.length) throw new Error(`REST answers that depart from the OpenAPI document:\n${[...new Set(departures)].join('\n')}`);
    },
  };
}
