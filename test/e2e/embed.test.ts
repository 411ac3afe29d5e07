/**
 * Embeds in real Chromium (docs/decisions/052-embeds.md): a page on a second origin (localhost,
 * beside the app on 127.0.0.1: another site, so the frames are third-party) carries the script
 * tag, <svc-event> and <svc-booking>. With that origin allowed, a sign-up and a booking complete
 * inside the frames, each frame follows its content's height, and the host page keeps its own
 * content and styles; past a throttle's limit the frame says so, and the host page's own post,
 * without the nonce, is refused; not allowed, the browser refuses the frame; the popup variant
 * opens and closes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FrameLocator, Page } from 'playwright-core';
import { dayInZone } from '../../client/visitor/time';
import { sql } from 'drizzle-orm';
import { SIGNUP_IP_LIMIT } from '../../server/modules/attendees/signup.service';
import { BOOKING_EMAIL_LIMIT } from '../../server/modules/booking/booking.service';
import { queryRows } from '../../server/db/client';
import { attendees } from '../../server/modules/attendees/attendees.sql';
import { parseUtcString } from '../../shared/time';
import { createHost, createType, disableIpThrottle, futureStart, submitBooking } from '../helpers/booking';
import { useE2e } from '../helpers/e2e';
import { agedFormToken, createEvent, resetThrottles, signUp, uniqueEmail } from '../helpers/registration';
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

/**
 * Sends until the server answers 429, at most `attempts` times (a fixed window turning mid-way
 * starts its count again): true when it did, so the limit is used up at this moment.
 */
