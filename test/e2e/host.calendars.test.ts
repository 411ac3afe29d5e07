/**
 * A host connects their own calendar in real Chromium (docs/api.md#host-calendars): they sign in,
 * open My calendars, a wrong app password is marked at its field, the real Radicale calendar is
 * connected through the form (with write-back asked for) and listed as up to date; its weekly
 * busy hour is not offered on the public booking page while the hour after it is, and a visitor
 * books that free hour through the page, finds it written into Radicale, and gone once cancelled; removing the calendar (after a confirmation) frees it. No axe violations, nothing wider than a 390 px phone.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { queryRows } from '../../server/db/client';
import { dayInZone } from '../../client/visitor/time';
import { parseUtcString } from '../../shared/time';
import { createType, disableIpThrottle, futureStart, uniqueEmail } from '../helpers/booking';
import { useE2e } from '../helpers/e2e';
import { startRadicale, type Radicale } from '../helpers/radicale';
import { PHONE_390 } from '../helpers/screens';
import { expectAccessible, phoneProfile } from '../helpers/visitor-e2e';

const TZ = 'UTC';
// the server may read the calendar on 127.0.0.1 (the webhook address rules, docs/api.md#host-calendars)
const e2e = useE2e({
  env: { SVC_JOBS: 'off', SVC_WEBHOOKS_ALLOW_PRIVATE: '1' },
  login: true,
  context: { ...phoneProfile({ timezoneId: TZ }), viewport: PHONE_390 },
});

let radicale: Radicale;
let restoreThrottle: () => void;

beforeAll(async () => {
  radicale = await startRadicale();
  restoreThrottle = disableIpThrottle(e2e.server.server.ctx.hooks);
});

/** Every event stored in a Radicale calendar, as text (PROPFIND depth 1, then GET each): what is really there. */
async function radicaleEvents(calendarUrl: string): Promise<string[]> {
  const headers = { authorization: `Basic ${Buffer.from(`${radicale.username}:${radicale.password}`).toString('base64')}` };
  const listing = await fetch(calendarUrl, { method: 'PROPFIND', headers: { ...headers, depth: '1', 'content-type': 'application/xml' } });
  expect(listing.status).toBe(207);
  const hrefs = [...(await listing.text()).matchAll(/<(?:\w+:)?href>([^<]+\.ics)<\/(?:\w+:)?href>/g)].map((m) => m[1]!);
  const texts = await Promise.all(hrefs.map(async (href) => (await fetch(new URL(href, calendarUrl), { headers })).text()));
  return texts.map((t) => t.replace(/\r\n /g, '')).sort();
}

afterAll(async () => {
  restoreThrottle?.();
  await radicale?.stop();
});

