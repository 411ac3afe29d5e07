/**
 * The admin screens in plain words, in real Chromium: the event dashboard counts seats and says
 * "Undo check-in", shows no arrivals chart before the event starts and marks re-entries; the
 * bookings page searches by name; the outbox has its own page with masked message text; and a
 * forgotten password goes link → mail → new password → signed in. The outbox and the sign-in
 * pages are checked as screens at 390 px. The overview shows each upcoming event's figures and
 * the outbox as a count with a link, short on a phone however many mails there are.
 */
import { describe, expect, test } from 'vitest';
import { attendeesRepository } from '../../server/modules/attendees/attendees.repository';
import { eventsRepository } from '../../server/modules/events/events.repository';
import { createHost, createType, futureStart } from '../helpers/booking';
import { createAttendee, createEvent } from '../helpers/checkin';
import { useE2e } from '../helpers/e2e';
import { storedMails } from '../helpers/mail';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../server/db/client';
import { checkScreen, PHONE_390, screenshot } from '../helpers/screens';

const e2e = useE2e({ env: { SVC_JOBS: 'off' }, login: true });

describe('admin screens in plain words', () => {
  test('the dashboard counts seats, waits for the start before charting, marks a re-entry and offers Undo check-in', async () => {
    const event = await createEvent(e2e.db(), 'Seats night'); // starts in 2030
    await eventsRepository(e2e.db()).update(event.id, { capacity: 10 });
    const party = await createAttendee(e2e.db(), event.id, { name: 'Party of three' });
    await attendeesRepository(e2e.db()).update(party.id, { quantity: 3 });
    await createAttendee(e2e.db(), event.id, { name: 'Solo' });
    const waiting = await createAttendee(e2e.db(), event.id, { name: 'Waiting pair', status: 'waitlist' });
    await attendeesRepository(e2e.db()).update(waiting.id, { quantity: 2 });

    const page = await e2e.openPage(`/admin/events/${event.id}`, { cookie: e2e.admin.cookie });
    await page.getByText('Arrivals appear here once the event starts.').waitFor();
    expect(await page.locator('.arrivals').count()).toBe(0);
    const seats = page.locator('section[aria-label="Check-in figures, in seats"]');
    expect(await seats.innerText()).toMatch(/0\s+seats checked in\s+4\s+seats going\s+6\s+places left\s+2\s+seats on the waitlist/);

    for (const scannedUtc of ['2030-06-01 17:50:00', '2030-06-01 18:05:00']) {
      expect((await e2e.admin.api.post('/checkins', { eventId: event.id, attendeeId: party.id, scannedUtc })).status).toBe(201);
    }
    await page.reload();
    await expect.poll(() => seats.innerText()).toMatch(/3\s+seats checked in\s+4\s+seats going/);
    const recent = page.locator('section[aria-labelledby="recent-heading"]');
    const rows = recent.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).innerText()).toMatch(/Party of three\s+Repeat/);
    expect(await rows.nth(1).locator('.badge-repeat').count()).toBe(0);
    expect(await rows.nth(0).locator('td').nth(3).innerText()).toBe('Admin');
    expect(await recent.getByRole('button', { name: /Annul/ }).count()).toBe(0);

    await rows.nth(0).getByRole('button', { name: 'Undo check-in of Party of three' }).click();
    await page.getByRole('dialog').getByRole('heading', { name: 'Undo the check-in of Party of three?' }).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Undo check-in' }).click();
    await expect.poll(() => rows.nth(0).innerText()).toContain('Undone');
    // the first entry still stands: the party is still in
    expect(await seats.innerText()).toMatch(/3\s+seats checked in/);
    await screenshot(page, 'dashboard-seats-1280');
  });

  test('the bookings search finds a customer by part of the name', async () => {
    const host = await createHost(e2e.admin.api, 'Sam');
    const type = await createType(e2e.admin.api, { title: 'Fitting', hosts: [host] });
    for (const [days, name] of [
      [2, 'Grace Hopper'],
      [1, 'Alan Turing'],
    ] as const) {
      const res = await e2e.admin.api.post('/bookings/admin', {
        bookingTypeId: type.id,
        startUtc: futureStart(days, 11),
        customerName: name,
        customerEmail: `${name.split(' ')[0]!.toLowerCase()}@example.test`,
        customerTz: 'UTC',
      });
      expect(res.status).toBe(201);
    }
    const page = await e2e.openPage('/admin/bookings', { cookie: e2e.admin.cookie });
    const table = page.getByRole('region', { name: 'Bookings' });
    // upcoming first, soonest first
    await expect
      .poll(() => table.locator('tbody tr').allInnerTexts())
      .toEqual([expect.stringContaining('Alan Turing'), expect.stringContaining('Grace Hopper')]);
    await page.getByLabel('Search name or email').fill('hopp');
    await expect.poll(() => table.locator('tbody tr').allInnerTexts()).toEqual([expect.stringContaining('Grace Hopper')]);
  });

  test('forgot password: the link from the mail sets a new password and signs in; the outbox page shows the mail masked', async () => {
    const email = `forgetful-${Date.now()}@example.test`;
    expect((await e2e.admin.api.post('/users', { email, displayName: 'Forgetful Fay', role: 'administrator', password: 'the old password' })).status).toBe(201);

    const login = await e2e.openPage('/login', { viewport: PHONE_390 });
    await login.getByRole('button', { name: 'Sign in' }).waitFor();
    await checkScreen(login, 'login-390');
    await login.getByRole('link', { name: 'Forgot your password?' }).click();
    await login.getByRole('heading', { name: 'Reset your password' }).waitFor();
    await login.getByLabel('Email').fill(email);
    await login.getByRole('button', { name: 'Send me a link' }).click();
    await login
      .getByRole('status')
      .getByText(/If an account uses this address/)
      .waitFor();

    const [mail] = await storedMails(e2e.db(), email);
    expect(mail!.subject).toBe('Reset your svc password');
    const token = /\/invite\/([A-Za-z0-9_-]+)/.exec(mail!.text)![1]!;

    await login.goto(new URL(`/invite/${token}`, e2e.server.url).href);
    await login.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await login.getByLabel('New password').fill('a fresh password');
    await login.getByLabel('Repeat the password').fill('a fresh password');
    await login.getByRole('button', { name: 'Set password and sign in' }).click();
    await login.waitForURL((url) => url.pathname === '/admin');

    const again = await e2e.openPage('/login');
    await again.getByLabel('Email').fill(email);
    await again.getByLabel('Password').fill('a fresh password');
    await again.getByRole('button', { name: 'Sign in' }).click();
    await again.waitForURL((url) => url.pathname === '/admin');

    const outbox = await e2e.openPage('/admin/outbox', { cookie: e2e.admin.cookie, viewport: PHONE_390 });
    await outbox.getByRole('link', { name: 'Outbox' }).waitFor();
    const item = outbox.locator('.outbox-item', { hasText: 'Reset your svc password' }).filter({ hasText: email });
    await item.waitFor();
    expect(await item.locator('summary').innerText()).toMatch(/Queued/);
    await item.locator('summary').click();
    const text = await item.locator('.outbox-text').innerText();
    expect(text).toContain('/invite/••••••');
    expect(text).not.toContain(token);
    await checkScreen(outbox, 'outbox-390');
  });
  test('the overview: each upcoming event with seats of capacity, waitlist and sign-ups per day; the outbox a count and a link, the page short on a phone', async () => {
    const event = await createEvent(e2e.db(), 'Figures night');
    await eventsRepository(e2e.db()).update(event.id, { capacity: 40, startsUtc: '2090-01-01 19:00:00', timezone: 'Europe/London' });
    const party = await createAttendee(e2e.db(), event.id, { name: 'Party' });
    await attendeesRepository(e2e.db()).update(party.id, { quantity: 3 });
    await createAttendee(e2e.db(), event.id, { name: 'Waiting', status: 'waitlist' });
    // a busy outbox: its rows stay on the outbox page
    await queryRows(
      e2e.db(),
      sql`insert into svc_outbox (to_address, subject, text) select 'x' || g || '@example.test', 'Note ' || g, 'Hello' from generate_series(1, 60) g`,
    );

    const page = await e2e.openPage('/admin', { cookie: e2e.admin.cookie, viewport: PHONE_390 });
    const card = page.locator('.overview-event', { hasText: 'Figures night' });
    await card.waitFor();
    expect(await card.innerText()).toMatch(/3 of 40\s+Seats taken/);
    expect(await card.innerText()).toMatch(/1\s+On the waitlist/);
    expect(await card.innerText()).toContain('(London)');
    expect(await card.locator('figcaption').innerText()).toBe('4 seats signed up in the last 14 days');
    expect(await card.locator('svg rect').count()).toBe(14);
    const summary = page.locator('.outbox-summary');
    await summary.waitFor();
    expect(await summary.innerText()).toMatch(/^\d+ emails waiting to be sent\.$/);
    expect(await page.locator('main .table-scroll').count()).toBe(0);
    await page.getByRole('link', { name: 'All emails' }).waitFor();
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(height, 'the overview is short on a phone').toBeLessThan(4000);
    await checkScreen(page, 'overview-390');
  });
});
