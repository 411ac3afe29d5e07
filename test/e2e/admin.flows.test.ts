/**
 * The admin app in real Chromium against the real server: sign in, create an event and set its
 * reminder, create a booking type with weekly windows and see its slots in the preview, edit an attendee in a
 * 1,500-row virtual table and find the change in the list and the export, enter and cancel
 * a booking, create and revoke a door device, and what door staff may see (docs/api.md#auth).
 */
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { queryRows } from '../../server/db/client';
import { createHost } from '../helpers/booking';
import { createAttendee, createEvent, seedAttendees } from '../helpers/checkin';
import { useE2e } from '../helpers/e2e';
import { loginAs } from '../helpers/http';
import { signUp } from '../helpers/registration';

const e2e = useE2e({ env: { SVC_JOBS: 'off' }, login: true });

describe('admin app', () => {
  // first in the file: the server is still fresh (an administrator and nothing else)
  test("first run: the overview lists every step open, Settings propose the browser's zone and its region's currency with the searchable picker, and saving ticks those steps", async () => {
    const german = { locale: 'de-DE', timezoneId: 'Europe/Berlin' };
    const page = await e2e.openPage('/admin', { cookie: e2e.admin.cookie, context: german });
    await page.getByRole('heading', { name: 'Erste Schritte' }).waitFor();
    const states = () => page.locator('.setup-step .setup-state').allInnerTexts();
    await expect.poll(states).toEqual(Array(6).fill('Offen'));

    await page.getByRole('link', { name: 'Währung und Zeitzone wählen' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/settings');
    const zone = page.getByRole('combobox', { name: 'Standard-Zeitzone' });
    await expect.poll(() => zone.inputValue()).toContain('Berlin');
    expect(await page.getByLabel('Währung').inputValue()).toBe('EUR');
    await page.locator('#set-proposed').waitFor();
    // nothing is stored until the administrator saves
    expect((await e2e.admin.api.get('/settings')).body).toMatchObject({ currency: 'USD', currencyChosen: false, defaultTimeZone: 'UTC' });

    // the zone is found by typing, not typed as an IANA name
    await zone.click();
    await zone.fill('Lisbo');
    await page.getByRole('option', { name: /Lisbon/ }).waitFor();
    await zone.press('Enter');
    await expect.poll(() => zone.inputValue()).toContain('Lisbon');
    // the organization's name is the seller's (docs/decisions/050-organization-identity.md)
    await page.getByLabel('Name der Organisation').fill('Hall & Co');
    await page.getByRole('button', { name: 'Organisation speichern' }).click();
    await expect.poll(async () => (await e2e.admin.api.get('/settings/organization')).body.name).toBe('Hall & Co');
    await page.getByRole('button', { name: 'Einstellungen speichern' }).click();
    await expect
      .poll(async () => (await e2e.admin.api.get('/settings')).body)
      .toMatchObject({ currency: 'EUR', currencyChosen: true, defaultTimeZone: 'Europe/Lisbon', defaultTimeZoneChosen: true, sellerName: 'Hall & Co' });
    await page.locator('#set-proposed').waitFor({ state: 'detached' });

    await page.goto(new URL('/admin', e2e.server.url).href);
    await page.getByRole('heading', { name: 'Erste Schritte' }).waitFor();
    await expect.poll(states).toEqual(['Erledigt', 'Erledigt', 'Offen', 'Offen', 'Offen', 'Offen']);
    await page.getByText('2 von 6 Schritten erledigt').waitFor();

    // hidden by choice, it stays hidden in this browser
    await page.getByRole('button', { name: 'Liste ausblenden' }).click();
    await page.getByRole('heading', { name: 'Erste Schritte' }).waitFor({ state: 'detached' });
    await page.reload();
    await page.getByText('Angemeldet als', { exact: false }).first().waitFor();
    expect(await page.locator('#setup-heading').count()).toBe(0);

    // a new event now starts in the organization's zone
    await page.goto(new URL('/admin/events/new', e2e.server.url).href);
    await expect.poll(() => page.getByRole('combobox', { name: 'Zeitzone der Veranstaltung' }).inputValue()).toContain('Lisbon');

    // the currency saved for the test file's other tests is put back
    expect((await e2e.admin.api.patch('/settings', { currency: 'USD' })).status).toBe(200);
  });

  test('sign in, create an event from the form and land on its live dashboard', async () => {
    const page = await e2e.openPage('/admin/events/new');
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByLabel('Email').fill(e2e.server.admin.email);
    await page.getByLabel('Password').fill(e2e.server.admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/events/new');

    await page.getByLabel('Title').fill('Summer party');
    await page.getByLabel('Starts').fill('2030-07-01T19:00');
    await page.getByLabel('Capacity (seats)').fill('120');
    await page.getByRole('button', { name: 'Create event' }).click();
    await page.waitForURL((url) => /^\/admin\/events\/\d+$/.test(url.pathname));
    await page.getByRole('heading', { name: 'Summer party' }).waitFor();
    await expect.poll(() => page.locator('.stats').first().innerText()).toMatch(/0\s+seats checked in/);
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByText('Published').first().waitFor();

    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const stored = await e2e.admin.api.get(`/events/${id}`);
    expect(stored.body).toMatchObject({ title: 'Summer party', capacity: 120, status: 'published', waitlist: true });
  });

  test('attendees in bulk: add a comp ticket, select the waitlist, move it to going within capacity, message them and count the mails', async () => {
    const event = (
      await e2e.admin.api.post('/events', { title: 'Bulk night', startsUtc: '2030-08-01 19:00:00', capacity: 50, waitlist: true, status: 'published' })
    ).body;
    for (let i = 0; i < 50; i++) await createAttendee(e2e.db(), event.id, { status: 'waitlist', name: `Waiting ${String(i).padStart(2, '0')}` });
    const page = await e2e.openPage(`/admin/events/${event.id}/attendees`, { cookie: e2e.admin.cookie });
    await page.getByText('50 attendees').waitFor();

    await page.getByRole('button', { name: 'Add attendee' }).click();
    const add = page.locator('dialog[aria-labelledby="add-attendee-title"]');
    await add.getByLabel('Display name').fill('Comp Guest');
    await add.getByLabel('Email', { exact: true }).fill('comp-guest@example.test');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.getByText('Comp Guest was added.').waitFor();
    await page.getByText('51 attendees').waitFor();

    await page.getByLabel('Status').selectOption('waitlist');
    await page.getByText('50 attendees').waitFor();
    await page.getByLabel('Select Waiting 00').check();
    await page.getByText('1 selected').waitFor();
    await page.getByRole('button', { name: 'Select all 50 attendees that match' }).click();
    await page.getByText('50 selected').waitFor();
    await page.getByLabel('Action', { exact: true }).selectOption({ label: 'Move to going' });
    await page.getByRole('button', { name: 'Apply to 50 attendees' }).click();
    await page.getByRole('heading', { name: 'Move to going: 50 attendees?' }).waitFor();
    await page.locator('dialog').getByRole('button', { name: 'Move to going' }).click();
    await page.getByText('0 of 50 done…').waitFor();
    await e2e.server.server.ctx.jobs.runDue();
    // the comp ticket holds one of the 50 seats: 49 move, one stays on the waitlist
    await page.getByText('Move to going: 49 done, 1 not possible, 0 unchanged').waitFor();
    await page.getByRole('button', { name: 'Undo' }).waitFor();
    // the list reloads: one left on the waitlist
    await expect.poll(() => page.locator('p.status-text[role="status"]').innerText()).toMatch(/^1 attendee\b/);

    await page.getByRole('button', { name: 'Message attendees' }).click();
    const message = page.locator('dialog[aria-labelledby="message-title"]');
    await message.getByLabel('To', { exact: true }).selectOption({ label: 'Everyone going' });
    await message.getByLabel('Subject').fill('Doors open at seven');
    await message.getByLabel('Message', { exact: true }).fill('Please bring your ticket.');
    await page.getByRole('button', { name: 'Preview and count' }).click();
    await page.getByText('50 people get this mail').waitFor();
    await page.getByRole('button', { name: 'Send to 50 people' }).click();
    await page.getByText('50 mails are queued in the outbox.').waitFor();
    await e2e.server.server.ctx.jobs.runDue();
    const [mails] = await queryRows<{ n: number }>(e2e.db(), sql`select count(*)::int as n from svc_outbox where subject = 'Doors open at seven'`);
    expect(mails!.n).toBe(50);
  });

  test('the events list: search by title as you type, Upcoming / Past / Drafts, seats per row, and Duplicate opening the draft copy', async () => {
    const evening = (await e2e.admin.api.post('/events', { title: 'Tango evening', startsUtc: '2030-09-01 19:00:00', capacity: 40, status: 'published' })).body;
    await e2e.admin.api.post(`/events/${evening.id}/ticket-categories`, { name: 'Dancer' });
    expect((await signUp(e2e.server, evening.id, { quantity: 3 })).status).toBe(201);
    await e2e.admin.api.post('/events', { title: 'Tango archive', startsUtc: '2020-09-01 19:00:00', status: 'published' });
    await e2e.admin.api.post('/events', { title: 'Tango draft', startsUtc: '2030-10-01 19:00:00' });
    await e2e.admin.api.post('/events', { title: 'Salsa social', startsUtc: '2030-09-02 19:00:00', status: 'published' });

    const page = await e2e.openPage('/admin/events', { cookie: e2e.admin.cookie });
    await page.getByRole('link', { name: 'Salsa social' }).waitFor();
    const titles = () => page.locator('.events-table tbody tr a[id^="event-title-"]').allInnerTexts();

    await page.getByLabel('Search by title').pressSequentially('TAN');
    await expect.poll(titles).toEqual(['Tango archive', 'Tango evening', 'Tango draft']);
    expect(await page.getByRole('row', { name: /Tango evening/ }).innerText()).toContain('3 / 40');

    const show = page.getByLabel('Show');
    await show.selectOption({ label: 'Past' });
    await expect.poll(titles).toEqual(['Tango archive']);
    await show.selectOption({ label: 'Upcoming' });
    await expect.poll(titles).toEqual(['Tango evening', 'Tango draft']);
    await show.selectOption({ label: 'Drafts' });
    await expect.poll(titles).toEqual(['Tango draft']);
    await page.getByLabel('Search by title').fill('waltz');
    await page.getByText('No events match the search and filter.').waitFor();
    await page.getByLabel('Search by title').fill('');
    await show.selectOption({ label: 'All events' });
    await expect.poll(async () => (await titles()).includes('Salsa social')).toBe(true);

    await page
      .getByRole('row', { name: /Tango evening/ })
      .getByRole('button', { name: 'Duplicate' })
      .click();
    await page.waitForURL((url) => /^\/admin\/events\/\d+\/edit$/.test(url.pathname));
    await expect.poll(() => page.getByLabel('Title').inputValue()).toBe('Tango evening (copy)');
    const copyId = Number(new URL(page.url()).pathname.split('/')[3]);
    expect(copyId).not.toBe(evening.id);
    expect((await e2e.admin.api.get(`/events/${copyId}`)).body).toMatchObject({ status: 'draft', capacity: 40, seatsTaken: 0 });
    expect((await e2e.admin.api.get(`/events/${copyId}/ticket-categories`)).body.map((c: { name: string }) => c.name)).toEqual(['Dancer']);
  });

  test('the event form sets the reminder in hours before the start, or off', async () => {
    const event = (await e2e.admin.api.post('/events', { title: 'Reminder night', startsUtc: '2030-08-01 19:00:00' })).body;
    expect(event.reminderMinutes).toBe(1440);
    const page = await e2e.openPage(`/admin/events/${event.id}/edit`, { cookie: e2e.admin.cookie });
    const hours = page.getByLabel('Hours before the start');
    await expect.poll(() => hours.inputValue()).toBe('24');
    await hours.fill('1.5');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(async () => (await e2e.admin.api.get(`/events/${event.id}`)).body.reminderMinutes).toBe(90);

    await page.getByLabel('Mail going attendees a reminder').uncheck();
    await expect.poll(() => hours.count()).toBe(0);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(async () => (await e2e.admin.api.get(`/events/${event.id}`)).body.reminderMinutes).toBeNull();
  });

  test('the event form lets the waitlist move up by itself, offered only while the event has a waitlist', async () => {
    const event = (await e2e.admin.api.post('/events', { title: 'Waitlist night', startsUtc: '2030-08-01 19:00:00', capacity: 10 })).body;
    expect(event.waitlistPromotion).toBe('manual');
    const page = await e2e.openPage(`/admin/events/${event.id}/edit`, { cookie: e2e.admin.cookie });
    const promotion = page.getByLabel('When a seat frees up');
    await expect.poll(() => promotion.inputValue()).toBe('manual');
    await promotion.selectOption({ label: 'Give it to the waitlist and email them' });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(async () => (await e2e.admin.api.get(`/events/${event.id}`)).body.waitlistPromotion).toBe('auto');

    await page.getByLabel('Waitlist when full').uncheck();
    await expect.poll(() => promotion.count()).toBe(0);
  });

  test('a booking type with weekly windows shows its next slots in the visitor preview', async () => {
    await createHost(e2e.admin.api, 'Dana');
    const page = await e2e.openPage('/admin/booking-types/new', { cookie: e2e.admin.cookie });
    await page.getByLabel('Title').fill('Haircut');
    await page.getByLabel('Duration (minutes)').fill('30');
    // the searchable zone picker: typing the id and Enter chooses it
    await page.getByRole('combobox', { name: 'Time zone' }).fill('UTC');
    await page.keyboard.press('Enter');
    await page.getByLabel(/Dana/).check();

    await page.getByRole('button', { name: 'Add window on Monday' }).click();
    await page.getByLabel('Monday window 1 from').fill('08:00');
    await page.getByLabel('Monday window 1 from').blur();
    await page.getByRole('button', { name: 'Add window on Monday' }).click();
    await page.getByLabel('Monday window 2 from').fill('18:00');
    await page.getByLabel('Monday window 2 from').blur();
    await page.getByLabel('Monday window 2 until').fill('20:00');
    await page.getByLabel('Monday window 2 until').blur();
    await page.getByRole('button', { name: 'Copy to all from Monday' }).click();
    await expect.poll(() => page.locator('.window-item').count()).toBe(14);

    await page.getByRole('button', { name: 'Create booking type' }).click();
    await page.waitForURL((url) => /^\/admin\/booking-types\/\d+$/.test(url.pathname));
    await page.locator('.preview-slot').first().waitFor();
    expect(await page.locator('.preview-slot').count()).toBe(12);
    await page.getByText('Draft: visitors cannot book it yet').waitFor();

    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const stored = (await e2e.admin.api.get(`/booking-types/${id}`)).body;
    expect(stored.weeklyWindows.sun).toEqual([
      ['08:00', '17:00'],
      ['18:00', '20:00'],
    ]);
    // the preview shows what the public route answers for the same zone
    const tz = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    const slots = (await e2e.admin.api.get(`/booking-types/${id}/slots?tz=${encodeURIComponent(tz)}`)).body.slots as Array<{ start_utc: string }>;
    const shown = await page.locator('.preview-slot time').evaluateAll((els) => els.map((el) => el.getAttribute('datetime')));
    expect(shown).toEqual(slots.slice(0, 12).map((s) => new Date(`${s.start_utc.replace(' ', 'T')}Z`).toISOString()));
  });

  test('attendees: a 1,500-row table keeps the DOM small, searches as you type, sorts, and an inline edit shows in the list and the export', async () => {
    const event = await createEvent(e2e.db(), 'Big night');
    await seedAttendees(e2e.db(), event.id, 1500);
    const page = await e2e.openPage(`/admin/events/${event.id}/attendees`, { cookie: e2e.admin.cookie });
    await page.getByText('1,500 attendees').waitFor();
    await page.locator('tr.vrow[data-attendee-id]').first().waitFor();
    expect(await page.locator('tbody tr').count()).toBeLessThan(80);

    // scroll to the end: the last rows load (page 6 of 250) and render
    await page.locator('.vtable').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await page.getByRole('cell', { name: 'Guest 01500', exact: true }).waitFor();
    expect(await page.locator('tbody tr').count()).toBeLessThan(80);

    // sort by name, descending
    await page.locator('.vtable').evaluate((el) => el.scrollTo(0, 0));
    await page.getByRole('button', { name: /^Name/ }).click();
    await page.getByRole('button', { name: /^Name/ }).click();
    await expect.poll(() => page.locator('th.col-name').getAttribute('aria-sort')).toBe('descending');
    await expect.poll(() => page.locator('tr.vrow td.col-name').first().innerText()).toBe('Guest 01500');

    // status filter, then search as you type
    await page.getByLabel('Status').selectOption('waitlist');
    await page.getByText('150 attendees').waitFor();
    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('Search name or email').pressSequentially('guest1234@', { delay: 20 });
    await page.getByText('1 attendee', { exact: false }).waitFor();
    await expect.poll(() => page.locator('tr.vrow[data-attendee-id]').count()).toBe(1);

    await page.getByRole('button', { name: 'Actions for Guest 01234', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await page.getByLabel('Display name').fill('Grace Hopper');
    await page.getByLabel('Quantity').fill('3');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('✓ Saved Grace Hopper.').waitFor();
    await expect.poll(() => page.locator('tr.vrow td.col-name').first().innerText()).toBe('Grace Hopper');
    await expect.poll(() => page.locator('tr.vrow td.col-qty').first().innerText()).toBe('3');

    // the list route and the export link both carry the change
    const [row] = (await e2e.admin.api.get(`/attendees?eventId=${event.id}&search=Grace`)).body as Array<{ displayName: string; quantity: number }>;
    expect(row).toMatchObject({ displayName: 'Grace Hopper', quantity: 3 });
    const csvHref = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
    const csv = await (await page.request.get(new URL(csvHref!, e2e.server.url).href)).text();
    expect(csv).toContain('Grace Hopper');
    expect(csv.split('\n').filter((line) => line.trim() !== '')).toHaveLength(1501);
    const jsonHref = await page.getByRole('link', { name: 'Export JSON' }).getAttribute('href');
    const json = (await (await page.request.get(new URL(jsonHref!, e2e.server.url).href)).json()) as Array<{ displayName: string }>;
    expect(json.find((a) => a.displayName === 'Grace Hopper')).toBeTruthy();
    const xlsxHref = await page.getByRole('link', { name: 'Export Excel' }).getAttribute('href');
    const xlsx = await page.request.get(new URL(xlsxHref!, e2e.server.url).href);
    expect(xlsx.headers()['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await xlsx.body()) as unknown as Parameters<typeof workbook.xlsx.load>[0]);
    expect(workbook.getWorksheet('Attendees')!.rowCount).toBe(1501);
    expect(JSON.stringify(workbook.getWorksheet('Attendees')!.getSheetValues())).toContain('Grace Hopper');

    // a search after reload finds the saved name (the server has it, not just the page)
    await page.reload();
    await page.getByLabel('Search name or email').fill('Grace');
    await page.getByRole('cell', { name: 'Grace Hopper', exact: true }).waitFor();
  });

  test('check-in count, last check-in and a conflict flag per row; delete asks with the attendee’s name', async () => {
    const event = await createEvent(e2e.db(), 'Counts');
    await seedAttendees(e2e.db(), event.id, 3);
    const [first, second] = (await e2e.admin.api.get(`/attendees?eventId=${event.id}`)).body as Array<{ id: number }>;
    await e2e.admin.api.post('/checkins', { attendeeId: first!.id, eventId: event.id, scannedUtc: '2030-06-01 18:00:00' });
    await e2e.admin.api.post('/checkins', { attendeeId: first!.id, eventId: event.id, scannedUtc: '2030-06-01 18:20:00' });
    await queryRows(e2e.db(), sql`update svc_checkins set conflict = 'cancelled_before_scan' where attendee_id = ${first!.id}`);

    const page = await e2e.openPage(`/admin/events/${event.id}/attendees`, { cookie: e2e.admin.cookie });
    const row = page.locator(`tr[data-attendee-id="${first!.id}"]`);
    await expect.poll(() => row.locator('td.col-checkins').innerText()).toContain('2');
    expect(await row.locator('.flag-conflict').innerText()).toContain('conflict');
    expect(await row.locator('td.col-last time').getAttribute('datetime')).toBe('2030-06-01T18:20:00.000Z');
    await expect.poll(() => page.locator(`tr[data-attendee-id="${second!.id}"] td.col-checkins`).innerText()).toBe('0');

    await page.getByRole('button', { name: 'Actions for Guest 00002', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Delete Guest 00002 (guest2@example.test)?' }).waitFor();
    await dialog.getByRole('button', { name: 'Delete attendee' }).click();
    await page.getByText('2 attendees').waitFor();
    expect((await e2e.admin.api.get(`/attendees/${second!.id}`)).status).toBe(404);
  });

  test('the dashboard shows seat figures, the arrivals chart, devices and conflicts, and undoes a check-in', async () => {
    const event = await createEvent(e2e.db(), 'Dashboard night');
    await seedAttendees(e2e.db(), event.id, 4);
    const people = (await e2e.admin.api.get(`/attendees?eventId=${event.id}`)).body as Array<{ id: number }>;
    for (const p of people.slice(0, 2)) await e2e.admin.api.post('/checkins', { attendeeId: p.id, eventId: event.id });
    await e2e.admin.api.post('/devices', { name: 'East gate', eventIds: [event.id] });
    const page = await e2e.openPage(`/admin/events/${event.id}`, { cookie: e2e.admin.cookie });
    await expect.poll(() => page.locator('.stats').first().innerText()).toMatch(/2\s+seats checked in\s+4\s+seats going/);
    expect(await page.locator('.arrivals svg').getAttribute('aria-label')).toMatch(/2 scans/);
    await page.getByText('East gate').waitFor();
    await page.getByText('No conflicts.').waitFor();

    await page.locator('section[aria-labelledby="recent-heading"]').getByRole('button', { name: 'Undo check-in' }).first().click();
    await page.getByRole('dialog').getByRole('button', { name: 'Undo check-in' }).click();
    await expect.poll(() => page.locator('.stats').first().innerText()).toMatch(/1\s+seats checked in/);
  });

  test('bookings: an admin-entered booking is confirmed at once, shows in the list and the week, and cancels after confirmation', async () => {
    const host = await createHost(e2e.admin.api, 'Robin');
    const type = (
      await e2e.admin.api.post('/booking-types', {
        title: 'Tasting',
        status: 'published',
        durationMinutes: 60,
        timezone: 'UTC',
        hosts: [host],
        requiresApproval: true,
        weeklyWindows: {
          mon: [['09:00', '17:00']],
          tue: [['09:00', '17:00']],
          wed: [['09:00', '17:00']],
          thu: [['09:00', '17:00']],
          fri: [['09:00', '17:00']],
          sat: [['09:00', '17:00']],
          sun: [['09:00', '17:00']],
        },
      })
    ).body;
    const page = await e2e.openPage('/admin/bookings', { cookie: e2e.admin.cookie });
    await page.getByLabel('Booking type', { exact: true }).last().selectOption(String(type.id));
    await expect.poll(() => page.locator('#nb-slot option').count()).toBeGreaterThan(2);
    const slotValue = await page.locator('#nb-slot option').nth(1).getAttribute('value');
    await page.locator('#nb-slot').selectOption(slotValue!);
    await page.getByLabel('Customer name').fill('Ada Lovelace');
    await page.getByLabel('Customer email').fill('ada@example.test');
    await page.getByRole('button', { name: 'Book', exact: true }).click();
    await page.getByText('✓ Saved').waitFor();

    const row = page.getByRole('row', { name: /Ada Lovelace/ });
    await row.waitFor();
    expect(await row.innerText()).toContain('Confirmed'); // no approval step for an admin-entered booking

    await page.getByRole('button', { name: 'Week', exact: true }).click();
    // step forward to the week (Monday first, local time) that holds the booked slot
    const weeksAhead = await page.evaluate((startUtc) => {
      const monday = (ms: number) => {
        const d = new Date(ms);
        return new Date(d.getFullYear(), d.getMonth(), d.getDate() - ((d.getDay() + 6) % 7)).getTime();
      };
      return Math.round((monday(Date.parse(`${startUtc.replace(' ', 'T')}Z`)) - monday(Date.now())) / (7 * 86_400_000));
    }, slotValue!);
    for (let i = 0; i < weeksAhead; i++) await page.getByRole('button', { name: /Next week/ }).click();
    await expect.poll(() => page.locator('.calendar-item').innerText()).toContain('Ada Lovelace');
    expect(await page.locator('.calendar-day').count()).toBe(7);
    await page.getByRole('button', { name: 'List', exact: true }).click();

    await row.getByRole('button', { name: /Cancel/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: /Cancel the booking of Ada Lovelace/ }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel booking' }).click();
    await expect.poll(() => page.getByRole('row', { name: /Ada Lovelace/ }).innerText()).toContain('Cancelled');
    const [stored] = (await e2e.admin.api.get(`/bookings?bookingTypeId=${type.id}`)).body as Array<{ status: string }>;
    expect(stored!.status).toBe('cancelled');
  });

  test('door devices: create one, see its pairing QR and code, then revoke it after confirming its name', async () => {
    const event = await createEvent(e2e.db(), 'Gala');
    const page = await e2e.openPage('/admin/devices', { cookie: e2e.admin.cookie });
    await page.getByLabel('Device name').fill('North door');
    await page.getByLabel('Gala').check();
    await page.getByRole('button', { name: 'Create and show pairing code' }).click();
    await page.getByRole('heading', { name: 'Pair “North door”' }).waitFor();
    const qr = page.locator('.pairing-qr img');
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    const code = (await page.locator('.pairing-code').innerText()).trim();
    expect(await qr.getAttribute('alt')).toContain(code);
    await page.getByRole('button', { name: 'Done' }).click();

    // the code really pairs: the door gets a token
    const paired = await fetch(`${e2e.server.url}/svc/v1/devices/pair`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    expect(paired.status).toBe(200);
    const { token } = (await paired.json()) as { token: string };

    const row = page.getByRole('row', { name: /North door/ });
    await row.getByRole('button', { name: 'Revoke North door' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Revoke the device “North door”?' }).waitFor();
    await dialog.getByRole('button', { name: 'Revoke device' }).click();
    await expect.poll(() => row.innerText()).toContain('Revoked');

    const asDevice = await fetch(`${e2e.server.url}/svc/v1/checkins/counts?eventId=${event.id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(asDevice.status).toBe(401);
  });

  test('settings: change currency, hold hours and the seller, add a user, create an API token shown once', async () => {
    const page = await e2e.openPage('/admin/settings', { cookie: e2e.admin.cookie });
    await page.getByLabel('Currency').fill('eur');
    await page.getByLabel('Payment hold (hours)').fill('6');
    await page.getByLabel('Organization name').fill('Hall & Co Ltd');
    await page.getByRole('button', { name: 'Save organization' }).click();
    await expect.poll(async () => (await e2e.admin.api.get('/settings/organization')).body.name).toBe('Hall & Co Ltd');
    await page.getByLabel('Address').fill('1 Market Street\nLondon N1 1AA');
    await page.getByLabel('Tax ID').fill('GB123456789');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await expect
      .poll(async () => (await e2e.admin.api.get('/settings')).body)
      .toMatchObject({
        currency: 'EUR',
        paymentHoldHours: 6,
        sellerName: 'Hall & Co Ltd',
        sellerAddress: '1 Market Street\nLondon N1 1AA',
        sellerTaxId: 'GB123456789',
      });

    await page.locator('#nu-email').fill('kim@example.test');
    await page.locator('#nu-name').fill('Kim');
    await page.locator('#nu-role').selectOption('staff');
    await page.locator('#nu-password').fill('a long password');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByRole('cell', { name: 'kim@example.test' }).waitFor();

    await page.getByLabel('Token name').fill('CRM sync');
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = (await page.locator('.token-value').innerText()).trim();
    expect(token.length).toBeGreaterThan(20);
    const withToken = await fetch(`${e2e.server.url}/svc/v1/settings`, { headers: { authorization: `Bearer ${token}` } });
    expect(withToken.status).toBe(200);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.locator('.token-value').count()).toBe(0);
    await page.getByRole('cell', { name: 'CRM sync', exact: true }).waitFor();
  });

  test('door staff see only their events and attendees, read-only; no users, settings, devices or outbox', async () => {
    const mine = await createEvent(e2e.db(), 'Staff event');
    const other = await createEvent(e2e.db(), 'Someone else’s event');
    await seedAttendees(e2e.db(), mine.id, 2);
    const created = await e2e.admin.api.post('/users', {
      email: 'door@example.test',
      displayName: 'Door Staff',
      role: 'staff',
      password: 'a long password',
      eventIds: [mine.id],
    });
    expect(created.status).toBe(201);
    const staff = await loginAs(e2e.server.url, 'door@example.test', 'a long password');

    const page = await e2e.openPage('/admin', { cookie: staff.cookie });
    await page.getByText('Signed in as').waitFor();
    const nav = await page.getByRole('navigation', { name: 'Administration' }).innerText();
    expect(nav).toContain('Events');
    expect(nav).not.toMatch(/Settings|Door devices|Booking types|Bookings/);
    expect(await page.getByRole('heading', { name: 'Email outbox' }).count()).toBe(0);

    await page.goto(new URL('/admin/events', e2e.server.url).href);
    await page.getByRole('link', { name: 'Staff event' }).waitFor();
    expect(await page.getByRole('link', { name: 'Someone else’s event' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'New event' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Duplicate' }).count()).toBe(0);

    await page.goto(new URL(`/admin/events/${mine.id}/attendees`, e2e.server.url).href);
    await page.getByText('2 attendees').waitFor();
    await page.locator('tr.vrow[data-attendee-id]').first().waitFor();
    expect(await page.getByRole('button', { name: /^(Actions for|Edit|Delete)/ }).count()).toBe(0);

    for (const path of ['/admin/settings', '/admin/devices', '/admin/bookings', `/admin/events/${other.id}/edit`]) {
      await page.goto(new URL(path, e2e.server.url).href);
      await page.getByText('does not give access to this page').waitFor();
    }
  });
});
