/**
 * Team chat folding under concurrency on real PostgreSQL (docs/api.md#chat): check-ins racing on
 * two instances of one database give one message whose count is right, and one flush job.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { CHAT_FLUSH_JOB, CHAT_SEND_JOB } from '../../server/modules/chat/chat.service';
import { startChatReceiver, type ChatReceiver } from '../helpers/chat';
import { createAttendee } from '../helpers/checkin';
import { loginAs } from '../helpers/http';
import { createEvent } from '../helpers/registration';
import { startServerOnDatabase } from '../helpers/second-server';
import { useTestServer } from '../helpers/test-server';

const ENV = { SVC_EDITION: 'extended', SVC_JOBS: 'off', SVC_WEBHOOKS_ALLOW_PRIVATE: '1' };
const { server: srv, admin } = useTestServer({ env: ENV });
let second: Awaited<ReturnType<typeof startServerOnDatabase>>;
let chat: ChatReceiver;

beforeAll(async () => {
  expect(srv.server.ctx.database.kind).toBe('postgres');
  second = await startServerOnDatabase(srv.server.ctx.env.DATABASE_URL!, ENV);
  chat = await startChatReceiver();
});
afterAll(async () => {
  await second?.close();
  await chat?.close();
});

describe('team chat on two instances', () => {
  it('40 check-ins at once, half on each instance: one message naming one of them "… and 39 more" with 40 checked in, one flush', async () => {
    const event = await createEvent(admin.api, { title: 'Gala', capacity: 100, chatWebhookUrl: chat.url });
    const attendees = [];
    for (let i = 0; i < 40; i++) attendees.push(await createAttendee(srv.server.ctx.db, event.id));
    const other = (await loginAs(second.url, srv.admin.email, srv.admin.password)).api;
    const answers = await Promise.all(attendees.map((a, i) => (i % 2 === 0 ? admin.api : other).post('/checkins', { attendeeId: a.id, eventId: event.id })));
    expect(answers.map((a) => a.status)).toEqual(Array(40).fill(201));

    await Promise.all([srv.server.ctx.jobs.runDue(), second.server.ctx.jobs.runDue()]);
    await srv.server.ctx.jobs.runDue();
    expect(chat.messages).toHaveLength(1);
    expect(chat.messages[0]).toMatch(/^Guest \d+ checked in — Gala \(40\/40\) … and 39 more$/);
    const jobs = await queryRows<{ type: string; n: number }>(
      srv.server.ctx.db,
      sql`select type, count(*)::int as n from svc_jobs where type in (${CHAT_FLUSH_JOB}, ${CHAT_SEND_JOB}) and (payload->>'eventId')::int = ${event.id} group by type order by type`,
    );
    expect(jobs).toEqual([
      { type: CHAT_FLUSH_JOB, n: 1 },
      { type: CHAT_SEND_JOB, n: 1 },
    ]);
  });
});
