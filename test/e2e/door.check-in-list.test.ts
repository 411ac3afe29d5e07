/**
 * A check-in list at the door in real Chromium against the real server (docs/decisions/029-check-in-lists.md):
 * a VIP-only device admits a VIP ticket and refuses a General admission one OFFLINE with
 * "Wrong ticket type", names the category on the verdict, counts per category, and once back
 * online the refusal reaches the server's scan log while only the VIP ticket is checked in.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { queryRows } from '../../server/db/client';
import type { CheckinCounts, CheckinDto } from '../../shared/checkin';
import { launchPersistentContext } from '../helpers/browser';
import { createCategory, setCategory } from '../helpers/categories';
import { createAttendee, createEvent, type TestAttendee } from '../helpers/checkin';
import { expectVerdict, recordVerdicts } from '../helpers/door';
import { LAPTOP, PHONE, seriousViolations, useE2e } from '../helpers/e2e';
import type { Page } from 'playwright-core';

const e2e = useE2e({ env: { SVC_JOBS: 'off' }, login: true });
let workDir: string;
beforeAll(() => {
  workDir = mkdtempSync(path.join(tmpdir(), 'svc-door-list-'));
});
afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

async function typeCode(page: Page, attendee: TestAttendee): Promise<void> {
  await page.getByLabel('Ticket code').fill(attendee.ticketCode);
  await page.getByRole('button', { name: 'Check in', exact: true }).click();
}

async function dismiss(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await page.locator('section.verdict').waitFor({ state: 'detached' });
}

describe('a VIP-only door', () => {
  test('admits a VIP ticket and refuses a General admission one offline with "Wrong ticket type"; after reconnect the refusal is synced', async () => {
    const event = await createEvent(e2e.db(), 'Gala with two doors');
    const vip = await createCategory(e2e.db(), event.id, 'VIP', 0);
    const general = await createCategory(e2e.db(), event.id, 'General admission', 1);
    const vera = await createAttendee(e2e.db(), event.id, { name: 'Vera Velvet' });
    const gus = await createAttendee(e2e.db(), event.id, { name: 'Gus General' });
    await setCategory(e2e.db(), vera.id, vip.id);
    await setCategory(e2e.db(), gus.id, general.id);
    await e2e.db().execute(sql`update svc_attendees set quantity = 2 where id = ${vera.id}`);
    const created = await e2e.admin.api.post('/devices', { name: 'VIP entrance', eventIds: [event.id], categoryIds: [vip.id] });
    expect(created.status).toBe(201);

    const context = await launchPersistentContext(path.join(workDir, 'profile'), { viewport: PHONE });
    await recordVerdicts(context);
    const page = e2e.track(context.pages()[0] ?? (await context.newPage()));
    await page.goto(new URL(`/door#pair=${created.body.pairing.pairingCode}`, e2e.server.url).href);
    await page.getByText('This device: VIP entrance').waitFor();
    // the list and the names came with the first sync: seats per ticket type (Vera's party is 2)
    await page.locator('.door-category-counts', { hasText: 'VIP: 0 / 2' }).waitFor();
    await page.locator('.door-category-counts', { hasText: 'General admission: 0 / 1' }).waitFor();
    await page.getByText('All scans synced').waitFor();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 20_000 }).toBe(true);

    await context.setOffline(true);
    await page.getByRole('status').filter({ hasText: 'Offline. Scanning still works' }).waitFor();
    await typeCode(page, vera);
    expect(await expectVerdict(page, 'OK', 'Vera Velvet')).toContain('VIP · 2 people');
    await dismiss(page);
    await typeCode(page, gus);
    const refused = await expectVerdict(page, 'WRONG TICKET TYPE', 'Gus General');
    expect(refused).toContain('Wrong ticket type — General admission');
    expect(refused).toContain('This door admits VIP.');
    expect(await seriousViolations(page)).toEqual([]);
    await dismiss(page);
    await page.locator('.door-category-counts', { hasText: 'VIP: 2 / 2' }).waitFor();
    await page.locator('.door-category-counts', { hasText: 'General admission: 0 / 1' }).waitFor();
    // the refusal is queued like every scan
    await page.getByText('2 not yet synced').waitFor();
    expect((await e2e.admin.api.get<CheckinDto[]>(`/checkins?eventId=${event.id}`)).body).toEqual([]);

    await context.setOffline(false);
    await page.getByText('All scans synced').waitFor({ timeout: 30_000 });
    const rows = (await e2e.admin.api.get<CheckinDto[]>(`/checkins?eventId=${event.id}`)).body;
    expect(rows.map((r) => [r.attendeeId, r.deviceId])).toEqual([[vera.id, created.body.id]]);
    const logged = await queryRows<{ attendee_id: number; reason: string; verdict_on_device: string }>(
      e2e.db(),
      sql`select attendee_id, reason, verdict_on_device from svc_scan_log where event_id = ${event.id}`,
    );
    expect(logged).toEqual([{ attendee_id: gus.id, reason: 'wrong_category', verdict_on_device: 'wrong_category' }]);
    const counts = (await e2e.admin.api.get<CheckinCounts>(`/checkins/counts?eventId=${event.id}`)).body;
    expect(counts.categories.map((c) => [c.name, c.checkedIn, c.attendeesGoing])).toEqual([
      ['VIP', 1, 1],
      ['General admission', 0, 1],
    ]);
    await context.close();
  });

  test('an administrator gives a new device a check-in list from the chosen event’s ticket types, then changes it', async () => {
    const event = await createEvent(e2e.db(), 'Gala with a list editor');
    const vip = await createCategory(e2e.db(), event.id, 'VIP lounge', 0);
    const general = await createCategory(e2e.db(), event.id, 'Standing', 1);
    const page = await e2e.openPage('/admin/devices', { viewport: LAPTOP, cookie: e2e.admin.cookie });
    const form = page.locator('form', { has: page.getByRole('button', { name: 'Create and show pairing code' }) });
    await form.getByLabel('Device name').fill('Lounge door');
    await form.getByLabel(event.title, { exact: true }).check();
    await form.getByLabel(`VIP lounge (${event.title})`).check();
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Create and show pairing code' }).click();
    await page
      .getByRole('heading', { name: /Lounge door/ })
      .first()
      .waitFor();
    const device = () =>
      e2e.admin.api.get<Array<{ name: string; categoryIds: number[] | null }>>('/devices').then((r) => r.body.find((d) => d.name === 'Lounge door'));
    await expect.poll(async () => (await device())?.categoryIds).toEqual([vip.id]);
    await page
      .getByRole('row', { name: /Lounge door/ })
      .getByText('VIP lounge')
      .waitFor();

    await page.getByRole('button', { name: 'Change the ticket types of Lounge door' }).click();
    const editor = page.getByRole('region', { name: 'Ticket types Lounge door admits' });
    await editor.getByLabel(`Standing (${event.title})`).check();
    await editor.getByRole('button', { name: 'Save check-in list' }).click();
    await page.getByText('The check-in list of Lounge door is saved').waitFor();
    expect((await device())?.categoryIds).toEqual([vip.id, general.id].sort((a, b) => a - b));
  });
});
