/**
 * No confirmation lost, none sent twice (docs/decisions/006-jobs-and-mail.md, "Announcements"):
 * every path that writes and then mails holds its announcement in the writing transaction, so
 *
 * - a writer that dies between its commit and its listeners (simulated: its first listener never
 *   returns until the runner has taken the job over after the lease; then it goes on, as a writer
 *   that was only slow would), and
 * - a mail insert that fails once (a PostgreSQL trigger on the outbox that raises on its first row)
 *
 * each end with exactly one mail in the outbox. The writer's own failure still answers 500
 * `svc_internal` (the contract: a throwing callback fails the request), and the write stays.
 */
import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { ANNOUNCE_LEASE_SECONDS } from '../../server/jobs/announcements';
import type { Hooks } from '../../server/hooks';
import { storedMails } from '../helpers/mail';
import { useTestServer } from '../helpers/test-server';
import { apiClient, type ApiResponse } from '../helpers/http';
import { bookingBody, createHost, createType, disableIpThrottle, futureStart, submitBooking, uniqueEmail } from '../helpers/booking';
import { createEvent, resetThrottles, signUp } from '../helpers/registration';

const { server: srv, admin, db, hooks } = useTestServer({ env: { SVC_JOBS: 'off' } });
const anon = () => apiClient(srv.url);
const cleanups: Array<() => unknown> = [];
let host: number;
let day = 10;

beforeAll(async () => {
  host = await createHost(admin.api, 'Mail');
  disableIpThrottle(hooks());
});
afterEach(async () => {
  for (const undo of cleanups.splice(0).reverse()) await undo();
});

/** The first action a path fires after its commit: the writer "dies" (stalls) in it. */
type FirstAction = Parameters<Hooks['addAction']>[0];

interface Prepared {
  /** Who gets the mail, and the subject it must carry (once). */
  to: string;
  subject: RegExp;
  /** The write under test, over HTTP. */
  act: () => Promise<ApiResponse<any>>;
  /** Its success status. */
  ok: number;
}

interface MailPath {
  name: string;
  first: FirstAction;
  prepare: () => Promise<Prepared>;
}

async function tokenOf(bookingId: number): Promise<string> {
  const [row] = await queryRows<{ cancel_token: string }>(db(), sql`select cancel_token from svc_bookings where booking_id = ${bookingId}`);
  return row!.cancel_token;
}

