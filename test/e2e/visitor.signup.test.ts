/**
 * Visitor sign-up in real Chromium against the real server: the events list and detail
 * (also offline once visited), extra fields from svc_rsvp_form_fields, drafts kept over a
 * reload, the server's error under the form, an offline sign-up sent when back online, the
 * Google Calendar and Outlook.com links beside the .ics, and cancelling from the link in the
 * confirmation email.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { useE2e } from '../helpers/e2e';
import { attendeeRows, createEvent, signUp, uniqueEmail } from '../helpers/registration';
import { controlledByServiceWorker, expectAccessible, isTrpcMutation, linkFromOutbox, phoneProfile, storedDraft, trpcInput } from '../helpers/visitor-e2e';

const e2e = useE2e({ env: { SVC_JOBS: 'off' }, login: true, context: phoneProfile() });
const rawAnswers: Array<Record<string, unknown>> = [];
const cleanups: Array<() => void> = [];

beforeAll(() => {
  const hooks = e2e.server.server.ctx.hooks;
  // One extra field, one disabled field that must never be posted; the answers are stored as given.
  const formFields = (html: string) =>
    `${html}<label for="cf-diet">Diet</label><input id="cf-diet" name="svc_cf_diet" type="text" required>` +
    `<label for="cf-company">Company</label><input id="cf-company" name="svc_cf_company" type="text" value="ACME" disabled>`;
  const customFields = (fields: Record<string, unknown> | Error, raw: Record<string, unknown>) => {
    rawAnswers.push(raw);
    return fields instanceof Error ? fields : { ...fields, ...raw };
  };
  const noIp = () => '';
  hooks.addFilter('svc_rsvp_form_fields', formFields, 50, 2);
  hooks.addFilter('svc_rsvp_custom_fields', customFields as never, 50, 3);
  hooks.addFilter('svc_rsvp_client_ip', noIp, 50);
  cleanups.push(
    () => hooks.removeFilter('svc_rsvp_form_fields', formFields, 50),
    () => hooks.removeFilter('svc_rsvp_custom_fields', customFields as never, 50),
    () => hooks.removeFilter('svc_rsvp_client_ip', noIp, 50),
  );
});

afterAll(() => {
  for (const cleanup of cleanups) cleanup();
});

describe('visitor sign-up', () => {
  test('sign up with an extra field: field order, draft kept over a reload, going, cancel link from the email', async () => {
    const event = await createEvent(e2e.admin.api, { title: 'Garden party', venue: 'Town park', maxPerSignup: 4, capacity: 20 });
    const page = await e2e.openPage('/events');
    await page.getByRole('heading', { level: 1, name: 'Events' }).waitFor();
    await expectAccessible(page, '/events');

    await page.getByRole('link', { name: /Garden party/ }).click();
    await page.getByRole('heading', { level: 1, name: 'Garden party' }).waitFor();
    await page.getByLabel('Diet').waitFor();

    // svc_rsvp_form_fields HTML sits after the email and before the quantity
    const order = await page.locator('form input').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).name));
    expect(order.filter((n) => ['email', 'svc_cf_diet', 'quantity'].includes(n))).toEqual(['email', 'svc_cf_diet', 'quantity']);
    expect(await page.getByLabel('Email').getAttribute('type')).toBe('email');
    expect(await page.getByLabel('Seats').getAttribute('inputmode')).toBe('numeric');
    expect(await page.getByLabel('Seats').getAttribute('max')).toBe('4');
    await expectAccessible(page, '/events/:id');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    const email = uniqueEmail('garden');
    await page.getByLabel('Your name').fill('Grace Hopper');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Diet').fill('vegan');
    await page.getByLabel('Seats').fill('2');

    // nothing typed is lost on reload: the draft is in svc-visitor as soon as it is typed
    await expect.poll(() => storedDraft(page, `signup:${event.id}`)).toMatchObject({ svc_cf_diet: 'vegan', quantity: '2', email });
    await page.reload();
    await page.getByLabel('Diet').waitFor();
    await expect.poll(() => page.getByLabel('Diet').inputValue()).toBe('vegan');
    expect(await page.getByLabel('Your name').inputValue()).toBe('Grace Hopper');
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    expect(await page.getByLabel('Seats').inputValue()).toBe('2');

    const [response] = await Promise.all([
      // the app holds the post until the form token is 3 s old (the server's minimum fill time)
      page.waitForResponse((r) => isTrpcMutation(r, 'attendees.signup'), { timeout: 15_000 }),
      page.getByRole('button', { name: 'Sign up' }).click(),
    ]);
    expect(response.status()).toBe(200);
    expect(response.request().headers()['x-svc-nonce']).toBeTruthy();
    const input = trpcInput<{ id: number; fields: Record<string, unknown> }>(response.request());
    expect(input.id).toBe(event.id);
    const posted = input.fields;
    expect(posted).toMatchObject({ email, display_name: 'Grace Hopper', quantity: 2, svc_hp: '', svc_cf_diet: 'vegan' });
    expect(posted).not.toHaveProperty('svc_cf_company');
    expect(typeof posted.svc_ts).toBe('string');

    await page.getByRole('heading', { name: 'You’re going!' }).waitFor();
    await expect.poll(() => page.locator('main').innerText()).toContain(`2 seats booked for ${email}`);
    // the ticket on screen is the row's own code, as text and as the QR the door scans
    const shownCode = await page.locator('.v-ticket-code').innerText();
    await page.getByRole('img', { name: /ticket’s QR code/ }).waitFor();
    expect(rawAnswers.at(-1)).toEqual({ diet: 'vegan' });
    const [row] = (await attendeeRows(e2e.server, event.id)).filter((r) => r.email === email);
    expect(row).toMatchObject({ status: 'going', quantity: 2, ticket_code: shownCode });
    expect(JSON.parse(row.custom_fields)).toEqual({ diet: 'vegan' });
    // the PDF ticket to keep: the answer's key, never the cancel token, and the link answers the PDF
    const pdfLink = page.getByRole('link', { name: 'Download PDF ticket' });
    const signedHref = (await pdfLink.getAttribute('href'))!;
    expect(signedHref).toMatch(new RegExp(`^/svc/v1/tickets/signed/${row.id}\\.[0-9a-f]{32}/ticket\\.pdf$`));
    expect(signedHref).not.toContain(row.cancel_token);
    expect(await pdfLink.getAttribute('download')).toBe('ticket.pdf');
    const signedPdf = await fetch(new URL(signedHref, e2e.server.url));
    expect([signedPdf.status, signedPdf.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    await expectAccessible(page, 'sign-up confirmation');

    // beside the .ics: the Google Calendar composer, filled in (its href is read, never followed: no network)
    const googleLink = page.getByRole('link', { name: 'Add to Google Calendar' });
    expect(await googleLink.getAttribute('target')).toBe('_blank');
    expect(await googleLink.getAttribute('rel')).toBe('noopener noreferrer');
    const google = new URL((await googleLink.getAttribute('href'))!);
    expect(google.origin + google.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(google.searchParams.get('action')).toBe('TEMPLATE');
    expect(google.searchParams.get('text')).toBe('Garden party');
    // no end: the same hour the .ics gives it
    expect(google.searchParams.get('dates')).toBe('20990501T180000Z/20990501T190000Z');
    expect(google.searchParams.get('location')).toBe('Town park');
    // the page never holds the cancel token: the notes point to the mail that does
    expect(google.searchParams.get('details')).toBe('Your ticket and the link to cancel are in your confirmation email.');
    const outlook = new URL((await page.getByRole('link', { name: 'Add to Outlook.com' }).getAttribute('href'))!);
    expect([outlook.searchParams.get('subject'), outlook.searchParams.get('startdt'), outlook.searchParams.get('enddt')]).toEqual([
      'Garden party',
      '2099-05-01T18:00:00Z',
      '2099-05-01T19:00:00Z',
    ]);
    expect(await page.getByRole('link', { name: 'Add to calendar' }).getAttribute('download')).toBe(`event-${event.id}.ics`);

    // the draft is gone once the sign-up went through
    await page.goto(new URL(`/events/${event.id}`, e2e.server.url).href);
    await page.getByLabel('Diet').waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe('');

    // cancel from the email link: the GET shows, only the button cancels
    const cancelPath = await linkFromOutbox(e2e.server, email, 'cancel');
    await page.goto(new URL(cancelPath, e2e.server.url).href);
    await page.getByRole('heading', { level: 1, name: 'Cancel your sign-up' }).waitFor();
    await page.locator('dd', { hasText: 'Garden party' }).waitFor();
    await expectAccessible(page, '/cancel/:token');
    // the ticket page reached from the mail has the cancel link itself: the entry's notes carry it
    const ticketGoogle = async () => new URL((await page.getByRole('link', { name: 'Add to Google Calendar' }).getAttribute('href'))!);
    // the place comes with the event, read after the ticket
    await expect.poll(async () => (await ticketGoogle()).searchParams.get('location')).toBe('Town park');
    expect((await ticketGoogle()).searchParams.get('details')).toBe(`Cannot come? Cancel: ${new URL(cancelPath, e2e.server.url).href}`);
    expect((await ticketGoogle()).searchParams.get('dates')).toBe('20990501T180000Z/20990501T190000Z');
    // the link from the email opens the PDF ticket too, with the link's own token
    const token = cancelPath.split('/').pop()!;
    expect(await page.getByRole('link', { name: 'Download PDF ticket' }).getAttribute('href')).toBe(`/svc/v1/tickets/${token}/ticket.pdf`);
    expect((await attendeeRows(e2e.server, event.id)).find((r) => r.email === email)?.status).toBe('going');
    await page.getByRole('button', { name: 'Cancel my sign-up' }).click();
    await page.getByRole('heading', { name: 'Your sign-up is cancelled' }).waitFor();
    expect(await page.getByRole('link', { name: 'Add to Google Calendar' }).count()).toBe(0);
    expect((await attendeeRows(e2e.server, event.id)).find((r) => r.email === email)?.status).toBe('cancelled');
    await expectAccessible(page, 'cancelled');

    await page.reload();
    await page.getByRole('heading', { name: 'This sign-up was already cancelled' }).waitFor();
  });

  test("the server's refusal is shown under the form in plain words", async () => {
    const event = await createEvent(e2e.admin.api, { title: 'Tiny workshop', capacity: 1, waitlist: false });
    const page = await e2e.openPage(`/events/${event.id}`);
    await page.getByLabel('Diet').waitFor();
    // the last seat goes while this page is open: a page loaded on a full event shows no form
    expect((await signUp(e2e.server, event.id, { svc_cf_diet: 'none' })).status).toBe(201);
    await page.getByLabel('Your name').fill('Late Comer');
    await page.getByLabel('Email').fill(uniqueEmail('late'));
    await page.getByLabel('Diet').fill('none');
    await page.getByRole('button', { name: 'Sign up' }).click();
    const alert = page.locator('form [role="alert"]');
    await alert.waitFor({ timeout: 15_000 });
    expect((await alert.innerText()).trim()).toBe('This event is full.');
    await expectAccessible(page, 'sign-up error');
  });

  test('ticket categories without online payment: the page says "Pay at the door", the sign-up keeps its own button, and each ticket shows with its category', async () => {
    const event = await createEvent(e2e.admin.api, { title: 'Folk night', capacity: 30 });
    for (const fields of [
      { name: 'Supporter', priceCents: 1800, position: 0 },
      { name: 'Companion', priceCents: 0, position: 1 },
    ]) {
      expect((await e2e.admin.api.post(`/events/${event.id}/ticket-categories`, fields)).status).toBe(201);
    }
    const page = await e2e.openPage(`/events/${event.id}`);
    await page.getByLabel('Supporter').waitFor();
    await page.getByLabel('Your name').fill('Fiona Folk');
    await page.getByLabel('Email').fill(uniqueEmail('folk'));
    await page.getByLabel('Diet').fill('none');
    await page.getByLabel('Supporter').fill('1');
    await page.getByLabel('Companion').fill('1');
    await page.locator('.price-pay-at-door', { hasText: /^Pay at the door: \D*18\.00/ }).waitFor();
    expect(await page.getByRole('button', { name: 'Continue to payment' }).count()).toBe(0);
    await expectAccessible(page, '/events/:id with categories, paid at the door');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'You’re going!' }).waitFor({ timeout: 15_000 });
    expect(await page.locator('.ticket-list h4').allInnerTexts()).toEqual(['Ticket 1: Supporter · 1 person', 'Ticket 2: Companion · 1 person']);
    // the ticket says how it is paid; the free one says nothing
    expect(await page.locator('.ticket-list li .price-pay-at-door').allInnerTexts()).toEqual([expect.stringMatching(/^Pay at the door: \D*18\.00/)]);
    await expect.poll(() => page.locator('.ticket-list img.v-ticket-qr').count()).toBe(2);
  });

  test('offline once visited: the list and event come from the device with their age; a sign-up waits and is sent when back online', async () => {
    const event = await createEvent(e2e.admin.api, { title: 'Night walk', capacity: 1 });
    expect((await signUp(e2e.server, event.id, { svc_cf_diet: 'x' })).status).toBe(201); // full: the next one is waitlisted
    const page = await e2e.openPage('/events');
    await page.getByRole('link', { name: /Night walk/ }).waitFor();
    await controlledByServiceWorker(page);
    await page.getByRole('link', { name: /Night walk/ }).click();
    await page.getByLabel('Diet').waitFor();

    await page.context().setOffline(true);
    await page.goto(new URL('/events', e2e.server.url).href);
    await page.getByRole('link', { name: /Night walk/ }).waitFor();
    await page
      .getByText(/You are offline: showing the list saved/)
      .first()
      .waitFor();
    await expectAccessible(page, '/events offline');

    await page.getByRole('link', { name: /Night walk/ }).click();
    await page.getByText(/You are offline: showing the event saved/).waitFor();
    const email = uniqueEmail('walker');
    await page.getByLabel('Your name').fill('Nora Night');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Diet').fill('vegetarian');
    await page.getByRole('button', { name: 'Join the waitlist when back online' }).click();
    await page.getByRole('heading', { name: 'Saved on this phone' }).waitFor();
    await page.getByText('It will be sent when you’re back online').waitFor();
    await expectAccessible(page, 'queued sign-up');
    expect((await attendeeRows(e2e.server, event.id)).some((r) => r.email === email)).toBe(false);

    const posted = page.waitForResponse((r) => isTrpcMutation(r, 'attendees.signup'));
    await page.context().setOffline(false);
    expect((await posted).status()).toBe(200);
    expect(trpcInput((await posted).request())).toMatchObject({ id: event.id, fields: { email } });
    await page.getByRole('heading', { name: 'You’re on the waitlist' }).waitFor();
    expect((await attendeeRows(e2e.server, event.id)).find((r) => r.email === email)).toMatchObject({ status: 'waitlist' });
  });
});
