/**
 * Real Chromium for the e2e tests: Debian's binary (CHROMIUM_PATH, default /usr/bin/chromium)
 * driven by playwright-core. Never a downloaded browser.
 */
import { chromium, type Browser, type BrowserContext, type LaunchOptions } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Quiet and deterministic: no QUIC, no background fetches or component updates that would
// show up as stray requests or slow the first navigation.
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type BrowserOptions = Omit<LaunchOptions, 'executablePath'>;

function launchOptions(opts: BrowserOptions): LaunchOptions {
  return { ...opts, executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...(opts.args ?? [])] };
}

export function launchBrowser(opts: BrowserOptions = {}): Promise<Browser> {
  return chromium.launch(launchOptions(opts));
}

export type PersistentContextOptions = NonNullable<Parameters<typeof chromium.launchPersistentContext>[1]>;

/**
 * A browser profile kept in `userDataDir` (IndexedDB, service worker, cookies survive),
 * so a test can close it, reopen it — offline if it likes — and find the device's state.
 * Close the returned context to end the browser.
 */
export function launchPersistentContext(userDataDir: string, opts: PersistentContextOptions = {}): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userDataDir, {
    ...opts,
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, ...(opts.args ?? [])],
  });
}
