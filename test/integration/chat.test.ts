/**
 * Team chat and the mailing bridge (docs/api.md#chat, docs/api.md#mailing-bridge): a real local
 * incoming webhook (SVC_WEBHOOKS_ALLOW_PRIVATE=1 lets the server reach it); jobs are off and each
 * test runs the queue itself with the runner's clock (`runDue(nowMs)`), so "10 s later" needs no sleep.
 */
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { CHAT_FLUSH_JOB, CHAT_SEND_JOB, TEST_MESSAGE } from '../../server/modules/chat/chat.service';
import { startChatReceiver, type ChatReceiver } from '../helpers/chat';
import { createAttendee } from '../helpers/checkin';
import { createEvent } from '../helpers/registration';
import { useTestServer } from '../helpers/test-server';

const { server: srv, admin, db, hooks } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off', SVC_WEBHOOKS_ALLOW_PRIVATE: '1' } });
/** Runs every job due at `nowMs` (default: now), including the jobs they queue. */
const runJobs = (nowMs = Date.now()) => srv.server.ctx.jobs.runDue(nowMs);

let chat: ChatReceiver;
beforeAll(async () => {
  chat = await startChatReceiver();
});
afterAll(() => chat?.close());
beforeEach(async () => {
  // every test starts with an empty queue, a receiver that accepts and no default address
  await runJobs(Date.now() + 24 * 3_600_000);
  chat.messages.length = 0;
  chat.status = 200;
  expect((await admin.api.patch('/settings', { chatWebhookUrl: '' })).status).toBe(200);
});

const added: Array<() => void> = [];
afterEach(() => {
  for (const undo of added.splice(0)) undo();
});
function listen(name: 'svc_pro_attendee_checked_in' | 'svc_mp_checked_in', cb: (...args: number[]) => unknown, priority: number): void {
  hooks().addAction(name, cb as never, priority, 3);
  added.push(() => hooks().removeAction(name, cb as never, priority));
}

/** An event with `going` attendees (the first named `first`), announcing to `url`. */
async function eventWith(going: number, opts: { title?: string; url?: string; first?: string } = {}) {
  const event = await createEvent(admin.api, { title: opts.title ?? 'Gala', capacity: 500, chatWebhookUrl: opts.url ?? chat.url });
  const attendees = [];
  for (let i = 0; i < going; i++) attendees.push(await createAttendee(db(), event.id, i === 0 && opts.first ? { name: opts.first } : {}));
  return { event, attendees };
}

async function checkIn(eventId: number, attendeeId: number): Promise<number> {
  const res = await admin.api.post('/checkins', { attendeeId, eventId });
  expect(res.status).toBe(201);
  return res.body.checkinId as number;
}

const jobsOf = (type: string, eventId: number) =>
  queryRows<{ state: string; attempts: number; last_error: string | null }>(
    db(),
    sql`select state, attempts, last_error from svc_jobs where type = ${type} and (payload->>'eventId')::int = ${eventId} order by id`,
  );