const ics = (...lines: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//svc test//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const stamp = (utc: string) => utc.replace(/[-: ]/g, '').replace(/^(\d{8})(\d{6})$/, '$1T$2Z');

/** Shows the slot's day in the booking page's calendar (moving on a month or two when needed). */
async function openDay(page: Page, startUtc: string): Promise<void> {
  const day = dayInZone(parseUtcString(startUtc)!, TZ);
  for (let i = 0; i < 3 && (await page.locator(`[data-day="${day}"]`).count()) === 0; i += 1) {
    await page.getByRole('button', { name: 'Next month' }).click();
  }
  await page.locator(`[data-day="${day}"]`).click();
}

describe("a host's calendars page", () => {
  test('a host connects a Radicale calendar through the form; its weekly busy hour is not offered on the booking page, and a visitor books the free hour next to it, which is written into the Radicale calendar and removed from it on cancel; removing the calendar frees the busy hour', async () => {
    const email = `cal-page-${process.pid}@example.test`;
    const created = await e2e.admin.api.post('/users', { email, displayName: 'Carla Calendar', role: 'host', password: 'long enough password' });
    expect(created.status).toBe(201);
    const hostId = created.body.id as number;
    const type = await createType(e2e.admin.api, { title: 'Piano lesson', hosts: [hostId] });

    // a weekly busy hour, four weeks, from three days ahead
    const busy = futureStart(3, 10);
    const free = futureStart(3, 11);
    const calendar = await radicale.makeCalendar('lessons');
    await radicale.putEvent(
      calendar,
      'weekly-1',
      ics(
        'BEGIN:VEVENT',
        'UID:weekly-1',
        'DTSTAMP:20260101T000000Z',
        `DTSTART:${stamp(busy)}`,
        `DTEND:${stamp(free)}`,
        'RRULE:FREQ=WEEKLY;COUNT=4',
        'SUMMARY:Choir rehearsal',
        'END:VEVENT',
      ),
    );

    const page = await e2e.openPage('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('long enough password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`**/admin/hosts/${hostId}/bookings`);
    await page.getByRole('navigation').getByRole('link', { name: 'My calendars' }).click();
    await page.waitForURL(`**/admin/hosts/${hostId}/calendars`);
    await page.getByText('No calendar is connected yet.').waitFor();
    await expectAccessible(page, '/admin/hosts/{id}/calendars (empty)');

    // CalDAV is the default kind; its help names where the app password comes from
    await page.getByText(/iCloud at appleid\.apple\.com/).waitFor();
    await page.getByLabel('Address').fill(calendar);
    await page.getByLabel('User name').fill(radicale.username);
    const password = page.getByLabel('App password');
    expect(await password.getAttribute('type')).toBe('password');
    expect(await password.getAttribute('autocomplete')).toBe('off');

    // a refused password is said at the password field, and nothing is kept
    await password.fill('not-the-app-password');
    await page.getByRole('button', { name: 'Connect calendar' }).click();
    await page.locator('#hc-password-error').getByText('The calendar refused this user name and password.', { exact: false }).waitFor();
    expect(await password.getAttribute('aria-invalid')).toBe('true');
    expect((await e2e.admin.api.get(`/hosts/${hostId}/calendars`)).body).toEqual([]);

    await password.fill(radicale.password);
    await page.getByLabel('Write my bookings into this calendar').check();
    await page.getByRole('button', { name: 'Connect calendar' }).click();
    await page.getByText(`Connected ${calendar}.`).waitFor();
    const item = page.locator('.calendar-item', { hasText: calendar });
    await item.getByText('✓ Up to date').waitFor();
    await item.getByText(/: 4 busy times\.$/).waitFor();
    await item.getByText('Your bookings are written into it.').waitFor();
    expect(await item.innerText()).not.toContain(radicale.password);
    const stored = (await e2e.admin.api.get(`/hosts/${hostId}/calendars`)).body;
    expect(stored).toMatchObject([{ kind: 'caldav', url: calendar, username: radicale.username, hasPassword: true, writeBack: true, status: 'ok' }]);

    // Refresh now says what it read
    const refresh = item.getByRole('button', { name: `Refresh now ${calendar}` });
    await refresh.click();
    await item.getByText('Read just now: 4 busy times.').waitFor();
    expect(await refresh.evaluate((el) => el === document.activeElement)).toBe(true);
    await expectAccessible(page, '/admin/hosts/{id}/calendars');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE_390.width);

    // the public booking page: the busy hour is not offered, the hour after it is
    const visitor = await e2e.openPage(`/book/${type.id}`);
    await visitor.getByRole('heading', { level: 1, name: 'Piano lesson' }).waitFor();
    await openDay(visitor, busy);
    await visitor.locator(`[data-start="${free}"]`).waitFor();
    await visitor.locator(`[data-start="${futureStart(3, 9)}"]`).waitFor();
    expect(await visitor.locator(`[data-start="${busy}"]`).count()).toBe(0);

    const visitorEmail = uniqueEmail('piano');
    await visitor.locator(`[data-start="${free}"]`).click();
    await visitor.getByLabel('Your name').fill('Vera Visitor');
    await visitor.getByLabel('Email').fill(visitorEmail);
    await visitor.getByRole('button', { name: 'Book this time' }).click();
    await visitor.getByRole('heading', { name: 'You’re booked' }).waitFor();
    const rows = await queryRows<{ id: number; status: string; start: string }>(
      e2e.db(),
      sql`select booking_id as id, status, to_char(start_utc, 'YYYY-MM-DD HH24:MI:SS') as start from svc_bookings where customer_email = ${visitorEmail}`,
    );
    expect(rows.map(({ status, start }) => ({ status, start }))).toEqual([{ status: 'confirmed', start: free }]);

    // write-back: the booking is in the host's Radicale calendar under a UID of its own…
    const bookingId = rows[0]!.id;
    const before = await radicaleEvents(calendar);
    await e2e.server.server.ctx.jobs.idle();
    const written = (await radicaleEvents(calendar)).filter((e) => !before.includes(e));
    expect(written).toHaveLength(1);
    expect(written[0]).toContain(`DTSTART:${free.replace(/[-: ]/g, '').replace(/^(\d{8})/, '$1T')}Z`);
    expect(written[0]).toContain('Vera Visitor');
    // …and gone once the booking is cancelled
    expect((await e2e.admin.api.patch(`/bookings/${bookingId}`, { status: 'cancelled' })).status).toBe(200);
    await e2e.server.server.ctx.jobs.idle();
    expect(await radicaleEvents(calendar)).toEqual(before);

    // removing it asks first, then its busy hour is offered again
    await item.getByRole('button', { name: `Remove ${calendar}` }).click();
    const dialog = page.getByRole('dialog', { name: `Remove ${calendar}?` });
    await dialog.getByRole('button', { name: 'Remove calendar' }).click();
    await page.getByText(`Removed ${calendar}.`, { exact: false }).waitFor();
    await page.getByText('No calendar is connected yet.').waitFor();
    expect((await e2e.admin.api.get(`/hosts/${hostId}/calendars`)).body).toEqual([]);
    const slots = await e2e.admin.api.get(`/booking-types/${type.id}/slots?from=${busy.slice(0, 10)}&to=${busy.slice(0, 10)}`);
    expect((slots.body.slots as Array<{ start_utc: string }>).map((s) => s.start_utc)).toContain(busy);
  });
});
