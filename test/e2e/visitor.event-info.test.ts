/**
 * What a visitor decides on before signing up, in real Chromium against the real server
 * (docs/api.md#rest "Event"): the price and places left on the card and the page, a full
 * event's waitlist sign-up told apart from a booked seat, and a closed event without a form.
 */
import { describe, expect, test } from 'vitest';
import { useE2e } from '../helpers/e2e';
import { createEvent, signUp, uniqueEmail } from '../helpers/registration';
import { expectAccessible, isTrpcMutation, phoneProfile } from '../helpers/visitor-e2e';

const e2e = useE2e({ env: { SVC_JOBS: 'off' }, login: true, context: phoneProfile({ locale: 'en-GB', timezoneId: 'Europe/London' }) });

describe('visitor event information', () => {
  test('price and places left on the card and the page; a full event says "Join the waitlist" and answers with the waitlist notice', async () => {
    const priced = await createEvent(e2e.admin.api, { title: 'Pottery class', priceCents: 4500, capacity: 10 });
    expect((await signUp(e2e.server, priced.id, { quantity: 6 })).status).toBe(201);
    const full = await createEvent(e2e.admin.api, { title: 'Sold-out talk', capacity: 1, waitlist: true });
    expect((await signUp(e2e.server, full.id)).status).toBe(201);

    const page = await e2e.openPage('/events');
    const card = page.getByRole('link', { name: /Pottery class/ });
    await card.waitFor();
    expect(await card.innerText()).toMatch(/US\$45\.00|\$45\.00/);
    expect(await card.innerText()).toContain('4 places left');
    expect(await page.getByRole('link', { name: /Sold-out talk/ }).innerText()).toContain('Free · Full — join the waitlist');
    await expectAccessible(page, '/events with prices and places');

    await card.click();
    await page.getByRole('heading', { level: 1, name: 'Pottery class' }).waitFor();
    await page.locator('dt', { hasText: 'Price' }).waitFor();
    expect(await page.locator('dl.v-facts').innerText()).toMatch(/Price\s+(US)?\$45\.00[\s\S]*Places\s+4 places left/);
    await page.getByRole('button', { name: 'Sign up' }).waitFor();

    await page.goto(new URL(`/events/${full.id}`, e2e.server.url).href);
    await page.getByRole('heading', { level: 1, name: 'Sold-out talk' }).waitFor();
    await page.getByText('Full — join the waitlist. You get no seat yet').waitFor();
    expect(await page.getByRole('button', { name: 'Sign up' }).count()).toBe(0);
    await expectAccessible(page, '/events/:id full with waitlist');
    await page.getByLabel('Your name').fill('Wendy Wait');
    await page.getByLabel('Email').fill(uniqueEmail('wait'));
    const [response] = await Promise.all([
      page.waitForResponse((r) => isTrpcMutation(r, 'attendees.signup'), { timeout: 15_000 }),
      page.getByRole('button', { name: 'Join the waitlist' }).click(),
    ]);
    expect(response.status()).toBe(200);
    const notice = page.locator('.v-result', { has: page.getByRole('heading', { name: /You’re on the waitlist/ }) });
    await notice.waitFor();
    expect(await notice.getAttribute('class')).toContain('waitlist');
    expect(await notice.innerText()).toContain('you have no seat yet');
    expect(await page.getByRole('heading', { name: 'You’re going!' }).count()).toBe(0);
    await expectAccessible(page, 'waitlist notice');
  });

  test('a closed event shows the day sign-up closed, in the event’s zone, a way on, and no form', async () => {
    // 23:30 UTC on 19 Nov is already 20 Nov in Tokyo: the event's zone decides the day
    const closed = await createEvent(e2e.admin.api, { title: 'Autumn fair', timezone: 'Asia/Tokyo', signupClosesUtc: '2024-11-19 23:30:00' });
    const page = await e2e.openPage(`/events/${closed.id}`);
    await page.getByRole('heading', { level: 1, name: 'Autumn fair' }).waitFor();
    await page.getByText('Sign-up closed on Wednesday 20 November').waitFor();
    await page.getByRole('link', { name: 'See other upcoming events' }).waitFor();
    expect(await page.locator('form').count()).toBe(0);
    expect(await page.getByLabel('Email').count()).toBe(0);
    await expectAccessible(page, '/events/:id closed');
  });
});
