/**
 * The door in the volunteer's language, offline: the pairing screen's menu chooses German, the
 * door goes offline and answers a scan in German (its clock, its counts), then switches to
 * Arabic with no network at all — both catalogues come from the service worker's cache — and
 * reads right to left: the verdict and the recent scans mirror, nothing is wider than a 390 px
 * phone, axe finds nothing serious. Back online, the scans made in both languages reach the server.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import type { CheckinDto } from '../../shared/checkin';
import { createAttendee, createEvent, type TestAttendee } from '../helpers/checkin';
import { expectVerdict, recordVerdicts } from '../helpers/door';
import { useE2e } from '../helpers/e2e';
import { checkScreen, PHONE_390 } from '../helpers/screens';

const e2e = useE2e({ env: { SVC_JOBS: 'off' }, login: true, context: { viewport: PHONE_390, locale: 'en-US' } });

const verdict = (page: Page) => page.locator('section.verdict');
const words = (text: string) => text.replace(/\s+/g, ' ').trim();

async function typeCode(page: Page, attendee: TestAttendee, label: string, button: string): Promise<void> {
  await page.getByLabel(label, { exact: true }).fill(attendee.ticketCode);
  await page.getByRole('button', { name: button, exact: true }).click();
}

/** The next verdict is `word`; focus moves into it so it stays on screen while it is checked; answers its text. */
async function holdVerdict(page: Page, word: string, name: string, nextScan: string): Promise<string> {
  await expectVerdict(page, word, name);
  await verdict(page).getByRole('button', { name: nextScan }).focus();
  return words(await verdict(page).innerText());
}

async function dismiss(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await verdict(page).waitFor({ state: 'detached' });
}

describe('the door in German and Arabic', () => {
  test('paired in German, a scan offline reads German; switched to Arabic still offline it reads right to left, fits 390 px, axe clean; online again every scan syncs', async () => {
    const event = await createEvent(e2e.db(), 'Hafenfest');
    const anna = await createAttendee(e2e.db(), event.id, { name: 'Anna Berg' });
    const omar = await createAttendee(e2e.db(), event.id, { name: 'Omar Haddad' });
    const created = await e2e.admin.api.post('/devices', { name: 'Nordeingang', eventIds: [event.id] });
    expect(created.status).toBe(201);

    const page = await e2e.newPage();
    await recordVerdicts(page);
    await page.goto(new URL('/door', e2e.server.url).href);

    // the pairing screen's own menu chooses German: the screen switches in place and the device keeps it
    await page.getByLabel('Language').selectOption('de');
    await page.getByRole('heading', { name: 'Dieses Gerät koppeln' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    await page.getByLabel('Kopplungscode').fill(created.body.pairing.pairingCode);
    await page.getByRole('button', { name: 'Gerät koppeln' }).click();
    await page.getByText('Dieses Gerät: Nordeingang').waitFor();
    await page.locator('.door-counts', { hasText: '0 eingecheckt / 2 angemeldet' }).waitFor();
    await page.getByText('Alle Scans synchronisiert').waitFor();
    expect((await page.context().cookies()).find((c) => c.name === 'svc_lang')?.value).toBe('de');
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 20_000 }).toBe(true);

    // offline: a scan answers in German, with the German clock (no AM/PM) and German counts
    await page.context().setOffline(true);
    await page.getByRole('status').filter({ hasText: 'Offline. Scannen funktioniert weiter' }).waitFor();
    await typeCode(page, anna, 'Ticketcode', 'Einchecken');
    await expectVerdict(page, 'OK', 'Anna Berg');
    await dismiss(page);
    await typeCode(page, anna, 'Ticketcode', 'Einchecken');
    const again = await holdVerdict(page, 'SCHON DRIN', 'Anna Berg', 'Nächster Scan');
    expect(again).toMatch(/Eingecheckt \d{1,2}:\d{2} \((gerade eben|vor \d+ Min\.)\) · Nordeingang/);
    expect(again).not.toMatch(/AM|PM/);
    await checkScreen(page, 'door-de-390-again');
    await dismiss(page);
    await page.getByText('2 noch nicht synchronisiert').waitFor();
    await page.locator('.door-counts', { hasText: '1 eingecheckt / 2 angemeldet' }).waitFor();

    // still offline, Arabic: its door and public catalogues can only come from the service worker's cache
    const catalogues: { url: string; fromWorker: boolean }[] = [];
    page.on('response', (r) => {
      if (/\/assets\/ar-[^/]+\.js$/.test(r.url())) catalogues.push({ url: r.url(), fromWorker: r.fromServiceWorker() });
    });
    await page.getByLabel('Sprache').selectOption('ar');
    await page.getByText('هذا الجهاز: Nordeingang').waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['ar', 'rtl']);
    expect(catalogues.length).toBeGreaterThanOrEqual(2);
    expect(catalogues.every((c) => c.fromWorker)).toBe(true);
    expect((await page.context().cookies()).find((c) => c.name === 'svc_lang')?.value).toBe('ar');
    await page.getByRole('status').filter({ hasText: 'دون اتصال.' }).waitFor();
    await checkScreen(page, 'door-ar-390-ready');

    // an Arabic verdict, mirrored: its buttons run right to left, the name stays readable Latin
    await typeCode(page, omar, 'رمز التذكرة', 'تسجيل الدخول');
    const ok = await holdVerdict(page, 'مقبول', 'Omar Haddad', 'المسح التالي');
    expect(ok).toContain('شخص واحد');
    const [undo, next] = await Promise.all(
      ['تراجع', 'المسح التالي'].map((name) =>
        verdict(page)
          .getByRole('button', { name })
          .evaluate((el) => el.getBoundingClientRect().left),
      ),
    );
    expect(undo!).toBeGreaterThan(next!);
    await checkScreen(page, 'door-ar-390-ok');
    await dismiss(page);
    await typeCode(page, anna, 'رمز التذكرة', 'تسجيل الدخول');
    expect(await holdVerdict(page, 'دخل من قبل', 'Anna Berg', 'المسح التالي')).toContain('Nordeingang');
    await checkScreen(page, 'door-ar-390-again');
    await dismiss(page);

    // the recent scans' coloured edge is on the inline start: the right, in Arabic
    const edge = await page
      .locator('.door-recent-item')
      .first()
      .evaluate((el) => [getComputedStyle(el).borderRightWidth, getComputedStyle(el).borderLeftWidth]);
    expect(edge).toEqual(['6px', '0px']);

    // online again: the four scans made offline in two languages reach the server once each
    await page.context().setOffline(false);
    await expect
      .poll(async () => (await e2e.admin.api.get<CheckinDto[]>(`/checkins?eventId=${event.id}&perPage=100`)).body.length, { timeout: 30_000 })
      .toBe(4);
    const rows = (await e2e.admin.api.get<CheckinDto[]>(`/checkins?eventId=${event.id}&perPage=100`)).body;
    expect(rows.filter((r) => r.attendeeId === anna.id)).toHaveLength(3);
    expect(rows.filter((r) => r.attendeeId === omar.id)).toHaveLength(1);
    expect(rows.every((r) => r.deviceId === created.body.id)).toBe(true);
    await page.getByText('تمت مزامنة كل عمليات المسح').waitFor({ timeout: 30_000 });
  });
});
