/**
 * A new version of the PWA reaching a door device in real Chromium against the real server:
 * a second production build is deployed on the same origin, its service worker installs and
 * waits, and the door offers it only while no scan is unsynced; updating keeps the scan.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { buildClient, CLIENT_DIST, ROOT } from '../../server/build-client';
import { checkins } from '../../server/modules/checkin/checkin.sql';
import { createAttendee, createEvent } from '../helpers/checkin';
import { expectVerdict, recordVerdicts } from '../helpers/door';
import { PHONE, useE2e } from '../helpers/e2e';

const workDir = mkdtempSync(path.join(tmpdir(), 'svc-door-update-'));
/** What the server serves: version A (the shared build) until the test deploys version B over it. */
const served = path.join(workDir, 'served');
const versionB = path.join(workDir, 'version-b');

const e2e = useE2e({ env: { SVC_JOBS: 'off' }, login: true, clientDir: served });

beforeAll(() => {
  cpSync(CLIENT_DIST, served, { recursive: true });
  // the one extra build of the run: the app plus <meta name="svc-build" content="next">
  buildClient(versionB, { configFile: path.join(ROOT, 'test/fixtures/vite.next-version.config.mjs') });
});

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

const banner = (page: Page) => page.getByRole('status').filter({ hasText: 'A new version of svc is ready.' });

/** The build id in the page: null for version A, 'next' for version B. */
const buildId = (page: Page) => page.evaluate(() => document.querySelector<HTMLMetaElement>('meta[name="svc-build"]')?.content ?? null);

/** The state of the service worker waiting to take over, or null when none waits. */
const waitingWorker = (page: Page) => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting?.state ?? null);

/**
 * From now on, records in the page whether the update is offered during a scan: the banner put
 * on screen, or on screen when a verdict appears. Checked in every DOM mutation batch, so a
 * flash between two looks of the test counts too.
 */
async function watchUpdateOffer(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { svcUpdateOffered: boolean };
    w.svcUpdateOffered = false;
    const added = (records: MutationRecord[], selector: string) =>
      records.some((r) => [...r.addedNodes].some((n) => n instanceof Element && (n.matches(selector) || n.querySelector(selector) !== null)));
    new MutationObserver((records) => {
      if (added(records, '.banner') || (added(records, 'section.verdict') && document.querySelector('.banner'))) w.svcUpdateOffered = true;
    }).observe(document.body, { childList: true, subtree: true });
  });
}

const updateWasOffered = (page: Page) => page.evaluate(() => (window as unknown as { svcUpdateOffered: boolean }).svcUpdateOffered);

describe('door update gate', () => {
  test('a waiting new version is offered only while no scan is unsynced; updating reloads into it and the scan is stored once', async () => {
    const event = await createEvent(e2e.db(), 'Harbour night');
    const alice = await createAttendee(e2e.db(), event.id, { name: 'Alice Update' });
    const created = await e2e.admin.api.post('/devices', { name: 'West gate', eventIds: [event.id] });
    expect(created.status).toBe(201);

    // version A: paired, downloaded, its service worker controlling the page
    const page = await e2e.newPage({ viewport: PHONE });
    await recordVerdicts(page);
    await page.goto(new URL(`/door#pair=${created.body.pairing.pairingCode}`, e2e.server.url).href);
    await page.locator('.door-counts', { hasText: '0 checked in / 1 going' }).waitFor();
    await page.getByText('All scans synced').waitFor();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 20_000 }).toBe(true);
    expect(await buildId(page)).toBeNull();

    // version B is deployed; the browser's update check installs its worker, which waits
    cpSync(versionB, served, { recursive: true });
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());
    await expect.poll(() => waitingWorker(page), { timeout: 20_000 }).toBe('installed');
    // nothing unsynced yet: the door offers it (so the app has seen the waiting version)
    await banner(page).waitFor();

    // offline, a scan: while it is unsynced the offer is withdrawn, though B still waits
    await page.context().setOffline(true);
    await page.getByRole('status').filter({ hasText: 'Offline. Scanning still works' }).waitFor();
    await watchUpdateOffer(page);
    await page.getByLabel('Ticket code').fill(alice.ticketCode);
    await page.getByRole('button', { name: 'Check in', exact: true }).click();
    await expectVerdict(page, 'OK', 'Alice Update');
    await page.keyboard.press('Escape');
    await page.getByText('1 not yet synced').waitFor();
    expect(await banner(page).count()).toBe(0);
    expect(await updateWasOffered(page)).toBe(false);
    expect(await waitingWorker(page)).toBe('installed');
    expect(await e2e.db().select().from(checkins).where(eq(checkins.attendeeId, alice.id))).toEqual([]);

    // online: the scan goes up, the outbox is empty, the offer is back
    await page.context().setOffline(false);
    await page.getByText('All scans synced').waitFor({ timeout: 30_000 });
    await banner(page).waitFor();
    const stored = await e2e.db().select().from(checkins).where(eq(checkins.attendeeId, alice.id));
    expect(stored).toHaveLength(1);

    // updating reloads the page into version B, its worker in control; the scan is stored once
    await Promise.all([page.waitForEvent('load'), banner(page).getByRole('button', { name: 'Update now' }).click()]);
    expect(await buildId(page)).toBe('next');
    expect(await waitingWorker(page)).toBeNull();
    await page.getByText('This device: West gate').waitFor();
    await page.locator('.door-counts', { hasText: '1 checked in / 1 going' }).waitFor();
    await page.getByText('All scans synced').waitFor();
    expect(await banner(page).count()).toBe(0);
    // one more round from version B sends nothing twice
    await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/trpc/sync.pull' && r.ok()),
      page.getByRole('button', { name: 'Sync now' }).click(),
    ]);
    expect(await e2e.db().select().from(checkins).where(eq(checkins.attendeeId, alice.id))).toEqual(stored);
  });
});
