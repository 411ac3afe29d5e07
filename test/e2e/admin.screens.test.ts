/**
 * Every admin page looked at, at 390 px (a phone) and 1280 px (a laptop), with realistic data on it
 * (UX "Phone-first for admins too", "Never cut what identifies a person"): a screenshot under
 * test-results/screens, no page wider than the screen, axe clean, the main links and buttons at
 * least 44 px tall, and at 1280 px no attendee name or email cut short. The routes come from
 * client/routes/admin.ts, so a page added there without a fixture here fails the test.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page, ViewportSize } from 'playwright-core';
import { createHost } from '../helpers/booking';
import { createAttendee, createEvent, seedAttendees } from '../helpers/checkin';
import { LAPTOP, useE2e } from '../helpers/e2e';
import { apiClient } from '../helpers/http';
import { createEvent as createPublishedEvent, resetThrottles, signUp } from '../helpers/registration';
import { badEmailBreaks, checkScreen, clippedRoleSelects, PHONE_390 } from '../helpers/screens';
import { proposal, submitProposal } from '../helpers/submissions';

const e2e = useE2e({ env: { SVC_JOBS: 'off', SVC_EDITION: 'extended', SVC_WEBHOOKS_ALLOW_PRIVATE: '1' }, login: true });

/** The people the issue measured with: names and emails long enough to be cut by a careless column. */
const PEOPLE = [
  { name: 'Ruby Kowalczyk-Henderson', email: 'ruby.kowalczyk-henderson@example-university.ac.uk' },
  { name: 'Maximilian Oyelaran-Fitzgerald', email: 'maximilian.oyelaran-fitzgerald@students.example-college.org' },
  { name: 'Siobhán Nic Giolla Phádraig', email: 'siobhan.nicgiollaphadraig@alumni.example-university.ie' },
  { name: 'Zhang Wei', email: 'zhang.wei@example.cn' },
];

/** A member of staff for the events of the door team, with an address long enough to wrap. */
const STAFF = { name: 'Door team coordinator', email: 'door-team.coordinator@events.example-university.ac.uk', password: 'a long staff password' };

/** The door team's days off on the booking type: shown one date input each. */
const DAYS_OFF = ['2099-12-24', '2099-12-31'];

const ids: Record<string, number> = {};
const icsServers: http.Server[] = [];

/** A local ICS address with one busy hour tomorrow (the host's calendars page lists it). */
async function icsServer(): Promise<{ url: string; server: http.Server }> {
  const day = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10).replace(/-/g, '');
  const body = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//svc test//EN',
    'BEGIN:VEVENT',
    'UID:screens-1',
    'DTSTAMP:20260101T000000Z',
    `DTSTART:${day}T100000Z`,
    `DTEND:${day}T110000Z`,
    'SUMMARY:Busy',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/calendar' }).end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  icsServers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/family-and-school-holidays.ics`, server };
}

afterAll(async () => {
  await Promise.all(icsServers.map((s) => new Promise((resolve) => s.close(resolve))));
});

