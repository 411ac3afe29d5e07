/**
 * Every visitor page looked at on a 390 px phone, in real Chromium against one real server
 * (checkScreen: a named PNG under test-results/screens, nothing wider than the screen, axe
 * clean), with what a visitor decides on asserted in words: price, places left, the waitlist.
 * Also the result of a submit kept in view (focused, scrolled to, the bad field marked in plain
 * words) and the stale-copy note going away once a refresh succeeds.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { bookingBody, createHost, createType, futureStart, submitBooking } from '../helpers/booking';
import { attendeeRows, createEvent, signUp, uniqueEmail } from '../helpers/registration';
import { LAPTOP, useE2e } from '../helpers/e2e';
import { checkScreen, PHONE_390 } from '../helpers/screens';
import { isTrpcMutation, linkFromOutbox, phoneProfile } from '../helpers/visitor-e2e';

const e2e = useE2e({ env: { SVC_JOBS: 'off' }, login: true, context: phoneProfile({ locale: 'en-GB', timezoneId: 'Europe/London' }) });

const go = (page: Page, path: string) => page.goto(new URL(path, e2e.server.url).href);
const mainText = (page: Page) => page.locator('main').innerText();
/** The links of the header's main navigation, by name. */
const navLinks = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link').allInnerTexts();
/** True when the element is inside the viewport (the result was scrolled to). */
const inView = (page: Page, selector: string) =>
  page.locator(selector).evaluate((el) => {
    const box = el.getBoundingClientRect();
    return box.top >= 0 && box.top < window.innerHeight;
  });
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');

