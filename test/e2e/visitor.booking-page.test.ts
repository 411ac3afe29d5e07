/**
 * The booking page as a visitor on a 390×844 phone meets it (issue: "a booking page like
 * Cal.com's"): the calendar above the fold, the zone as one changeable line, what they decide on
 * (location, seats only where a type has seats, "Request this time" where the host approves)
 * before booking, times with their zone and "your time", and the "just taken" notice beside the
 * times. Every screen is looked at with `checkScreen`.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { dayInZone } from '../../client/visitor/time';
import { parseUtcString } from '../../shared/time';
import { bookingBody, createHost, createType, disableIpThrottle, futureStart, submitBooking, uniqueEmail } from '../helpers/booking';
import { useE2e } from '../helpers/e2e';
import { checkScreen, PHONE_390 } from '../helpers/screens';
import { linkFromOutbox, phoneProfile } from '../helpers/visitor-e2e';

const VISITOR_TZ = 'America/New_York';
const HOST_TZ = 'Europe/London';
const e2e = useE2e({ env: { SVC_JOBS: 'off' }, login: true, context: { ...phoneProfile({ timezoneId: VISITOR_TZ }), viewport: PHONE_390 } });
let restoreThrottle: () => void;

beforeAll(() => {
  restoreThrottle = disableIpThrottle(e2e.server.server.ctx.hooks);
});
afterAll(() => restoreThrottle?.());

async function typeWithHosts(hostCount: number, overrides: Record<string, unknown>) {
  const hosts: number[] = [];
  for (let i = 0; i < hostCount; i += 1) hosts.push(await createHost(e2e.admin.api));
  return createType(e2e.admin.api, { hosts, assignment: 'round_robin', timezone: HOST_TZ, ...overrides });
}

/** Opens the slot's day in the calendar (moving months as needed) and presses its button. */
async function pickSlot(page: Page, startUtc: string): Promise<void> {
  const day = dayInZone(parseUtcString(startUtc)!, VISITOR_TZ);
  for (let i = 0; i < 3 && (await page.locator(`[data-day="${day}"]`).count()) === 0; i += 1) {
    await page.getByRole('button', { name: 'Next month' }).click();
  }
  await page.locator(`[data-day="${day}"]`).click();
  await page.locator(`[data-start="${startUtc}"]`).click();
}

