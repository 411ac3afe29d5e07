/**
 * Paying in real Chromium against the real server of the extended edition with the local
 * provider: a priced booking and a priced sign-up continue to `/pay/{id}`, Pay is processed by
 * the server's own jobs (the signed webhook it delivers to itself), and the confirmation reaches
 * a real SMTP server; Cancel releases the held slot at once.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { queryRows } from '../../server/db/client';
import { createHost, createType, disableIpThrottle, futureStart, uniqueEmail } from '../helpers/booking';
import { useE2e } from '../helpers/e2e';
import { createEvent } from '../helpers/registration';
import { startSmtpServer, type ReceivedMail } from '../helpers/smtp';
import { expectAccessible, isTrpcMutation, phoneProfile, pickSlot, waitShowing } from '../helpers/visitor-e2e';

const TZ = 'Europe/Berlin';
const smtp = await startSmtpServer();
// registered before the server's hooks, so it closes after the server (hooks run as a stack)
afterAll(() => smtp.close());

// SVC_JOBS stays on (the default): the local provider's webhook is delivered and processed by jobs.
const e2e = useE2e({
  env: { SVC_EDITION: 'extended', SMTP_URL: smtp.url, SVC_MAIL_FROM: 'svc <noreply@example.test>' },
  login: true,
  context: phoneProfile({ timezoneId: TZ }),
});
const cleanups: Array<() => void> = [];

beforeAll(async () => {
  const hooks = e2e.server.server.ctx.hooks;
  cleanups.push(disableIpThrottle(hooks));
  const noIp = () => '';
  hooks.addFilter('svc_rsvp_client_ip', noIp, 50);
  cleanups.push(() => hooks.removeFilter('svc_rsvp_client_ip', noIp, 50));
  expect((await e2e.admin.api.patch('/settings', { currency: 'EUR' })).status).toBe(200);
});

afterAll(() => {
  for (const cleanup of cleanups) cleanup();
});

async function pricedType(overrides: Record<string, unknown> = {}) {
  const host = await createHost(e2e.admin.api);
  return createType(e2e.admin.api, { title: 'Paid session', priceCents: 4500, hosts: [host], ...overrides });
}

/** Books `startUtc` on the booking page and answers once the checkout page has opened. */
async function bookAndOpenCheckout(page: Page, startUtc: string, email: string): Promise<string> {
  await page.getByRole('heading', { level: 1, name: 'Paid session' }).waitFor();
  await pickSlot(page, startUtc, TZ);
  await page.getByLabel('Your name').fill('Paula Payer');
  await page.getByLabel('Email').fill(email);
  // the price is on the button before anything is sent
  const book = page.getByRole('button', { name: 'Book this time · €45.00' });
  await book.click();
  await page.waitForURL((url) => url.pathname.startsWith('/pay/'));
  await page.getByRole('heading', { level: 1, name: 'Payment' }).waitFor();
  expect(await bookingRows(email)).toEqual([{ status: 'pending_payment', payment_status: 'pending' }]);
  return new URL(page.url()).pathname;
}

async function bookingRows(email: string) {
  return queryRows<{ status: string; payment_status: string | null }>(
    e2e.db(),
    sql`select status, payment_status from svc_bookings where customer_email = ${email} order by booking_id`,
  );
}

/** Records whether `text` ever showed in the page (a state that may last less than a poll). */
async function watchForText(page: Page, text: string): Promise<() => Promise<boolean>> {
  await page.evaluate((t) => {
    const w = window as unknown as { __seen?: Record<string, boolean> };
    w.__seen ??= {};
    const check = () => {
      if (document.body.innerText.includes(t)) w.__seen![t] = true;
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true });
    check();
  }, text);
  return () => page.evaluate((t) => Boolean((window as unknown as { __seen?: Record<string, boolean> }).__seen?.[t]), text);
}

const mailsTo = (to: string): ReceivedMail[] => smtp.received.filter((m) => m.to.includes(to));
/** Attachment file names of a raw MIME message, in order. */
const attachmentNames = (mail: ReceivedMail): string[] => [...mail.raw.matchAll(/filename="?([^";\r\n]+)"?/g)].map((m) => m[1]!);

/** Every queued job has run (the mail job included), so the SMTP server has what was sent. */
const jobsDone = () => e2e.server.server.ctx.jobs.idle();

