/**
 * Ticket categories and promo codes on an event's edit page, in real Chromium against the real
 * server (docs/api.md#tickets): what the admin types in main units, percent and the event's own
 * clock is stored as integer cents, basis points and UTC; a refusal is shown at its field; a
 * delete asks first. The browser runs in New York and the event in London, so a time read on
 * the viewer's clock would be stored five hours off.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { useE2e } from '../helpers/e2e';
import { createEvent } from '../helpers/registration';
import { checkScreen, PHONE_390 } from '../helpers/screens';

const e2e = useE2e({ env: { SVC_JOBS: 'off' }, login: true, context: { timezoneId: 'America/New_York', locale: 'en-GB' } });

/** The stored categories and vouchers of an event, as the API answers them. */
async function stored(eventId: number) {
  const categories = await e2e.admin.api.get(`/events/${eventId}/ticket-categories`);
  const vouchers = await e2e.admin.api.get(`/events/${eventId}/vouchers`);
  expect([categories.status, vouchers.status]).toEqual([200, 200]);
  return { categories: categories.body as Array<Record<string, unknown>>, vouchers: vouchers.body as Array<Record<string, unknown>> };
}

async function addCategory(page: Page, fill: (form: ReturnType<Page['getByRole']>) => Promise<void>): Promise<void> {
  await page.getByRole('button', { name: 'Add a ticket type' }).click();
  const form = page.getByRole('form', { name: 'New ticket type' });
  await fill(form);
  await form.getByRole('button', { name: 'Add ticket type' }).click();
  await form.waitFor({ state: 'detached' });
}

