/**
 * Share and directions on the public pages, in real Chromium (docs/decisions/051-link-previews-and-directions.md):
 * the event page's Directions links go to OpenStreetMap (a marker at the venue's coordinates, or a
 * search for its address) and to a `geo:` URI; "Share" copies the page's link and says so where
 * the browser has no share sheet, and hands title and link to the sheet where it has one.
 */
import { describe, expect, test } from 'vitest';
import { useE2e } from '../helpers/e2e';
import { createEvent } from '../helpers/registration';
import { createType } from '../helpers/booking';
import { expectAccessible, phoneProfile } from '../helpers/visitor-e2e';

const e2e = useE2e({
  env: { SVC_JOBS: 'off' },
  login: true,
  context: { ...phoneProfile({ locale: 'en-GB', timezoneId: 'Europe/London' }), permissions: ['clipboard-read', 'clipboard-write'] },
});

describe('directions and sharing', () => {
  test('the event page’s Directions point at the venue’s coordinates on OpenStreetMap and in a geo: link; with only an address, at a search for it', async () => {
    const pinned = await createEvent(e2e.admin.api, {
      title: 'Harbour concert',
      venue: 'Old harbour stage',
      venueAddress: 'Hafenstraße 1, Hamburg',
      venueLat: 53.5436,
      venueLon: 9.9717,
    });
    const page = await e2e.openPage(`/events/${pinned.id}`);
    await page.getByRole('heading', { level: 1, name: 'Harbour concert' }).waitFor();
    const where = page.locator('dl.v-facts dd', { hasText: 'Old harbour stage' });
    expect(await where.innerText()).toContain('Hafenstraße 1, Hamburg');
    const directions = page.getByRole('link', { name: 'Directions' });
    expect(await directions.getAttribute('href')).toBe('https://www.openstreetmap.org/?mlat=53.5436&mlon=9.9717#map=17/53.5436/9.9717');
    expect(await directions.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await page.locator('a[data-directions="geo"]').getAttribute('href')).toBe('geo:53.5436,9.9717');
    await expectAccessible(page, '/events/:id with directions and share');

    const addressed = await createEvent(e2e.admin.api, { title: 'Street fair', venueAddress: 'Markt 1, München' });
    await page.goto(new URL(`/events/${addressed.id}`, e2e.server.url).href);
    await page.getByRole('heading', { level: 1, name: 'Street fair' }).waitFor();
    expect(await page.getByRole('link', { name: 'Directions' }).getAttribute('href')).toBe(
      'https://www.openstreetmap.org/search?query=Markt%201%2C%20M%C3%BCnchen',
    );
    expect(await page.locator('a[data-directions="geo"]').getAttribute('href')).toBe('geo:0,0?q=Markt%201%2C%20M%C3%BCnchen');
  });

  test('without navigator.share, Share copies the event’s link to the clipboard and says "Link copied"', async () => {
    const event = await createEvent(e2e.admin.api, { title: 'Copy me' });
    const page = await e2e.newPage();
    // the share sheet absent, as on desktop Linux and in older browsers
    await page.addInitScript(() => {
      delete (Navigator.prototype as { share?: unknown }).share;
    });
    await page.goto(new URL(`/events/${event.id}?lang=en`, e2e.server.url).href);
    await page.getByRole('heading', { level: 1, name: 'Copy me' }).waitFor();
    expect(await page.evaluate(() => typeof navigator.share)).toBe('undefined');
    await page.getByRole('button', { name: 'Share' }).click();
    await page.getByRole('status').filter({ hasText: 'Link copied' }).waitFor();
    // the page's own link, without the reader's ?lang=
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(new URL(`/events/${event.id}`, e2e.server.url).href);
  });

  test('with navigator.share, the booking page’s Share hands the type’s title and link to the share sheet and copies nothing', async () => {
    const type = await createType(e2e.admin.api, { title: 'Bike fitting' });
    const page = await e2e.newPage();
    await page.addInitScript(() => {
      const shared: unknown[] = [];
      (window as unknown as { sharedData: unknown[] }).sharedData = shared;
      Object.defineProperty(Navigator.prototype, 'share', {
        configurable: true,
        value: (data: unknown) => {
          shared.push(data);
          return Promise.resolve();
        },
      });
    });
    await page.goto(new URL(`/book/${type.id}`, e2e.server.url).href);
    await page.getByRole('heading', { level: 1, name: 'Bike fitting' }).waitFor();
    await page.evaluate(() => navigator.clipboard.writeText('untouched'));
    await page.getByRole('button', { name: 'Share' }).click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { sharedData: unknown[] }).sharedData))
      .toEqual([{ title: 'Bike fitting', url: new URL(`/book/${type.id}`, e2e.server.url).href }]);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('untouched');
    expect(await page.getByRole('status').filter({ hasText: 'Link copied' }).count()).toBe(0);
  });

  test('the admin event form takes an address and coordinates, refuses half a point, and stores them (a decimal comma read as a point)', async () => {
    const page = await e2e.openPage('/admin/events/new', { cookie: e2e.admin.cookie });
    await page.getByLabel('Title').fill('Pinned by hand');
    await page.getByLabel('Starts').fill('2031-05-01T19:00');
    await page.getByLabel('Address').fill('Bennelong Point, Sydney');
    await page.getByLabel('Latitude').fill('-33,8568');
    await page.getByRole('button', { name: 'Create event' }).click();
    await page.getByText('Give the latitude (−90 to 90) and the longitude (−180 to 180) as decimal numbers, both or neither.').waitFor();
    await page.getByLabel('Longitude').fill('151.2153');
    await page.getByRole('button', { name: 'Create event' }).click();
    await page.waitForURL((url) => /^\/admin\/events\/\d+$/.test(url.pathname));
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const stored = await e2e.admin.api.get(`/events/${id}`);
    expect(stored.body).toMatchObject({ venueAddress: 'Bennelong Point, Sydney', venueLat: -33.8568, venueLon: 151.2153 });
  });
});