describe('visitor payments (extended edition, local provider)', () => {
  test('a priced booking continues to /pay; Pay shows "confirming", then confirmed; the confirmation with invite.ics arrives by email', async () => {
    const type = await pricedType();
    const start = futureStart(2, 10);
    const email = uniqueEmail('payer');
    const page = await e2e.openPage(`/book/${type.id}`);
    await page.getByRole('heading', { level: 1, name: 'Paid session' }).waitFor();
    await page.getByText('Nothing is charged when you book.').waitFor();
    const payPath = await bookAndOpenCheckout(page, start, email);

    // what is paid, how much, and how long the hold lasts, in the visitor's time
    await page.locator('dd', { hasText: 'Paid session' }).waitFor();
    expect((await page.locator('.v-amount').innerText()).trim()).toBe('€45.00');
    const holdUntil = (await page.getByText('We hold the time slot for you until').innerText()).trim();
    // the visitor's zone, named as every time is (Berlin's abbreviation and city)
    expect(holdUntil).toMatch(/\d{2}:\d{2} CES?T \(Berlin\)/);
    await expectAccessible(page, '/pay/:id');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    const sawConfirming = await watchForText(page, 'Confirming your payment…');
    const [paid] = await Promise.all([
      page.waitForResponse((r) => isTrpcMutation(r, 'payments.localPay')),
      page.getByRole('button', { name: 'Pay €45.00' }).click(),
    ]);
    expect(paid.status()).toBe(200);
    await page.getByText('Paid — your booking is confirmed. We sent the confirmation to your email.').waitFor({ timeout: 60_000 });
    expect(await sawConfirming()).toBe(true);
    expect(await page.locator('[aria-live="polite"]', { hasText: 'Payment complete' }).count()).toBe(1);
    // the outcome took the focus
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Payment complete');
    await expectAccessible(page, 'paid');
    expect(await bookingRows(email)).toEqual([{ status: 'confirmed', payment_status: 'paid' }]);

    await jobsDone();
    const confirmation = mailsTo(email).find((m) => /Subject: Booking confirmed/.test(m.raw));
    expect(confirmation, `emails to ${email}`).toBeDefined();
    expect(attachmentNames(confirmation!)).toContain('invite.ics');

    // the link survives: the paid page says so again when opened later
    await page.goto(new URL(payPath, e2e.server.url).href);
    await page.getByText('Paid — your booking is confirmed.').waitFor();
    expect(await page.getByRole('button', { name: /^Pay / }).count()).toBe(0);

    // an unknown payment id is simply not found
    await page.goto(new URL('/pay/no-such-payment-0123456789', e2e.server.url).href);
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
  });

  test('signing up for 3 tickets on a priced event: Pay, success, the 3 tickets (QR, code, PDF, calendar) on /pay also after a reload, and one email with ticket-1.png, ticket-2.png and ticket-3.png, their PDFs and the receipt', async () => {
    const event = await createEvent(e2e.admin.api, { title: 'Paid concert', priceCents: 1000, capacity: 20, maxPerSignup: 5 });
    const email = uniqueEmail('tickets');
    const page = await e2e.openPage(`/events/${event.id}`);
    await page.getByRole('heading', { level: 1, name: 'Paid concert' }).waitFor();
    await page.getByLabel('Your name').fill('Tom Tickets');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Seats').fill('3');
    // before anything is sent: the total, how long the seats are held, and where the button goes
    await page.locator('.price-total', { hasText: 'Total: €30.00' }).waitFor();
    await page.getByText('Your seats are held for').waitFor();
    expect(await page.getByRole('button', { name: 'Sign up' }).count()).toBe(0);
    const [signup] = await Promise.all([
      // the app holds the post until the form token is 3 s old (the server's minimum fill time)
      page.waitForResponse((r) => isTrpcMutation(r, 'attendees.signup'), { timeout: 15_000 }),
      page.getByRole('button', { name: 'Continue to payment' }).click(),
    ]);
    expect(signup.status()).toBe(200);
    await page.waitForURL((url) => url.pathname.startsWith('/pay/'));
    await page.locator('dd', { hasText: 'Paid concert: 3 tickets' }).waitFor();
    expect((await page.locator('.v-amount').innerText()).trim()).toBe('€30.00');
    await page.getByText('We hold the seats for you until').waitFor();
    await expectAccessible(page, '/pay/:id (order)');

    await page.getByRole('button', { name: 'Pay €30.00' }).click();
    await page.getByText('Paid — your tickets are on their way to your email.').waitFor({ timeout: 60_000 });

    const tickets = await queryRows<{ status: string; order_id: number | null; ticket_code: string }>(
      e2e.db(),
      sql`select status, order_id, ticket_code from svc_attendees where event_id = ${event.id} and email = ${email} order by id`,
    );
    expect(tickets).toHaveLength(3);
    expect(tickets.every((t) => t.status === 'going' && t.order_id !== null)).toBe(true);

    // the payer's page is now the ticket page: each ticket's QR and code, its PDF, the calendar links; the same after a reload
    const payPath = new URL(page.url()).pathname;
    const showsTickets = async (when: string) => {
      await waitShowing(page, page.getByRole('heading', { level: 2, name: 'Your tickets' }), `the tickets ${when}`);
      await waitShowing(page, page.locator('.paid-tickets img.v-ticket-qr').nth(2), `the third ticket's QR ${when}`);
      expect(await page.locator('.paid-tickets .v-ticket-code').allInnerTexts()).toEqual(tickets.map((t) => t.ticket_code));
      expect(await page.locator('.paid-tickets img.v-ticket-qr').count()).toBe(3);
      expect(await page.getByRole('heading', { level: 3, name: /^Ticket [123]$/ }).count()).toBe(3);
      expect(await page.locator('.paid-tickets a.v-ticket-pdf').count()).toBe(3);
      // no Wallet certificates on this server: no Wallet link
      expect(await page.locator('.paid-tickets a.v-ticket-wallet').count()).toBe(0);
      await page.locator('.paid-tickets [data-calendar="google"]').waitFor();
      await page.locator('.paid-tickets a[download$=".ics"]').waitFor();
    };
    await showsTickets('after paying');
    await expectAccessible(page, 'paid order with its tickets');
    const pdfHref = await page.locator('.paid-tickets a.v-ticket-pdf').first().getAttribute('href');
    const pdf = await fetch(new URL(pdfHref!, page.url()));
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    await page.reload();
    expect(new URL(page.url()).pathname).toBe(payPath);
    await showsTickets('after a reload');

    // the tickets' request fails once: the page says so with a retry, never "Loading…" for ever
    let failOnce = true;
    await page.route(/\/trpc\/[^?]*payments\.paidTickets/, async (route) => {
      if (!failOnce) return route.continue();
      failOnce = false;
      await route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"down"}' });
    });
    await page.reload();
    await page.getByRole('button', { name: 'Try again' }).waitFor();
    expect(await page.getByText('Loading your tickets…').count()).toBe(0);
    await page.getByRole('button', { name: 'Try again' }).click();
    await showsTickets('after a failed answer and a retry');
    await page.unroute(/\/trpc\/[^?]*payments\.paidTickets/);

    await jobsDone();
    const mails = mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(attachmentNames(mails[0]!)).toEqual(['ticket-1.png', 'ticket-2.png', 'ticket-3.png', 'ticket-1.pdf', 'ticket-2.pdf', 'ticket-3.pdf', 'receipt.pdf']);

    // back on the sign-up page, the result asks the checkout where it stands: paid, not "payment needed"
    await page.goBack();
    await page.getByText('Paid — your tickets are on their way to your email.').waitFor();
    await page.getByRole('heading', { name: 'You’re going!' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Almost done: payment needed' }).count()).toBe(0);
  });

  test('leaving /pay keeps the way back on the booking page; Cancel there, confirmed inline, releases the slot at once and the same time is offered again', async () => {
    const type = await pricedType({ capacity: 1 });
    const start = futureStart(3, 11);
    const email = uniqueEmail('quitter');
    const page = await e2e.openPage(`/book/${type.id}`);
    const payPath = await bookAndOpenCheckout(page, start, email);

    // the visitor leaves the payment page: the booking page keeps the way back to it
    await page.goBack();
    await page.getByRole('heading', { name: 'Almost done: payment needed' }).waitFor();
    await page.getByText(/^Complete your payment: Pay €45\.00; unpaid holds are released after \d+ hours?\./).waitFor();
    await expectAccessible(page, 'booking waiting for payment');
    await page.getByRole('link', { name: 'Pay €45.00' }).click();
    await page.waitForURL((url) => url.pathname === payPath);

    const offered = async () =>
      (
        (await e2e.admin.api.get(`/booking-types/${type.id}/slots?from=${start.slice(0, 10)}&to=${start.slice(0, 10)}`)).body.slots as Array<{
          start_utc: string;
        }>
      ).some((s) => s.start_utc === start);
    expect(await offered()).toBe(false);

    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByRole('heading', { name: 'Cancel this payment?' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Cancel this payment?');
    await expectAccessible(page, 'cancel question');
    // nothing has happened yet: the question only asks
    expect(await bookingRows(email)).toEqual([{ status: 'pending_payment', payment_status: 'pending' }]);

    await Promise.all([page.waitForResponse((r) => isTrpcMutation(r, 'payments.localCancel')), page.getByRole('button', { name: 'Yes, cancel' }).click()]);
    await page.getByText('This payment was cancelled; the slot was released.').waitFor();
    await expectAccessible(page, 'cancelled');
    expect((await bookingRows(email))[0]?.status).toBe('abandoned');
    expect(await offered()).toBe(true);

    // back to the booking page it came from, where the time is offered again (fresh from the server)
    const [slots] = await Promise.all([
      // batched with the type's own query: `/trpc/booking.type,booking.slots`
      page.waitForResponse((r) => new URL(r.url()).pathname.includes('booking.slots')),
      page.getByRole('link', { name: 'Pick another time' }).click(),
    ]);
    expect(slots.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe(`/book/${type.id}`);
    await pickSlot(page, start, TZ);
  });
});
