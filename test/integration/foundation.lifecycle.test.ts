import { describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows } from '../../server/db/client';
import { enqueueJob, JobRunner } from '../../server/jobs/queue';
import { openTestDatabase, createScratchPostgres, TEST_DB_KIND } from '../helpers/db';
import { startTestServer } from '../helpers/server';
import { startServerProcess, type ServerProcess } from '../helpers/process';

describe('migrations', () => {
  it('create every table, and running them again changes nothing', async () => {
    const database = await openTestDatabase();
    try {
      await database.migrate();
      const tables = await queryRows<{ table_name: string }>(
        database.db,
        sql`select table_name from information_schema.tables where table_schema = 'public' order by 1`,
      );
      expect(tables.map((t) => t.table_name)).toEqual(
        expect.arrayContaining(['svc_users', 'svc_sessions', 'svc_api_tokens', 'svc_jobs', 'svc_outbox', 'svc_rate_limits', 'svc_settings']),
      );
    } finally {
      await database.close();
    }
  });

  it.runIf(TEST_DB_KIND === 'postgres')('two instances migrating one empty database at once both succeed (advisory lock)', async () => {
    const scratch = await createScratchPostgres();
    const a = await openDatabase({ url: scratch.url });
    const b = await openDatabase({ url: scratch.url });
    try {
      await Promise.all([a.migrate(), b.migrate()]);
      const [row] = await queryRows<{ n: number }>(a.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
      expect(row!.n).toBeGreaterThan(0);
    } finally {
      await a.close();
      await b.close();
      await scratch.drop();
    }
  });
});

describe('graceful shutdown', () => {
  it('close() lets an in-flight request finish, then refuses new connections', async () => {
    const srv = await startTestServer();
    const body = JSON.stringify({ email: srv.admin.email, password: srv.admin.password });
    const socket = connect(srv.server.port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    const received = new Promise<void>((r) => srv.server.httpServer.once('request', () => r()));
    let response = '';
    socket.on('data', (d) => (response += d.toString()));
    const ended = new Promise((r) => socket.once('close', r));
    // Headers now, half the body now: the request is in flight when close() starts.
    socket.write(
      `POST /svc/v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
    );
    await received;
    const closing = srv.close();
    socket.write(body.slice(10));
    await ended;
    await closing;
    expect(response).toMatch(/^HTTP\/1\.1 200/);
    await expect(fetch(`http://127.0.0.1:${srv.server.port}/svc/v1/health`)).rejects.toThrow();
  });

  it('stopping the job runner waits for the job in flight', async () => {
    const database = await openTestDatabase();
    const runner = new JobRunner(database.db, pino({ level: 'silent' }), { pollMs: 10 });
    let release!: () => void;
    let started!: () => void;
    const startedP = new Promise<void>((r) => (started = r));
    let finished = false;
    runner.register('t.slow', async () => {
      started();
      await new Promise<void>((r) => (release = r));
      finished = true;
    });
    await enqueueJob(database.db, 't.slow', {});
    runner.start();
    await startedP;
    const stopping = runner.stop();
    release();
    await stopping;
    expect(finished).toBe(true);
    await database.close();
  });
});

describe('the real server process (npm start)', () => {
  it('starts with server/start.ts, answers /svc/v1/health, prints the first administrator, and exits 0 on SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-proc-'));
    const scratch = TEST_DB_KIND === 'postgres' ? await createScratchPostgres() : null;
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', SVC_DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    delete env.SVC_ADMIN_PASSWORD;
    delete env.DATABASE_URL;
    if (scratch) env.DATABASE_URL = scratch.url;
    let proc: ServerProcess | undefined;
    try {
      proc = await startServerProcess(env, /password: \S+/);
      const { url } = proc;
      const health = await fetch(`${url}/svc/v1/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ ok: true });
      expect(proc.output()).toMatch(/First administrator created: admin@svc\.local/);
      const page = await fetch(`${url}/admin`);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/<html/i);
      proc.child.kill('SIGTERM');
      expect((await proc.exited).code).toBe(0);
    } finally {
      proc?.child.kill('SIGKILL');
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
