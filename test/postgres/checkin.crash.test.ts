/**
 * PostgreSQL only: a real crash. The server process is killed after a push committed its rows and
 * before their svc_pro_attendee_checked_in actions ran. Nothing is lost or doubled: the resent
 * batch answers duplicate, and another instance's job runner fires each action once, when the dead
 * writer's lease has run out.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type Database } from '../../server/db/client';
import { Hooks } from '../../server/hooks';
import { JobRunner, HELD_LEASE_SECONDS } from '../../server/jobs/queue';
import { registerCheckinJobs } from '../../server/modules/checkin/checkin.actions';
import { createAttendee, createEvent, pairedDoor, scan, trpcClient } from '../helpers/checkin';
import { createScratchPostgres, TEST_DB_KIND } from '../helpers/db';
import { loginAs } from '../helpers/http';
import { serverProcessEnv, startServerProcess, type ServerProcess } from '../helpers/process';

const silent = pino({ level: 'silent' });
const admin = { email: 'admin@example.test', password: 'correct horse battery staple' };

describe('a server killed between a push’s commit and its actions', () => {
  it('keeps every scan once, and another instance fires each action once after the lease', async () => {
    expect(TEST_DB_KIND, 'this file needs PostgreSQL (TEST_DATABASE_URL)').toBe('postgres');
    const scratch = await createScratchPostgres();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-crash-'));
    const env = serverProcessEnv(scratch.url, dataDir, { SVC_ADMIN_EMAIL: admin.email, SVC_ADMIN_PASSWORD: admin.password });
    const procs: ServerProcess[] = [];
    let database: Database | undefined;
    try {
      const doomed = await startServerProcess({ ...env, SVC_PLUGINS: path.resolve('test/fixtures/plugins/dies-on-checkin.mjs') });
      procs.push(doomed);
      database = await openDatabase({ url: scratch.url });
      const db = database.db;
      const event = await createEvent(db);
      const people = [await createAttendee(db, event.id), await createAttendee(db, event.id), await createAttendee(db, event.id)];
      const door = await pairedDoor(doomed.url, (await loginAs(doomed.url, admin.email, admin.password)).api, [event.id]);
      const items = people.map((p) => scan(p));

      // the push commits, then the process dies: the door sees the request fail
      await expect(door.client.sync.push.mutate({ items })).rejects.toThrow();
      expect((await doomed.exited).signal).toBe('SIGKILL');
      const rows = await queryRows<{ id: number; attendee_id: number }>(
        db,
        sql`select id, attendee_id from svc_checkins where event_id = ${event.id} order by id`,
      );
      expect(rows.map((r) => r.attendee_id)).toEqual(people.map((p) => p.id));

      // the door resends to a restarted server: stored once
      const restarted = await startServerProcess(env, /listening on/);
      procs.push(restarted);
      const resent = await trpcClient(restarted.url, { bearer: door.token }).sync.push.mutate({ items });
      expect(resent.results.map((r) => [r.status, (r as { checkinId?: number }).checkinId])).toEqual(rows.map((r) => ['duplicate', r.id]));

      // another instance's job runner: nothing while the dead writer's lease holds, then each action once
      const hooks = new Hooks();
      const fired: Array<[number, number, number]> = [];
      hooks.addAction('svc_pro_attendee_checked_in', (c: number, a: number, e: number) => void fired.push([c, a, e]), 10, 3);
      const runner = new JobRunner(db, silent);
      registerCheckinJobs(runner, { db, hooks, logger: silent });
      await runner.runDue();
      expect(fired).toEqual([]);
      await runner.runDue(Date.now() + (HELD_LEASE_SECONDS + 1) * 1000);
      expect(fired).toEqual(rows.map((r) => [r.id, r.attendee_id, event.id]));
      await runner.runDue(Date.now() + 2 * HELD_LEASE_SECONDS * 1000);
      expect(fired).toHaveLength(rows.length);
    } finally {
      for (const p of procs) p.child.kill('SIGKILL');
      await database?.close();
      await scratch.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
