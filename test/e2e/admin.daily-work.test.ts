/**
 * The organizer's daily work end to end (docs/decisions/047-attendees-in-bulk.md,
 * docs/decisions/048-first-run.md), in real Chromium against a fresh install with its job runner
 * and a real SMTP server: the administrator signs in, follows the first-run checklist's links to
 * its end, adds a comp attendee by hand, moves 50 of 51 waitlisted sign-ups to going in one
 * confirmed bulk action (the 51st is refused: no seat left), exports and writes to those 50, and finds exactly
 * 50 mails of that message in the outbox and at the SMTP server.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { attendeesRepository } from '../../server/modules/attendees/attendees.repository';
import { useE2e } from '../helpers/e2e';
import { loginAs } from '../helpers/http';
import { storedMails } from '../helpers/mail';
import { resetThrottles, signUp } from '../helpers/registration';
import { startSmtpServer } from '../helpers/smtp';

const smtp = await startSmtpServer();
afterAll(() => smtp.close());

// the job runner is on: bulk actions and the outbox run as they do in production
const e2e = useE2e({
  env: { SMTP_URL: smtp.url, SVC_MAIL_FROM: 'svc <noreply@example.test>' },
  context: { locale: 'en-GB', timezoneId: 'Europe/London' },
});

const WAITING = 51;
const nameOf = (n: number) => `Waiting ${String(n).padStart(2, '0')}`;
const emailOf = (n: number) => `waiting-${n}@example.test`;

/** Back on the overview: the checklist's progress as it reads. */
async function overviewProgress(page: Page, done: number): Promise<void> {
  await page.getByRole('link', { name: 'Overview' }).first().click();
  await page.waitForURL((url) => url.pathname === '/admin');
  await page.getByText(`${done} of 6 steps done`).waitFor();
}

async function followStep(page: Page, label: string): Promise<void> {
  await page.locator('#setup-heading').waitFor();
  await page.getByRole('link', { name: label }).click();
}

