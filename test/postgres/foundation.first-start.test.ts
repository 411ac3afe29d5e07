/**
 * PostgreSQL only: two instances started at once on an empty database both come up, exactly one
 * administrator is created, and nothing prints a query's values (a password hash). Ten rounds,
 * each on a fresh database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase, queryRows } from '../../server/db/client';
import { createScratchPostgres, TEST_DB_KIND } from '../helpers/db';
import { serverProcessEnv } from '../helpers/process';

const ROUNDS = 10;

/** Starts `server/start.ts` and resolves when it listens (or rejects with what it printed when it exits first). */
function start(env: NodeJS.ProcessEnv): Promise<{ url: string; out: () => string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts', '--no-build'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m)
        resolve({
          url: m[1]!,
          out: () => out,
          stop: async () => {
            child.kill('SIGTERM');
            await exited;
          },
        });
    });
    void exited.then(() => reject(new Error(`exited before listening:\n${out}`)));
  });
}

describe('first start on an empty database', () => {
  it(`two instances at once both come up with one administrator, ${ROUNDS} rounds, no hash printed`, { timeout: 600_000 }, async () => {
    expect(TEST_DB_KIND, 'this file needs PostgreSQL (TEST_DATABASE_URL)').toBe('postgres');
    for (let round = 1; round <= ROUNDS; round++) {
      const scratch = await createScratchPostgres();
      const dirs = [mkdtempSync(path.join(tmpdir(), 'svc-first-a-')), mkdtempSync(path.join(tmpdir(), 'svc-first-b-'))];
      const env = (dataDir: string) => serverProcessEnv(scratch.url, dataDir, { SVC_ADMIN_EMAIL: 'first@example.test' });
      const started = await Promise.allSettled(dirs.map((dir) => start(env(dir))));
      try {
        const failures = started.filter((s) => s.status === 'rejected').map((s) => String((s as PromiseRejectedResult).reason));
        expect(failures, `round ${round}`).toEqual([]);
        const servers = started.map((s) => (s as PromiseFulfilledResult<Awaited<ReturnType<typeof start>>>).value);
        for (const server of servers) expect((await fetch(`${server.url}/svc/v1/health`)).status, `round ${round}`).toBe(200);
        const database = await openDatabase({ url: scratch.url });
        try {
          const admins = await queryRows<{ email: string }>(database.db, sql`select email from svc_users`);
          expect(
            admins.map((a) => a.email),
            `round ${round}`,
          ).toEqual(['first@example.test']);
        } finally {
          await database.close();
        }
        // exactly one of them reports the generated password; neither prints a hash
        const outputs = servers.map((s) => s.out());
        expect(
          outputs.filter((o) => /First administrator created/.test(o)),
          `round ${round}`,
        ).toHaveLength(1);
        for (const o of outputs) expect(o).not.toContain('$argon2id$');
      } finally {
        for (const s of started) if (s.status === 'fulfilled') await s.value.stop();
        for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
        await scratch.drop();
      }
    }
  });
});
