/**
 * The administrator's private calendar feed of every booking, on the Bookings page in real
 * Chromium (docs/api.md#calendar-feeds): made, shown with its webcal:// link, fetched by a
 * calendar app without a cookie, replaced (the old address stops) and revoked, with no axe
 * violations.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { useE2e } from '../helpers/e2e';
import { expectAccessible } from '../helpers/visitor-e2e';

const e2e = useE2e({ env: { SVC_JOBS: 'off' }, login: true });

/** The address as a calendar app fetches it, on the test server's port. */
async function fetchFeed(url: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${e2e.server.url}${new URL(url).pathname}`);
  return { status: res.status, text: await res.text() };
}

async function confirmDialog(page: Page, title: string, button: string): Promise<void> {
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('heading', { name: title }).waitFor();
  await dialog.getByRole('button', { name: button }).click();
  await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
}

describe('calendar feed of every booking', () => {
  test('made, subscribed by address, replaced and revoked from the Bookings page', async () => {
    const page = await e2e.openPage('/admin/bookings', { cookie: e2e.admin.cookie });
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Calendar feed of every booking' }) });
    await section.getByRole('button', { name: 'Make a feed address' }).click();
    const address = section.getByLabel('Feed address');
    await address.waitFor();
    const first = await address.inputValue();
    expect(first).toMatch(/\/svc\/v1\/feeds\/[A-Za-z0-9_-]+\.ics$/);
    expect(await section.getByRole('link', { name: 'Subscribe on this device' }).getAttribute('href')).toBe(first.replace(/^https?:/, 'webcal:'));
    const feed = await fetchFeed(first);
    expect(feed.status).toBe(200);
    expect(feed.text).toContain('X-WR-CALNAME:All bookings');
    await expectAccessible(page, '/admin/bookings with its calendar feed');

    await section.getByRole('button', { name: 'New address' }).click();
    await confirmDialog(page, 'Make a new feed address?', 'New address');
    await expect.poll(() => address.inputValue()).not.toBe(first);
    const second = await address.inputValue();
    expect((await fetchFeed(first)).status).toBe(404);
    expect((await fetchFeed(second)).status).toBe(200);

    await section.getByRole('button', { name: 'Revoke' }).click();
    await confirmDialog(page, 'Revoke the feed address?', 'Revoke');
    await section.getByText('The feed address no longer works.').waitFor();
    await section.getByRole('button', { name: 'Make a feed address' }).waitFor();
    expect((await fetchFeed(second)).status).toBe(404);
  });
});
