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

/** The role selects of Settings › Users that cut their role: scrolled, or narrower than the chosen role's words and padding. */
export function clippedRoleSelects(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLSelectElement>('select[id^="role-"]')].flatMap((select) => {
      const style = getComputedStyle(select);
      const probe = document.createElement('span');
      probe.style.cssText = `position:absolute;white-space:pre;font:${style.font}`;
      probe.textContent = select.selectedOptions[0]?.text ?? '';
      document.body.append(probe);
      const needed = probe.getBoundingClientRect().width + parseFloat(style.paddingInlineStart) + parseFloat(style.paddingInlineEnd);
      probe.remove();
      const clipped = select.scrollWidth > select.clientWidth + 1 || select.clientWidth < needed;
      return clipped ? [`${select.id} “${probe.textContent}” (${select.clientWidth} px, needs ${Math.ceil(needed)})`] : [];
    }),
  );
}

/**
 * Where the emails of `selector` break onto a new line at a place that is not after an @, a hyphen
 * or a dot, as "address: before “text”" (a line starting mid-word).
 */
export function badEmailBreaks(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const bad: string[] = [];
    for (const cell of document.querySelectorAll<HTMLElement>(sel)) {
      const chars: Array<{ ch: string; top: number }> = [];
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (let i = 0; i < text.length; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rect = range.getClientRects()[0];
          if (rect) chars.push({ ch: text[i]!, top: rect.top });
        }
      }
      const whole = chars.map((c) => c.ch).join('');
      for (let i = 1; i < chars.length; i++) {
        if (chars[i]!.top > chars[i - 1]!.top + 2 && !'@-.'.includes(chars[i - 1]!.ch)) bad.push(`${whole.trim()}: before “${whole.slice(i, i + 6)}”`);
      }
    }
    return bad;
  }, selector);
}