const clock = (utc: string, zone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(parseUtcString(utc)!);

async function box(page: Page, selector: string) {
  const b = await page.locator(selector).first().boundingBox();
  if (!b) throw new Error(`${selector} is not shown`);
  return b;
}

describe('booking page', () => {
  test('one-to-one type on a phone: calendar above the fold, one zone line that changes, location and no seat count, times with zone and your time', async () => {
    // two hosts: the slots answer capacity_left 2, which a one-seat type must not show as seats
    const type = await typeWithHosts(2, { title: 'Advice', capacity: 1, durationMinutes: 30, locationMode: 'in_person', locationValue: '1 Town Square' });
    const start = futureStart(2, 15);
    const page = await e2e.openPage(`/book/${type.id}`);
    await page.locator('.v-day.has-slots').first().waitFor();

    const calendar = await box(page, '.v-cal');
    expect(calendar.y + calendar.height, 'calendar bottom at 390×844').toBeLessThanOrEqual(PHONE_390.height);
    expect(await page.locator('.v-book-summary').innerText()).toContain('In person: 1 Town Square');
    expect(await page.locator('.v-tz-line').count()).toBe(1);
    expect(await page.locator('.v-tz-line').innerText()).toMatch(/^Times in America\/New York · Change/);
    expect(await page.getByLabel('Your timezone').count()).toBe(0);

    await pickSlot(page, start);
    const slot = page.locator(`[data-start="${start}"]`);
    expect((await slot.innerText()).trim()).toBe(clock(start, VISITOR_TZ));
    expect(await page.locator('main').innerText()).not.toMatch(/seats? left/);
    // a type whose seat limit is 1 asks for no seat count
    expect(await page.getByLabel('Seats').count()).toBe(0);
    // the summary: the host's zone with its city, then the visitor's clock
    const chosen = await page.locator('.v-chosen').innerText();
    const end = futureStart(2, 15, 30);
    expect(chosen).toContain(`, ${clock(start, HOST_TZ)}–${clock(end, HOST_TZ)} ${/GMT|BST/.exec(chosen)?.[0]} (London)`);
    expect(chosen).toMatch(new RegExp(`${clock(start, VISITOR_TZ)}–${clock(end, VISITOR_TZ)} E[SD]T your time`));
    await checkScreen(page, 'visitor-book-one-to-one-390');

    await page.getByRole('button', { name: 'Change timezone' }).click();
    // the searchable picker: typing a city narrows the list; the zone reads with its name and offset
    const zoneField = page.getByRole('combobox', { name: 'Your timezone' });
    await expect.poll(() => zoneField.evaluate((el) => el === document.activeElement)).toBe(true);
    await zoneField.fill('Tokyo');
    await page.getByRole('option', { name: /^Tokyo \(Japan.*UTC\+09:00$/ }).click();
    await expect.poll(() => page.locator('.v-tz-line').innerText()).toMatch(/^Times in Asia\/Tokyo/);
    // the chosen time stays chosen, shown on its day in the new zone
    expect(await slot.getAttribute('aria-pressed')).toBe('true');
    expect((await slot.innerText()).trim()).toBe(clock(start, 'Asia/Tokyo'));
    expect(await page.locator('.v-chosen').innerText()).toContain(`${clock(start, 'Asia/Tokyo')}–${clock(end, 'Asia/Tokyo')} GMT+9 your time`);
    await checkScreen(page, 'visitor-book-zone-changed-390');

    // the same page on a laptop: summary beside the calendar, the calendar above the fold
    const wide = await e2e.openPage(`/book/${type.id}`, { viewport: { width: 1280, height: 800 } });
    await wide.locator('.v-day.has-slots').first().waitFor();
    const wideCalendar = await box(wide, '.v-cal');
    expect(wideCalendar.y + wideCalendar.height).toBeLessThanOrEqual(800);
    expect((await box(wide, '.v-book-summary')).x).toBeLessThan(wideCalendar.x);
  });

  test('an approval type asks with "Request this time" and offers no calendar links until the host confirms; a type with seats shows the seats left and a seat count', async () => {
    const approval = await typeWithHosts(1, { title: 'Studio visit', requiresApproval: true });
    const page = await e2e.openPage(`/book/${approval.id}`);
    await page.locator('.v-day.has-slots').first().waitFor();
    await page.getByRole('button', { name: 'Request this time' }).waitFor();
    expect(await page.getByRole('button', { name: /^Book/ }).count()).toBe(0);
    await checkScreen(page, 'visitor-book-approval-390');

    // the request sent: it says the host confirms it, and offers nothing to put in a calendar yet
    const email = uniqueEmail('request');
    await pickSlot(page, futureStart(2, 11));
    await page.getByLabel('Your name').fill('Rita Request');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Request this time' }).click();
    await page.getByRole('heading', { name: 'Request sent' }).waitFor();
    expect(await page.locator('#book-result').innerText()).toContain('You will get an email when it is confirmed or declined.');
    const calendarLinks = (p: Page) => p.getByRole('link', { name: /Add to (calendar|Google Calendar|Outlook\.com)/ }).count();
    expect(await calendarLinks(page)).toBe(0);
    await checkScreen(page, 'visitor-book-requested-390');

    // its manage page, on a phone and a laptop: waiting for the host, and no calendar links either
    const manage = await linkFromOutbox(e2e.server, email, 'manage');
    for (const viewport of [PHONE_390, { width: 1280, height: 800 }]) {
      const managePage = await e2e.openPage(manage, { viewport });
      await managePage.getByText('Waiting for the host’s approval').waitFor();
      expect(await managePage.locator('main').innerText()).toContain('The host has not confirmed this booking yet. You will get an email when it is confirmed');
      expect(await calendarLinks(managePage)).toBe(0);
      await checkScreen(managePage, `visitor-manage-requested-${viewport.width}`);
    }

    const group = await typeWithHosts(1, { title: 'Workshop', capacity: 6 });
    const start = futureStart(2, 12);
    const groupPage = await e2e.openPage(`/book/${group.id}`);
    await groupPage.locator('.v-day.has-slots').first().waitFor();
    await pickSlot(groupPage, start);
    expect(await groupPage.locator(`[data-start="${start}"] small`).innerText()).toBe('6 seats left');
    expect(await groupPage.getByLabel('Seats').getAttribute('max')).toBe('6');
  });

  test('a time just taken is answered beside the times, focused; after a submit the result is scrolled to and focused', async () => {
    const type = await typeWithHosts(1, { title: 'Fitting', capacity: 1 });
    const [taken, other] = [futureStart(2, 14), futureStart(2, 16)];
    const page = await e2e.openPage(`/book/${type.id}`);
    await page.locator('.v-day.has-slots').first().waitFor();

    // nothing picked: the error is where the eyes go
    await page.getByLabel('Your name').fill('Vera Visitor');
    await page.getByLabel('Email').fill(uniqueEmail('page'));
    await page.getByRole('button', { name: 'Book this time' }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('book-error');

    await pickSlot(page, taken);
    expect((await submitBooking(e2e.server.url, bookingBody(type.id, taken))).status).toBe(201);
    await page.getByRole('button', { name: 'Book this time' }).click();
    const notice = page.getByText('Sorry, that time was just taken.');
    await notice.waitFor();
    await expect.poll(() => page.locator(`[data-start="${taken}"]`).count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains('v-taken'))).toBe(true);
    const noticeBox = await box(page, '.v-taken');
    const slotsBox = await box(page, '.v-slots');
    // right above the day's times (only their heading between), both in view together
    expect(slotsBox.y - (noticeBox.y + noticeBox.height), 'gap between the notice and the times').toBeLessThan(120);
    expect(slotsBox.y - (noticeBox.y + noticeBox.height)).toBeGreaterThanOrEqual(0);
    expect(noticeBox.y).toBeGreaterThanOrEqual(0);
    expect(slotsBox.y + 48, 'the first row of times in view').toBeLessThanOrEqual(PHONE_390.height);
    await checkScreen(page, 'visitor-book-taken-390');

    await pickSlot(page, other);
    await page.getByRole('button', { name: 'Book this time' }).click();
    await page.getByRole('heading', { name: 'You’re booked' }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('book-result');
    const result = await box(page, '#book-result');
    expect(result.y).toBeLessThan(PHONE_390.height);
    expect(await page.locator('#book-result').innerText()).toMatch(/\(London\)\n.*E[SD]T your time/);
    await checkScreen(page, 'visitor-book-booked-390');
  });

  test('with a cover image on a phone, the cover and text below the calendar appear once its times are drawn: nothing on the page jumps (layout shift under 0.05 at 4× slower CPU)', async () => {
    const type = await typeWithHosts(1, { title: 'Portfolio review', description: 'Bring three pieces you are proud of.' });
    const picture = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#7a3b69' } })
      .jpeg()
      .toBuffer();
    const upload = await fetch(`${e2e.server.url}/svc/v1/booking-types/${type.id}/image`, {
      method: 'PUT',
      headers: { cookie: e2e.admin.cookie, origin: new URL(e2e.server.url).origin, 'content-type': 'image/jpeg' },
      body: new Blob([new Uint8Array(picture)]),
    });
    expect(upload.status).toBe(200);

    const page = await e2e.newPage();
    // what stood in the page when the cover's column first appeared, and every layout shift
    await page.addInitScript(() => {
      const w = window as unknown as { svcAsideSawTimes?: boolean; svcShifts: Array<{ value: number; input: boolean }> };
      w.svcShifts = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as unknown as Array<{ value: number; hadRecentInput: boolean }>)
          w.svcShifts.push({ value: entry.value, input: entry.hadRecentInput });
      }).observe({ type: 'layout-shift', buffered: true });
      new MutationObserver(() => {
        if (w.svcAsideSawTimes === undefined && document.querySelector('.v-book-aside'))
          w.svcAsideSawTimes = document.querySelector('.v-slots .v-slot') !== null;
      }).observe(document, { childList: true, subtree: true });
    });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(`${e2e.server.url}/book/${type.id}`);
    const cover = page.getByRole('img', { name: 'Portfolio review' });
    await expect
      .poll(() => cover.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth), { timeout: 20_000 })
      .toBeGreaterThan(0);
    await page.locator('#details-heading').waitFor();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    // a frame after the last change, so its shift (if any) is reported
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const seen = await page.evaluate(() => {
      const w = window as unknown as { svcAsideSawTimes?: boolean; svcShifts: Array<{ value: number; input: boolean }> };
      return { svcAsideSawTimes: w.svcAsideSawTimes, svcShifts: w.svcShifts };
    });
    expect(seen.svcAsideSawTimes, 'the times were drawn before the cover column').toBe(true);
    const shift = seen.svcShifts.filter((s) => !s.input).reduce((sum, s) => sum + s.value, 0);
    expect(shift).toBeLessThan(0.05);
    // below the calendar on a phone, as before
    expect((await box(page, '.v-book-aside')).y).toBeGreaterThan((await box(page, '.v-slot-area')).y);
  });
});