describe("the organizer's daily work", () => {
  test('a fresh install: the checklist to its end, a comp attendee, 50 of the waitlist moved to going within capacity, exported and written to, 50 mails out', async () => {
    // sign in on a fresh install: nothing but the administrator exists
    const page = await e2e.openPage('/admin');
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByLabel('Email').fill(e2e.server.admin.email);
    await page.getByLabel('Password').fill(e2e.server.admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/admin');
    await page.getByText('0 of 6 steps done').waitFor();

    // 1 + 2: the organization's name, and the currency and zone proposed from the browser
    await followStep(page, 'Name your organization');
    await page.waitForURL((url) => url.pathname === '/admin/settings');
    await expect.poll(() => page.getByLabel('Currency').inputValue()).toBe('GBP');
    await expect.poll(() => page.getByRole('combobox', { name: 'Default time zone' }).inputValue()).toContain('London');
    // the organization's name is the seller's (docs/decisions/050-organization-identity.md)
    await page.getByLabel('Organization name').fill('Harbour Hall');
    await page.getByRole('button', { name: 'Save organization' }).click();
    await page.locator('.site-header .brand-name', { hasText: 'Harbour Hall' }).waitFor();
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.locator('#set-proposed').waitFor({ state: 'detached' });
    await overviewProgress(page, 2);

    // 3: an event with one seat, published
    await followStep(page, 'Create and publish an event');
    await page.waitForURL((url) => url.pathname === '/admin/events/new');
    await page.getByLabel('Title').fill('Harbour night');
    await page.getByLabel('Starts').fill('2030-07-01T19:00');
    await page.getByLabel('Capacity (seats)').fill('1');
    await page.getByRole('button', { name: 'Create event' }).click();
    await page.waitForURL((url) => /^\/admin\/events\/\d+$/.test(url.pathname));
    const eventId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Published').first().waitFor();
    await overviewProgress(page, 3);

    // 4: a booking type
    await followStep(page, 'Create a booking type');
    await page.waitForURL((url) => url.pathname === '/admin/booking-types/new');
    await page.getByLabel('Title').fill('Harbour tour');
    await page.getByLabel('Duration (minutes)').fill('30');
    await page.getByRole('button', { name: 'Create booking type' }).click();
    await page.waitForURL((url) => /^\/admin\/booking-types\/\d+$/.test(url.pathname));
    await overviewProgress(page, 4);

    // 5: staff invited
    await followStep(page, 'Invite your staff');
    await page.waitForURL((url) => url.pathname === '/admin/settings');
    await page.locator('#nu-email').fill('robin@example.test');
    await page.locator('#nu-name').fill('Robin');
    await page.locator('#nu-role').selectOption('staff');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByText('Invitation emailed to robin@example.test.').waitFor();
    await overviewProgress(page, 5);

    // 6: a door device, paired with its code as the door app pairs (the second device's side)
    await followStep(page, 'Pair a door device');
    await page.waitForURL((url) => url.pathname === '/admin/devices');
    await page.getByLabel('Device name').fill('North door');
    await page.getByLabel('Harbour night').check();
    await page.getByRole('button', { name: 'Create and show pairing code' }).click();
    await page.getByRole('heading', { name: 'Pair “North door”' }).waitFor();
    const code = (await page.locator('.pairing-code').innerText()).trim();
    await page.getByRole('button', { name: 'Done' }).click();
    const paired = await fetch(`${e2e.server.url}/svc/v1/devices/pair`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    expect(paired.status).toBe(200);

    // complete: the overview no longer shows the checklist, and GET /setup says so
    const setupRead = page.waitForResponse((res) => /setup/.test(new URL(res.url()).pathname) && res.ok());
    await page.getByRole('link', { name: 'Overview' }).first().click();
    await page.waitForURL((url) => url.pathname === '/admin');
    await setupRead;
    await page.getByRole('link', { name: 'Harbour night' }).first().waitFor();
    expect(await page.locator('#setup-heading').count()).toBe(0);
    const admin = await loginAs(e2e.server.url, e2e.server.admin.email, e2e.server.admin.password);
    expect((await admin.api.get('/setup')).body).toMatchObject({ complete: true });

    // a comp attendee added by hand takes the one seat
    await page.goto(new URL(`/admin/events/${eventId}/attendees`, e2e.server.url).href);
    await page.getByRole('button', { name: 'Add attendee' }).click();
    const add = page.getByRole('dialog', { name: 'Add attendee' });
    await add.getByLabel('Display name').fill('Comp Guest');
    await add.getByRole('textbox', { name: 'Email' }).fill('comp@example.test');
    await add.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Comp Guest was added.').waitFor();

    // the event is full: 51 people sign up through the public form's API and wait
    for (let n = 1; n <= WAITING; n++) {
      // throttles are not what this test is about: every sign-up starts from zero
      await resetThrottles(e2e.server);
      const res = await signUp(e2e.server, eventId, { email: emailOf(n), display_name: nameOf(n) });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.status).toBe('waitlist');
    }
    // room for exactly 50 more
    expect((await admin.api.patch(`/events/${eventId}`, { capacity: 51 })).status).toBe(200);

    // 50 of the waitlist selected on the list and moved to going, confirmed with the count
    await page.reload();
    await page.locator('#attendee-status').selectOption('waitlist');
    await page.getByText(`${WAITING} attendees`).waitFor();
    await page.getByRole('checkbox', { name: 'Select every attendee shown' }).check();
    await page.getByRole('checkbox', { name: `Select ${nameOf(1)}` }).uncheck();
    const bar = page.getByRole('region', { name: 'Selected attendees' });
    await bar.getByText('50 selected').waitFor();
    await bar.getByRole('button', { name: 'Apply to 50 attendees' }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByRole('heading', { name: 'Move to going: 50 attendees?' }).waitFor();
    await confirm.getByRole('button', { name: 'Move to going' }).click();
    await bar.getByText('Move to going: 50 done, 0 not possible, 0 unchanged').waitFor({ timeout: 60_000 });

    const repo = attendeesRepository(e2e.db());
    const rows = await repo.idsMatching({ eventId }, 100, { statuses: ['going'] });
    expect(rows).toHaveLength(51);

    // the 51st does not fit: the move is refused and it stays on the waitlist
    await page.getByText('1 attendee').first().waitFor();
    await page.getByRole('checkbox', { name: `Select ${nameOf(1)}` }).check();
    await bar.getByRole('button', { name: 'Apply to 1 attendee' }).click();
    await confirm.getByRole('heading', { name: 'Move to going: 1 attendee?' }).waitFor();
    await confirm.getByRole('button', { name: 'Move to going' }).click();
    await bar.getByText('Move to going: 0 done, 1 not possible, 0 unchanged').waitFor({ timeout: 60_000 });
    const [left] = await repo.idsMatching({ eventId, search: emailOf(1) }, 2);
    expect((await repo.findById(left!))!.status).toBe('waitlist');

    // the 50 moved are written to from the list: selection, count and preview first
    await page.locator('#attendee-status').selectOption('going');
    await page.getByText('51 attendees').waitFor();
    await page.getByRole('checkbox', { name: 'Select every attendee shown' }).check();
    await page.getByRole('checkbox', { name: 'Select Comp Guest' }).uncheck();
    await bar.getByText('50 selected').waitFor();
    const moved = Array.from({ length: 50 }, (_, i) => emailOf(i + 2)).sort();

    // the selection downloads as exactly those rows (the bulk bar's export)
    const [download] = await Promise.all([page.waitForEvent('download'), bar.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`attendees-event-${eventId}-selection.csv`);
    const csv = readFileSync((await download.path())!, 'utf8')
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    const emailColumn = csv[0]!.split(',').indexOf('email');
    expect(
      csv
        .slice(1)
        .map((line) => line.split(',')[emailColumn])
        .sort(),
    ).toEqual(moved);

    await bar.getByRole('button', { name: 'Message them' }).click();
    const message = page.getByRole('dialog', { name: 'Message attendees' });
    await message.getByText('To the 50 selected attendees').waitFor();
    const subject = 'Doors open at 18:30';
    await message.getByLabel('Subject', { exact: true }).fill(subject);
    await message.getByLabel('Message', { exact: true }).fill('Come early: the harbour gate closes at 19:00.');
    await message.getByRole('button', { name: 'Preview and count' }).click();
    await message.getByRole('heading', { name: '50 people get this mail' }).waitFor();
    await message.getByRole('button', { name: 'Send to 50 people' }).click();
    await page.getByText('50 mails are queued in the outbox.').waitFor();

    // exactly 50 mails of that message: one per moved person, in the outbox and at the SMTP server
    const ofMessage = async () => (await storedMails(e2e.db())).filter((m) => m.subject.includes(subject));
    await expect.poll(async () => (await ofMessage()).length, { timeout: 60_000 }).toBe(50);
    expect((await ofMessage()).map((m) => m.to).sort()).toEqual(moved);
    const delivered = () => smtp.received.filter((m) => m.raw.includes(`Subject: ${subject}`));
    await expect.poll(() => delivered().length, { timeout: 60_000 }).toBe(50);
    expect(
      delivered()
        .flatMap((m) => m.to)
        .sort(),
    ).toEqual(moved);
  });
});
