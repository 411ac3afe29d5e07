/**
 * PostgreSQL only, real processes: a server killed after the commit of an approval, a decline, a
 * booking cancel, a reschedule or an attendee's move from the waitlist, before or after the
 * listener that queues its mail, loses no mail and sends none twice. The actions are held in the
 * change's own transaction (docs/decisions/006-jobs-and-mail.md) and run on another instance once
 * the dead writer's lease has run out.
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
const SECRET = 'durability-changes-secret-0123456789abcdef';

interface Mail {
  to_address: string;
  subject: string;
  state: string;
}

describe('a change’s mail is never lost', () => {
  it(
    'killed after the commit of an approval, decline, cancel, reschedule or waitlist move, before or after its mail listener: each mail exactly once',
    { timeout: 300_000 },
    async () => {
      expect(TEST_DB_KIND, 'this file needs PostgreSQL (TEST_DATABASE_URL)').toBe('postgres');
      const scratch = await createScratchPostgres();
      const dataDir = mkdtempSync(path.join(tmpdir(), 'svc-durable-changes-'));
      const env = serverProcessEnv(scratch.url, dataDir, { SVC_ADMIN_EMAIL: admin.email, SVC_ADMIN_PASSWORD: admin.password, SVC_SECRET: SECRET });
      const procs: ServerProcess[] = [];
      let database: Database | undefined;
      try {
        // set-up on a healthy instance: two requests awaiting approval, three confirmed bookings, one waitlisted attendee
        const setup = await startServerProcess(env);
        procs.push(setup);
        const api = (await loginAs(setup.url, admin.email, admin.password)).api;
        const host = (await api.post('/users', { email: 'host@example.test', displayName: 'Host', role: 'host', password: 'long enough password' })).body.id;
        const typeOf = async (requiresApproval: boolean) =>
          (
            await api.post('/booking-types', {
              title: 'Consultation',
              status: 'published',
              durationMinutes: 60,
              timezone: 'UTC',
              weeklyWindows: ALL_DAY,
              hosts: [host],
              maxAdvanceDays: 0,
              requiresApproval,
            })
          ).body;
        const [plain, approval] = [await typeOf(false), await typeOf(true)];
        const visitor = apiClient(setup.url);
        const book = async (typeId: number, email: string, day: number) => {
          const nonce = (await visitor.get('/nonce')).body.nonce as string;
          const res = await visitor.post(
            '/bookings',
            { bookingTypeId: typeId, startUtc: futureStart(day, 10), customerName: 'Vera', customerEmail: email, customerTz: 'UTC' },
            { 'x-svc-nonce': nonce },
          );
          expect(res.status, email).toBe(201);
          return res.body.bookingId as number;
        };
        const signUp = async (eventId: number, email: string) => {
          const nonce = (await visitor.get('/nonce')).body.nonce as string;
          const res = await visitor.post(
            `/events/${eventId}/signup`,
            { email, display_name: 'Ada', quantity: 1, svc_hp: '', svc_ts: signValue(SECRET, `signup-form|${eventId}`, String(Date.now() - 10_000)) },
            { 'x-svc-nonce': nonce },
          );
          expect(res.status, email).toBe(201);
          return res.body.id as number;
        };
        const toApprove = await book(approval.id, 'approve@example.test', 3);
        const toDecline = await book(approval.id, 'decline@example.test', 4);
        const toCancel = await book(plain.id, 'cancel@example.test', 5);
        const toCancelByAdmin = await book(plain.id, 'admin-cancel@example.test', 6);
        const toMove = await book(plain.id, 'move@example.test', 7);
        const event = (await api.post('/events', { title: 'Meetup', startsUtc: '2099-05-01 18:00:00', status: 'published', capacity: 1, waitlist: true })).body;
        await signUp(event.id, 'seated@example.test');
        const waiting = await signUp(event.id, 'waiting@example.test');
        setup.child.kill('SIGTERM');
        await setup.exited;

        database = await openDatabase({ url: scratch.url });
        const db = database.db;
        const tokenOf = async (bookingId: number) =>
          (await queryRows<{ cancel_token: string }>(db, sql`select cancel_token from svc_bookings where booking_id = ${bookingId}`))[0]!.cancel_token;

        const cases: Array<{ dieAt: string; email: string; adds: string; act: (url: string) => Promise<unknown> }> = [
          {
            dieAt: 'svc_booking_approved:1',
            email: 'approve@example.test',
            adds: 'Booking confirmed: Consultation',
            act: async (url) => (await loginAs(url, admin.email, admin.password)).api.post(`/bookings/${toApprove}/approve`),
          },
          {
            dieAt: 'svc_booking_declined:1',
            email: 'decline@example.test',
            adds: 'Booking cancelled: Consultation',
            act: async (url) => (await loginAs(url, admin.email, admin.password)).api.post(`/bookings/${toDecline}/decline`),
          },
          {
            dieAt: 'svc_booking_cancelled:1',
            email: 'cancel@example.test',
            adds: 'Booking cancelled: Consultation',
            act: async (url) => apiClient(url).delete(`/bookings/${await tokenOf(toCancel)}`),
          },
          {
            dieAt: 'svc_booking_cancelled:11',
            email: 'admin-cancel@example.test',
            adds: 'Booking cancelled: Consultation',
            act: async (url) => (await loginAs(url, admin.email, admin.password)).api.patch(`/bookings/${toCancelByAdmin}`, { status: 'cancelled' }),
          },
          {
            dieAt: 'svc_booking_rescheduled:1',
            email: 'move@example.test',
            adds: 'Booking moved: Consultation',
            act: async (url) => apiClient(url).patch(`/bookings/${await tokenOf(toMove)}/reschedule`, { startUtc: futureStart(8, 15) }),
          },
          {
            dieAt: 'svc_attendee_status_changed:11',
            email: 'waiting@example.test',
            adds: 'You are registered: Meetup',
            act: async (url) => (await loginAs(url, admin.email, admin.password)).api.patch(`/attendees/${waiting}`, { status: 'going' }),
          },
        ];
        const before = await queryRows<Mail>(db, sql`select to_address, subject, state from svc_outbox order by id`);
        for (const c of cases) {
          const doomed = await startServerProcess(
            { ...env, SVC_PLUGINS: path.resolve('test/fixtures/plugins/dies-on-cue.mjs'), SVC_TEST_DIE_AT: c.dieAt },
            /listening on/,
          );
          procs.push(doomed);
          // the change commits, then the process dies before answering
          await expect(c.act(doomed.url)).rejects.toThrow();
          expect((await doomed.exited).signal, c.dieAt).toBe('SIGKILL');
        }

        // another instance with its job runner on: each mail once, after the dead writer's lease
        const survivor = await startServerProcess({ ...env, SVC_JOBS: 'on' }, /listening on/);
        procs.push(survivor);
        const mails = async () => queryRows<Mail>(db, sql`select to_address, subject, state from svc_outbox order by id`);
        const heldLeft = async () =>
          (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from svc_jobs where type like 'announce.%' and state <> 'done'`))[0]!.n;
        await expect.poll(heldLeft, { timeout: 120_000, interval: 1000 }).toBe(0);
        await expect
          .poll(async () => (await mails()).filter((m) => m.state === 'saved' || m.state === 'sent').length, { timeout: 60_000, interval: 1000 })
          .toBe(before.length + cases.length);
        const all = await mails();
        for (const c of cases) {
          const earlier = before.filter((m) => m.to_address === c.email).map((m) => m.subject);
          expect(
            all.filter((m) => m.to_address === c.email).map((m) => m.subject),
            c.dieAt,
          ).toEqual([...earlier, c.adds]);
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
