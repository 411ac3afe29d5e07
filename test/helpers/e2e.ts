/**
 * The one setup of every e2e file: the real server serving the PWA, real Chromium, an
 * optional signed-in administrator, pages that are closed after each test and whose uncaught
 * errors fail it, and axe-core.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, afterEach, expect } from 'vitest';
import type { Browser, BrowserContext, BrowserContextOptions, Page, ViewportSize } from 'playwright-core';
import { launchBrowser } from './browser';
import { useTestServer, type TestServerFixture } from './test-server';

export const LAPTOP: ViewportSize = { width: 1280, height: 900 };
export const PHONE: ViewportSize = { width: 360, height: 740 };

export type { Session } from './http';

export interface E2eOptions {
  /** Extra server environment, e.g. `SVC_JOBS: 'off'`. */
  env?: Record<string, string>;
  /** Sign the administrator in once, as `e2e.admin` (session cookie and API client). */
  login?: boolean;
  /** Context options of every page it opens (viewport, locale, time zone); a laptop viewport when not given. */
  context?: BrowserContextOptions;
  /** Serve the PWA from this folder instead of the shared build; the server reads it per request, so a test can deploy a new version into it. */
  clientDir?: string;
}

export interface PageOptions {
  /** A session cookie `name=value` (e.g. `e2e.admin.cookie`): the page starts signed in. */
  cookie?: string;
  /** This page's viewport instead of the file's. */
  viewport?: ViewportSize;
  /** This page's context options over the file's (a locale, a time zone). */
  context?: BrowserContextOptions;
}

/** The server, `db()` and `hooks()` of `useTestServer`; `admin` only with `login: true`. */
export interface E2e extends TestServerFixture {
  /** The uncaught page errors of the current test so far (after it they fail the test anyway). */
  readonly pageErrors: readonly string[];
  /** A page in a fresh context (no cookies, no service worker), closed after the test. */
  newPage(opts?: PageOptions): Promise<Page>;
  /** `newPage`, then to `path` on the server. */
  openPage(path: string, opts?: PageOptions): Promise<Page>;
  /** Watches a page made elsewhere (a persistent profile): its errors fail the test, its context is closed after it. */
  track(page: Page): Page;
}

/**
 * Call at the top level of an e2e file: registers the hooks and answers the handle. The
 * browser starts with the first page asked for, so a file that drives its own persistent
 * profiles does not run a second Chromium beside them.
 */
export function useE2e(opts: E2eOptions = {}): E2e {
  const fixture = useTestServer({ client: true, clientDir: opts.clientDir, env: opts.env, login: opts.login ?? false });
  let browser: Promise<Browser> | undefined;
  const contexts: BrowserContext[] = [];
  let pageErrors: string[] = [];

  // registered after the server's, so it runs before the server is closed
  afterAll(async () => {
    // a failed launch has already failed the test that asked for it
    const launched = await browser?.catch(() => undefined);
    await launched?.close();
  });

  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
    const errors = pageErrors;
    pageErrors = [];
    expect(errors, 'uncaught errors in the page').toEqual([]);
  });

  const { server } = fixture;
  const e2e: E2e = {
    ...fixture,
    get pageErrors() {
      return pageErrors;
    },
    async newPage({ cookie, viewport, context: own } = {}) {
      browser ??= launchBrowser();
      const context = await (await browser).newContext({ viewport: LAPTOP, ...opts.context, ...own, ...(viewport ? { viewport } : {}) });
      contexts.push(context);
      if (cookie) {
        const [name, value] = cookie.split(/=(.*)/s) as [string, string];
        await context.addCookies([{ name, value, url: server.url }]);
      }
      return e2e.track(await context.newPage());
    },
    async openPage(path, pageOpts) {
      const page = await e2e.newPage(pageOpts);
      await page.goto(new URL(path, server.url).href);
      return page;
    },
    track(page) {
      if (!contexts.includes(page.context())) contexts.push(page.context());
      page.on('pageerror', (error) => pageErrors.push(error.message));
      // Every page runs under the server's Content-Security-Policy: anything it refuses fails the test.
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) pageErrors.push(`CSP: ${message.text()}`);
      });
      return page;
    },
  };
  return e2e;
}

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** axe-core on the current page: its serious and critical violations, one readable line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, not a <script> tag: the page's CSP allows no inline script.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(readFileSync(AXE_PATH, 'utf8'));
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run(ctx: Document): Promise<{ violations: AxeViolation[] }> } }).axe.run(document);
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
