import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadEnv } from '../../server/env';
import { startServer, type RunningServer } from '../../server/main';

/**
 * Another svc instance on a database that already exists (e.g. the scratch database of a
 * `startTestServer` instance), as a second server behind a load balancer would be. It has its
 * own connection pool, hooks, caches and job runner; closing it leaves the database alone.
 */
export async function startServerOnDatabase(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<{ url: string; server: RunningServer; close(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-test-second-'));
  const server = await startServer(
    loadEnv({
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      SVC_DATA_DIR: dataDir,
      SVC_SECRET: 'test-secret-test-secret-test-secret-0123456789',
      DATABASE_URL: databaseUrl,
      ...env,
    }),
  );
  return {
    url: server.url,
    server,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
