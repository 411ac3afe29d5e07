/**
 * The booking page in the visitor's language (issue 28): a German link (`?lang=de`, on a phone set
 * to British English) reads German
 * labels, 24-hour times, the price in German money format and a time-zone picker that finds
 * "Ostküstenzeit"; an Arabic one lays out right to left with the month navigation mirrored, no
 * horizontal overflow at 390 px and no axe violation, each ending on the confirmation.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { dayInZone } from '../../client/visitor/time';
import { parseUtcString } from '../../shared/time';
import { createHost, createType, disableIpThrottle, futureStart, uniqueEmail } from '../helpers/booking';
import { useE2e } from '../helpers/e2e';
import { checkScreen, horizontalOverflow, PHONE_390 } from '../helpers/screens';
import { phoneProfile } from '../helpers/visitor-e2e';

const VISITOR_TZ = 'America/New_York';
const HOST_TZ = 'Europe/London';
const e2e = useE2e({ env: { SVC_JOBS: 'off' }, login: true, context: { ...phoneProfile({ timezoneId: VISITOR_TZ }), viewport: PHONE_390 } });
let restoreThrottle: () => void;

beforeAll(() => {
  restoreThrottle = disableIpThrottle(e2e.server.server.ctx.hooks);
});
afterAll(() => restoreThrottle?.());

/** Opens the slot's day (moving months with the button named `next`) and presses its time. */
async function pickSlot(page: Page, startUtc: string, next: string): Promise<void> {
  const day = dayInZone(parseUtcString(startUtc)!, VISITOR_TZ);
  for (let i = 0; i < 3 && (await page.locator(`[data-day="${day}"]`).count()) === 0; i += 1) {
    await page.getByRole('button', { name: next }).click();
  }
  await page.locator(`[data-day="${day}"]`).click();
  await page.locator(`[data-start="${startUtc}"]`).click();
}

const clockIn = (locale: string, utc: string) =>
  new Intl.DateTimeFormat(locale, { timeZone: VISITOR_TZ, hour: '2-digit', minute: '2-digit' }).format(parseUtcString(utc)!);

describe('booking page in the visitor’s language', () => {
  test('a German link books in German with 24-hour times and German money; an Arabic one books right to left, mirrored, without overflow or axe violations', async () => {
    const host = await createHost(e2e.admin.api);
    const type = await createType(e2e.admin.api, {
      title: 'Beratung',
      hosts: [host],
      timezone: HOST_TZ,
      durationMinutes: 30,
      priceCents: 2500,
      locationMode: 'in_person',
    });
    // 19:00 UTC is an afternoon in New York: a 12-hour clock would say PM
    const start = futureStart(2, 19);

    // German: the organizer's ?lang=de link, opened on an English phone
    const de = await e2e.openPage(`/book/${type.id}?lang=de`);
    await de.locator('.v-day.has-slots').first().waitFor();
    expect(await de.evaluate(() => document.documentElement.lang)).toBe('de');
    await de.getByRole('heading', { name: 'Zeit wählen' }).waitFor();
    expect(await de.locator('.v-book-summary').innerText()).toContain('30 Minuten');
    // the server's default label of the mode (English) reads in German
    expect(await de.locator('.v-book-summary').innerText()).toContain('Vor Ort');
    expect(await de.locator('.v-book-summary').innerText()).toMatch(/25,00\s/);
    expect(await de.locator('.v-tz-line').innerText()).toMatch(/^Zeiten in America\/New York · Ändern/);

    // the searchable zone picker speaks German: "Ostküstenzeit" finds New York
    await de.getByRole('button', { name: 'Ändern (Zeitzone)' }).click();
    const zoneField = de.getByRole('combobox', { name: 'Ihre Zeitzone' });
    await zoneField.fill('Ostküstenzeit');
    await de.getByRole('option', { name: /^New York \(Nordamerikanische Ostküstenzeit\) UTC−0[45]:00$/ }).waitFor();
    await zoneField.press('Escape');
    expect(await zoneField.getAttribute('aria-expanded')).toBe('false');

    await pickSlot(de, start, 'Nächster Monat');
    const deSlot = de.locator(`[data-start="${start}"]`);
    expect((await deSlot.innerText()).trim()).toBe(clockIn('de', start));
    expect(await de.locator('.v-slots').innerText()).not.toMatch(/AM|PM/);
    expect(await de.locator('.v-chosen').innerText()).toMatch(/Gewählt: .*\(London\)\n.* bei Ihnen/);
    await de.getByLabel('Ihr Name').fill('Greta Gast');
    await de.getByLabel('E-Mail').fill(uniqueEmail('de'));
    await de.getByRole('button', { name: /^Diese Zeit buchen · 25,00\s/ }).click();
    await de.getByRole('heading', { name: 'Sie sind gebucht' }).waitFor();
    const deResult = await de.locator('#book-result').innerText();
    expect(deResult).toContain('Wie es weitergeht');
    expect(deResult).toContain(clockIn('de', start));
    expect(deResult).toMatch(/25,00\s\S+ – Sie zahlen vor Ort\./);
    await checkScreen(de, 'visitor-book-de-booked-390');

    // Arabic: right to left, the month navigation mirrored, nothing wider than the phone, axe clean
    const other = futureStart(2, 20);
    const ar = await e2e.openPage(`/book/${type.id}?lang=ar`);
    await ar.locator('.v-day.has-slots').first().waitFor();
    expect(await ar.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['ar', 'rtl']);
    await ar.getByRole('heading', { name: 'اختر وقتًا' }).waitFor();
    const previous = await ar.getByRole('button', { name: 'الشهر السابق' }).boundingBox();
    const next = await ar.getByRole('button', { name: 'الشهر التالي' }).boundingBox();
    expect(previous!.x, '"previous month" on the right in rtl').toBeGreaterThan(next!.x);
    // the calendar's first column (Monday) is on the right
    const firstDay = await ar.locator('.v-cal thead th').first().boundingBox();
    const lastDay = await ar.locator('.v-cal thead th').last().boundingBox();
    expect(firstDay!.x).toBeGreaterThan(lastDay!.x);
    await checkScreen(ar, 'visitor-book-ar-calendar-390');

    await ar.getByRole('button', { name: 'تغيير المنطقة الزمنية' }).click();
    await ar.getByRole('combobox', { name: 'منطقتك الزمنية' }).fill('+9');
    await ar
      .getByRole('option', { name: /^طوكيو|Tokyo/ })
      .first()
      .waitFor();
    expect(await horizontalOverflow(ar)).toBe(0);
    await checkScreen(ar, 'visitor-book-ar-zone-picker-390');
    await ar.getByRole('combobox', { name: 'منطقتك الزمنية' }).press('Escape');

    await pickSlot(ar, other, 'الشهر التالي');
    await ar.getByLabel('اسمك').fill('سلمى');
    await ar.getByLabel('البريد الإلكتروني').fill(uniqueEmail('ar'));
    await ar.getByRole('button', { name: /^احجز هذا الوقت/ }).click();
    await ar.getByRole('heading', { name: 'تم حجزك' }).waitFor();
    expect(await ar.locator('#book-result').innerText()).toContain('بتوقيتك');
    expect(await horizontalOverflow(ar)).toBe(0);
    await checkScreen(ar, 'visitor-book-ar-booked-390');
  });
});
