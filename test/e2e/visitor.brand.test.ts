/**
 * The organization's identity as a visitor sees it (docs/decisions/050-organization-identity.md):
 * an administrator names the organization and picks its colour in Settings (a too-light colour is
 * refused there, in words, before and after saving); the events list and an event page are then
 * headed by that name, their buttons and links take the colour, and the footer links to contact,
 * privacy and imprint, at 390 px (the door's pairing screen is headed by the name too) with nothing wider than the screen and no axe violation.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { createEvent } from '../helpers/registration';
import { seriousViolations, useE2e } from '../helpers/e2e';
import { horizontalOverflow, PHONE_390, screenshot } from '../helpers/screens';
import { phoneProfile } from '../helpers/visitor-e2e';

const e2e = useE2e({ env: { SVC_JOBS: 'off' }, login: true, context: phoneProfile({ locale: 'en-GB', timezoneId: 'Europe/London' }) });

const go = (page: Page, path: string) => page.goto(new URL(path, e2e.server.url).href);

/** Every axe violation, whatever its impact, one line each. */
async function axeViolations(page: Page): Promise<string[]> {
  const { readFileSync } = await import('node:fs');
  const { createRequire } = await import('node:module');
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    const result = await axe.run(document);
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
}

const ACCENT = '#7a1f5c';
const ACCENT_RGB = 'rgb(122, 31, 92)';

describe("the organization's name and colour on public pages", () => {
  test('set in Settings, they head the events list and an event page, colour its button, and the footer links to contact, privacy and imprint', async () => {
    const event = await createEvent(e2e.admin.api, { title: 'Harbour concert' });

    const admin = await e2e.openPage('/admin/settings', { cookie: e2e.admin.cookie });
    await admin.getByLabel('Organization name').fill('Hafen Kultur');
    const colour = admin.getByLabel('Accent colour', { exact: true });
    // a yellow too light to read is refused as it is typed, and by the server when saved anyway
    await colour.fill('#ffcc00');
    await expect.poll(() => admin.locator('#org-accent-verdict').innerText()).toMatch(/Too light to read: contrast 1\.\d+:1/);
    await admin.getByRole('button', { name: 'Save organization' }).click();
    await expect.poll(() => admin.locator('.save-status').first().innerText()).toMatch(/accentColor/);
    expect((await e2e.admin.api.get('/settings/organization')).body.name).toBe('');

    await colour.fill(ACCENT);
    await expect.poll(() => admin.locator('#org-accent-verdict').innerText()).toMatch(/Readable: contrast \d+\.\d+:1/);
    await admin.getByLabel('Contact email').fill('hello@hafen.example');
    await admin.getByLabel('Privacy policy link').fill('https://hafen.example/privacy');
    await admin.getByLabel('Imprint link').fill('https://hafen.example/imprint');
    await admin.getByRole('button', { name: 'Save organization' }).click();
    await expect
      .poll(async () => (await e2e.admin.api.get('/settings/organization')).body)
      .toMatchObject({ name: 'Hafen Kultur', accentColor: ACCENT, contactEmail: 'hello@hafen.example' });
    // the admin page as every admin screen is held: no serious violation (public pages below: none at all)
    expect(await seriousViolations(admin)).toEqual([]);
    await screenshot(admin, 'admin-390-settings-organization');

    const page = await e2e.newPage({ viewport: PHONE_390 });
    for (const [path, name] of [
      ['/events', 'visitor-390-brand-events'],
      [`/events/${event.id}`, 'visitor-390-brand-event'],
    ] as const) {
      await go(page, path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.locator('header .brand').innerText()).toBe('Hafen Kultur');
      expect(await page.locator('header').innerText()).not.toMatch(/\bsvc\b/);
      await expect.poll(() => page.title()).toContain('Hafen Kultur');
      const footer = page.getByRole('navigation', { name: 'Organization' });
      expect(await footer.getByRole('link', { name: 'Contact' }).getAttribute('href')).toBe('mailto:hello@hafen.example');
      expect(await footer.getByRole('link', { name: 'Privacy policy' }).getAttribute('href')).toBe('https://hafen.example/privacy');
      expect(await footer.getByRole('link', { name: 'Imprint' }).getAttribute('href')).toBe('https://hafen.example/imprint');
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--brand').trim())).toBe(ACCENT);
      expect(await footer.getByRole('link', { name: 'Imprint' }).evaluate((a) => getComputedStyle(a).color)).toBe(ACCENT_RGB);
      expect(await horizontalOverflow(page)).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, name);
    }
    // the event page's sign-up button wears the colour
    expect(await page.getByRole('button', { name: /Sign up/ }).evaluate((b) => getComputedStyle(b).backgroundColor)).toBe(ACCENT_RGB);

    // the door's pairing screen is headed by the name too (in the door's own dark theme, no public footer)
    await go(page, '/door');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.locator('header .brand').innerText()).toBe('Hafen Kultur');
    expect(await page.getByRole('navigation', { name: 'Organization' }).count()).toBe(0);
  });
});
