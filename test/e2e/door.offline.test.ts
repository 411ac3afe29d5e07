/**
 * The door PWA in real Chromium against the real server: pair by the QR link, download the
 * event, go offline, reload (the app still starts), scan by typed code, by the camera (the fake
 * camera shows a QR video made here) and by name, close the browser and reopen the same profile
 * offline, scan again, go online — and the server holds every scan exactly once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import type { CheckinCounts, CheckinDto } from '../../shared/checkin';
import { launchPersistentContext } from '../helpers/browser';
import { createAttendee, createEvent, type TestAttendee } from '../helpers/checkin';
import { expectVerdict, recordVerdicts } from '../helpers/door';
import { PHONE, seriousViolations, useE2e } from '../helpers/e2e';
import { writeQrY4m } from '../helpers/qr-video';

const e2e = useE2e({ env: { SVC_JOBS: 'off' }, login: true });
let workDir: string;

beforeAll(() => {
  workDir = mkdtempSync(path.join(tmpdir(), 'svc-door-e2e-'));
});

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

function fakeCameraArgs(video: string): string[] {
  return ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${video}`];
}

async function openProfile(profile: string, video: string, offline = false): Promise<Page> {
  const context = await launchPersistentContext(profile, { args: fakeCameraArgs(video), viewport: PHONE, offline });
  await recordVerdicts(context);
  return e2e.track(context.pages()[0] ?? (await context.newPage()));
}

const verdict = (page: Page) => page.locator('section.verdict');

/** Escape dismisses the verdict (a no-op if it already went by itself: no race with auto-dismiss). */
async function dismiss(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await verdict(page).waitFor({ state: 'detached' });
}

async function typeCode(page: Page, attendee: TestAttendee): Promise<void> {
  await page.getByLabel('Ticket code').fill(attendee.ticketCode);
  await page.getByRole('button', { name: 'Check in', exact: true }).click();
}