beforeAll(async () => {
  const db = e2e.db();
  const api = e2e.admin.api;
  const event = await createEvent(db, 'Graduation ball of the School of Engineering');
  ids.event = event.id;
  for (const person of PEOPLE) {
    const attendee = await createAttendee(db, event.id, { name: person.name });
    expect((await api.patch(`/attendees/${attendee.id}`, { email: person.email })).status).toBe(200);
  }
  const [first] = (await api.get(`/attendees?eventId=${event.id}`)).body as Array<{ id: number }>;
  await api.post('/checkins', { attendeeId: first!.id, eventId: event.id });
  await api.post('/devices', { name: 'Main entrance, north door', eventIds: [event.id] });

  const host = await createHost(api, 'Alex Montgomery-Richardson');
  ids.host = host;
  const day = ['09:00', '17:00'];
  const type = await api.post('/booking-types', {
    title: 'Admissions consultation',
    status: 'published',
    durationMinutes: 60,
    timezone: 'UTC',
    hosts: [host],
    weeklyWindows: { mon: [day], tue: [day], wed: [day], thu: [day], fri: [day], sat: [day], sun: [day] },
    daysOff: DAYS_OFF,
  });
  ids.bookingType = type.body.id;
  // the host's calendars: one read, one that has since become unreachable
  const readable = await icsServer();
  expect((await api.post(`/hosts/${host}/calendars`, { kind: 'ics', url: readable.url })).status).toBe(201);
  const gone = await icsServer();
  const goneCalendar = await api.post(`/hosts/${host}/calendars`, { kind: 'ics', url: gone.url.replace('family-and-school-holidays', 'team-rota') });
  expect(goneCalendar.status).toBe(201);
  await new Promise((resolve) => gone.server.close(resolve));
  expect((await api.post(`/calendars/${goneCalendar.body.id}/refresh`, {})).body.status).toBe('unreachable');
  const slots = (await api.get(`/booking-types/${ids.bookingType}/slots`)).body.slots as Array<{ start_utc: string }>;
  await api.post('/bookings/admin', {
    bookingTypeId: ids.bookingType,
    startUtc: slots[0]!.start_utc,
    customerName: PEOPLE[1]!.name,
    customerEmail: PEOPLE[1]!.email,
    customerTz: 'UTC',
  });

  // a paid order (local provider: Pay, then the jobs process its webhook)
  const concert = await createPublishedEvent(api, { title: 'Winter concert', priceCents: 1500, capacity: 50 });
  const held = await signUp(e2e.server, concert.id, { quantity: 2, email: PEOPLE[0]!.email, display_name: PEOPLE[0]!.name });
  expect(held.status).toBe(201);
  ids.order = held.body.orderId;
  const paymentId = String(held.body.paymentUrl).split('/pay/')[1]!;
  expect((await apiClient(e2e.server.url).post(`/payments/local/${paymentId}/pay`, {})).status).toBe(202);
  await e2e.server.server.ctx.jobs.idle();

  expect((await submitProposal(e2e.server, proposal(e2e.server, { submitterName: PEOPLE[2]!.name, submitterEmail: PEOPLE[2]!.email }))).status).toBe(201);
  expect((await api.post('/resources', { name: 'Seminar room 2.14 (Engineering building)', capacity: 12 })).status).toBe(201);
  const hook = await api.post('/webhooks', { url: 'http://127.0.0.1:9/hooks/attendees-and-bookings', events: ['ping'] });
  expect(hook.status).toBe(201);
  ids.webhook = hook.body.id;

  // an event with three sign-up questions: its attendee table gains an Answers column
  const dinner = await createPublishedEvent(api, {
    title: 'Alumni dinner',
    capacity: 100,
    fields: [
      { key: 'diet', label: 'Dietary needs', type: 'text' },
      { key: 'faculty', label: 'Faculty', type: 'text' },
      { key: 'guests', label: 'Guests', type: 'number' },
    ],
  });
  ids.dinner = dinner.id;
  for (const person of PEOPLE.slice(0, 2)) {
    await resetThrottles(e2e.server);
    const answered = await signUp(e2e.server, dinner.id, {
      email: person.email,
      display_name: person.name,
      svc_cf_diet: 'vegetarian, no nuts',
      svc_cf_faculty: 'Engineering',
      svc_cf_guests: '1',
    });
    expect(answered.status).toBe(201);
  }

  // a member of staff for the graduation ball only
  expect((await api.post('/users', { ...STAFF, displayName: STAFF.name, role: 'staff', eventIds: [event.id] })).status).toBe(201);

  // an open day with more than a thousand people going: its counts need grouping
  const openDay = await createEvent(db, 'Open day');
  await seedAttendees(db, openDay.id, 1200);
  ids.openDay = openDay.id;
});

