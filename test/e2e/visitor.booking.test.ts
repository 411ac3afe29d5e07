/**
 * Visitor booking in real Chromium against the real server: timezone, calendar and slot
 * buttons, price and location, the confirmation with "add to calendar", losing a race for
 * the last seat (re-check and 409) and recovering, booking offline and coming back online,
 * and rescheduling and cancelling from the link in the confirmation email.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { queryRows } from '../../server/db/client';
import { dayInZone } from '../../client/visitor/time';
import { parseUtcString } from '../../shared/time';
import { bookingBody, createHost, createType, disableIpThrottle, futureStart, submitBooking, uniqueEmail } from '../helpers/booking';
import { useE2e } from '../helpers/e2e';
import { controlledByServiceWorker, expectAccessible, isTrpcMutation, linkFromOutbox, phoneProfile, trpcInput } from '../helpers/visitor-e2e';

const TZ = 'Europe/Berlin';
const e2e = useE2e({ env: { SVC_JOBS: 'off' }, login: true, context: phoneProfile({ timezoneId: TZ }) });
let restoreThrottle: () => void;

beforeAll(() => {
  restoreThrottle = disableIpThrottle(e2e.server.server.ctx.hooks);
});

afterAll(() => {
  restoreThrottle?.();
});

/** A bookable type with its own host (so tests never share a host's agenda). */
async function freshType(overrides: Record<string, unknown> = {}) {
  const host = await createHost(e2e.admin.api);
  return createType(e2e.admin.api, { title: 'Consultation', hosts: [host], ...overrides });
}

/** Shows the slot's month and day in the calendar and presses its button. */
async function pickSlot(page: Page, startUtc: string): Promise<void> {
  const day = dayInZone(parseUtcString(startUtc)!, TZ);
  for (let i = 0; i < 3 && (await page.locator(`[data-day="${day}"]`).count()) === 0; i += 1) {
    await page.getByRole('button', { name: 'Next month' }).click();
  }
  await page.locator(`[data-day="${day}"]`).click();
  await page.locator(`[data-start="${startUtc}"]`).click();
  expect(await page.locator(`[data-start="${startUtc}"]`).getAttribute('aria-pressed')).toBe('true');
}

/**
 * Shows, online, the month of `startUtc` with its times, so the page keeps that month for offline
 * use (a month never shown online has no saved times: near a month's end the slot is in the next).
 */
async function showMonthOnline(page: Page, startUtc: string): Promise<void> {
  const day = dayInZone(parseUtcString(startUtc)!, TZ);
  for (let i = 0; i < 3 && (await page.locator(`[data-day="${day}"]`).count()) === 0; i += 1) {
    await page.getByRole('button', { name: 'Next month' }).click();
  }
  await page.locator(`[data-day="${day}"].has-slots`).waitFor();
}

async function fillDetails(page: Page, email: string): Promise<void> {
  await page.getByLabel('Your name').fill('Vera Visitor');
  await page.getByLabel('Email').fill(email);
}

const bookingsPost = (page: Page) => page.waitForResponse((r) => isTrpcMutation(r, 'booking.create'));

async function bookingRow(email: string) {
  const rows = await queryRows<{ status: string; start_utc: string; customer_tz: string }>(
    e2e.db(),
    sql`select status, start_utc::text as start_utc, customer_tz from svc_bookings where customer_email = ${email} order by booking_id`,
  );
  return rows.map((r) => ({ ...r, start_utc: r.start_utc.slice(0, 19) }));
}

