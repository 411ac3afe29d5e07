/** Shared bits of the visitor e2e tests: axe-core, outbox links, a phone-sized profile. */
import { expect } from 'vitest';
import type { BrowserContextOptions, Locator, Page, Request, Response } from 'playwright-core';
import { dayInZone } from '../../client/visitor/time';
import { parseUtcString } from '../../shared/time';
import { PHONE, seriousViolations } from './e2e';
import type { TestServer } from './server';
import { storedMails } from './mail';

/** True for the answer to a tRPC mutation the PWA sent unbatched (`/trpc/booking.create`: its own X-Svc-Nonce). */
export function isTrpcMutation(response: Response, procedure: string): boolean {
  return new URL(response.url()).pathname === `/trpc/${procedure}` && response.request().method() === 'POST';
}

/** The input of an unbatched tRPC call as posted (the transformer's `{json}` envelope removed). */
export function trpcInput<T = Record<string, unknown>>(request: Request): T {
  return (request.postDataJSON() as { json: T }).json;
}

/** axe-core on the current page: no serious or critical violation. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  expect(await seriousViolations(page), `axe on ${label}`).toEqual([]);
}

/** A phone-sized profile with touch, in a visitor's locale and time zone (context options for `useE2e`). */
export function phoneProfile(opts: { timezoneId?: string; locale?: string } = {}): BrowserContextOptions {
  return { viewport: PHONE, isMobile: false, hasTouch: true, locale: opts.locale ?? 'en-GB', timezoneId: opts.timezoneId ?? 'Europe/Berlin' };
}

/** The path (`/cancel/…`, `/manage/…`) of the first link of that kind in the newest email to `to` (as the outbox table holds it). */
export async function linkFromOutbox(srv: TestServer, to: string, kind: 'cancel' | 'manage'): Promise<string> {
  for (const item of await storedMails(srv.server.ctx.db, to)) {
    const match = new RegExp(`/${kind}/([A-Za-z0-9_-]{64})`).exec(`${item.text}\n${item.html ?? ''}`);
    if (match) return `/${kind}/${match[1]}`;
  }
  throw new Error(`no /${kind}/ link in the emails to ${to}`);
}

/**
 * Waits for what a step must show; when it never comes, the failure says what the page showed
 * instead (its main text and address), so a refusal or a stuck state reads in the report.
 */
export async function waitShowing(page: Page, locator: Locator, what: string): Promise<void> {
  try {
    await locator.waitFor();
  } catch (err) {
    const shown = await page.evaluate(() => document.body.innerText).catch(() => '(the page could not be read)');
    throw new Error(`${what} did not show at ${page.url()}; the page showed: ${shown.slice(0, 1500)}`, { cause: err });
  }
}

/** Waits until a service worker controls the page (reloading once), so an offline reload is served. */
export async function controlledByServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload();
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

/** A draft as stored in the page's `svc-visitor` database (read with the raw IndexedDB API). */
export function storedDraft(page: Page, key: string): Promise<Record<string, unknown> | null> {
  return page.evaluate(
    (k) =>
      new Promise<Record<string, unknown> | null>((resolve, reject) => {
        const open = indexedDB.open('svc-visitor');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const read = open.result.transaction('drafts').objectStore('drafts').get(k);
          read.onerror = () => reject(read.error);
          read.onsuccess = () => {
            resolve((read.result as { values?: Record<string, unknown> } | undefined)?.values ?? null);
            open.result.close();
          };
        };
      }),
    key,
  );
}

/** On the booking page: shows the slot's month and day in the calendar (in `tz`) and presses its button. */
export async function pickSlot(page: Page, startUtc: string, tz: string): Promise<void> {
  const day = dayInZone(parseUtcString(startUtc)!, tz);
  // the calendar first (a page just opened may not have drawn it yet), then the month it shows
  await page.locator('[data-day]').first().waitFor();
  for (let i = 0; i < 3 && (await page.locator(`[data-day="${day}"]`).count()) === 0; i += 1) {
    await page.getByRole('button', { name: 'Next month' }).click();
  }
  await page.locator(`[data-day="${day}"]`).click();
  await page.locator(`[data-start="${startUtc}"]`).click();
  expect(await page.locator(`[data-start="${startUtc}"]`).getAttribute('aria-pressed')).toBe('true');
}
