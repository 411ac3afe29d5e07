/**
 * What a visitor's first visit loads on the way to the first paint (issue 17: Lighthouse ≥ 95 on
 * the public pages): no stylesheet blocks it — the base styles are inline in index.html — the
 * route's chunks are named in a Link header, and the page asks the network for its data before
 * Dexie is even requested; Dexie is no part of the route's chunks and loads after the first paint,
 * to keep the copy the page shows offline.
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

/** True once `svc-visitor` holds a stored copy under `key` (without creating the database if it is not there). */
function hasStoredCopy(page: Page, key: string): Promise<boolean> {
  return page.evaluate(async (k) => {
    if (!(await indexedDB.databases()).some((d) => d.name === 'svc-visitor')) return false;
    return new Promise<boolean>((resolve, reject) => {
      const open = indexedDB.open('svc-visitor');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('cache')) {
          db.close();
          resolve(false);
          return;
        }
        const read = db.transaction('cache').objectStore('cache').get(k);
        read.onerror = () => reject(read.error);
        read.onsuccess = () => {
          db.close();
          resolve(read.result !== undefined);
        };
      };
    });
  }, key);
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
    test(`${name}: the data is asked for before Dexie, which is not among the route's chunks, and the copy for offline is kept`, async () => {
      const page = await e2e.newPage();
      const log = networkLog(page);
      const response = await page.goto(new URL(path(), e2e.server.url).href);
      await expect.poll(() => hasStoredCopy(page, key()), { timeout: 10_000 }).toBe(true);

      const asked = log.findIndex((e) => e.kind === 'request' && new URL(e.url).pathname.startsWith('/trpc/') && e.url.includes(procedure));
      expect(asked, `${procedure} asked for`).toBeGreaterThan(-1);
      const scripts = [...new Set(log.filter((e) => e.kind === 'request' && new URL(e.url).pathname.endsWith('.js')).map((e) => e.url))];
      const dexie: string[] = [];
      for (const url of scripts) if (await isDexie(page, url)) dexie.push(url);
      expect(dexie, 'the Dexie chunk was loaded (to keep the copy)').toHaveLength(1);
      expect(response!.headers().link ?? '', 'Dexie preloaded with the route').not.toContain(new URL(dexie[0]!).pathname);
      const dexieAsked = log.findIndex((e) => e.kind === 'request' && e.url === dexie[0]);
      expect(dexieAsked, "Dexie requested after the page's data").toBeGreaterThan(asked);
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
