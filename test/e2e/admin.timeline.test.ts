/**
 * The attendee History view and the team chat field in real Chromium against the real server
 * (extended edition): the timeline newest first in plain words and in the event's time zone;
 * Settings › Team chat saves the default address and sends a test message through the job queue.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { queryRows } from '../../server/db/client';
import { CHAT_TEST_JOB, TEST_MESSAGE } from '../../server/modules/chat/chat.service';
import { startChatReceiver, type ChatReceiver } from '../helpers/chat';
import { useE2e } from '../helpers/e2e';
import { createEvent, signUp } from '../helpers/registration';
import { expectAccessible } from '../helpers/visitor-e2e';

describe('extended edition: attendee history and team chat', () => {
  const e2e = useE2e({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off', SVC_WEBHOOKS_ALLOW_PRIVATE: '1' }, login: true });
  let chat: ChatReceiver;
  let eventId: number;

  beforeAll(async () => {
    chat = await startChatReceiver();
    eventId = (await createEvent(e2e.admin.api, { title: 'Gala', timezone: 'Europe/Berlin', capacity: 10 })).id;
    const signed = await signUp(e2e.server, eventId, { display_name: 'Ada Lovelace', quantity: 2 });
    expect(signed.status).toBe(201);
    const id = signed.body.id as number;
    expect((await e2e.admin.api.patch(`/attendees/${id}`, { status: 'waitlist' })).status).toBe(200);
    expect((await e2e.admin.api.patch(`/attendees/${id}`, { status: 'going' })).status).toBe(200);
    expect((await e2e.admin.api.post('/checkins', { attendeeId: id, eventId })).status).toBe(201);
  });
  afterAll(() => chat?.close());

  test('History lists the attendee’s timeline newest first, in plain words, times in the event’s zone', async () => {
    const page = await e2e.openPage(`/admin/events/${eventId}/attendees`, { cookie: e2e.admin.cookie });
    await page.getByRole('button', { name: 'Actions for Ada Lovelace', exact: true }).click();
    await page.getByRole('menuitem', { name: 'History' }).click();
    const history = page.getByRole('region', { name: 'History of Ada Lovelace' });
    const items = history.getByRole('listitem');
    await expect.poll(() => items.count()).toBe(4);
    const texts = await items.allInnerTexts();
    expect(texts.map((t) => t.split(' — ')[1])).toEqual([
      'Checked in (API)',
      'Status changed from waitlist to going',
      'Status changed from going to waitlist',
      'Signed up (2 seats, going)',
    ]);
    // Berlin is UTC+1 or UTC+2: the zone is named beside each time
    for (const text of texts) expect(text).toMatch(/(GMT\+[12]|CES?T)/);
    await expectAccessible(page, 'attendee history');
    await history.getByRole('button', { name: 'Close history' }).click();
    await expect.poll(() => history.count()).toBe(0);
  });

  /** Clicks "Send a test message", then runs the queued test job the page is waiting on. */
  async function sendTest(page: Page): Promise<void> {
    const before = await testJobs();
    await page.getByRole('button', { name: 'Send a test message' }).click();
    await expect.poll(testJobs).toBe(before + 1);
    await e2e.server.server.ctx.jobs.idle();
  }
  const testJobs = async () =>
    (await queryRows<{ n: number }>(e2e.server.server.ctx.db, sql`select count(*)::int as n from svc_jobs where type = ${CHAT_TEST_JOB}`))[0]!.n;

  test('Settings › Team chat: a test message says “Sent” or why not; the address is saved as the default', async () => {
    const page = await e2e.openPage('/admin/settings', { cookie: e2e.admin.cookie });
    const section = page.getByRole('region', { name: 'Team chat' });
    const field = section.getByLabel('Team chat webhook');
    await field.fill(chat.url);

    await sendTest(page);
    await section.getByText('✓ Sent — check your channel.').waitFor();
    expect(chat.messages).toEqual([TEST_MESSAGE]);

    chat.status = 500;
    await sendTest(page);
    await section.getByText('✗ Not sent: the chat answered HTTP 500').waitFor();
    chat.status = 200;

    await section.getByRole('button', { name: 'Save team chat' }).click();
    await section.getByText('✓ Saved').waitFor();
    expect((await e2e.admin.api.get('/settings')).body.chatWebhookUrl).toBe(chat.url);

    await field.fill('ftp://chat.example.test/hook');
    await section.getByRole('button', { name: 'Save team chat' }).click();
    await section.getByText(/Not saved: .*chatWebhookUrl/).waitFor();
    await expectAccessible(page, 'settings team chat');
  });
});