describe('team chat at priority 30 of svc_pro_attendee_checked_in', () => {
  it('posts {"text": "Ada Lovelace checked in — Gala (1/3)"}: seats checked in / seats going, as the dashboard counts them', async () => {
    const { event, attendees } = await eventWith(3, { first: 'Ada Lovelace' });
    await checkIn(event.id, attendees[0]!.id);
    await runJobs();
    expect(chat.messages).toEqual(['Ada Lovelace checked in — Gala (1/3)']);
    const counts = await admin.api.get(`/checkins/counts?eventId=${event.id}`);
    expect(counts.body).toMatchObject({ seatsCheckedIn: 1, seatsGoing: 3 });
  });

  it('at most one message per event per 10 s: 8 check-ins in between fold into the next, "… and 7 more"', async () => {
    const { event, attendees } = await eventWith(10, { first: 'Ada Lovelace' });
    await checkIn(event.id, attendees[0]!.id);
    await runJobs();
    expect(chat.messages).toEqual(['Ada Lovelace checked in — Gala (1/10)']);
    for (const a of attendees.slice(1, 9)) await checkIn(event.id, a.id);
    await runJobs();
    expect(chat.messages).toHaveLength(1);
    await runJobs(Date.now() + 5_000);
    expect(chat.messages).toHaveLength(1);
    await runJobs(Date.now() + 11_000);
    const second = attendees[1]!;
    const name = (await queryRows<{ display_name: string }>(db(), sql`select display_name from svc_attendees where id = ${second.id}`))[0]!.display_name;
    expect(chat.messages).toEqual(['Ada Lovelace checked in — Gala (1/10)', `${name} checked in — Gala (9/10) … and 7 more`]);
    expect(await jobsOf(CHAT_SEND_JOB, event.id)).toHaveLength(2);
  });

  it('two check-ins at once: one message, the count right', async () => {
    const { event, attendees } = await eventWith(4);
    await Promise.all([checkIn(event.id, attendees[0]!.id), checkIn(event.id, attendees[1]!.id)]);
    await runJobs();
    expect(chat.messages).toHaveLength(1);
    expect(chat.messages[0]).toMatch(/ checked in — Gala \(2\/4\) … and 1 more$/);
  });

  it('the event’s own address beats the settings default; an event without one uses the default', async () => {
    const fallback = await startChatReceiver('/default');
    try {
      expect((await admin.api.patch('/settings', { chatWebhookUrl: fallback.url })).body.chatWebhookUrl).toBe(fallback.url);
      const own = await eventWith(1, { title: 'Own', first: 'Grace Hopper' });
      const plain = await eventWith(1, { title: 'Plain', url: '', first: 'Alan Turing' });
      await checkIn(own.event.id, own.attendees[0]!.id);
      await checkIn(plain.event.id, plain.attendees[0]!.id);
      await runJobs();
      expect(chat.messages).toEqual(['Grace Hopper checked in — Own (1/1)']);
      expect(fallback.messages).toEqual(['Alan Turing checked in — Plain (1/1)']);
    } finally {
      await fallback.close();
    }
  });

  it('no address anywhere: nothing is recorded or queued', async () => {
    const { event, attendees } = await eventWith(1, { url: '' });
    await checkIn(event.id, attendees[0]!.id);
    expect(await jobsOf(CHAT_FLUSH_JOB, event.id)).toEqual([]);
    expect(await queryRows(db(), sql`select 1 from svc_chat_pending where event_id = ${event.id}`)).toEqual([]);
  });

  it('a failing chat is retried with backoff and never touches the scan’s answer', async () => {
    const { event, attendees } = await eventWith(2, { first: 'Ada Lovelace' });
    chat.status = 500;
    const res = await admin.api.post('/checkins', { attendeeId: attendees[0]!.id, eventId: event.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ attendeeId: attendees[0]!.id, eventId: event.id, verdict: 'ok' });
    await runJobs();
    expect(chat.messages).toEqual(['Ada Lovelace checked in — Gala (1/2)']);
    expect(await jobsOf(CHAT_SEND_JOB, event.id)).toEqual([{ state: 'queued', attempts: 1, last_error: 'the chat answered HTTP 500' }]);
    const [pending] = await queryRows<{ last_error: string }>(db(), sql`select last_error from svc_chat_pending where event_id = ${event.id}`);
    expect(pending!.last_error).toBe('the chat answered HTTP 500');

    chat.status = 200;
    await runJobs(Date.now() + 60_000);
    expect(chat.messages).toEqual(['Ada Lovelace checked in — Gala (1/2)', 'Ada Lovelace checked in — Gala (1/2)']);
    expect(await jobsOf(CHAT_SEND_JOB, event.id)).toEqual([{ state: 'done', attempts: 2, last_error: null }]);
  });

  it('the listener sits at 30: a listener at 29 finds no job queued, one at 31 finds it', async () => {
    const { event, attendees } = await eventWith(1);
    const seen: Record<number, number> = {};
    const count = async (priority: number, eventId: number) => {
      seen[priority] = (await jobsOf(CHAT_FLUSH_JOB, eventId)).length;
    };
    listen('svc_pro_attendee_checked_in', (_c, _a, eventId) => count(29, eventId!), 29);
    listen('svc_pro_attendee_checked_in', (_c, _a, eventId) => count(31, eventId!), 31);
    await checkIn(event.id, attendees[0]!.id);
    expect(seen).toEqual({ 29: 0, 31: 1 });
  });
});