describe('visitor screens at 390 px', () => {
  test('events list, event open / full / closed, a refused email, success with ticket, waitlist, cancel, manage, pay, submit, 404', async () => {
    const open = await createEvent(e2e.admin.api, { title: 'Pottery class', priceCents: 4500, capacity: 5, waitlist: true, maxPerSignup: 4 });
    expect((await signUp(e2e.server, open.id, { quantity: 3 })).status).toBe(201);
    const full = await createEvent(e2e.admin.api, { title: 'Sold-out talk', capacity: 1, waitlist: true });
    expect((await signUp(e2e.server, full.id)).status).toBe(201);
    const closed = await createEvent(e2e.admin.api, { title: 'Autumn fair', signupClosesUtc: '2024-11-19 12:00:00' });

    const page = await e2e.newPage({ viewport: PHONE_390 });
    await go(page, '/events');
    await page.getByRole('link', { name: /Pottery class/ }).waitFor();
    const card = await page.getByRole('link', { name: /Pottery class/ }).innerText();
    expect(card).toMatch(/(US)?\$45\.00 · 2 places left/);
    expect(await page.getByRole('link', { name: /Sold-out talk/ }).innerText()).toContain('Free · Full — join the waitlist');
    expect(await page.getByRole('link', { name: /Autumn fair/ }).innerText()).toContain('Sign-up closed');
    // a visitor's header: no Door or Admin link
    expect(await navLinks(page)).toEqual(['Events']);
    await checkScreen(page, 'visitor-390-events');

    // open, with 2 places left: a sign-up for 3 is told before sending that it goes on the waitlist
    await go(page, `/events/${open.id}`);
    await page.getByLabel('Seats').waitFor();
    expect(await page.locator('dl.v-facts').innerText()).toMatch(/Price\s+(US)?\$45\.00[\s\S]*Places\s+2 places left/);
    expect(await navLinks(page)).toEqual(['Events']);
    await checkScreen(page, 'visitor-390-event-open');
    await page.getByLabel('Seats').fill('3');
    const warning = page.locator('#signup-quantity-waitlist');
    await warning.waitFor();
    expect(await warning.innerText()).toContain('Only 2 places are left: a sign-up for 3 seats goes on the waitlist');
    expect(await page.getByLabel('Seats').getAttribute('aria-describedby')).toContain('signup-quantity-waitlist');
    await page.getByRole('button', { name: 'Join the waitlist' }).waitFor();
    await checkScreen(page, 'visitor-390-event-seats-beyond-places');
    await page.getByLabel('Seats').fill('2');
    await warning.waitFor({ state: 'detached' });

    // an address the browser lets through but the server refuses: the result in view, focused, the field marked in plain words
    const email = uniqueEmail('potter');
    await page.getByLabel('Your name').fill('Grace Potter');
    await page.getByLabel('Email').fill('grace@example');
    await page.getByRole('button', { name: 'Sign up' }).click();
    const problem = page.locator('#signup-error');
    await problem.waitFor({ timeout: 15_000 });
    await expect.poll(() => page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#signup-email-error').innerText()).toBe('Check the email address, e.g. name@example.com.');
    expect(await page.getByLabel('Email').getAttribute('aria-describedby')).toBe('signup-email-error');
    expect(await problem.innerText()).toContain('Check the email address, e.g. name@example.com.');
    expect(await problem.innerText()).not.toContain('Invalid parameter');
    await expect.poll(() => focusedId(page)).toBe('signup-error');
    await expect.poll(() => inView(page, '#signup-error')).toBe(true);
    await checkScreen(page, 'visitor-390-event-bad-email');
    // the line in the message takes the visitor to the field
    await problem.getByRole('link', { name: /Check the email address/ }).click();
    expect(await focusedId(page)).toBe('signup-email');

    await page.getByLabel('Email').fill(email);
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBeNull();
    const [answer] = await Promise.all([
      page.waitForResponse((r) => isTrpcMutation(r, 'attendees.signup'), { timeout: 15_000 }),
      page.getByRole('button', { name: 'Sign up' }).click(),
    ]);
    expect(answer.status()).toBe(200);
    await page.getByRole('heading', { name: 'You’re going!' }).waitFor();
    const [row] = (await attendeeRows(e2e.server, open.id)).filter((r) => r.email === email);
    expect(await mainText(page)).toContain(`2 seats booked for ${email}`);
    expect(await page.locator('.v-ticket-code').innerText()).toBe(row.ticket_code);
    await page.getByRole('img', { name: /ticket’s QR code/ }).waitFor();
    expect(await page.getByRole('link', { name: 'Add to calendar' }).getAttribute('download')).toBe(`event-${open.id}.ics`);
    await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains('v-result') ?? false)).toBe(true);
    await checkScreen(page, 'visitor-390-signup-success');

    // full, with a waitlist: the result is amber, with no QR (not admitted)
    await go(page, `/events/${full.id}`);
    await page.getByText('Full — join the waitlist. You get no seat yet').waitFor();
    await checkScreen(page, 'visitor-390-event-full');
    await page.getByLabel('Your name').fill('Wendy Wait');
    await page.getByLabel('Email').fill(uniqueEmail('wait'));
    await page.getByRole('button', { name: 'Join the waitlist' }).click();
    const waitlisted = page.locator('.v-result.waitlist');
    await waitlisted.waitFor({ timeout: 15_000 });
    expect(await waitlisted.innerText()).toContain('1 seat on the waitlist');
    expect(await waitlisted.innerText()).toContain('you have no seat yet');
    expect(await page.locator('.v-ticket').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Add to calendar' }).count()).toBe(0);
    await checkScreen(page, 'visitor-390-waitlist-result');

    await go(page, `/events/${closed.id}`);
    await page.getByText(/Sign-up closed on/).waitFor();
    expect(await page.locator('form.v-form').count()).toBe(0);
    await checkScreen(page, 'visitor-390-event-closed');

    await go(page, await linkFromOutbox(e2e.server, email, 'cancel'));
    await page.getByRole('button', { name: 'Cancel my sign-up' }).waitFor();
    await checkScreen(page, 'visitor-390-cancel');

    const host = await createHost(e2e.admin.api);
    const type = await createType(e2e.admin.api, { title: 'Consultation', hosts: [host] });
    const booking = bookingBody(type.id as number, futureStart(3, 10));
    expect((await submitBooking(e2e.server.url, booking)).status).toBe(201);
    await go(page, await linkFromOutbox(e2e.server, String(booking.customerEmail), 'manage'));
    await page.getByRole('heading', { level: 1, name: 'Your booking' }).waitFor();
    await page.getByRole('button', { name: 'Cancel this booking' }).waitFor();
    await checkScreen(page, 'visitor-390-manage');

    // the free edition takes no payments: a checkout link answers as an unknown page
    await go(page, '/pay/999999');
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    await checkScreen(page, 'visitor-390-pay-unknown');

    await go(page, '/events/submit');
    await page.getByText('Proposing events is not available on this site').waitFor();
    await checkScreen(page, 'visitor-390-submit');

    await go(page, '/no-such-page');
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    expect(await navLinks(page)).toEqual(['Events']);
    await checkScreen(page, 'visitor-390-404');
  });

  test("events by month in the reader's language, a search, past events under their own heading; an event that is over says it has ended", async () => {
    await createEvent(e2e.admin.api, { title: 'Lantern walk', startsUtc: '2099-06-10 18:00:00' });
    await createEvent(e2e.admin.api, { title: 'Cider tasting', startsUtc: '2099-07-02 18:00:00' });
    const over = await createEvent(e2e.admin.api, { title: 'Harbour fair', startsUtc: '2020-03-01 10:00:00', endsUtc: '2020-03-01 18:00:00' });

    const page = await e2e.newPage({ viewport: PHONE_390 });
    await go(page, '/events');
    const june = page.getByRole('region', { name: 'June 2099' });
    await june.getByRole('link', { name: /Lantern walk/ }).waitFor();
    expect(await june.getByRole('heading', { level: 3 }).innerText()).toBe('June 2099');
    await page
      .getByRole('region', { name: 'July 2099' })
      .getByRole('link', { name: /Cider tasting/ })
      .waitFor();
    const past = page.getByRole('region', { name: 'Past events' });
    await past.getByRole('link', { name: /Harbour fair/ }).waitFor();
    expect(
      await page
        .getByRole('region', { name: 'Upcoming events' })
        .getByRole('link', { name: /Harbour fair/ })
        .count(),
    ).toBe(0);
    await checkScreen(page, 'visitor-390-events-by-month');

    await page.getByLabel('Search events').pressSequentially('lant');
    await expect.poll(() => page.getByRole('link', { name: /Cider tasting/ }).count()).toBe(0);
    expect(await page.getByRole('link', { name: /Lantern walk/ }).count()).toBe(1);
    expect(await page.getByRole('region', { name: 'Past events' }).count()).toBe(0);
    await page.getByLabel('Search events').fill('harbour');
    await page.getByText('No upcoming events match your search.').waitFor();
    await past.getByRole('link', { name: /Harbour fair/ }).waitFor();

    await go(page, `/events/${over.id}`);
    await page.getByText('This event has ended.').waitFor();
    expect(await page.getByRole('heading', { name: 'Sign up' }).count()).toBe(0);
    expect(await page.getByLabel('Email').count()).toBe(0);
    await checkScreen(page, 'visitor-390-event-ended');

    // German: the month headings are the reader's, through Intl
    await go(page, '/events?lang=de');
    await page
      .getByRole('region', { name: 'Juni 2099' })
      .getByRole('link', { name: /Lantern walk/ })
      .waitFor();
    await page
      .getByRole('region', { name: 'Vergangene Veranstaltungen' })
      .getByRole('link', { name: /Harbour fair/ })
      .waitFor();
  });

  test('an unknown cancel or manage link says at once that the link is not valid, with a way on, at 390 and 1280 px', async () => {
    for (const viewport of [PHONE_390, LAPTOP]) {
      const page = await e2e.newPage({ viewport });
      for (const [path, words, name] of [
        ['/cancel/no-such-token-0000', 'This cancel link is not valid', 'cancel'],
        ['/manage/no-such-token-0000', 'This link is not valid', 'manage'],
      ] as const) {
        await go(page, path);
        // the server answers 404 at once: the page says so within a few seconds, not "Loading…" for ever
        await page.getByText(words).waitFor({ timeout: 5_000 });
        expect(await mainText(page)).not.toContain('Loading');
        const way = page.getByRole('main').getByRole('link', { name: 'All events and appointments' });
        expect(await way.getAttribute('href')).toBe('/events');
        await checkScreen(page, `visitor-${viewport.width}-${name}-unknown-link`);
      }
    }
  });

  test('"Could not refresh" goes once the connection is back and a refresh succeeds', async () => {
    await createEvent(e2e.admin.api, { title: 'Choir evening' });
    const page = await e2e.newPage({ viewport: PHONE_390 });
    await go(page, '/events');
    await page.getByRole('link', { name: /Choir evening/ }).waitFor();

    // the server cannot be reached while the browser still says online (a captive portal, a server
    // restart): the page's own fetch fails as a dropped connection does, before any script runs
    await page.addInitScript(() => {
      const real = window.fetch.bind(window);
      const state = window as unknown as { svcBlockApi?: boolean };
      state.svcBlockApi = true;
      window.fetch = (input, init) =>
        state.svcBlockApi && String(input instanceof Request ? input.url : input).includes('/trpc')
          ? Promise.reject(new TypeError('Failed to fetch'))
          : real(input, init);
    });
    await page.reload();
    const note = page.getByText(/Could not refresh: showing the list saved/).first();
    await note.waitFor();
    await checkScreen(page, 'visitor-390-events-stale');

    await page.evaluate(() => {
      (window as unknown as { svcBlockApi?: boolean }).svcBlockApi = false;
      window.dispatchEvent(new Event('online'));
    });
    await expect.poll(() => page.getByText(/Could not refresh/).count(), { timeout: 10_000 }).toBe(0);
  });
});