describe('ticket categories and promo codes on the event form', () => {
  let eventId: number;

  beforeAll(async () => {
    expect((await e2e.admin.api.patch('/settings', { currency: 'EUR' })).status).toBe(200);
    eventId = (await createEvent(e2e.admin.api, { title: 'Jazz night', timezone: 'Europe/London', capacity: 100 })).id;
  });

  test('an admin adds two categories (one hidden) and a 20 % code for the hidden one; the server stores integer cents, basis points and UTC', async () => {
    const page = await e2e.openPage(`/admin/events/${eventId}/edit`, { cookie: e2e.admin.cookie });
    await page.getByRole('heading', { level: 2, name: 'Ticket types' }).waitFor();
    await page.getByText('No ticket types yet.').waitFor();

    await addCategory(page, async (form) => {
      await form.getByLabel('Name', { exact: true }).fill('Standard');
      await form.getByLabel('Price (EUR)').fill('18.00');
      await form.getByLabel('Tax rate (%)').fill('19');
      await form.getByLabel('Quota').fill('80');
      // 19:30 in London in June is 18:30 UTC (and 14:30 on this browser's New York clock)
      await form.getByLabel('On sale until').fill('2030-06-01T19:30');
    });
    const rows = page.locator('tr[data-category-id]');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().innerText()).toMatch(/Standard[\s\S]*€18\.00[\s\S]*incl\. 19% tax[\s\S]*0 of 80 sold/);
    // after a save the focus is back on the button that opens the form
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('tickets-add');

    await addCategory(page, async (form) => {
      await form.getByLabel('Name', { exact: true }).fill('Backstage');
      await form.getByLabel('Price (EUR)').fill('45.5');
      await form.getByLabel('Hidden: sold only with a code that unlocks it').check();
    });
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(1).innerText()).toMatch(/Backstage\s+Hidden[\s\S]*€45\.50[\s\S]*0 sold/);

    await page.getByRole('button', { name: 'Add a promo code' }).click();
    const voucherForm = page.getByRole('form', { name: 'New promo code' });
    await voucherForm.getByLabel('Code', { exact: true }).fill('jazz20');
    await voucherForm.getByLabel('Percentage off (%)').fill('20');
    await voucherForm.getByLabel('Backstage (hidden)').check();
    await voucherForm.getByLabel('Unlocks the hidden ticket types it applies to').check();
    await voucherForm.getByLabel('Tickets in all').fill('50');
    await voucherForm.getByRole('button', { name: 'Add code' }).click();
    const voucherRows = page.locator('tr[data-voucher-id]');
    await expect.poll(() => voucherRows.count()).toBe(1);
    expect(await voucherRows.first().innerText()).toMatch(/jazz20[\s\S]*20% off[\s\S]*Backstage[\s\S]*Unlocks hidden ticket types[\s\S]*0 of 50 tickets/);

    const { categories, vouchers } = await stored(eventId);
    expect(categories).toMatchObject([
      {
        name: 'Standard',
        priceCents: 1800,
        taxRateBp: 1900,
        taxMode: 'included',
        quota: 80,
        hidden: false,
        saleStartsUtc: null,
        saleEndsUtc: '2030-06-01 18:30:00',
      },
      { name: 'Backstage', priceCents: 4550, taxRateBp: 0, quota: null, hidden: true },
    ]);
    expect(vouchers).toMatchObject([
      { code: 'jazz20', kind: 'percent', value: 2000, categoryIds: [categories[1]!.id], unlocksHidden: true, maxUses: 50, maxUsesPerEmail: null },
    ]);
    await checkScreen(page, 'admin-event-tickets-1280');
  });

  test('a price that is not an amount is refused at its field before sending; an empty name is refused by the server at its field', async () => {
    const page = await e2e.openPage(`/admin/events/${eventId}/edit`, { cookie: e2e.admin.cookie });
    await page.getByRole('button', { name: 'Add a ticket type' }).click();
    const form = page.getByRole('form', { name: 'New ticket type' });
    const price = form.getByLabel('Price (EUR)');
    await price.fill('-5');
    let creates = 0;
    page.on('request', (request) => {
      if (request.url().includes('tickets.createCategory')) creates++;
    });
    await form.getByRole('button', { name: 'Add ticket type' }).click();
    await form.getByText('An amount of 0 or more with at most two decimals, like 18.00.').waitFor();
    expect(await price.getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('category-form-priceCents');
    expect(creates).toBe(0);

    await price.fill('5');
    await form.getByRole('button', { name: 'Add ticket type' }).click();
    const name = form.getByLabel('Name', { exact: true });
    await form.getByText('Give the ticket type a name (at most 190 characters).').waitFor();
    expect(creates).toBe(1);
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await price.getAttribute('aria-invalid')).toBeNull();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('category-form-name');
    // the error is read with the field
    expect(await name.getAttribute('aria-describedby')).toBe('category-form-name-error');

    await form.getByRole('button', { name: 'Cancel' }).click();
    expect((await stored(eventId)).categories.map((c) => c.name)).toEqual(['Standard', 'Backstage']);
  });

  test("editing a category's price and a code's percentage stores the new cents and basis points; a delete asks with the name first, then removes it", async () => {
    const page = await e2e.openPage(`/admin/events/${eventId}/edit`, { cookie: e2e.admin.cookie });
    const rows = page.locator('tr[data-category-id]');
    await expect.poll(() => rows.count()).toBe(2);

    await page.getByRole('button', { name: 'Edit Standard' }).click();
    const form = page.getByRole('form', { name: 'Edit “Standard”' });
    // what was stored is shown on the event's clock, not the browser's
    expect(await form.getByLabel('On sale until').inputValue()).toBe('2030-06-01T19:30');
    expect(await form.getByLabel('Tax rate (%)').inputValue()).toBe('19');
    await form.getByLabel('Price (EUR)').fill('19.99');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => rows.first().innerText()).toContain('€19.99');
    expect((await stored(eventId)).categories[0]).toMatchObject({ name: 'Standard', priceCents: 1999, taxRateBp: 1900, saleEndsUtc: '2030-06-01 18:30:00' });

    await page.getByRole('button', { name: 'Delete Standard' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Delete the ticket type “Standard”?' }).waitFor();
    // asking changes nothing
    expect((await stored(eventId)).categories).toHaveLength(2);
    await dialog.getByRole('button', { name: 'Delete ticket type' }).click();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain('Backstage');
    expect((await stored(eventId)).categories.map((c) => c.name)).toEqual(['Backstage']);

    // the code opens with what was stored: 2000 basis points read as 20
    await page.getByRole('button', { name: 'Edit code jazz20' }).click();
    const voucherForm = page.getByRole('form', { name: 'Edit the code jazz20' });
    expect(await voucherForm.getByLabel('Percentage off (%)').inputValue()).toBe('20');
    expect(await voucherForm.getByLabel('Backstage (hidden)').isChecked()).toBe(true);
    await voucherForm.getByLabel('Percentage off (%)').fill('12.5');
    await voucherForm.getByRole('button', { name: 'Save changes' }).click();
    const voucherRows = page.locator('tr[data-voucher-id]');
    await expect.poll(() => voucherRows.first().innerText()).toContain('12.5% off');
    expect((await stored(eventId)).vouchers[0]).toMatchObject({ code: 'jazz20', value: 1250, maxUses: 50 });

    await page.getByRole('button', { name: 'Delete code jazz20' }).click();
    await dialog.getByRole('heading', { name: 'Delete the code jazz20?' }).waitFor();
    await dialog.getByRole('button', { name: 'Delete code' }).click();
    await page.getByText('No promo codes yet.').waitFor();
    expect((await stored(eventId)).vouchers).toEqual([]);
  });

  test('the editors work from the keyboard: Enter on Add puts the focus in Name, Enter in a field saves, Escape closes a delete question and deletes nothing', async () => {
    const page = await e2e.openPage(`/admin/events/${eventId}/edit`, { cookie: e2e.admin.cookie });
    const rows = page.locator('tr[data-category-id]');
    await expect.poll(() => rows.count()).toBe(1);
    const focused = () => page.evaluate(() => document.activeElement?.id);

    await page.getByRole('button', { name: 'Add a ticket type' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(focused).toBe('category-form-name');
    await page.keyboard.type('Student');
    await page.keyboard.press('Tab'); // the description
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('category-form-priceCents');
    await page.keyboard.type('9.90');
    await page.keyboard.press('Enter');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(1).innerText()).toMatch(/Student[\s\S]*€9\.90/);
    await expect.poll(focused).toBe('tickets-add');

    await page.getByRole('button', { name: 'Delete Student' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Delete the ticket type “Student”?' }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect((await stored(eventId)).categories).toMatchObject([{ name: 'Backstage' }, { name: 'Student', priceCents: 990 }]);
  });

  test('on a 390 px phone the sections and their forms fit the screen and pass axe', async () => {
    const page = await e2e.openPage(`/admin/events/${eventId}/edit`, { cookie: e2e.admin.cookie, viewport: PHONE_390 });
    await expect.poll(() => page.locator('tr[data-category-id]').count()).toBe(2);
    await page.getByRole('button', { name: 'Add a ticket type' }).click();
    await page.getByRole('button', { name: 'Add a promo code' }).click();
    await page.getByRole('form', { name: 'New promo code' }).waitFor();
    await checkScreen(page, 'admin-event-tickets-390');
  });

  test('in Arabic on a phone the sections read right to left, in Arabic, with prices in the Arabic form of the currency, and fit the screen', async () => {
    const ar = JSON.parse(readFileSync(join(process.cwd(), 'client/i18n/admin/ar.json'), 'utf8')) as Record<string, string>;
    // ?lang= chooses the language for this page's context only
    const page = await e2e.openPage(`/admin/events/${eventId}/edit?lang=ar`, { cookie: e2e.admin.cookie, viewport: PHONE_390 });
    await page.getByRole('heading', { level: 2, name: ar['admin.tickets.heading']! }).waitFor();
    await page.getByRole('heading', { level: 2, name: ar['admin.vouchers.heading']! }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['ar', 'rtl']);
    const rows = page.locator('tr[data-category-id]');
    await expect.poll(() => rows.count()).toBe(2);
    const price = await page.evaluate(() => new Intl.NumberFormat('ar', { style: 'currency', currency: 'EUR' }).format(45.5));
    expect(await rows.first().innerText()).toContain(price);
    await page.getByRole('button', { name: ar['admin.tickets.add']! }).click();
    await page.getByRole('form', { name: ar['admin.tickets.addTitle']! }).waitFor();
    await checkScreen(page, 'admin-ar-390-event-tickets');
  });

  test("after the event's time zone is changed and saved, a new sale window is read on the new zone's clock", async () => {
    const other = (await createEvent(e2e.admin.api, { title: 'Tokyo launch', timezone: 'Europe/London' })).id;
    const page = await e2e.openPage(`/admin/events/${other}/edit`, { cookie: e2e.admin.cookie });
    await page.getByText('No ticket types yet.').waitFor();
    await page.getByRole('combobox', { name: 'Event time zone' }).fill('Asia/Tokyo');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(async () => (await e2e.admin.api.get(`/events/${other}`)).body.timezone).toBe('Asia/Tokyo');

    await addCategory(page, async (form) => {
      await form.getByLabel('Name', { exact: true }).fill('Launch seat');
      expect(await form.getByText('In the event’s time zone (Asia/Tokyo); empty for no limit.').count()).toBe(2);
      // Tokyo is UTC+9 all year
      await form.getByLabel('On sale until').fill('2030-06-01T19:30');
    });
    expect((await stored(other)).categories).toMatchObject([{ name: 'Launch seat', priceCents: 0, saleEndsUtc: '2030-06-01 10:30:00' }]);
  });
});
