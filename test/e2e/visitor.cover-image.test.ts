/**
 * A cover image end to end (docs/api.md#images): an administrator uploads it in the event form,
 * the event page shows its variants through srcset, and after going offline a reload of the
 * visited page still shows it (the service worker keeps /media/ images).
 */
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { useE2e } from '../helpers/e2e';
import { createEvent } from '../helpers/registration';

const e2e = useE2e({ env: { SVC_JOBS: 'off' }, login: true });

describe('cover images', () => {
  test('an administrator uploads a cover in the event form; the event page shows its variants and still shows it offline after a reload', async () => {
    const event = await createEvent(e2e.admin.api, { title: 'Lighthouse tour' });
    const admin = await e2e.openPage(`/admin/events/${event.id}/edit`, { cookie: e2e.admin.cookie });
    const picture = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#1d6fa5' } })
      .jpeg()
      .toBuffer();
    await admin.getByLabel('Choose an image').setInputFiles({ name: 'cover.jpg', mimeType: 'image/jpeg', buffer: picture });
    await admin.getByText('Cover image saved.').waitFor();
    const preview = admin.getByRole('img', { name: 'Preview of the cover image' });
    await expect.poll(() => preview.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);

    const page = await e2e.openPage(`/events/${event.id}`);
    await page.getByRole('heading', { level: 1, name: 'Lighthouse tour' }).waitFor();
    const cover = page.getByRole('img', { name: 'Lighthouse tour' });
    await cover.waitFor();
    const srcset = (await cover.getAttribute('srcset')) ?? '';
    expect(srcset.split(', ').map((part) => part.split(' ')[1])).toEqual(['320w', '640w', '1280w']);
    expect(srcset).toMatch(/^\/media\/[0-9a-f]{32}-320\.webp 320w/);
    expect(await cover.getAttribute('width')).toBe('1280');
    expect(await cover.getAttribute('height')).toBe('720');
    expect(await cover.getAttribute('sizes')).toBeTruthy();
    await expect.poll(() => cover.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    // the page is under the service worker before going offline (the first visit installs it)
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 20_000 }).toBe(true);
    // the first load may have come before the worker controlled the page: load it once under it
    await page.reload();
    await expect.poll(() => page.getByRole('img', { name: 'Lighthouse tour' }).evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);

    // the service worker's runtime cache holds the variant the page chose (not only the browser's HTTP cache)
    await expect
      .poll(() => page.evaluate(async () => (await (await caches.open('svc-media')).keys()).map((r) => new URL(r.url).pathname)))
      .toEqual(expect.arrayContaining([expect.stringMatching(/^\/media\/[0-9a-f]{32}-\d+\.webp$/)]));

    await page.context().setOffline(true);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Lighthouse tour' }).waitFor();
    const offline = page.getByRole('img', { name: 'Lighthouse tour' });
    await offline.waitFor();
    await expect
      .poll(() => offline.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth), { timeout: 15_000 })
      .toBeGreaterThan(0);
    expect(e2e.pageErrors).toEqual([]);
  });
});
