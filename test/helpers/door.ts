/**
 * The door's verdicts as the page showed them. An OK verdict dismisses itself after 2.5 s; on a
 * loaded machine a test polling for it can look too late and wait for a verdict long gone. So
 * the page records each verdict the moment it is put on screen, and the test takes them in order.
 */
import { expect } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';

export interface ShownVerdict {
  word: string;
  text: string;
}

/** From the next navigation on, every verdict put on screen is recorded in the page. */
export async function recordVerdicts(target: Page | BrowserContext): Promise<void> {
  await target.addInitScript(() => {
    const w = window as unknown as { svcVerdicts: ShownVerdict[] };
    w.svcVerdicts = [];
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue;
          const section = node.matches('section.verdict') ? node : node.querySelector('section.verdict');
          if (section instanceof HTMLElement) w.svcVerdicts.push({ word: section.querySelector('.verdict-word')?.textContent ?? '', text: section.innerText });
        }
    }).observe(document, { childList: true, subtree: true });
  });
}

/** The next verdict shown since the last one taken (waits for it); the page's text if none comes. */
export async function nextVerdict(page: Page, timeout = 30_000): Promise<ShownVerdict> {
  try {
    const handle = await page.waitForFunction(() => (window as unknown as { svcVerdicts?: ShownVerdict[] }).svcVerdicts?.shift() ?? null, undefined, {
      timeout,
      polling: 100,
    });
    return (await handle.jsonValue()) as ShownVerdict;
  } catch (err) {
    const screen = await page.evaluate(() => document.body.innerText).catch(() => '(page gone)');
    throw new Error(`no verdict was shown within ${timeout} ms. The screen said:\n${screen}`, { cause: err });
  }
}

/** The next verdict is `word`, and names `name` when given; answers the verdict's text. */
export async function expectVerdict(page: Page, word: string, name?: string): Promise<string> {
  const shown = await nextVerdict(page);
  expect(shown.word, `verdict shown: ${shown.text}`).toBe(word);
  if (name) expect(shown.text).toContain(name);
  return shown.text;
}
