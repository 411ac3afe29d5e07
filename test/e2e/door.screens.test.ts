/**
 * The door's screens as a tired volunteer at a dark door sees them on a 390×844 phone, each one
 * a screenshot (test-results/screens), no wider than the screen and axe clean, and each one's
 * words asserted: the ready screen with "Check in" on one line, UNKNOWN and CANCELLED with what to
 * do next and the code that was read, AGAIN with the earlier entry's time, age and door, name
 * search at the top with who is already in, the offline bar, and the Needs-attention badge that
 * opens its list; and, while a long list is still downloading on a slow network, a ticket not on
 * the device yet: OK from the server online, an amber STILL LOADING with the real counts offline,
 * never UNKNOWN. One server.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { queryRows } from '../../server/db/client';
import { toUtcString } from '../../shared/time';
import { createAttendee, createEvent, pairedDoor, scan } from '../helpers/checkin';
import { expectVerdict, recordVerdicts } from '../helpers/door';
import { useE2e } from '../helpers/e2e';
import { checkScreen, PHONE_390 } from '../helpers/screens';

const LOCALE = 'en-US';
const TIME_ZONE = 'America/New_York';
const e2e = useE2e({ env: { SVC_JOBS: 'off' }, login: true, context: { viewport: PHONE_390, locale: LOCALE, timezoneId: TIME_ZONE } });

const verdict = (page: Page) => page.locator('section.verdict');
/** Whitespace as one space: the locale's clock puts a narrow no-break space before PM. */
const words = (text: string) => text.replace(/\s+/g, ' ').trim();
const clockOf = (ms: number) => words(new Intl.DateTimeFormat(LOCALE, { timeStyle: 'short', timeZone: TIME_ZONE }).format(ms));

async function typeCode(page: Page, code: string): Promise<void> {
  await page.getByLabel('Ticket code').fill(code);
  await page.getByRole('button', { name: 'Check in', exact: true }).click();
}

/**
 * The next verdict is `word`; the volunteer moves into it (so it stays for the screenshot
 * instead of closing by itself) and it is checked as a screen; answers its text.
 */
async function holdVerdict(page: Page, word: string, name?: string): Promise<string> {
  await expectVerdict(page, word, name);
  await verdict(page).getByRole('button', { name: 'Next scan' }).focus();
  return words(await verdict(page).innerText());
}

/** How many lines an element's text takes (its line boxes' distinct tops). */
const lineCount = (page: Page, selector: string) =>
  page.locator(selector).evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });

