/**
 * The admin app offline (issue 8 item 6, decision 012) in real Chromium against the real
 * server: sign in, keep an event offline, lose the network and reload — the attendee list
 * comes from this browser's synced cache with an "Offline — as of" notice, and search works;
 * edit two attendees offline while someone changes one of the same fields on the server;
 * back online, the queued edits are reconciled: the non-conflicting edits land, the field
 * changed on both sides keeps the server's value, and the page names the conflict.
 */
import { describe, expect, test } from 'vitest';
import { createEvent, seedAttendees } from '../helpers/checkin';
import { seriousViolations, useE2e } from '../helpers/e2e';

const e2e = useE2e({ env: { SVC_JOBS: 'off' }, login: true });

describe('admin app offline', () => {
  test('keep an event offline, read and search it offline after a reload, edit offline, and reconcile with a server change (server wins, the admin is told)', async () => {
    const event = await createEvent(e2e.db(), 'Harbour gala');
    const rows = await seedAttendees(e2e.db(), event.id, 40);
    const idOf = (name: string) => rows.find((r) => r.display_name === name)!.id;
    const three = idOf('Guest 00003');
    const five = idOf('Guest 00005');

    const listPath = `/admin/events/${event.id}/attendees`;

    // sign in through the form
    const page = await e2e.openPage(listPath);
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByLabel('Email').fill(e2e.server.admin.email);
    await page.getByLabel('Password').fill(e2e.server.admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === listPath);
    await page.getByText('40 attendees').waitFor();

    // keep it offline: the first download lands in this browser's own database
    await page.getByLabel('Keep this event offline in this browser').check();
    await page.getByText(/Available offline · synced/).waitFor();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 20_000 }).toBe(true);

    // offline, reload: the app starts from the service worker and the list from the cache
    await page.context().setOffline(true);
    const reload = await page.reload();
    expect(reload?.fromServiceWorker()).toBe(true);
    const offlineNotice = page.locator('.notice-offline');
    await offlineNotice.waitFor();
    expect(await offlineNotice.innerText()).toMatch(/^Offline — as of /);
    await page.getByText('40 attendees').waitFor();
    await page.getByRole('heading', { name: 'Attendees' }).waitFor();
    await page.getByRole('link', { name: 'Harbour gala' }).waitFor();
    // destructive actions need the server: no delete offline
    await page.getByRole('button', { name: 'Actions for Guest 00001', exact: true }).click();
    expect(await page.getByRole('menu').getByRole('menuitem').allInnerTexts()).toEqual(['Edit']);
    await page.keyboard.press('Escape');

    // search, filter and sort run over the cache
    await page.getByLabel('Search name or email').fill('guest7@');
    await page.getByText('1 attendee', { exact: true }).waitFor();
    await expect.poll(() => page.locator('tr.vrow[data-attendee-id] .col-name').allInnerTexts()).toEqual(['Guest 00007']);
    await page.getByLabel('Search name or email').fill('');
    await page.getByLabel('Status').selectOption('waitlist');
    await page.getByText('4 attendees').waitFor();
    await page.getByLabel('Status').selectOption('');
    await page.getByText('40 attendees').waitFor();

    expect(await seriousViolations(page)).toEqual([]);

    // two edits offline: a name and a quantity; an email
    await page.getByRole('button', { name: 'Actions for Guest 00003', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await page.getByLabel('Display name').fill('Guest Three');
    await page.getByLabel('Quantity').fill('2');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved Guest Three offline').waitFor();
    await page.getByRole('button', { name: 'Actions for Guest 00005', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await page.getByLabel('Email', { exact: true }).fill('five@example.test');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved Guest 00005 offline').waitFor();
    await expect.poll(() => page.locator('.badge-pending').count()).toBe(2);
    await page.getByText('2 edits waiting to be sent').waitFor();

    // meanwhile someone renames Guest 00003 on the server
    const renamed = await e2e.admin.api.patch(`/attendees/${three}`, { displayName: 'Guest 3 (front desk)' });
    expect(renamed.status).toBe(200);

    // back online: the queue is reconciled and sent
    await page.context().setOffline(false);
    const attention = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'Needs attention' }) });
    await attention.waitFor();
    const text = await attention.innerText();
    expect(text).toContain('Guest 00003');
    expect(text).toContain('the server kept its display name “Guest 3 (front desk)” (your offline edit: “Guest Three”)');
    expect(text).toContain('Saved: quantity.');
    await expect.poll(() => page.locator('.notice-offline').count()).toBe(0);

    const stored3 = (await e2e.admin.api.get(`/attendees/${three}`)).body;
    expect(stored3).toMatchObject({ displayName: 'Guest 3 (front desk)', quantity: 2 });
    const stored5 = (await e2e.admin.api.get(`/attendees/${five}`)).body;
    expect(stored5).toMatchObject({ displayName: 'Guest 00005', email: 'five@example.test' });

    // the list shows the server's values, nothing pending; the notice can be dismissed
    await expect.poll(() => page.locator('.badge-pending').count()).toBe(0);
    await page.locator(`tr[data-attendee-id="${three}"]`).getByText('Guest 3 (front desk)').waitFor();
    await page.getByRole('button', { name: 'Dismiss the notice about Guest 00003' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Needs attention' }).count()).toBe(0);
  });
});
