/**
 * The door PWA in real Chromium against the real server: pair by the QR link, download the
 * event, go offline, reload (the app still starts), scan by typed code, by the camera (the fake
 * camera shows a QR video made here) and by name, close the browser and reopen the same profile
 * offline, scan again, go online — and the server holds every scan exactly once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { CheckinCounts, CheckinDto } from '../../shared/checkin';
import { launchBrowser, launchPersistentContext } from '../helpers/browser';
import { createAttendee, createEvent, type TestAttendee } from '../helpers/checkin';
import { loginAs } from '../helpers/http';
import { writeQrY4m } from '../helpers/qr-video';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let admin: Awaited<ReturnType<typeof loginAs>>;
let workDir: string;
let context: BrowserContext | undefined;
let pageErrors: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ client: true, env: { SVC_JOBS: 'off' } });
  admin = await loginAs(server.url, server.admin.email, server.admin.password);
  workDir = mkdtempSync(path.join(tmpdir(), 'svc-door-e2e-'));
});

afterAll(async () => {
  await context?.close();
  await server?.close();
  rmSync(workDir, { recursive: true, force: true });
});

afterEach(() => {
  const errors = pageErrors;
  pageErrors = [];
  expect(errors, 'uncaught errors in the page').toEqual([]);
});

const db = () => server.server.ctx.db;

function fakeCameraArgs(video: string): string[] {
  return ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${video}`];
}

async function openProfile(profile: string, video: string, offline = false): Promise<Page> {
  context = await launchPersistentContext(profile, { args: fakeCameraArgs(video), viewport: { width: 360, height: 740 }, offline });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return page;
}

const verdict = (page: Page) => page.locator('section.verdict');

async function expectVerdict(page: Page, word: string, name?: string): Promise<string> {
  await verdict(page).locator('.verdict-word', { hasText: new RegExp(`^${word}$`) }).waitFor();
  const text = await verdict(page).innerText();
  if (name) expect(text).toContain(name);
  return text;
}

/** Escape dismisses the verdict (a no-op if it already went by itself: no race with auto-dismiss). */
async function dismiss(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await verdict(page).waitFor({ state: 'detached' });
}

async function typeCode(page: Page, attendee: TestAttendee): Promise<void> {
  await page.getByLabel('Ticket code').fill(attendee.ticketCode);
  await page.getByRole('button', { name: 'Check in', exact: true }).click();
}

async function runAxe(page: Page): Promise<Array<{ id: string; impact: string; nodes: unknown[] }>> {
  await page.addScriptTag({ path: path.resolve('node_modules/axe-core/axe.min.js') });
  const result = await page.evaluate(async () => {
    const r = await (window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> } }).axe.run();
    return r.violations;
  });
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

