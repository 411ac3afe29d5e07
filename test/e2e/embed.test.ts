/**
 * Embeds in real Chromium (docs/decisions/052-embeds.md): a page on a second origin (localhost,
 * beside the app on 127.0.0.1: another site, so the frames are third-party) carries the script
 * tag, <svc-event> and <svc-booking>. With that origin allowed, a sign-up and a booking complete
 * inside the frames, each frame follows its content's height, and the host page keeps its own
 * content and styles; not allowed, the browser refuses the frame; the popup variant opens and closes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FrameLocator, Page } from 'playwright-core';
import { dayInZone } from '../../client/visitor/time';
import { parseUtcString } from '../../shared/time';
import { createHost, createType, disableIpThrottle, futureStart } from '../helpers/booking';
import { useE2e } from '../helpers/e2e';
import { createEvent, uniqueEmail } from '../helpers/registration';
import { isTrpcMutation, phoneProfile } from '../helpers/visitor-e2e';

const TZ = 'Europe/Berlin';
const e2e = useE2e({ env: { SVC_JOBS: 'off' }, login: true, context: { ...phoneProfile({ timezoneId: TZ }), viewport: { width: 800, height: 900 } } });

let hostServer: Server;
let hostOrigin: string;
/** The host page's body, set per test: the organizer's own content around the embeds. */
let hostBody = '';
let restoreThrottle: () => void;

beforeAll(async () => {
  restoreThrottle = disableIpThrottle(e2e.server.server.ctx.hooks);
  hostServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>The organizer’s site</title>
<style>body { font-family: serif; margin: 2rem; } p.own { color: rgb(1, 2, 3); } button { all: unset; }</style></head>
<body><h1 id="own">Welcome to our shop</h1><p class="own">Our own words stay ours.</p>${hostBody}
<script src="${e2e.server.url}/embed.js"></script></body></html>`);
  });
  await new Promise<void>((resolve) => hostServer.listen(0, '127.0.0.1', resolve));
  hostOrigin = `http://localhost:${(hostServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  restoreThrottle?.();
  await new Promise((resolve) => hostServer?.close(resolve));
});

async function allowOrigins(origins: string[]): Promise<void> {
  const res = await e2e.admin.api.put('/settings/embeds', { origins });
  expect(res.status).toBe(200);
}

async function openHost(body: string): Promise<Page> {
  hostBody = body;
  const page = await e2e.newPage();
  await page.goto(`${hostOrigin}/`);
  return page;
}

/** The frame element's height in CSS pixels, as the script set it. */
const frameHeight = (page: Page, selector: string) => page.locator(selector).evaluate((frame) => frame.getBoundingClientRect().height);

async function pickSlot(frame: FrameLocator, startUtc: string): Promise<void> {
  const day = dayInZone(parseUtcString(startUtc)!, TZ);
  await frame.getByRole('heading', { level: 1 }).waitFor();
  for (let i = 0; i < 3 && (await frame.locator(`[data-day="${day}"]`).count()) === 0; i += 1) {
    await frame.getByRole('button', { name: 'Next month' }).click();
  }
  await frame.locator(`[data-day="${day}"]`).click();
  await frame.locator(`[data-start="${startUtc}"]`).click();
}

