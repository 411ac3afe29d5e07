/**
 * What a visitor decides on before signing up, in real Chromium against the real server
 * (docs/api.md#rest "Event"): the price and places left on the card and the page, a full
 * event's waitlist sign-up told apart from a booked seat, and a closed event without a form;
 * and all of it in the reader's language (docs/decisions/027-languages.md).
 */
import { describe, expect, test } from 'vitest';
import { useE2e } from '../helpers/e2e';
import { createEvent, resetThrottles, signUp, uniqueEmail } from '../helpers/registration';
import { expectAccessible, isTrpcMutation, linkFromOutbox, phoneProfile, waitShowing } from '../helpers/visitor-e2e';
import { horizontalOverflow, PHONE_390 } from '../helpers/screens';
import { storedMails } from '../helpers/mail';
import { bookingBody, createHost, createType, futureStart, submitBooking } from '../helpers/booking';

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
    // without online payment (the free edition) the page says honestly how the price is paid
    await page.locator('.price-pay-at-door', { hasText: /^Pay at the door: (US)?\$45\.00$/ }).waitFor();

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

  test('?lang=de opens the event in German from the first byte (<html lang="de">) and signs up in German with a German mail; ?lang=ar right to left with nothing wider than 390 px signs up in Arabic with an Arabic mail; the menu switches back without a reload; a cancel link with ?lang=fr cancels in French', async () => {
    // this file's earlier sign-ups come from the same address: the per-IP throttle counts in
    // fixed minutes, so whether the sixth one was refused depended on where the minute turned
    await resetThrottles(e2e.server);
    const ev = await createEvent(e2e.admin.api, { title: 'Töpferkurs', priceCents: 4500, capacity: 10, venue: 'Werkstatt 3' });
    const email = uniqueEmail('langues');
    expect((await signUp(e2e.server, ev.id, { quantity: 6, email })).status).toBe(201);

    const page = await e2e.newPage({ viewport: PHONE_390 });
    const shell = await page.goto(new URL(`/events/${ev.id}?lang=de`, e2e.server.url).href);
    // the server's shell already speaks German: no English first, then German
    expect(await shell!.text()).toContain('<html lang="de" dir="ltr">');
    expect(shell!.headers()['content-language']).toBe('de');
    await page.getByRole('heading', { level: 1, name: 'Töpferkurs' }).waitFor();
    await page.locator('dt', { hasText: 'Preis' }).waitFor();
    expect(await page.locator('dl.v-facts').innerText()).toMatch(/Preis\s+45,00\s\$[\s\S]*Plätze\s+Noch 4 Plätze frei/);
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['de', 'ltr']);
    await page.getByRole('button', { name: 'Anmelden' }).waitFor();
    await page.getByLabel('Ihr Name').waitFor();
    expect(await page.getByRole('combobox', { name: 'Sprache' }).inputValue()).toBe('de');
    await expectAccessible(page, '/events/:id in German');

    // a sign-up through the German form: the page answers in German, and so does her ticket mail
    const greta = uniqueEmail('greta');
    await page.getByLabel('Ihr Name').fill('Greta Bauer');
    await page.getByLabel('E-Mail').fill(greta);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await waitShowing(page, page.getByRole('heading', { name: 'Sie sind dabei!' }), 'the German ticket');
    await expect.poll(async () => (await storedMails(e2e.server.server.ctx.db, greta))[0]?.subject).toBe('Sie sind angemeldet: Töpferkurs');

    // the choice is kept: the list, opened without ?lang=, is German too
    await page.getByRole('link', { name: 'Alle Veranstaltungen' }).click();
    await page.getByRole('heading', { name: 'Kommende Veranstaltungen' }).waitFor();

    // the menu switches in place: the page is the same document (no reload), now in English
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    await page.getByRole('combobox', { name: 'Sprache' }).selectOption('en');
    await page.getByRole('heading', { name: 'Upcoming events' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');

    // by now the service worker may answer the navigation with its own copy of the shell: the page
    // then sets lang and dir itself before its first render, so the document is what is checked
    await page.goto(new URL(`/events/${ev.id}?lang=ar`, e2e.server.url).href);
    await page.getByRole('heading', { level: 1, name: 'Töpferkurs' }).waitFor();
    await page.getByRole('button', { name: 'سجّل' }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['ar', 'rtl']);
    expect(await page.locator('dl.v-facts').innerText()).toContain('السعر');
    expect(page.viewportSize()?.width).toBe(390);
    expect(await horizontalOverflow(page), 'the Arabic event page is wider than the phone').toBe(0);
    await expectAccessible(page, '/events/:id in Arabic');

    // a sign-up through the Arabic form: the answer and the ticket mail are Arabic, right to left
    const amal = uniqueEmail('amal');
    await page.getByLabel('اسمك').fill('أمل حداد');
    await page.getByLabel('البريد الإلكتروني').fill(amal);
    await page.getByRole('button', { name: 'سجّل' }).click();
    await waitShowing(page, page.getByRole('heading', { name: 'تم تسجيلك!' }), 'the Arabic ticket');
    expect(await horizontalOverflow(page), 'the Arabic ticket is wider than the phone').toBe(0);
    await expectAccessible(page, 'the Arabic ticket');
    await expect.poll(async () => (await storedMails(e2e.server.server.ctx.db, amal))[0]?.subject).toBe('تم تسجيلك: Töpferkurs');
    expect((await storedMails(e2e.server.server.ctx.db, amal))[0]?.html).toContain('<html lang="ar" dir="rtl">');

    // the cancel link from the email, shared in French: the page and its outcome in French
    const cancelPath = await linkFromOutbox(e2e.server, email, 'cancel');
    await page.goto(new URL(`${cancelPath}?lang=fr`, e2e.server.url).href);
    await page.getByRole('heading', { level: 1, name: 'Annuler votre inscription' }).waitFor();
    await page.getByText('Annuler libère vos 6 places pour Töpferkurs. C’est irréversible.').waitFor();
    await page.getByRole('button', { name: 'Annuler mon inscription' }).click();
    await page.getByRole('heading', { name: 'Votre inscription est annulée' }).waitFor();
    await expectAccessible(page, '/cancel/:token in French');
  });

  test('a manage link with ?lang=de shows the booking and cancels it in German', async () => {
    const type = await createType(e2e.admin.api, { title: 'Sprechstunde', hosts: [await createHost(e2e.admin.api)] });
    const email = uniqueEmail('buchung');
    expect((await submitBooking(e2e.server.url, bookingBody(type.id, futureStart(2, 10), { customerEmail: email }))).status).toBe(201);
    const managePath = await linkFromOutbox(e2e.server, email, 'manage');

    const page = await e2e.openPage(`${managePath}?lang=de`);
    await page.getByRole('heading', { level: 1, name: 'Ihre Buchung' }).waitFor();
    expect(await page.locator('dl.v-facts').innerText()).toMatch(/Was\s+Sprechstunde[\s\S]*Status\s+Bestätigt/);
    await expectAccessible(page, '/manage/:token in German');
    await page.getByRole('button', { name: 'Diese Buchung stornieren' }).click();
    await page.getByRole('heading', { name: 'Diese Buchung stornieren?' }).waitFor();
    await page.getByRole('button', { name: 'Ja, stornieren' }).click();
    await page.getByText('Ihre Buchung ist storniert. Eine Bestätigung per E-Mail ist unterwegs.').waitFor();
    expect(await page.locator('dl.v-facts').innerText()).toMatch(/Status\s+Storniert/);
  });
});