describe('door PWA offline', () => {
  test('pair, download, scan offline by code, camera and name across a reload and a browser restart; the server stores each scan once', async () => {
    const event = await createEvent(db(), 'Night market');
    const alice = await createAttendee(db(), event.id, { name: 'Alice Archer' });
    const bob = await createAttendee(db(), event.id, { name: 'Bob Camera' });
    const zelda = await createAttendee(db(), event.id, { name: 'Zelda Quartz' });
    const dora = await createAttendee(db(), event.id, { name: 'Dora Gone', status: 'cancelled' });
    const created = await admin.api.post('/devices', { name: 'North gate', eventIds: [event.id] });
    expect(created.status).toBe(201);
    const video = path.join(workDir, 'bob.y4m');
    writeQrY4m(video, bob.ticketCode);
    const profile = path.join(workDir, 'profile');

    // pair through the QR link; the code leaves the address bar
    let page = await openProfile(profile, video);
    await page.goto(new URL(`/door#pair=${created.body.pairing.pairingCode}`, server.url).href);
    await page.getByText('This device: North gate').waitFor();
    expect(new URL(page.url()).hash).toBe('');
    await page.locator('.door-counts', { hasText: '0 checked in / 3 going' }).waitFor();
    await page.getByText('All scans synced').waitFor();
    await page.getByText(/Last sync: just now/).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await runAxe(page)).toEqual([]);
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 20_000 }).toBe(true);

    // offline, reload: the app still starts, from the service worker, with the list on the device
    await context!.setOffline(true);
    const reload = await page.reload();
    expect(reload?.fromServiceWorker()).toBe(true);
    await page.getByText('This device: North gate').waitFor();
    await page.locator('.door-chip', { hasText: 'Offline' }).waitFor();

    // typed code: OK, then AGAIN with the first scan's door; a cancelled ticket is refused
    await typeCode(page, alice);
    await expectVerdict(page, 'OK', 'Alice Archer');
    expect(await runAxe(page)).toEqual([]);
    await dismiss(page);
    await typeCode(page, alice);
    expect(await expectVerdict(page, 'AGAIN', 'Alice Archer')).toMatch(/Checked in before: .+ at North gate/);
    await verdict(page).getByRole('button', { name: 'Next scan' }).click();
    await verdict(page).waitFor({ state: 'detached' });
    await typeCode(page, dora);
    await expectVerdict(page, 'CANCELLED', 'Dora Gone');
    await dismiss(page);

    // the camera: the fake camera shows Bob's QR code; held up, it is one scan
    await page.getByRole('button', { name: 'Scan with camera' }).click();
    await expectVerdict(page, 'OK', 'Bob Camera');
    await page.getByRole('button', { name: 'Close camera' }).click();
    await verdict(page).waitFor({ state: 'detached' }); // OK dismisses itself

    // name search, offline
    await page.getByLabel('Find by name or email').fill('zel');
    await page.getByRole('button', { name: /Zelda Quartz/ }).click();
    await expectVerdict(page, 'OK', 'Zelda Quartz');
    await dismiss(page);
    await page.getByText('5 not yet synced').waitFor();
    await page.locator('.door-counts', { hasText: '3 checked in / 3 going' }).waitFor();
    expect((await admin.api.get(`/checkins?eventId=${event.id}`)).body).toEqual([]);

    // close the browser, reopen the same profile with no network: the queue is still there
    await context!.close();
    context = undefined;
    page = await openProfile(profile, video, true);
    const reopened = await page.goto(new URL('/door', server.url).href);
    expect(reopened?.fromServiceWorker()).toBe(true);
    await page.getByText('5 not yet synced').waitFor();
    await typeCode(page, alice);
    await expectVerdict(page, 'AGAIN', 'Alice Archer');
    await dismiss(page);
    await page.getByText('6 not yet synced').waitFor();

    // back online: everything goes up once
    await context!.setOffline(false);
    await page.getByText('All scans synced').waitFor({ timeout: 30_000 });

    const rows = (await admin.api.get<CheckinDto[]>(`/checkins?eventId=${event.id}&perPage=100`)).body;
    const perAttendee = (a: TestAttendee) => rows.filter((r) => r.attendeeId === a.id).length;
    expect(rows).toHaveLength(5);
    expect(new Set(rows.map((r) => r.clientId)).size).toBe(5);
    expect([perAttendee(alice), perAttendee(bob), perAttendee(zelda), perAttendee(dora)]).toEqual([3, 1, 1, 0]);
    expect(rows.every((r) => r.deviceId === created.body.id && r.conflict === null)).toBe(true);
    expect(rows.filter((r) => r.attendeeId === bob.id).map((r) => r.source)).toEqual(['scan']);
    expect(rows.filter((r) => r.attendeeId === zelda.id).map((r) => r.source)).toEqual(['search']);
    expect(rows.filter((r) => r.attendeeId === alice.id).map((r) => r.source)).toEqual(['manual', 'manual', 'manual']);
    const counts = (await admin.api.get<CheckinCounts>(`/checkins/counts?eventId=${event.id}`)).body;
    expect(counts).toMatchObject({ attendeesGoing: 3, checkedIn: 3, scans: 5, conflicts: 0, rejectedScans: 1 });

    // a second sync sends nothing twice
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.getByText(/Last sync: just now/).waitFor();
    expect((await admin.api.get<CheckinDto[]>(`/checkins?eventId=${event.id}&perPage=100`)).body).toHaveLength(5);
  });

  test('undo of a synced scan annuls the check-in on the server; a revoked device says so with its unsynced count', async () => {
    const event = await createEvent(db(), 'Undo night');
    const erin = await createAttendee(db(), event.id, { name: 'Erin Undo' });
    const fay = await createAttendee(db(), event.id, { name: 'Fay Later' });
    const created = await admin.api.post('/devices', { name: 'South gate', eventIds: [event.id] });
    const video = path.join(workDir, 'erin.y4m');
    writeQrY4m(video, erin.ticketCode);
    const page = await openProfile(path.join(workDir, 'profile-undo'), video);
    await page.goto(new URL(`/door#pair=${created.body.pairing.pairingCode}`, server.url).href);
    await page.locator('.door-counts', { hasText: '0 checked in / 2 going' }).waitFor();

    await typeCode(page, erin);
    await expectVerdict(page, 'OK', 'Erin Undo');
    await page.getByText('All scans synced').waitFor();
    await expect.poll(async () => (await admin.api.get<CheckinDto[]>(`/checkins?eventId=${event.id}`)).body.length).toBe(1);
    // undo from the recent scans list (the verdict may have dismissed itself meanwhile)
    await dismiss(page);
    await page.getByRole('button', { name: 'Undo check-in of Erin Undo' }).click();
    await page.locator('.door-counts', { hasText: '0 checked in / 2 going' }).waitFor();
    await expect.poll(async () => (await admin.api.get<CheckinDto[]>(`/checkins?eventId=${event.id}`)).body[0]?.annulledUtc ?? null).not.toBeNull();

    await context!.setOffline(true);
    await typeCode(page, fay);
    await expectVerdict(page, 'OK', 'Fay Later');
    await dismiss(page);
    expect((await admin.api.delete(`/devices/${created.body.id}`)).status).toBe(204);
    await context!.setOffline(false);
    await page.getByRole('alert').filter({ hasText: 'This device was revoked by an administrator.' }).waitFor();
    await page.getByText('1 scan was not synced').waitFor();
    // aria-disabled (not disabled): it keeps focus and tells why when pressed
    await page.getByRole('button', { name: 'Forget this device' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Not while scans are unsynced').waitFor();
    await context!.close();
    context = undefined;
  });

  test('the pairing page explains a wrong code and has no serious accessibility violation', async () => {
    const browser = await launchBrowser();
    try {
      const ctx = await browser.newContext({ viewport: { width: 360, height: 740 } });
      const page = await ctx.newPage();
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.goto(new URL('/door', server.url).href);
      await page.getByRole('heading', { name: 'Pair this device' }).waitFor();
      expect(await runAxe(page)).toEqual([]);
      await page.getByLabel('Pairing code').fill('ABCD-EFGH');
      await page.getByRole('button', { name: 'Pair device' }).click();
      await page.getByRole('alert').filter({ hasText: 'unknown, expired or already used' }).waitFor();
    } finally {
      await browser.close();
    }
  });
});