/** A booking of a fresh type on its own day (no two tests share a slot). */
async function book(overrides: Record<string, unknown> = {}) {
  const type = await createType(admin.api, { hosts: [host], ...overrides });
  const start = futureStart(day++, 10);
  const to = uniqueEmail('once');
  const res = await submitBooking(srv.url, bookingBody(type.id, start, { customerEmail: to }));
  if (res.status !== 201) throw new Error(`book: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.bookingId as number, to, token: await tokenOf(res.body.bookingId), start };
}

async function signUpAs(eventId: number, to: string) {
  await resetThrottles(srv);
  return signUp(srv, eventId, { email: to });
}

const PATHS: MailPath[] = [
  {
    name: 'free sign-up',
    first: 'svc_rsvp_submitted',
    prepare: async () => {
      const event = await createEvent(admin.api, { capacity: 10 });
      const to = uniqueEmail('signup');
      return { to, subject: /^You are registered/, act: () => signUpAs(event.id, to), ok: 201 };
    },
  },
  {
    name: 'free booking',
    first: 'svc_booking_created',
    prepare: async () => {
      const type = await createType(admin.api, { hosts: [host] });
      const to = uniqueEmail('booking');
      const start = futureStart(day++, 10);
      return { to, subject: /^Booking confirmed/, act: () => submitBooking(srv.url, bookingBody(type.id, start, { customerEmail: to })), ok: 201 };
    },
  },
  {
    name: 'waitlisted sign-up',
    first: 'svc_rsvp_submitted',
    prepare: async () => {
      const event = await createEvent(admin.api, { capacity: 1, waitlist: true });
      expect((await signUpAs(event.id, uniqueEmail('seated'))).body.status).toBe('going');
      const to = uniqueEmail('waitlisted');
      return { to, subject: /^You are on the waitlist/, act: () => signUpAs(event.id, to), ok: 201 };
    },
  },
  {
    name: 'booking request awaiting approval',
    first: 'svc_booking_created',
    prepare: async () => {
      const type = await createType(admin.api, { hosts: [host], requiresApproval: true });
      const to = uniqueEmail('request');
      const start = futureStart(day++, 10);
      return { to, subject: /^Booking request received/, act: () => submitBooking(srv.url, bookingBody(type.id, start, { customerEmail: to })), ok: 201 };
    },
  },
  {
    name: 'approval',
    first: 'svc_booking_approved',
    prepare: async () => {
      const b = await book({ requiresApproval: true });
      return { to: b.to, subject: /^Booking confirmed/, act: () => admin.api.post(`/bookings/${b.id}/approve`), ok: 200 };
    },
  },
  {
    name: 'decline',
    first: 'svc_booking_declined',
    prepare: async () => {
      const b = await book({ requiresApproval: true });
      return { to: b.to, subject: /^Booking cancelled/, act: () => admin.api.post(`/bookings/${b.id}/decline`), ok: 200 };
    },
  },
  {
    name: 'booking cancel by its holder',
    first: 'svc_booking_cancelled',
    prepare: async () => {
      const b = await book();
      return { to: b.to, subject: /^Booking cancelled/, act: () => anon().delete(`/bookings/${b.token}`), ok: 204 };
    },
  },
  {
    name: 'booking cancel by an administrator',
    first: 'svc_booking_cancelled',
    prepare: async () => {
      const b = await book();
      return { to: b.to, subject: /^Booking cancelled/, act: () => admin.api.patch(`/bookings/${b.id}`, { status: 'cancelled' }), ok: 200 };
    },
  },
  {
    name: 'reschedule',
    first: 'svc_booking_rescheduled',
    prepare: async () => {
      const b = await book();
      const to = futureStart(day++, 15);
      return { to: b.to, subject: /^Booking moved/, act: () => anon().patch(`/bookings/${b.token}/reschedule`, { startUtc: to }), ok: 200 };
    },
  },
  {
    name: 'waitlist → going',
    first: 'svc_attendee_updated',
    prepare: async () => {
      const event = await createEvent(admin.api, { capacity: 1, waitlist: true });
      expect((await signUpAs(event.id, uniqueEmail('seated'))).body.status).toBe('going');
      const to = uniqueEmail('waiting');
      const waiting = await signUpAs(event.id, to);
      expect(waiting.body.status).toBe('waitlist');
      return { to, subject: /^You are registered/, act: () => admin.api.patch(`/attendees/${waiting.body.id}`, { status: 'going' }), ok: 200 };
    },
  },
];

/** Mails to `to` whose subject matches. */
async function mailsOf(p: Prepared) {
  return (await storedMails(db(), p.to)).filter((m) => p.subject.test(m.subject));
}

/** Announcement jobs not finished yet (held, queued or running). */
async function pendingAnnouncements(): Promise<Array<{ id: number; state: string; attempts: number }>> {
  return queryRows(db(), sql`select id, state, attempts from svc_jobs where type like 'announce.%' and state not in ('done') order by id`);
}

/**
 * The writer stalls in its first listener (the process "died" there): the first call of `first`
 * waits until released; later calls (the runner's) go through.
 */
function stallFirstCall(first: FirstAction) {
  let reached!: () => void;
  let release!: () => void;
  const stalled = new Promise<void>((r) => (reached = r));
  const released = new Promise<void>((r) => (release = r));
  let calls = 0;
  const stall = async () => {
    calls += 1;
    if (calls > 1) return;
    reached();
    await released;
  };
  hooks().addAction(first, stall as never, 1);
  cleanups.push(() => hooks().removeAction(first, stall as never, 1));
  return { stalled, release };
}

/** A trigger on the outbox that makes its next insert fail, once (a sequence counts across rollbacks). */
async function failNextOutboxInsert(): Promise<() => Promise<number>> {
  await db().execute(sql`create sequence svc_test_outbox_fault`);
  await db().execute(
    sql.raw(`create function svc_test_outbox_fault() returns trigger language plpgsql as $$
      begin
        if nextval('svc_test_outbox_fault') = 1 then raise exception 'injected fault: the outbox insert fails once'; end if;
        return new;
      end $$`),
  );
  await db().execute(sql`create trigger svc_test_outbox_fault before insert on svc_outbox for each row execute function svc_test_outbox_fault()`);
  const undo = async () => {
    await db().execute(sql`drop trigger if exists svc_test_outbox_fault on svc_outbox`);
    await db().execute(sql`drop function if exists svc_test_outbox_fault()`);
    await db().execute(sql`drop sequence if exists svc_test_outbox_fault`);
  };
  cleanups.push(undo);
  // How many inserts the trigger saw (the first one failed).
  return async () => (await queryRows<{ n: number }>(db(), sql`select last_value::int as n from svc_test_outbox_fault`))[0]!.n;
}

describe.each(PATHS)('$name', ({ first, prepare }) => {
  it('a writer that dies between its commit and its mail: a runner mails it after the lease, exactly once', async () => {
    const p = await prepare();
    const before = await pendingAnnouncements();
    const { stalled, release } = stallFirstCall(first);
    const answer = p.act();
    await stalled;
    // Committed, nothing mailed yet: the announcement is held under the writer's lease.
    expect(await mailsOf(p)).toHaveLength(0);
    await srv.server.ctx.jobs.runDue(Date.now() + (ANNOUNCE_LEASE_SECONDS - 5) * 1000);
    expect(await mailsOf(p)).toHaveLength(0);
    await srv.server.ctx.jobs.runDue(Date.now() + (ANNOUNCE_LEASE_SECONDS + 5) * 1000);
    expect(await mailsOf(p)).toHaveLength(1);
    // The writer was only slow after all: it goes on, and mails nothing twice.
    release();
    expect((await answer).status).toBe(p.ok);
    expect(await mailsOf(p)).toHaveLength(1);
    expect(await pendingAnnouncements()).toEqual(before);
  });

  it('a mail insert that fails once: the request answers 500, the change stays, a runner mails it exactly once', async () => {
    const p = await prepare();
    const before = await pendingAnnouncements();
    const inserts = await failNextOutboxInsert();
    const res = await p.act();
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('svc_internal');
    expect(await inserts()).toBe(1);
    expect(await mailsOf(p)).toHaveLength(0);
    // The announcement waits for a runner, with the queue's first backoff (5 s ± 25 %).
    const held = (await pendingAnnouncements()).filter((j) => !before.some((b) => b.id === j.id));
    expect(held).toEqual([{ id: held[0]!.id, state: 'queued', attempts: 1 }]);
    await srv.server.ctx.jobs.runDue(Date.now() + 60_000);
    expect(await mailsOf(p)).toHaveLength(1);
    expect(await pendingAnnouncements()).toEqual(before);
    // Run again: nothing more to send.
    await srv.server.ctx.jobs.runDue(Date.now() + 120_000);
    expect(await mailsOf(p)).toHaveLength(1);
  });
});

describe('visitor cancel of a ticket (no mail: the contract gives it none; its action is held the same way)', () => {
  it('svc_rsvp_cancelled fires after a writer died before it, and a listener that threw once is run again by a runner', async () => {
    const event = await createEvent(admin.api, { capacity: 10 });
    const rows = [];
    for (const to of [uniqueEmail('cancel'), uniqueEmail('cancel')]) {
      expect((await signUpAs(event.id, to)).status).toBe(201);
      const [row] = await queryRows<{ id: number; cancel_token: string }>(db(), sql`select id, cancel_token from svc_attendees where email = ${to}`);
      rows.push(row!);
    }
    const fired: number[] = [];
    const record = (id: number) => void fired.push(id);
    hooks().addAction('svc_rsvp_cancelled', record, 100);
    cleanups.push(() => hooks().removeAction('svc_rsvp_cancelled', record, 100));

    // Died after the commit: the runner fires it once the lease ran out.
    const { stalled, release } = stallFirstCall('svc_rsvp_cancelled');
    const answer = anon().post(`/attendees/cancel/${rows[0]!.cancel_token}`);
    await stalled;
    await srv.server.ctx.jobs.runDue(Date.now() + (ANNOUNCE_LEASE_SECONDS + 5) * 1000);
    expect(fired).toEqual([rows[0]!.id]);
    // The writer was only slow: it goes on, and plugins see the action again (at least once, never zero times).
    release();
    expect((await answer).status).toBe(200);
    expect(fired).toEqual([rows[0]!.id, rows[0]!.id]);
    cleanups.pop()!();

    // A listener that throws once: 500, the chain stops (contract), and a runner fires it again.
    let thrown = 0;
    const throwOnce = () => {
      if (thrown++ === 0) throw new Error('listener fails once');
    };
    hooks().addAction('svc_rsvp_cancelled', throwOnce, 5);
    cleanups.push(() => hooks().removeAction('svc_rsvp_cancelled', throwOnce, 5));
    const res = await anon().post(`/attendees/cancel/${rows[1]!.cancel_token}`);
    expect(res.status).toBe(500);
    expect(fired).toEqual([rows[0]!.id, rows[0]!.id]);
    await srv.server.ctx.jobs.runDue(Date.now() + 60_000);
    expect(fired).toEqual([rows[0]!.id, rows[0]!.id, rows[1]!.id]);
  });
});
