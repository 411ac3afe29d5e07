/**
 * The installable PWA shell in real Chromium against the real server: manifest, service
 * worker, sign-in to the admin page, the server's error under the login form, offline reload.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { PHONE, useE2e } from '../helpers/e2e';

/** Every page a fresh profile (no cookies, no service worker) at phone width. */
const e2e = useE2e({ context: { viewport: PHONE } });

/** Waits until a service worker is active for the page; answers its script URL. */
function activeWorker(page: Page): Promise<string | undefined> {
  return page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL);
}

describe('PWA shell', () => {
  test('the page links a web app manifest with name, icons, start_url and standalone display', async () => {
    const page = await e2e.openPage('/');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBeTruthy();

    const response = await page.request.get(new URL(href!, e2e.server.url).href);
    expect(response.status()).toBe(200);
    const manifest = (await response.json()) as {
      name: string;
      short_name: string;
      start_url: string;
      scope: string;
      display: string;
      icons: { src: string; sizes: string; type: string; purpose?: string }[];
    };
    expect(manifest).toMatchObject({ name: 'svc', short_name: 'svc', start_url: '/', scope: '/', display: 'standalone' });
    expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`)).toEqual(
      expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']),
    );
    for (const icon of manifest.icons) {
      const image = await page.request.get(new URL(icon.src, e2e.server.url).href);
      expect(image.status(), icon.src).toBe(200);
      expect(image.headers()['content-type']).toContain('image/png');
      // PNG signature: the file is a real image, not the app shell answering an unknown path
      expect([...(await image.body()).subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    }
  });

  test('the service worker registers and controls the page after a reload', async () => {
    const page = await e2e.openPage('/');
    expect(await activeWorker(page)).toBe(new URL('/sw.js', e2e.server.url).href);

    await page.reload();
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(new URL('/sw.js', e2e.server.url).href);
  });

  test("signing in with the administrator's credentials shows the admin page with their email", async () => {
    const page = await e2e.openPage('/admin');
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).search).toBe('?next=/admin');

    await page.getByLabel('Email').fill(e2e.server.admin.email);
    await page.getByLabel('Password').fill(e2e.server.admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.waitForURL((url) => url.pathname === '/admin');
    await expect.poll(() => page.locator('main').innerText()).toContain(e2e.server.admin.email);
    await page.getByRole('heading', { name: 'Email outbox' }).waitFor();
    // the outbox is a count and a link, never its table; the page settles without an error
    await page.locator('.outbox-summary').waitFor();
    expect(await page.locator('main .table-scroll').count()).toBe(0);
    expect(await page.locator('main [role="alert"]').count()).toBe(0);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.goto(new URL('/admin', e2e.server.url).href);
    await page.waitForURL((url) => url.pathname === '/login');
  });

  test("a wrong password shows the server's message under the form", async () => {
    const page = await e2e.openPage('/login');
    await page.getByLabel('Email').fill(e2e.server.admin.email);
    await page.getByLabel('Password').fill(`${e2e.server.admin.password}-wrong`);
    // sign-in is the tRPC mutation auth.login (batched: one answer per call, superjson's `json` envelope)
    const [response] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/trpc/auth.login' && r.request().method() === 'POST'),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    expect(response.status()).toBe(401);
    const [answer] = (await response.json()) as Array<{ error: { json: { message: string; data: { svcCode: string | null } } } }>;
    expect(answer!.error.json.data.svcCode).toBe('svc_unauthorized');

    const alert = page.locator('form [role="alert"]');
    await alert.waitFor();
    expect((await alert.innerText()).trim()).toBe(answer!.error.json.message);
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  test('with the service worker active, an offline reload still renders the shell', async () => {
    const page = await e2e.openPage('/');
    await activeWorker(page);
    await page.reload();
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

    await page.context().setOffline(true);
    const response = await page.reload();
    expect(response?.fromServiceWorker()).toBe(true);
    await page.getByRole('heading', { level: 1, name: 'Events and appointments' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Offline' }).waitFor();

    // another route's lazy chunk comes from the precache too
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Events', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Events' }).waitFor();
    await page.getByText('The server could not be reached').first().waitFor();
  });
});