describe('door screens at 390 px', () => {
  test('each door screen says what to do: verdicts, name search with who is in, offline bar, Needs-attention badge', async () => {
    const event = await createEvent(e2e.db(), 'Harbour night');
    const bob = await createAttendee(e2e.db(), event.id, { name: 'Bob Harbour' });
    await createAttendee(e2e.db(), event.id, { name: 'Zelda Harbour' });
    const carl = await createAttendee(e2e.db(), event.id, { name: 'Carl Gone', status: 'cancelled' });
    const dana = await createAttendee(e2e.db(), event.id, { name: 'Dana Late' });
    // Bob came in 3 minutes ago at the other door
    const southScannedMs = Date.now() - 3 * 60_000;
    const south = await pairedDoor(e2e.server.url, e2e.admin.api, [event.id], 'South door');
    const pushed = await south.client.sync.push.mutate({ items: [scan(bob, { scannedUtc: toUtcString(southScannedMs) })] });
    expect(pushed.results[0]?.status).toBe('inserted');
    const created = await e2e.admin.api.post('/devices', { name: 'North door', eventIds: [event.id] });
    expect(created.status).toBe(201);
    // it registers walk-ins too: their section is one the status bar must not hide
    expect((await e2e.admin.api.patch(`/devices/${created.body.id}`, { walkIns: true })).status).toBe(200);

    const page = await e2e.newPage();
    await recordVerdicts(page);
    await page.goto(new URL(`/door#pair=${created.body.pairing.pairingCode}`, e2e.server.url).href);
    await page.locator('.door-counts', { hasText: '1 checked in / 3 going' }).waitFor();
    await page.getByText('All scans synced').waitFor();
    // seats, as the admin dashboard counts them, and said so
    expect(words(await page.locator('.door-counts').innerText())).toBe('Seats: 1 checked in / 3 going');
    // a paired door device's header shows only what the door needs: no Events, Door or Admin links
    expect(await page.getByRole('navigation', { name: 'Main' }).count()).toBe(0);

    // ready: "Check in" on one line beside the code field
    expect(await lineCount(page, '.door-checkin-button')).toBe(1);
    await checkScreen(page, 'door-390-ready');

    // UNKNOWN: what to do next and the code read, shortened
    await typeCode(page, 'NOT-A-REAL-TICKET-CODE-1234567890');
    const unknown = await holdVerdict(page, 'UNKNOWN');
    expect(unknown).toContain('This code is not on the list. Try name search.');
    expect(unknown).toContain('Code read: NOT-A-REAL…34567890');
    await checkScreen(page, 'door-390-verdict-unknown');
    await verdict(page).getByRole('button', { name: 'Next scan' }).click();
    await verdict(page).waitFor({ state: 'detached' });

    // CANCELLED: the same, with a ticket code short enough to show whole
    await typeCode(page, carl.ticketCode);
    const cancelled = await holdVerdict(page, 'CANCELLED', 'Carl Gone');
    expect(cancelled).toContain('This ticket was cancelled. Try name search: they may have booked again.');
    expect(cancelled).toContain(`Code read: ${carl.ticketCode}`);
    await checkScreen(page, 'door-390-verdict-cancelled');

    // "Try name search" leads to the search, at the top of the screen above where the keyboard opens
    await verdict(page).getByRole('button', { name: 'Try name search' }).click();
    await verdict(page).waitFor({ state: 'detached' });
    const search = page.getByLabel('Find by name or email');
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
    await search.fill('harb');
    await page.getByText('2 found').waitFor();
    const statusBottom = await page.locator('.door-status').evaluate((el) => el.getBoundingClientRect().bottom);
    await expect.poll(() => search.evaluate((el) => el.getBoundingClientRect().top)).toBeLessThan(statusBottom + 60);
    // an on-screen keyboard takes the lower ~40 % of a 844 px phone: the first two results stay above it
    const results = page.locator('.door-result');
    expect(await results.nth(1).evaluate((el) => el.getBoundingClientRect().bottom)).toBeLessThan(PHONE_390.height * 0.55);
    expect(words(await results.nth(0).innerText())).toContain(`Bob Harbour`);
    expect(words(await results.nth(0).innerText())).toContain(`In since ${clockOf(southScannedMs)}`);
    expect(words(await results.nth(1).innerText())).toContain('Zelda Harbour');
    expect(words(await results.nth(1).innerText())).toContain('Not in yet');
    await checkScreen(page, 'door-390-search');

    // AGAIN, picked from the results: the earlier entry's time on this device's clock, its age and door
    await results.nth(0).click();
    const again = await holdVerdict(page, 'AGAIN', 'Bob Harbour');
    const minutes = Number(/\((\d+) min\.? ago\)/.exec(again)?.[1]);
    // shown as "7:29 PM (3 min ago) · South door"; "Checked in" is read out to a screen reader
    expect(again).toContain(`Checked in ${clockOf(southScannedMs)} (`);
    expect(words(await verdict(page).locator('.door-sr-only').innerText())).toBe('Checked in');
    expect(again).toMatch(/ago\) · South door/);
    expect(minutes).toBeGreaterThanOrEqual(3);
    expect(minutes).toBeLessThanOrEqual(Math.floor((Date.now() - southScannedMs) / 60_000));
    await checkScreen(page, 'door-390-verdict-again');
    await verdict(page).getByRole('button', { name: 'Next scan' }).click();
    await verdict(page).waitFor({ state: 'detached' });
    await search.fill('');
    await search.blur();

    // offline: a full-width bar; a ticket cancelled meanwhile on the server is let in offline.
    // Every scan so far (refused ones too) is queued for the server's log: they are sent first, so
    // the one scan made offline is the only one not yet synced (on a busy machine they were not).
    await page.getByText('All scans synced').waitFor();
    await page.context().setOffline(true);
    const offlineBar = page.getByRole('status').filter({ hasText: 'Offline. Scanning still works; scans are sent when the network is back.' });
    await offlineBar.waitFor();
    const barWidth = await offlineBar.evaluate((el) => el.getBoundingClientRect().width);
    expect(barWidth).toBeGreaterThanOrEqual(PHONE_390.width - 20);
    await e2e.db().execute(sql`update svc_attendees set status = 'cancelled' where id = ${dana.id}`);
    await typeCode(page, dana.ticketCode);
    await expectVerdict(page, 'OK', 'Dana Late');
    await page.keyboard.press('Escape');
    await verdict(page).waitFor({ state: 'detached' });
    await page.getByText('1 not yet synced').waitFor();
    // one compact status while offline, not a stack of banners: the sync failure is the offline bar's news
    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect.poll(() => page.evaluate(() => document.querySelector('.door-status')!.getBoundingClientRect().height)).toBeLessThan(120);
    expect(await page.locator('.door-sync-error').count()).toBe(0);
    // a section scrolled to (Walk-ins) shows below the sticky status, not under it
    const walkIns = page.getByRole('heading', { name: 'Walk-ins' });
    await walkIns.evaluate((el) => el.closest('section')!.scrollIntoView({ block: 'start' }));
    const walkInsTop = await walkIns.evaluate((el) => el.getBoundingClientRect().top);
    expect(walkInsTop).toBeGreaterThanOrEqual(await page.locator('.door-status').evaluate((el) => el.getBoundingClientRect().bottom - 1));
    expect(walkInsTop).toBeLessThan(PHONE_390.height);
    expect(await walkIns.evaluate((el) => el.contains(document.elementFromPoint(40, el.getBoundingClientRect().top + 5)))).toBe(true);
    await checkScreen(page, 'door-390-offline');
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await page.locator('.door-status').evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(120);
    await checkScreen(page, 'door-1280-offline');
    await page.setViewportSize(PHONE_390);

    // back online: the server flags the scan; the badge counts it and opens the list
    await page.context().setOffline(false);
    const badge = page.getByRole('button', { name: /Needs attention 1/ });
    await badge.waitFor({ timeout: 30_000 });
    expect(await offlineBar.count()).toBe(0);
    await badge.click();
    const heading = page.getByRole('heading', { name: 'Needs attention' });
    await expect.poll(() => heading.evaluate((el) => el === document.activeElement)).toBe(true);
    // in view, and not under the sticky status bar
    const box = await heading.evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect);
    expect(box.top).toBeGreaterThanOrEqual(await page.locator('.door-status').evaluate((el) => el.getBoundingClientRect().bottom - 1));
    expect(box.bottom).toBeLessThanOrEqual(PHONE_390.height);
    expect(words(await page.locator('.door-attention').innerText())).toMatch(/Dana Late was let in at .+ but (was cancelled before the scan|is cancelled)/);
    await checkScreen(page, 'door-390-needs-attention');

    // "Forget this device" asks first, in a modal dialog; keeping it changes nothing
    await page.getByText('All scans synced').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Forget this device' }).click();
    const ask = page.getByRole('dialog', { name: 'Forget this device?' });
    await ask.waitFor();
    expect(await ask.innerText()).toContain('stops being a door until an administrator pairs it again');
    await expect.poll(() => ask.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    await checkScreen(page, 'door-390-forget-ask');
    await ask.getByRole('button', { name: 'Keep it paired' }).click();
    await ask.waitFor({ state: 'hidden' });
    expect(await page.getByText('This device: North door').count()).toBe(1);
    // asked again and confirmed: the device is forgotten, back to pairing, and the header's links are back
    await page.getByRole('button', { name: 'Forget this device' }).click();
    await ask.getByRole('button', { name: 'Forget this device' }).click();
    await page.getByRole('heading', { name: 'Pair this device' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allInnerTexts()).toEqual(['Events', 'Door', 'Admin']);
  });

  test('while the list is still downloading, a ticket not on the device yet is asked of the server online and is STILL LOADING offline, never UNKNOWN', async () => {
    const event = await createEvent(e2e.db(), 'Long list night');
    // 10,000 guests fill the first download page; the two named ones come in the second
    await e2e.db().execute(sql`
      insert into svc_attendees (event_id, email, display_name, quantity, status, cancel_token, ticket_code, ticket_code_hash)
      select ${event.id}, 'filler' || g || '@example.test', 'Filler ' || g, 1, 'going', 'cancel-' || ${event.id} || '-' || g || '-' || md5(random()::text),
             'FILL-' || ${event.id} || '-' || g, encode(sha256(convert_to('FILL-' || ${event.id} || '-' || g, 'UTF8')), 'hex')
      from generate_series(1, 10000) g`);
    const early = await createAttendee(e2e.db(), event.id, { name: 'Erin Early' });
    const late = await createAttendee(e2e.db(), event.id, { name: 'Lou Later' });
    const created = await e2e.admin.api.post('/devices', { name: 'Gate 3', eventIds: [event.id] });
    expect(created.status).toBe(201);

    const page = await e2e.newPage();
    await recordVerdicts(page);
    // a slow phone network: the list's later pages wait until released
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const laterPage = (url: URL) => {
      if (!url.pathname.includes('sync.download')) return false;
      // tRPC batches queries: `input` is {"0": {"json": {...}}, ...}
      const input = JSON.parse(url.searchParams.get('input') ?? '{}') as Record<string, { json?: { afterId?: number } }>;
      return Object.values(input).some((call) => (call.json?.afterId ?? 0) > 0);
    };
    await page.context().route(laterPage, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(new URL(`/door#pair=${created.body.pairing.pairingCode}`, e2e.server.url).href);
    await page.getByText('Downloading attendees… 10,000 so far.').waitFor({ timeout: 60_000 });

    // online: the door asks the server for the one code and admits her
    await typeCode(page, early.ticketCode);
    await expectVerdict(page, 'OK', 'Erin Early');
    await page.keyboard.press('Escape');
    await verdict(page).waitFor({ state: 'detached' });

    // offline: amber, with the real counts grouped, and nothing recorded
    await page.context().setOffline(true);
    await typeCode(page, late.ticketCode);
    const loading = await holdVerdict(page, 'STILL LOADING');
    expect(loading).toContain('Still loading the guest list (10,000 of 10,002) — try again in a moment');
    expect(loading).not.toContain('UNKNOWN');
    expect(await verdict(page).evaluate((el) => el.classList.contains('verdict-again'))).toBe(true);
    await checkScreen(page, 'door-390-verdict-loading');
    await verdict(page).getByRole('button', { name: 'Next scan' }).click();
    await verdict(page).waitFor({ state: 'detached' });
    await page.getByText('1 not yet synced').waitFor();

    // the network and the rest of the list come back: her scan is stored once, and Lou is on the list
    await page.context().setOffline(false);
    release();
    await page.getByText('All scans synced').waitFor({ timeout: 60_000 });
    await page.locator('.door-counts', { hasText: '1 checked in / 10,002 going' }).waitFor({ timeout: 60_000 });
    await typeCode(page, late.ticketCode);
    await expectVerdict(page, 'OK', 'Lou Later');
    // "All scans synced" may still be on screen from before this scan: wait for the server's row itself
    const checkedIn = async () =>
      (
        await queryRows<{ attendeeId: number }>(e2e.db(), sql`select attendee_id as "attendeeId" from svc_checkins where event_id = ${event.id} order by id`)
      ).map((r) => Number(r.attendeeId));
    await expect.poll(checkedIn, { timeout: 30_000 }).toEqual([early.id, late.id]);
    await page.getByText('All scans synced').waitFor({ timeout: 30_000 });
    const counts = (await e2e.admin.api.get<{ checkedIn: number; scans: number }>(`/checkins/counts?eventId=${event.id}`)).body;
    expect(counts).toMatchObject({ checkedIn: 2, scans: 2 });
  });
});