describe('the chat address is checked like a webhook target', () => {
  it('an event’s or the default address that is not http(s) answers 400 naming the field; nothing is stored', async () => {
    const { event } = await eventWith(0);
    const patched = await admin.api.patch(`/events/${event.id}`, { chatWebhookUrl: 'ftp://chat.example.test/hook' });
    expect(patched.status).toBe(400);
    expect(patched.body.code).toBe('svc_invalid_param');
    expect(patched.body.data.params).toHaveProperty('chatWebhookUrl');
    const settings = await admin.api.patch('/settings', { chatWebhookUrl: 'javascript:alert(1)' });
    expect(settings.status).toBe(400);
    expect(settings.body.data.params).toHaveProperty('chatWebhookUrl');
    expect((await admin.api.get(`/events/${event.id}`)).body.chatWebhookUrl).toBe(chat.url);
    expect((await admin.api.get('/settings')).body.chatWebhookUrl).toBe('');
  });

  it('without SVC_WEBHOOKS_ALLOW_PRIVATE a loopback or private address answers 400 naming the field', async () => {
    const { event } = await eventWith(0);
    const env = srv.server.ctx.env;
    env.SVC_WEBHOOKS_ALLOW_PRIVATE = '0';
    try {
      const patched = await admin.api.patch(`/events/${event.id}`, { chatWebhookUrl: 'http://127.0.0.1:9/hook' });
      expect(patched.status).toBe(400);
      expect(patched.body.data.params.chatWebhookUrl).toMatch(/private/);
      const created = await admin.api.post('/events', { title: 'X', startsUtc: '2099-01-01 10:00:00', chatWebhookUrl: 'http://localhost/hook' });
      expect(created.status).toBe(400);
      expect(created.body.data.params).toHaveProperty('chatWebhookUrl');
      const settings = await admin.api.patch('/settings', { chatWebhookUrl: 'http://10.1.2.3/hook' });
      expect(settings.status).toBe(400);
      expect(settings.body.data.params).toHaveProperty('chatWebhookUrl');
      const test = await admin.api.post('/chat/test', { url: 'http://192.168.1.1/hook' });
      expect(test.status).toBe(400);
      expect(test.body.data.params).toHaveProperty('url');
    } finally {
      env.SVC_WEBHOOKS_ALLOW_PRIVATE = '1';
    }
  });
});

describe('POST /chat/test', () => {
  it('answers 202 and queues the message; GET /chat/test/{id} then says sent', async () => {
    const res = await admin.api.post('/chat/test', { url: chat.url });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ id: expect.any(Number), state: 'queued', error: null });
    expect(chat.messages).toEqual([]);
    await runJobs();
    expect(chat.messages).toEqual([TEST_MESSAGE]);
    expect((await admin.api.get(`/chat/test/${res.body.id}`)).body).toEqual({ id: res.body.id, state: 'sent', error: null });
  });

  it('a chat that refuses it: failed, with the reason', async () => {
    chat.status = 404;
    const res = await admin.api.post('/chat/test', { url: chat.url });
    await runJobs();
    expect((await admin.api.get(`/chat/test/${res.body.id}`)).body).toEqual({ id: res.body.id, state: 'failed', error: 'the chat answered HTTP 404' });
  });

  it('a bad address answers 400 naming url; an unknown test 404; the free edition 404', async () => {
    const bad = await admin.api.post('/chat/test', { url: 'not a url' });
    expect(bad.status).toBe(400);
    expect(bad.body.data.params).toHaveProperty('url');
    expect((await admin.api.get('/chat/test/99999999')).status).toBe(404);
    const env = srv.server.ctx.env;
    env.SVC_EDITION = 'free';
    try {
      expect((await admin.api.post('/chat/test', { url: chat.url })).status).toBe(404);
    } finally {
      env.SVC_EDITION = 'extended';
    }
  });
});

describe('mailing bridge at priority 20 of svc_pro_attendee_checked_in', () => {
  it('fires svc_mp_checked_in with the same three arguments, after a listener at 19 and before one at 21', async () => {
    const { event, attendees } = await eventWith(1);
    const order: string[] = [];
    const bridged: number[][] = [];
    listen('svc_pro_attendee_checked_in', () => order.push('checked_in@19'), 19);
    listen('svc_pro_attendee_checked_in', () => order.push('checked_in@21'), 21);
    listen(
      'svc_mp_checked_in',
      (...args) => {
        order.push('svc_mp_checked_in');
        bridged.push(args);
      },
      10,
    );
    const checkinId = await checkIn(event.id, attendees[0]!.id);
    expect(bridged).toEqual([[checkinId, attendees[0]!.id, event.id]]);
    expect(order).toEqual(['checked_in@19', 'svc_mp_checked_in', 'checked_in@21']);
  });
});
