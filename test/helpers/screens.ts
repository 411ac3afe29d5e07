/**
 * Screen checks shared by the screenshot e2e tests: a named PNG under test-results/screens
 * (kept for a human to look at; the assertions are what the test proves), no horizontal
 * overflow at the page's viewport, and axe clean.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Page, ViewportSize } from 'playwright-core';
import { seriousViolations } from './e2e';

/** The phone the issues measured on (390×844) next to the e2e default laptop. */
export const PHONE_390: ViewportSize = { width: 390, height: 844 };

export const SCREENS_DIR = join(process.cwd(), 'test-results', 'screens');

/** Saves `test-results/screens/<name>.png` (full page) and answers its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  const path = join(SCREENS_DIR, `${name.replace(/[^a-z0-9._-]+/gi, '-')}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** How far the document is wider than the viewport, in CSS pixels (0 when it fits). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth));
}

/** One screen's proof: a screenshot, nothing wider than the viewport, and no serious axe violation. */
export async function checkScreen(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  expect(await horizontalOverflow(page), `${name}: page wider than the viewport`).toBe(0);
  expect(await seriousViolations(page), `${name}: axe`).toEqual([]);
}
