/**
 * What a visitor's first visit loads on the way to the first paint (issue 17: Lighthouse ≥ 95 on
 * the public pages): no stylesheet blocks it — the base styles are inline in index.html — the
 * route's chunks are named in a Link header, and a visit that only reads never loads Dexie: the
 * copy the page shows offline is kept in localStorage.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { createType } from '../helpers/booking';
import { PHONE, useE2e } from '../helpers/e2e';
import { createEvent } from '../helpers/registration';

const e2e = useE2e({ env: { SVC_JOBS: 'off' }, login: true, context: { viewport: PHONE } });
let eventId = 0;
let typeId = 0;

beforeAll(async () => {
  eventId = (await createEvent(e2e.admin.api, { title: 'First paint evening' })).id;
  typeId = (await createType(e2e.admin.api, { title: 'First paint advice', durationMinutes: 30 })).id;
});

/** Every request and response of the page, in the order the browser reported them. */
function networkLog(page: Page): Array<{ kind: 'request' | 'response'; url: string }> {
  const log: Array<{ kind: 'request' | 'response'; url: string }> = [];
  page.on('request', (r) => log.push({ kind: 'request', url: r.url() }));
  page.on('response', (r) => log.push({ kind: 'response', url: r.url() }));
  return log;
}

/** Whether a script is Dexie: its error classes are named in the bundle. */
async function isDexie(page: Page, url: string): Promise<boolean> {
  return (await (await page.request.get(url)).text()).includes('DatabaseClosedError');
}

/** True once the page keeps a stored copy under `key` (client/visitor/copies.ts). */
function hasStoredCopy(page: Page, key: string): Promise<boolean> {
  return page.evaluate((k) => localStorage.getItem(`svc-visitor-copy:${k}`) !== null, key);
}

describe('a visitor page on its first visit', () => {
  test('index.html links no stylesheet: the base styles are inline and style the page (under the CSP)', async () => {
    const html = await (await fetch(new URL('/events', e2e.server.url))).text();
    expect(html).not.toMatch(/<link[^>]+rel="stylesheet"/);
    expect(html).toMatch(/<style>[^<]*--brand:/);

    const page = await e2e.openPage('/events');
    await page.getByRole('link', { name: /First paint evening/ }).waitFor();
    // styles.css gives the header its brand colour and the body the system font
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toContain('system-ui');
    expect(await page.locator('link[rel="stylesheet"][href*="/index-"]').count()).toBe(0);
  });

  test("a page's index.html names its route's chunks in a Link header, and the page takes them from there (one fetch each, none wasted)", async () => {
    const page = await e2e.newPage();
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning' && /preload/i.test(m.text())) warnings.push(m.text());
    });
    const log = networkLog(page);
    const response = await page.goto(new URL(`/events/${eventId}`, e2e.server.url).href);
    await page.getByRole('heading', { name: 'First paint evening' }).waitFor();

    const hinted = [...(response!.headers().link ?? '').matchAll(/<([^>]+)>; rel=(modulepreload|preload)/g)].map((m) => m[1]!);
    const shell = await response!.text();
    const entry = /<script type="module"[^>]+src="([^"]+)"/.exec(shell)![1]!;
    expect(hinted[0], 'the entry script first').toBe(entry);
    expect(
      hinted.some((href) => href.endsWith('.css')),
      "the page's stylesheet",
    ).toBe(true);
    expect(hinted.length).toBeGreaterThan(3);
    for (const href of hinted) {
      const fetched = log.filter((e) => e.kind === 'request' && new URL(e.url).pathname === href);
      expect(fetched, href).toHaveLength(1);
    }
    expect(warnings, 'a preload the page did not use').toEqual([]);
  });

  for (const [name, path, procedure, key] of [
    ['/events', () => '/events', 'events.list', () => 'events'],
    ['/events/{id}', () => `/events/${eventId}`, 'events.get', () => `event:${eventId}`],
    ['/book/{id}', () => `/book/${typeId}`, 'booking.type', () => `booking-type:${typeId}`],
  ] as const) {
    test(`${name}: the data is asked for, the copy for offline is kept, and Dexie is never loaded`, async () => {
      const page = await e2e.newPage();
      const log = networkLog(page);
      await page.goto(new URL(path(), e2e.server.url).href);
      await expect.poll(() => hasStoredCopy(page, key()), { timeout: 10_000 }).toBe(true);
      // the page's own late requests (the form's nonce) are in before the scripts are listed
      await page.waitForLoadState('networkidle');

      const asked = log.findIndex((e) => e.kind === 'request' && new URL(e.url).pathname.startsWith('/trpc/') && e.url.includes(procedure));
      expect(asked, `${procedure} asked for`).toBeGreaterThan(-1);
      const scripts = [...new Set(log.filter((e) => e.kind === 'request' && new URL(e.url).pathname.endsWith('.js')).map((e) => e.url))];
      const dexie: string[] = [];
      for (const url of scripts) if (await isDexie(page, url)) dexie.push(url);
      expect(dexie, 'Dexie loaded on a visit that only reads').toEqual([]);
      expect(await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name)), 'svc-visitor opened').not.toContain('svc-visitor');
    });
  }

  test('on a network that does not answer, the stored copy shows after a moment ("Still refreshing"), and the answer replaces it when it comes', async () => {
    const slowId = (await createEvent(e2e.admin.api, { title: 'Slow network evening' })).id;
    const page = await e2e.newPage();
    await page.goto(new URL(`/events/${slowId}`, e2e.server.url).href);
    await expect.poll(() => hasStoredCopy(page, `event:${slowId}`), { timeout: 10_000 }).toBe(true);

    // the next answer is held until the test lets it through: a network that is up but slow
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname.startsWith('/trpc/') && url.href.includes('events.get'),
      async (route) => {
        await held;
        await route.continue();
      },
    );
    expect((await e2e.admin.api.patch(`/events/${slowId}`, { title: 'Slow network evening, moved' })).status).toBe(200);
    await page.reload();
    await page.getByText(/Still refreshing: showing the event saved/).waitFor();
    await page.getByRole('heading', { level: 1, name: 'Slow network evening' }).waitFor();

    release();
    await page.getByRole('heading', { level: 1, name: 'Slow network evening, moved' }).waitFor();
    await expect.poll(() => page.getByText(/Still refreshing|Could not refresh/).count()).toBe(0);
  });
});