describe('visitor booking', () => {
  test('book a slot in the detected timezone; confirmation with add to calendar; reschedule and cancel from the email link', async () => {
    const type = await freshType({ title: 'Haircut', priceCents: 2500, locationMode: 'in_person' });
    const start = futureStart(2, 10);
    const page = await e2e.openPage(`/book/${type.id}`);
    await page.getByRole('heading', { level: 1, name: 'Haircut' }).waitFor();
    // the detected zone, as one line
    expect(await page.locator('.v-tz-line').innerText()).toContain(`Times in ${TZ}`);
    await page.getByText('Nothing is charged when you book.').waitFor();
    await page.locator('.v-book-summary', { hasText: 'In person' }).waitFor();
    expect(await page.locator('main').innerText()).toContain('25.00');

    await pickSlot(page, start);
    // the button is labelled in the visitor's zone
    const label = new Intl.DateTimeFormat('en-GB', { timeZone: TZ, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(parseUtcString(start)!);
    expect((await page.locator(`[data-start="${start}"]`).innerText()).trim()).toBe(label);
    await expectAccessible(page, '/book/:id');
    // one-handed on a 360 px phone: nothing makes the page scroll sideways
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    const email = uniqueEmail('haircut');
    await fillDetails(page, email);
    const [response] = await Promise.all([bookingsPost(page), page.getByRole('button', { name: 'Book this time' }).click()]);
    expect(response.status()).toBe(200);
    expect(response.request().headers()['x-svc-nonce']).toBeTruthy();
    expect(trpcInput(response.request())).toMatchObject({ bookingTypeId: type.id, startUtc: start, customerEmail: email, customerTz: TZ });

    await page.getByRole('heading', { name: 'You’re booked' }).waitFor();
    await page.getByRole('heading', { name: 'What happens next' }).waitFor();
    await page.getByText(`An email to ${email} is on its way`).waitFor();
    const calendar = page.getByRole('link', { name: 'Add to calendar' });
    expect(await calendar.getAttribute('download')).toBe('booking.ics');
    const ics = await page.evaluate(async (href) => (await fetch(href)).text(), (await calendar.getAttribute('href'))!);
    expect(ics).toContain(`DTSTART:${start.replace(/[-:]/g, '').replace(' ', 'T')}Z`);
    expect(ics).toContain('SUMMARY:Haircut');
    // one calendar entry: the page's file carries the mailed invite's UID, so the mailed CANCEL removes it too
    const [invite] = await queryRows<{ attachments: Array<{ filename: string; content: string }> }>(
      e2e.db(),
      sql`select attachments from svc_outbox where to_address = ${email} order by id limit 1`,
    );
    const mailedUid = /^UID:(.+)$/m
      .exec(
        Buffer.from(invite!.attachments.find((a) => a.filename === 'invite.ics')!.content, 'base64')
          .toString('utf8')
          .replace(/\r\n /g, ''),
      )![1]!
      .trim();
    expect(mailedUid).toMatch(/^booking-\d+-[0-9a-f]{12}@/);
    expect(ics.replace(/\r\n /g, '')).toContain(`UID:${mailedUid}\r\n`);
    await expectAccessible(page, 'booking confirmation');
    expect(await bookingRow(email)).toEqual([{ status: 'confirmed', start_utc: start, customer_tz: TZ }]);

    // the manage link from the email: GET shows, buttons act
    const managePath = await linkFromOutbox(e2e.server, email, 'manage');
    await page.goto(new URL(managePath, e2e.server.url).href);
    await page.getByRole('heading', { level: 1, name: 'Your booking' }).waitFor();
    await page.locator('dd', { hasText: 'Confirmed' }).waitFor();
    await expectAccessible(page, '/manage/:token');
    expect((await bookingRow(email))[0]?.status).toBe('confirmed');

    await page.getByRole('button', { name: 'Change the time' }).click();
    const later = futureStart(3, 14);
    await pickSlot(page, later);
    await expectAccessible(page, '/manage/:token reschedule');
    await page.getByRole('button', { name: /^Move to / }).click();
    await page.getByText(/^Moved to /).waitFor();
    expect(await bookingRow(email)).toEqual([{ status: 'confirmed', start_utc: later, customer_tz: TZ }]);

    await page.getByRole('button', { name: 'Cancel this booking' }).click();
    await page.getByRole('button', { name: 'Yes, cancel it' }).click();
    await page.getByText('Your booking is cancelled.').waitFor();
    expect((await bookingRow(email))[0]?.status).toBe('cancelled');
    await page.reload();
    await page.locator('dd', { hasText: 'Cancelled' }).waitFor();
    expect(await page.getByRole('button', { name: 'Cancel this booking' }).count()).toBe(0);
  });

  test('a video booking shows its own meeting link, opening in a new tab, on the confirmation and on the manage page', async () => {
    const type = await freshType({ title: 'Video call', locationMode: 'virtual', meetingLinkPattern: 'https://meet.example.org/call-{id}' });
    const start = futureStart(2, 15);
    const page = await e2e.openPage(`/book/${type.id}`);
    await page.getByRole('heading', { level: 1, name: 'Video call' }).waitFor();
    await pickSlot(page, start);
    const email = uniqueEmail('video');
    await fillDetails(page, email);
    const [response] = await Promise.all([bookingsPost(page), page.getByRole('button', { name: 'Book this time' }).click()]);
    expect(response.status()).toBe(200);
    const [booking] = await queryRows<{ id: number }>(e2e.db(), sql`select booking_id as id from svc_bookings where customer_email = ${email}`);
    const link = `https://meet.example.org/call-${booking!.id}`;

    await page.getByRole('heading', { name: 'You’re booked' }).waitFor();
    const confirmed = page.locator('#book-result').getByRole('link', { name: link });
    expect(await confirmed.getAttribute('href')).toBe(link);
    expect(await confirmed.getAttribute('target')).toBe('_blank');
    expect(await confirmed.getAttribute('rel')).toBe('noopener noreferrer');
    // the term before it names it: one pair in the facts list
    expect(await page.locator('#book-result dt', { hasText: 'Meeting link' }).count()).toBe(1);

    await page.goto(new URL(await linkFromOutbox(e2e.server, email, 'manage'), e2e.server.url).href);
    await page.getByRole('heading', { level: 1, name: 'Your booking' }).waitFor();
    const managed = page.locator('dl').getByRole('link', { name: link });
    expect(await managed.getAttribute('href')).toBe(link);
    expect(await managed.getAttribute('target')).toBe('_blank');
    expect(await page.locator('dt', { hasText: 'Meeting link' }).count()).toBe(1);
  });

  test('losing the race for the last seat shows fresh times on the same screen, then booking another works', async () => {
    const type = await freshType({ capacity: 1 });
    const [first, second, third] = [futureStart(2, 9), futureStart(2, 11), futureStart(2, 13)];
    const page = await e2e.openPage(`/book/${type.id}`);
    await page.getByRole('heading', { level: 1, name: 'Consultation' }).waitFor();
    const email = uniqueEmail('racer');
    await pickSlot(page, first);
    await fillDetails(page, email);

    // someone else books it between page load and submit: the re-check on submit catches it
    expect((await submitBooking(e2e.server.url, bookingBody(type.id, first))).status).toBe(201);
    const posts: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/trpc/booking.create' && r.method() === 'POST') posts.push(r.postData() ?? '');
    });
    await page.getByRole('button', { name: 'Book this time' }).click();
    await page.getByText('Sorry, that time was just taken.').waitFor();
    await expect.poll(() => page.locator(`[data-start="${first}"]`).count()).toBe(0);
    expect(posts).toEqual([]);
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    await expectAccessible(page, 'slot taken (re-check)');

    // taken after the re-check, before the insert: the server's 409 gets the same answer
    await pickSlot(page, second);
    let raced = false;
    await page.route('**/trpc/booking.create', async (route) => {
      if (!raced) {
        raced = true;
        expect((await submitBooking(e2e.server.url, bookingBody(type.id, second))).status).toBe(201);
      }
      await route.continue();
    });
    const [lost] = await Promise.all([bookingsPost(page), page.getByRole('button', { name: 'Book this time' }).click()]);
    expect(lost.status()).toBe(409);
    await page.getByText('Sorry, that time was just taken.').waitFor();
    await expect.poll(() => page.locator(`[data-start="${second}"]`).count()).toBe(0);
    await page.unrouteAll();

    await pickSlot(page, third);
    const [won] = await Promise.all([bookingsPost(page), page.getByRole('button', { name: 'Book this time' }).click()]);
    expect(won.status()).toBe(200);
    await page.getByRole('heading', { name: 'You’re booked' }).waitFor();
    expect(await bookingRow(email)).toEqual([{ status: 'confirmed', start_utc: third, customer_tz: TZ }]);
  });

  test('offline: cached times with their age; a booking waits and is sent when back online; a time taken meanwhile asks for another', async () => {
    const type = await freshType({ capacity: 1 });
    const [first, second, third] = [futureStart(3, 8), futureStart(3, 12), futureStart(3, 15)];
    const page = await e2e.openPage(`/book/${type.id}`);
    await page.getByRole('heading', { level: 1, name: 'Consultation' }).waitFor();
    await page.locator('.v-slot').first().waitFor();
    await controlledByServiceWorker(page);
    await page.locator('.v-slot').first().waitFor();
    await showMonthOnline(page, first);

    await page.context().setOffline(true);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Consultation' }).waitFor();
    await page.getByText(/You are offline: showing the free times saved/).waitFor();
    await expectAccessible(page, '/book/:id offline');

    const email = uniqueEmail('offline');
    await pickSlot(page, first);
    await fillDetails(page, email);
    await page.getByRole('button', { name: 'Book when back online' }).click();
    await page.getByRole('heading', { name: 'Saved on this phone' }).waitFor();
    await page.getByText('It will be sent when you’re back online').waitFor();
    await expectAccessible(page, 'queued booking');
    expect(await bookingRow(email)).toEqual([]);

    let sent = bookingsPost(page);
    await page.context().setOffline(false);
    expect((await sent).status()).toBe(200);
    await page.getByRole('heading', { name: 'You’re booked' }).waitFor();
    expect(await bookingRow(email)).toEqual([{ status: 'confirmed', start_utc: first, customer_tz: TZ }]);

    // a second booking made offline whose time is taken before the network returns
    await page.getByRole('button', { name: 'Book another time' }).click();
    // the visitor sees the times again, then loses the network
    await page.locator('.v-slot').first().waitFor();
    await page.context().setOffline(true);
    await pickSlot(page, second);
    await page.getByRole('button', { name: 'Book when back online' }).click();
    await page.getByRole('heading', { name: 'Saved on this phone' }).waitFor();
    expect((await submitBooking(e2e.server.url, bookingBody(type.id, second))).status).toBe(201);
    sent = bookingsPost(page);
    await page.context().setOffline(false);
    expect((await sent).status()).toBe(409);
    await page.getByText('Sorry, that time was just taken.').waitFor();
    await expect.poll(() => page.locator(`[data-start="${second}"]`).count()).toBe(0);

    await pickSlot(page, third);
    await page.getByRole('button', { name: 'Book this time' }).click();
    await page.getByRole('heading', { name: 'You’re booked' }).waitFor();
    expect((await bookingRow(email)).map((r) => r.start_utc)).toEqual([first, third]);
  });
});
