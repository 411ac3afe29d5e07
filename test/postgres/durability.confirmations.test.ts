/**
 * PostgreSQL only, real processes: a server killed after a booking's or a sign-up's commit, before
 * or after the listener that queues its mail, loses no confirmation and sends none twice. The
 * actions held in the write's own transaction run on another instance once the dead writer's lease
 * has run out; the mail's once key keeps a replay from writing it again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type Database } from '../../server/db/client';
import { signValue } from '../../server/security/nonce';
import { createScratchPostgres, TEST_DB_KIND } from '../helpers/db';
import { apiClient, loginAs } from '../helpers/http';
import { ALL_DAY, futureStart } from '../helpers/booking';
import { serverProcessEnv, startServerProcess, type ServerProcess } from '../helpers/process';

const admin = { email: 'admin@example.test', password: 'correct horse battery staple' };
const SECRET = 'durability-test-secret-0123456789abcdef';

interface Mail {
  to_address: string;
  subject: string;
  state: string;
}

describe('a confirmation is never lost', () => {
  it(
    'killed after commit, before or after the mail listener: every acknowledged or interrupted write gets its mail exactly once',
    { timeout: 300_000 },
    async () => {
      expect(TEST_DB_KIND, 'this file needs PostgreSQL (TEST_DATABASE_URL)').toBe('postgres');
      const scratch = await createScratchPostgres();
      const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-durable-'));
      const env = serverProcessEnv(scratch.url, dataDir, { SVC_ADMIN_EMAIL: admin.email, SVC_ADMIN_PASSWORD: admin.password, SVC_SECRET: SECRET });
      const procs: ServerProcess[] = [];
      let database: Database | undefined;
      try {
        // set-up on a healthy instance
        const setup = await startServerProcess(env);
        procs.push(setup);
        const api = (await loginAs(setup.url, admin.email, admin.password)).api;
        const host = (await api.post('/users', { email: 'host@example.test', displayName: 'Host', role: 'host', password: 'long enough password' })).body.id;
        const type = (
          await api.post('/booking-types', {
            title: 'Consultation',
            status: 'published',
            durationMinutes: 60,
            timezone: 'UTC',
            weeklyWindows: ALL_DAY,
            hosts: [host],
            maxAdvanceDays: 0,
          })
        ).body;
        const event = (await api.post('/events', { title: 'Meetup', startsUtc: '2099-05-01 18:00:00', status: 'published' })).body;
        setup.child.kill('SIGTERM');
        await setup.exited;

        const cases = [
          { dieAt: 'svc_booking_created:1', email: 'before-booking-mail@example.test', kind: 'booking', hour: 9 },
          { dieAt: 'svc_booking_created:11', email: 'after-booking-mail@example.test', kind: 'booking', hour: 11 },
          { dieAt: 'svc_rsvp_submitted:1', email: 'before-ticket-mail@example.test', kind: 'signup', hour: 0 },
          { dieAt: 'svc_rsvp_submitted:11', email: 'after-ticket-mail@example.test', kind: 'signup', hour: 0 },
        ];
        for (const c of cases) {
          const doomed = await startServerProcess(
            { ...env, SVC_PLUGINS: path.resolve('test/fixtures/plugins/dies-on-cue.mjs'), SVC_TEST_DIE_AT: c.dieAt },
            /listening on/,
          );
          procs.push(doomed);
          const visitor = apiClient(doomed.url);
          const nonce = (await visitor.get('/nonce')).body.nonce as string;
          const request =
            c.kind === 'booking'
              ? visitor.post(
                  '/bookings',
                  { bookingTypeId: type.id, startUtc: futureStart(3, c.hour), customerName: 'Vera', customerEmail: c.email, customerTz: 'UTC' },
                  { 'x-svc-nonce': nonce },
                )
              : visitor.post(
                  `/events/${event.id}/signup`,
                  {
                    email: c.email,
                    display_name: 'Ada',
                    quantity: 1,
                    svc_hp: '',
                    svc_ts: signValue(SECRET, `signup-form|${event.id}`, String(Date.now() - 10_000)),
                  },
                  { 'x-svc-nonce': nonce },
                );
          // the write commits, then the process dies before answering
          await expect(request).rejects.toThrow();
          expect((await doomed.exited).signal, c.dieAt).toBe('SIGKILL');
        }

        database = await openDatabase({ url: scratch.url });
        const db = database.db;
        const stored = await queryRows<{ n: number }>(
          db,
          sql`select (select count(*) from svc_bookings)::int + (select count(*) from svc_attendees)::int as n`,
        );
        expect(stored[0]!.n).toBe(cases.length);

        // another instance with its job runner on: each mail once, after the dead writer's lease
        const survivor = await startServerProcess({ ...env, SVC_JOBS: 'on' }, /listening on/);
        procs.push(survivor);
        const mails = async () => queryRows<Mail>(db, sql`select to_address, subject, state from svc_outbox order by id`);
        const heldLeft = async () =>
          (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from svc_jobs where type like 'announce.%' and state <> 'done'`))[0]!.n;
        // every held announcement has run (the dead writers' leases ran out), and every mail went out
        await expect.poll(heldLeft, { timeout: 120_000, interval: 1000 }).toBe(0);
        await expect
          .poll(async () => (await mails()).filter((m) => m.state === 'saved' || m.state === 'sent').length, { timeout: 60_000, interval: 1000 })
          .toBe(cases.length);
        const all = await mails();
        for (const c of cases) {
          expect(
            all.filter((m) => m.to_address === c.email).map((m) => m.state),
            c.dieAt,
          ).toEqual(['saved']);
        }
      } finally {
        for (const p of procs) p.child.kill('SIGKILL');
        await database?.close();
        await scratch.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );
});
