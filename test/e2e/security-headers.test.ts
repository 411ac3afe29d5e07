/**
 * The Content-Security-Policy is live in the browser: the pages work under it (every e2e file
 * fails on a CSP report, see test/helpers/e2e.ts), and what it forbids is really refused.
 */
import { describe, expect, test } from 'vitest';
import { PHONE, useE2e } from '../helpers/e2e';

const e2e = useE2e({ context: { viewport: PHONE } });

describe('Content-Security-Policy in Chromium', () => {
  test('visitor, door and admin pages load under the policy with no refusal', async () => {
    for (const path of ['/events', '/door', '/login']) {
      const page = await e2e.openPage(path);
      await page.locator('main h1, h1').first().waitFor();
      const response = await page.request.get(new URL(path, e2e.server.url).href);
      expect(response.headers()['content-security-policy'], path).toContain("script-src 'self'");
    }
    expect(e2e.pageErrors).toEqual([]);
  });

  test('WebAssembly compiles under the policy (the door camera decoder), with no refusal', async () => {
    const page = await e2e.openPage('/door');
    await page.locator('main h1, h1').first().waitFor();
    // the smallest module: the magic number and version 1
    const outcome = await page.evaluate(() =>
      WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(
        () => 'compiled',
        (err: Error) => `refused: ${err.message}`,
      ),
    );
    expect(outcome).toBe('compiled');
    expect(e2e.pageErrors).toEqual([]);
  });

  test('an injected inline script does not run, and the refusal is reported', async () => {
    const page = await e2e.openPage('/events');
    await page.locator('h1').first().waitFor();
    const refused = page.waitForEvent('console', (m) => /Content Security Policy/i.test(m.text()));
    const ran = await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__injected = true';
      document.body.append(script);
      return (window as unknown as { __injected?: boolean }).__injected === true;
    });
    expect(ran).toBe(false);
    await refused;
    // the helper turned the refusal into a test failure; this test expects exactly that one
    expect(e2e.pageErrors.some((e) => e.startsWith('CSP:'))).toBe(true);
    (e2e.pageErrors as string[]).length = 0;
  });
});