describe('embeds on another origin', () => {
  test('allowed: sign up and book inside the embeds, the frames follow their content, the host page is untouched', async () => {
    await allowOrigins([hostOrigin]);
    const event = await createEvent(e2e.admin.api, { title: 'Embedded evening', venue: 'Harbour hall', capacity: 20 });
    const host = await createHost(e2e.admin.api);
    const type = await createType(e2e.admin.api, { title: 'Embedded consultation', hosts: [host] });
    const page = await openHost(`<svc-event event="${event.id}" accent="#8a2be2"></svc-event><svc-booking type="${type.id}"></svc-booking>`);

    const eventFrame = page.frameLocator('svc-event iframe');
    await eventFrame.getByRole('heading', { level: 1, name: 'Embedded evening' }).waitFor();
    // the page alone: no site header or navigation inside the frame
    expect(await eventFrame.locator('.site-header, .site-nav').count()).toBe(0);
    // themed with the colour the element names
    expect(await eventFrame.locator('html').evaluate((html) => getComputedStyle(html).getPropertyValue('--brand').trim())).toBe('#8a2be2');
    // sized to the content, not the default 320 px; the frame has no scroll bar of its own to need
    await expect.poll(() => frameHeight(page, 'svc-event iframe')).not.toBe(320);
    const contentHeight = () => eventFrame.locator('html').evaluate((html) => Math.ceil(html.getBoundingClientRect().height));
    await expect.poll(async () => (await frameHeight(page, 'svc-event iframe')) - (await contentHeight())).toBe(0);
    const formHeight = await frameHeight(page, 'svc-event iframe');

    const email = uniqueEmail('embedded');
    await eventFrame.getByLabel('Your name').fill('Ida Inframe');
    await eventFrame.getByLabel('Email').fill(email);
    const [signup] = await Promise.all([
      // the app holds the post until the form token is 3 s old (the server's minimum fill time)
      page.waitForResponse((r) => isTrpcMutation(r, 'attendees.signup'), { timeout: 15_000 }),
      eventFrame.getByRole('button', { name: 'Sign up' }).click(),
    ]);
    expect(signup.status()).toBe(200);
    // the nonce travels as a header, no cookie: the third-party frame has none to send
    expect(signup.request().headers()['x-svc-nonce']).toBeTruthy();
    expect(signup.request().headers().cookie).toBeUndefined();
    await eventFrame.getByRole('heading', { name: 'You’re going!' }).waitFor();
    // the result is shown in the embed, and the frame grew or shrank with it
    await expect.poll(() => frameHeight(page, 'svc-event iframe')).not.toBe(formHeight);
    await expect.poll(async () => (await frameHeight(page, 'svc-event iframe')) - (await contentHeight())).toBe(0);

    const bookingFrame = page.frameLocator('svc-booking iframe');
    const start = futureStart(2, 10);
    await pickSlot(bookingFrame, start);
    await bookingFrame.getByLabel('Your name').fill('Bo Booker');
    await bookingFrame.getByLabel('Email').fill(uniqueEmail('embedded-booking'));
    const [booking] = await Promise.all([
      page.waitForResponse((r) => isTrpcMutation(r, 'booking.create')),
      bookingFrame.getByRole('button', { name: 'Book this time' }).click(),
    ]);
    expect(booking.status()).toBe(200);
    expect(booking.request().headers()['x-svc-nonce']).toBeTruthy();
    await bookingFrame.getByRole('heading', { name: 'You’re booked' }).waitFor();

    // a height message from anyone but the app's own frame is ignored
    const before = await frameHeight(page, 'svc-booking iframe');
    await page.evaluate(() => window.postMessage({ type: 'svc-embed-height', height: 5 }, '*'));
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(await frameHeight(page, 'svc-booking iframe')).toBe(before);

    // the host page's own content and styles are as it wrote them: nothing of the app leaked in
    expect(await page.locator('#own').innerText()).toBe('Welcome to our shop');
    expect(await page.locator('p.own').evaluate((p) => getComputedStyle(p).color)).toBe('rgb(1, 2, 3)');
    expect(await page.locator('body').evaluate((b) => [getComputedStyle(b).fontFamily, getComputedStyle(b).marginTop])).toEqual(['serif', '32px']);
    expect(await page.evaluate(() => document.styleSheets.length)).toBe(1);
    await page.screenshot({ path: 'test-results/embed-allowed.png', fullPage: true });
  });

  test('not allowed: the browser refuses to frame the app, and the embed shows none of it', async () => {
    await allowOrigins([]);
    const event = await createEvent(e2e.admin.api, { title: 'Not for framing' });
    const refusals: string[] = [];
    hostBody = `<svc-event event="${event.id}"></svc-event>`;
    const page = await e2e.newPage();
    page.on('console', (message) => {
      if (/frame-ancestors/.test(message.text())) refusals.push(message.text());
    });
    await page.goto(`${hostOrigin}/`);
    await expect.poll(() => refusals.length).toBeGreaterThan(0);
    expect(refusals[0]).toContain("frame-ancestors 'none'");
    // the frame holds the browser's error page, not the app
    const appFrames = page.frames().filter((frame) => frame !== page.mainFrame() && frame.url().startsWith(e2e.server.url));
    for (const frame of appFrames) expect(await frame.locator('h1').count()).toBe(0);
    expect(await page.locator('#own').innerText()).toBe('Welcome to our shop');
    // the refusal is what this test expects; it is not an error of the page
    (e2e.pageErrors as string[]).splice(0, e2e.pageErrors.length, ...e2e.pageErrors.filter((error) => !/frame-ancestors/.test(error)));
  });

  test('popup: "Book now" opens the booking page in a dialog; Escape and the close button close it and focus returns to the button', async () => {
    await allowOrigins([hostOrigin]);
    const host = await createHost(e2e.admin.api);
    const type = await createType(e2e.admin.api, { title: 'Popup consultation', hosts: [host] });
    const page = await openHost(`<svc-booking type="${type.id}" popup></svc-booking>`);
    const open = page.getByRole('button', { name: 'Book now' });
    await open.click();
    const dialog = page.getByRole('dialog', { name: 'Booking' });
    await dialog.waitFor();
    await page.frameLocator('svc-booking dialog iframe').getByRole('heading', { level: 1, name: 'Popup consultation' }).waitFor();
    await page.screenshot({ path: 'test-results/embed-popup.png' });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await open.evaluate((button) => (button.getRootNode() as ShadowRoot).activeElement === button)).toBe(true);

    await open.click();
    await dialog.waitFor();
    await page.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await open.evaluate((button) => (button.getRootNode() as ShadowRoot).activeElement === button)).toBe(true);
  });

  test('Settings → Embeds: an administrator allows a website, a wrong address is refused in plain words, and the code to paste names /embed.js', async () => {
    await allowOrigins([]);
    const page = await e2e.openPage('/admin/settings', { cookie: e2e.admin.cookie, viewport: { width: 1280, height: 900 } });
    const origins = page.getByLabel('Websites that may show your pages');
    await origins.waitFor();
    await origins.fill('shop.example/widget');
    await page.getByRole('button', { name: 'Save websites' }).click();
    await page
      .locator('.save-failed')
      .filter({ hasText: /origin/ })
      .waitFor();
    expect((await e2e.admin.api.get('/settings/embeds')).body.origins).toEqual([]);

    await origins.fill(`${hostOrigin}/\nhttps://Shop.Example`);
    await page.getByRole('button', { name: 'Save websites' }).click();
    await expect.poll(async () => (await e2e.admin.api.get('/settings/embeds')).body.origins).toEqual([hostOrigin, 'https://shop.example']);
    await expect.poll(() => origins.inputValue()).toBe(`${hostOrigin}\nhttps://shop.example`);
    const snippet = await page.getByLabel('Code for your website').inputValue();
    expect(snippet).toContain(`<script src="${e2e.server.url}/embed.js" async></script>`);
    expect(snippet).toContain('<svc-booking type="7" popup></svc-booking>');
    await page.locator('#embeds-heading').scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/embed-settings.png' });
  });
});