/** An admin route's address with its `:id` filled in, and what shows once its data is on screen. */
function screenOf(route: string): { path: string; ready: string } {
  const fixtures: Record<string, { path: string; ready: string }> = {
    '/admin': { path: '/admin', ready: 'text=Signed in as' },
    '/admin/events': { path: '/admin/events', ready: 'text=Graduation ball' },
    '/admin/events/new': { path: '/admin/events/new', ready: 'text=Create event' },
    '/admin/events/:id': { path: `/admin/events/${ids.event}`, ready: '.stats' },
    '/admin/events/:id/edit': { path: `/admin/events/${ids.event}/edit`, ready: 'text=Save changes' },
    '/admin/events/:id/attendees': { path: `/admin/events/${ids.event}/attendees`, ready: 'tr.vrow[data-attendee-id]' },
    '/admin/booking-types': { path: '/admin/booking-types', ready: 'text=Admissions consultation' },
    '/admin/booking-types/:id': { path: `/admin/booking-types/${ids.bookingType}`, ready: '.preview-slot' },
    '/admin/bookings': { path: '/admin/bookings', ready: `text=${PEOPLE[1]!.name}` },
    '/admin/hosts/:userId/hours': { path: `/admin/hosts/${ids.host}/hours`, ready: 'text=Save hours' },
    '/admin/hosts/:userId/bookings': { path: `/admin/hosts/${ids.host}/bookings`, ready: `text=${PEOPLE[1]!.name}` },
    '/admin/hosts/:userId/profile': { path: `/admin/hosts/${ids.host}/profile`, ready: 'text=Save profile' },
    '/admin/hosts/:userId/calendars': { path: `/admin/hosts/${ids.host}/calendars`, ready: '.calendar-item-unreachable' },
    '/admin/orders': { path: '/admin/orders', ready: `text=${PEOPLE[0]!.name}` },
    '/admin/orders/:id': { path: `/admin/orders/${ids.order}`, ready: 'text=Attendee #' },
    '/admin/submissions': { path: '/admin/submissions', ready: `text=${PEOPLE[2]!.name}` },
    '/admin/resources': { path: '/admin/resources', ready: 'text=Seminar room 2.14' },
    '/admin/webhooks': { path: '/admin/webhooks', ready: 'text=attendees-and-bookings' },
    '/admin/webhooks/:id': { path: `/admin/webhooks/${ids.webhook}`, ready: 'text=attendees-and-bookings' },
    '/admin/devices': { path: '/admin/devices', ready: 'text=Main entrance, north door' },
    '/admin/settings': { path: '/admin/settings', ready: 'text=Webhook URL' },
  };
  // a page without parameters needs no fixture: its heading is enough to wait for
  return fixtures[route] ?? { path: route, ready: route.includes(':') ? `missing fixture for ${route}` : 'main h1' };
}

/** The admin routes as client/routes/admin.ts declares them (sign-in and invitation pages are not admin screens). */
function adminRoutes(): string[] {
  const source = readFileSync(join(process.cwd(), 'client/routes/admin.ts'), 'utf8');
  return [...source.matchAll(/path: '(\/admin[^']*)'/g)].map((m) => m[1]!);
}

/**
 * The page's main tap targets shorter than 44 px, as "label (height)": the admin menu, every button,
 * links styled as buttons or standing as a row's actions, form controls, menu items. A link in
 * running text or naming a row's item is text, not a target; a checkbox counts with its label row.
 */
function smallTapTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector = [
      '.admin-nav a',
      'main button',
      'main a.button',
      'main .cell-actions a',
      'main [role="menuitem"]',
      'main select',
      'main input:not([type="hidden"]):not([type="checkbox"]):not([type="radio"])',
      'main input[type="checkbox"]',
      'main input[type="radio"]',
    ].join(', ');
    const small: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      if (el.getClientRects().length === 0 || el.closest('.visually-hidden')) continue; // not shown
      const box = el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio') ? el.closest('label, .field-check, li') : el;
      const height = (box ?? el).getBoundingClientRect().height;
      if (height < 43.5) {
        const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40);
        small.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} “${name}” (${Math.round(height)} px)`);
      }
    }
    return small;
  });
}

/** Every name and email cell of the attendee table: its text and whether it is cut (text wider or taller than its box). */
function attendeeCells(page: Page): Promise<Array<{ text: string; cut: boolean }>> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('tr.vrow[data-attendee-id] td.col-name .cell-text, tr.vrow[data-attendee-id] td.col-email .cell-text')].map(
      (el) => ({ text: el.textContent ?? '', cut: el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1 }),
    ),
  );
}

/** The visible checkboxes and radios smaller than a steady 24 px box, as "id (width×height)". */
function smallChecks(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLInputElement>('main input[type="checkbox"], main input[type="radio"]')]
      .filter((el) => el.getClientRects().length > 0)
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.width < 23.5 || box.height < 23.5)
      .map(({ el, box }) => `${el.id || el.name || el.type} (${Math.round(box.width)}×${Math.round(box.height)})`),
  );
}

async function settle(page: Page, ready: string): Promise<void> {
  await page.locator(ready).first().waitFor();
  await page
    .locator('[aria-busy="true"]')
    .first()
    .waitFor({ state: 'detached' })
    .catch(() => undefined);
}

describe('admin screens at phone and laptop width', () => {
  test('every admin route has a fixture here', () => {
    const missing = adminRoutes().filter((route) => route.includes(':') && screenOf(route).ready.startsWith('missing'));
    expect(missing).toEqual([]);
  });

  const widths: Array<[string, ViewportSize]> = [
    ['390', PHONE_390],
    ['1280', LAPTOP],
  ];
  for (const [label, viewport] of widths) {
    test(`at ${label} px every admin page fits the screen, passes axe and has 44 px tap targets`, async () => {
      const page = await e2e.newPage({ cookie: e2e.admin.cookie, viewport });
      const small: Record<string, string[]> = {};
      const checks: Record<string, string[]> = {};
      for (const route of adminRoutes()) {
        const { path, ready } = screenOf(route);
        await page.goto(new URL(path, e2e.server.url).href);
        await settle(page, ready);
        await checkScreen(page, `admin${path.replace(/\//g, '-')}-${label}`);
        const found = await smallTapTargets(page);
        if (found.length > 0) small[path] = found;
        const squeezed = await smallChecks(page);
        if (squeezed.length > 0) checks[path] = squeezed;
      }
      expect(small).toEqual({});
      // every checkbox and radio keeps its 24 px box, a long label beside it or not
      expect(checks).toEqual({});
    });

    test(`at ${label} px an event with three sign-up questions keeps its Email column readable, the table scrolling sideways`, async () => {
      const page = await e2e.openPage(`/admin/events/${ids.dinner}/attendees`, { cookie: e2e.admin.cookie, viewport });
      await expect.poll(() => page.locator('tr.vrow[data-attendee-id]').count()).toBe(2);
      await page.locator('td.col-answers', { hasText: 'Engineering' }).first().waitFor();
      await checkScreen(page, `admin-attendees-with-questions-${label}`);
      const emailWidth = await page.locator('th.col-email').evaluate((el) => el.getBoundingClientRect().width);
      expect(emailWidth).toBeGreaterThanOrEqual(160);
      const cells = await attendeeCells(page);
      expect(cells.filter((c) => c.cut)).toEqual([]);
    });

    test(`at ${label} px Settings › Users shows each role whole and breaks emails only after the @ or at a hyphen or dot`, async () => {
      const page = await e2e.openPage('/admin/settings', { cookie: e2e.admin.cookie, viewport });
      await page.getByRole('cell', { name: STAFF.name, exact: true }).waitFor();
      expect(await page.locator('select[id^="role-"]').count()).toBeGreaterThanOrEqual(3);
      expect(await clippedRoleSelects(page)).toEqual([]);
      expect(await badEmailBreaks(page, 'tr[data-user-id] td.cell-email')).toEqual([]);
    });
  }

  test('at 1280 px the attendee table shows every name and email whole, and the admin menu is one row', async () => {
    const page = await e2e.openPage(`/admin/events/${ids.event}/attendees`, { cookie: e2e.admin.cookie, viewport: LAPTOP });
    await expect.poll(() => page.locator('tr.vrow[data-attendee-id]').count()).toBe(PEOPLE.length);
    const cells = await attendeeCells(page);
    expect(cells.map((c) => c.text).sort()).toEqual(PEOPLE.flatMap((p) => [p.name, p.email]).sort());
    expect(cells.filter((c) => c.cut)).toEqual([]);
    const nav = page.getByRole('navigation', { name: 'Administration' });
    expect(await nav.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.getBoundingClientRect().height < 60)).toBe(true);
  });

  test('a row’s actions open from the keyboard, Edit opens a side panel, a bad email is marked at its field in plain words', async () => {
    const ruby = PEOPLE[0]!;
    const page = await e2e.openPage(`/admin/events/${ids.event}/attendees`, { cookie: e2e.admin.cookie, viewport: PHONE_390 });
    const menuButton = page.getByRole('button', { name: `Actions for ${ruby.name}` });
    await menuButton.focus();
    await page.keyboard.press('ArrowDown');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    expect(await menuButton.getAttribute('aria-expanded')).toBe('true');
    expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual(['Edit', 'History', 'Delete']);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Edit');
    await page.keyboard.press('End');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Delete');
    await page.keyboard.press('Escape');
    await expect.poll(() => menu.count()).toBe(0);
    expect(await menuButton.getAttribute('aria-expanded')).toBe('false');
    expect(await menuButton.evaluate((el) => el === document.activeElement)).toBe(true);

    await page.keyboard.press('Enter');
    await menu.getByRole('menuitem', { name: 'Edit' }).press('Enter');
    const panel = page.getByRole('dialog', { name: `Edit ${ruby.name}` });
    await panel.waitFor();
    const email = panel.getByLabel('Email');
    expect(await email.inputValue()).toBe(ruby.email);
    await email.fill('ruby.kowalczyk-henderson@');
    await panel.getByRole('button', { name: 'Save' }).click();
    await panel.getByText('Enter an email address like name@example.org.').waitFor();
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await email.evaluate((el) => el === document.activeElement)).toBe(true);
    await checkScreen(page, 'admin-attendee-edit-panel-390');

    await email.fill('ruby.h@example-university.ac.uk');
    expect(await email.getAttribute('aria-invalid')).toBeNull();
    await panel.getByRole('button', { name: 'Save' }).click();
    await page.getByText(`Saved ${ruby.name}.`).waitFor();
    await expect.poll(() => panel.count()).toBe(0);
    await page.getByRole('cell', { name: 'ruby.h@example-university.ac.uk' }).waitFor();
    expect(await menuButton.evaluate((el) => el === document.activeElement)).toBe(true);
  });

  test('staff sign in on a phone, land on the overview listing their event, and read the events list as cards at 390 px', async () => {
    const page = await e2e.openPage('/login', { viewport: PHONE_390 });
    await page.getByLabel('Email').fill(STAFF.email);
    await page.getByLabel('Password').fill(STAFF.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/admin');
    await page.getByRole('link', { name: 'Graduation ball of the School of Engineering' }).waitFor();

    await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Events' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/events');
    const table = page.locator('table.events-table');
    await table.locator('time').first().waitFor();
    await checkScreen(page, 'admin-events-staff-390');
    // no cell narrower than what it holds, its start time and its status each on one line
    const squeezed = await table.evaluate((el) =>
      [...el.querySelectorAll<HTMLElement>('tbody td')].flatMap((td) => {
        const problems: string[] = [];
        if (td.scrollWidth > td.clientWidth + 1) problems.push(`${td.className}: ${td.scrollWidth} px in ${td.clientWidth} px`);
        for (const part of td.querySelectorAll<HTMLElement>('time, .state'))
          if (part.getClientRects().length !== 1 || part.getBoundingClientRect().height > 2 * parseFloat(getComputedStyle(part).fontSize))
            problems.push(`${td.className}: “${part.textContent}” wraps`);
        return problems;
      }),
    );
    expect(squeezed).toEqual([]);
    expect(await table.getByText('Starts', { exact: true }).first().isVisible()).toBe(true);
  });

  test('the dashboard groups counts of a thousand and more the reader’s way: 1,080 in English, 1.080 in German', async () => {
    for (const [lang, going, waitlisted] of [
      ['en', '1,080', '120'],
      ['de', '1.080', '120'],
    ] as const) {
      const page = await e2e.openPage(`/admin/events/${ids.openDay}?lang=${lang}`, { cookie: e2e.admin.cookie, viewport: PHONE_390 });
      const values = page.locator('.stats .stat-value');
      await expect.poll(() => values.allInnerTexts()).toContain(going);
      expect(await values.allInnerTexts()).toContain(waitlisted);
      expect(await values.allInnerTexts()).not.toContain('1080');
    }
  });

  test('a booking type’s days off are date inputs, one per day, added and removed by button, saved as dates', async () => {
    const page = await e2e.openPage(`/admin/booking-types/${ids.bookingType}`, { cookie: e2e.admin.cookie, viewport: PHONE_390 });
    const days = page.getByRole('group', { name: 'Days off' });
    await days.locator('input[type="date"]').first().waitFor();
    expect(await page.locator('textarea#bt-daysoff').count()).toBe(0);
    expect(await days.locator('input[type="date"]').evaluateAll((els) => els.map((el) => (el as HTMLInputElement).value))).toEqual(DAYS_OFF);

    await days.getByRole('button', { name: 'Add a day off' }).click();
    const added = days.getByLabel('Day off 3');
    expect(await added.evaluate((el) => el === document.activeElement)).toBe(true);
    await added.fill('2099-12-25');
    await days.getByRole('button', { name: 'Remove day off 1' }).click();
    expect(await days.locator('input[type="date"]').evaluateAll((els) => els.map((el) => (el as HTMLInputElement).value))).toEqual([
      '2099-12-31',
      '2099-12-25',
    ]);
    await checkScreen(page, 'admin-booking-type-days-off-390');

    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(async () => (await e2e.admin.api.get(`/booking-types/${ids.bookingType}`)).body.daysOff).toEqual(['2099-12-25', '2099-12-31']);
  });
});