describe('door PWA offline', () => {
  test('pair, download, scan offline by code, camera and name across a reload and a browser restart; the server stores each scan once', async () => {
    const event = await createEvent(e2e.db(), 'Night market');
    const alice = await createAttendee(e2e.db(), event.id, { name: 'Alice Archer' });
    const bob = await createAttendee(e2e.db(), event.id, { name: 'Bob Camera' });
    const zelda = await createAttendee(e2e.db(), event.id, { name: 'Zelda Quartz' });
    const dora = await createAttendee(e2e.db(), event.id, { name: 'Dora Gone', status: 'cancelled' });
    const created = await e2e.admin.api.post('/devices', { name: 'North gate', eventIds: [event.id] });
    expect(created.status).toBe(201);
    const video = path.join(workDir, 'bob.y4m');
    writeQrY4m(video, bob.ticketCode);
    const profile = path.join(workDir, 'profile');

    // pair through the QR link; the code leaves the address bar
    let page = await openProfile(profile, video);
    await page.goto(new URL(`/door#pair=${created.body.pairing.pairingCode}`, e2e.server.url).href);
    await page.getByText('This device: North gate').waitFor();
    expect(new URL(page.url()).hash).toBe('');
    await page.locator('.door-counts', { hasText: '0 checked in / 3 going' }).waitFor();
    await page.getByText('All scans synced').waitFor();
    await page.getByText(/Last sync: just now/).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await seriousViolations(page)).toEqual([]);
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 20_000 }).toBe(true);

    // offline, reload: the app still starts, from the service worker, with the list on the device
    await page.context().setOffline(true);
    const reload = await page.reload();
    expect(reload?.fromServiceWorker()).toBe(true);
    await page.getByText('This device: North gate').waitFor();
    await page.getByRole('status').filter({ hasText: 'Offline. Scanning still works' }).waitFor();

    // typed code: OK, then AGAIN with the first scan's door; a cancelled ticket is refused
    await typeCode(page, alice);
    await expectVerdict(page, 'OK', 'Alice Archer');
    expect(await seriousViolations(page)).toEqual([]);
    await dismiss(page);
    await typeCode(page, alice);
    expect(await expectVerdict(page, 'AGAIN', 'Alice Archer')).toMatch(/Checked in\s+\d{1,2}:\d{2}.* \((just now|\d+ min\.? ago)\) · North gate/);
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
    expect((await e2e.admin.api.get(`/checkins?eventId=${event.id}`)).body).toEqual([]);

    // close the browser, reopen the same profile with no network: the queue is still there
    await page.context().close();
    page = await openProfile(profile, video, true);
    const reopened = await page.goto(new URL('/door', e2e.server.url).href);
    expect(reopened?.fromServiceWorker()).toBe(true);
    await page.getByText('5 not yet synced').waitFor();
    await typeCode(page, alice);
    await expectVerdict(page, 'AGAIN', 'Alice Archer');
    await dismiss(page);
    await page.getByText('6 not yet synced').waitFor();

    // back online: everything goes up once
    await page.context().setOffline(false);
    await page.getByText('All scans synced').waitFor({ timeout: 30_000 });

    const rows = (await e2e.admin.api.get<CheckinDto[]>(`/checkins?eventId=${event.id}&perPage=100`)).body;
    const perAttendee = (a: TestAttendee) => rows.filter((r) => r.attendeeId === a.id).length;
    expect(rows).toHaveLength(5);
    expect(new Set(rows.map((r) => r.clientId)).size).toBe(5);
    expect([perAttendee(alice), perAttendee(bob), perAttendee(zelda), perAttendee(dora)]).toEqual([3, 1, 1, 0]);
    expect(rows.every((r) => r.deviceId === created.body.id && r.conflict === null)).toBe(true);
    expect(rows.filter((r) => r.attendeeId === bob.id).map((r) => r.source)).toEqual(['scan']);
    expect(rows.filter((r) => r.attendeeId === zelda.id).map((r) => r.source)).toEqual(['search']);
    expect(rows.filter((r) => r.attendeeId === alice.id).map((r) => r.source)).toEqual(['manual', 'manual', 'manual']);
    const counts = (await e2e.admin.api.get<CheckinCounts>(`/checkins/counts?eventId=${event.id}`)).body;
    expect(counts).toMatchObject({ attendeesGoing: 3, checkedIn: 3, scans: 5, conflicts: 0, rejectedScans: 1 });

    // a second sync sends nothing twice
    await page.getByRole('button', { name: 'Sync now' }).click();
    await page.getByText(/Last sync: just now/).waitFor();
    expect((await e2e.admin.api.get<CheckinDto[]>(`/checkins?eventId=${event.id}&perPage=100`)).body).toHaveLength(5);
  });

  test('undo of a synced scan annuls the check-in on the server; a revoked device says so with its unsynced count', async () => {
    const event = await createEvent(e2e.db(), 'Undo night');
    const erin = await createAttendee(e2e.db(), event.id, { name: 'Erin Undo' });
    const fay = await createAttendee(e2e.db(), event.id, { name: 'Fay Later' });
    const created = await e2e.admin.api.post('/devices', { name: 'South gate', eventIds: [event.id] });
    const video = path.join(workDir, 'erin.y4m');
    writeQrY4m(video, erin.ticketCode);
    const page = await openProfile(path.join(workDir, 'profile-undo'), video);
    await page.goto(new URL(`/door#pair=${created.body.pairing.pairingCode}`, e2e.server.url).href);
    await page.locator('.door-counts', { hasText: '0 checked in / 2 going' }).waitFor();

    await typeCode(page, erin);
    await expectVerdict(page, 'OK', 'Erin Undo');
    await page.getByText('All scans synced').waitFor();
    await expect.poll(async () => (await e2e.admin.api.get<CheckinDto[]>(`/checkins?eventId=${event.id}`)).body.length).toBe(1);
    // undo from the recent scans list (the verdict may have dismissed itself meanwhile)
    await dismiss(page);
    await page.getByRole('button', { name: 'Undo check-in of Erin Undo' }).click();
    await page.locator('.door-counts', { hasText: '0 checked in / 2 going' }).waitFor();
    await expect.poll(async () => (await e2e.admin.api.get<CheckinDto[]>(`/checkins?eventId=${event.id}`)).body[0]?.annulledUtc ?? null).not.toBeNull();

    await page.context().setOffline(true);
    await typeCode(page, fay);
    await expectVerdict(page, 'OK', 'Fay Later');
    await dismiss(page);
    expect((await e2e.admin.api.delete(`/devices/${created.body.id}`)).status).toBe(204);
    await page.context().setOffline(false);
    await page.getByRole('alert').filter({ hasText: 'This device was revoked by an administrator.' }).waitFor();
    await page.getByText('1 scan was not synced').waitFor();
    // aria-disabled (not disabled): it keeps focus and tells why when pressed
    await page.getByRole('button', { name: 'Forget this device' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Not while scans are unsynced').waitFor();
  });

  test('the pairing page explains a wrong code and has no serious accessibility violation', async () => {
    const page = await e2e.openPage('/door', { viewport: PHONE });
    await page.getByRole('heading', { name: 'Pair this device' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Pairing code').fill('ABCD-EFGH');
    await page.getByRole('button', { name: 'Pair device' }).click();
    await page.getByRole('alert').filter({ hasText: 'unknown, expired or already used' }).waitFor();
  });
});