async function refusedWithin(attempts: number, send: () => Promise<{ status: number }>): Promise<boolean> {
  for (let n = 0; n < attempts; n += 1) if ((await send()).status === 429) return true;
  return false;
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

  test('throttled inside the embed: the visitor’s address is counted, the sign-up and the booking past their limits show “too many attempts” in the frame, and the host page cannot post without the nonce', async () => {
    await allowOrigins([hostOrigin]);
    await resetThrottles(e2e.server);
    const event = await createEvent(e2e.admin.api, { title: 'Throttled evening', capacity: 50 });
    const type = await createType(e2e.admin.api, { title: 'Throttled consultation', hosts: [await createHost(e2e.admin.api)] });
    const page = await openHost(`<svc-event event="${event.id}"></svc-event><svc-booking type="${type.id}"></svc-booking>`);
    const frame = page.frameLocator('svc-event iframe');
    await frame.getByRole('heading', { level: 1, name: 'Throttled evening' }).waitFor();

    await frame.getByLabel('Your name').fill('Tia Throttle');
    await frame.getByLabel('Email').fill(uniqueEmail('throttle-first'));
    const [first] = await Promise.all([
      page.waitForResponse((r) => isTrpcMutation(r, 'attendees.signup'), { timeout: 15_000 }),
      frame.getByRole('button', { name: 'Sign up' }).click(),
    ]);
    expect(first.status()).toBe(200);
    await frame.getByRole('heading', { name: 'You’re going!' }).waitFor();
    // the embed's sign-up is counted on the client's address (and its email), as a full page's
    // is: nothing of the frame, the host site or a cookie is in the key (decision 052)
    const buckets = await queryRows<{ bucket: string }>(
      e2e.server.server.ctx.db,
      sql`select distinct bucket from svc_rate_limits where bucket like 'signup:%' order by bucket`,
    );
    expect(buckets.map((row) => row.bucket.replace(/^signup:email:[0-9a-f]{64}$/, 'signup:email:<hash>'))).toEqual([
      'signup:email:<hash>',
      'signup:ip:127.0.0.1',
    ]);

    // someone else from the same address signs up at once. Each time the frame sends, the address's
    // other sign-ups (from this test: the same 127.0.0.1) first use up its limit, so the frame's is
    // the one past it whatever second the minute's window turns in, its retry included
    await frame.getByRole('button', { name: 'Sign up someone else' }).click();
    await frame.getByLabel('Your name').fill('Uma Undeterred');
    await frame.getByLabel('Email').fill(uniqueEmail('throttle-second'));
    const addressUsedUp: boolean[] = [];
    await page.context().route(/\/trpc\/attendees\.signup/, async (route) => {
      addressUsedUp.push(await refusedWithin(2 * SIGNUP_IP_LIMIT.limit + 1, () => signUp(e2e.server, event.id)));
      await route.continue();
    });
    const [throttled] = await Promise.all([
      page.waitForResponse((r) => isTrpcMutation(r, 'attendees.signup'), { timeout: 15_000 }),
      frame.getByRole('button', { name: 'Sign up' }).click(),
    ]);
    expect(addressUsedUp[0]).toBe(true);
    expect(throttled.status()).toBe(429);
    // the frame says why it waits and when it tries again, in words, not a blank or endless "Sending…"
    const status = frame.getByRole('status').filter({ has: frame.getByRole('heading', { name: 'Too many attempts in a short time' }) });
    await expect
      .poll(() => status.innerText())
      .toMatch(/^Too many attempts in a short time\s+Please wait: this page will try again by itself in about ([1-9]|[1-5]\d|60) seconds?\.$/);
    // the frame follows the message's height: it is shown whole, not cut off
    const contentHeight = () => frame.locator('html').evaluate((html) => Math.ceil(html.getBoundingClientRect().height));
    await expect.poll(async () => (await frameHeight(page, 'svc-event iframe')) - (await contentHeight())).toBe(0);

    // the booking frame alike; this file turns the per-address booking throttle off (beforeAll),
    // so it is the email's limit, an hour's window, that the same person's other bookings use up
    const bookingFrame = page.frameLocator('svc-booking iframe');
    const bookingEmail = uniqueEmail('throttle-booking');
    await pickSlot(bookingFrame, futureStart(3, 11));
    await bookingFrame.getByLabel('Your name').fill('Bea Busy');
    await bookingFrame.getByLabel('Email').fill(bookingEmail);
    const emailUsedUp: boolean[] = [];
    await page.context().route(/\/trpc\/booking\.create/, async (route) => {
      emailUsedUp.push(await refusedWithin(2 * BOOKING_EMAIL_LIMIT.limit + 1, () => submitBooking(e2e.server.url, { customerEmail: bookingEmail })));
      await route.continue();
    });
    const [bookingThrottled] = await Promise.all([
      page.waitForResponse((r) => isTrpcMutation(r, 'booking.create')),
      bookingFrame.getByRole('button', { name: 'Book this time' }).click(),
    ]);
    expect(emailUsedUp[0]).toBe(true);
    expect(bookingThrottled.status()).toBe(429);
    const bookingStatus = bookingFrame.getByRole('status').filter({ has: bookingFrame.getByRole('heading', { name: 'Too many attempts in a short time' }) });
    await expect.poll(() => bookingStatus.innerText()).toMatch(/Please wait: this page will try again by itself in about \d+ (seconds?|minutes?)\.$/);
    await page.screenshot({ path: 'test-results/embed-throttled.png', fullPage: true });

    // the host page itself posting the sign-up form: it cannot read a nonce (no CORS) nor set the
    // header, so the post arrives without one and is refused before anything else is looked at
    const nonceRead = await page.evaluate(
      (url) =>
        fetch(url).then(
          () => 'read',
          () => 'refused',
        ),
      `${e2e.server.url}/svc/v1/nonce`,
    );
    expect(nonceRead).toBe('refused');
    const fields = { display_name: 'Hostile Host', email: uniqueEmail('host-page'), quantity: '1', svc_ts: agedFormToken(e2e.server, event.id), svc_hp: '' };
    // an opaque answer's body is not kept by the browser: the post is passed on from the test as the
    // browser sent it (its own headers, no nonce, the host's Origin) and its answer read there
    const signupUrl = `${e2e.server.url}/svc/v1/events/${event.id}/signup`;
    let answered!: (answer: { status: number; body: { code?: string }; headers: Record<string, string> }) => void;
    const directAnswer = new Promise<Parameters<typeof answered>[0]>((resolve) => (answered = resolve));
    await page.context().route(signupUrl, async (route) => {
      const response = await route.fetch();
      answered({ status: response.status(), body: (await response.json()) as { code?: string }, headers: route.request().headers() });
      await route.fulfill({ response });
    });
    await page.evaluate(
      ({ url, body }) =>
        fetch(url, { method: 'POST', mode: 'no-cors', headers: { 'x-svc-nonce': 'ignored' }, body: new URLSearchParams(body) }).then(() => undefined),
      { url: signupUrl, body: fields },
    );
    const direct = await directAnswer;
    expect(direct.headers.origin).toBe(hostOrigin);
    expect(direct.headers['x-svc-nonce']).toBeUndefined();
    expect(direct.status).toBe(403);
    expect(direct.body.code).toBe('svc_invalid_nonce');
    // nothing of the host page's post was stored
    const stored = await queryRows<{ email: string }>(e2e.server.server.ctx.db, sql`select email from ${attendees} where event_id = ${event.id}`);
    expect(stored.map((row) => row.email)).not.toContain(fields.email);
    // no held request is left to a closing page
    await page.context().unrouteAll({ behavior: 'wait' });
    await resetThrottles(e2e.server);
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
