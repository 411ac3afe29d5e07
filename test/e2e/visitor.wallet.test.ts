/**
 * "Add to Apple Wallet" in real Chromium on a server with Wallet certificates (made with openssl,
 * test/helpers/wallet.ts; docs/api.md#wallet-pass): beside the PDF link on the sign-up's ticket,
 * on the cancel page and on the paid order's `/pay/{id}`, and on a confirmed booking's manage
 * page, each link answering a `.pkpass`. A paid ticket's cancel page says the money does not come
 * back by itself, before and after cancelling.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { queryRows } from '../../server/db/client';
import { bookingBody, createHost, createType, disableIpThrottle, futureStart, submitBooking, uniqueEmail } from '../helpers/booking';
import { useE2e } from '../helpers/e2e';
import { createEvent } from '../helpers/registration';
import { expectAccessible, phoneProfile, waitShowing } from '../helpers/visitor-e2e';
import { makeWalletCertificates } from '../helpers/wallet';

const certDir = mkdtempSync(path.join(tmpdir(), 'svc-wallet-e2e-'));
const certs = makeWalletCertificates(certDir);
// SVC_JOBS stays on (the default): the local provider's webhook is delivered and processed by jobs.
const e2e = useE2e({ env: { SVC_EDITION: 'extended', ...certs.env }, login: true, context: phoneProfile() });
const cleanups: Array<() => void> = [];

beforeAll(() => {
  const hooks = e2e.server.server.ctx.hooks;
  cleanups.push(disableIpThrottle(hooks));
  const noIp = () => '';
  hooks.addFilter('svc_rsvp_client_ip', noIp, 50);
  cleanups.push(() => hooks.removeFilter('svc_rsvp_client_ip', noIp, 50));
});
afterAll(() => {
  for (const cleanup of cleanups) cleanup();
  rmSync(certDir, { recursive: true, force: true });
});

/** The link answers a signed pass download. */
async function expectPass(page: Page, link: Locator): Promise<void> {
  const href = await link.getAttribute('href');
  const res = await fetch(new URL(href!, page.url()));
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/vnd.apple.pkpass');
  // a zip: "PK"
  expect(
    Buffer.from(await res.arrayBuffer())
      .subarray(0, 2)
      .toString(),
  ).toBe('PK');
}

async function cancelTokenOf(email: string): Promise<string> {
  const [row] = await queryRows<{ cancel_token: string }>(e2e.db(), sql`select cancel_token from svc_attendees where email = ${email} order by id limit 1`);
  return row!.cancel_token;
}

describe('Add to Apple Wallet', () => {
  test('a free sign-up’s ticket and its cancel page offer the pass beside the PDF', async () => {
    const event = await createEvent(e2e.admin.api, { title: 'Open rehearsal', capacity: 20 });
    const email = uniqueEmail('wallet');
    const page = await e2e.openPage(`/events/${event.id}`);
    await page.getByRole('heading', { level: 1, name: 'Open rehearsal' }).waitFor();
    await page.getByLabel('Your name').fill('Wanda Wallet');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await waitShowing(page, page.getByRole('heading', { name: 'You’re going!' }), 'the ticket after signing up');
    const wallet = page.getByRole('link', { name: 'Add to Apple Wallet' });
    await waitShowing(page, wallet, 'the Wallet link');
    await page.getByRole('link', { name: 'Download PDF ticket' }).waitFor();
    await expectPass(page, wallet);
    await expectAccessible(page, 'ticket with the Wallet link');

    const cancel = await e2e.openPage(`/cancel/${await cancelTokenOf(email)}`);
    const cancelWallet = cancel.getByRole('link', { name: 'Add to Apple Wallet' });
    await waitShowing(cancel, cancelWallet, 'the Wallet link on the cancel page');
    await expectPass(cancel, cancelWallet);
    // a free ticket: nothing said of money
    expect(await cancel.locator('.v-refund').count()).toBe(0);
  });

  test('a paid ticket: the pass on /pay, and its cancel page says cancelling refunds nothing by itself, before and after', async () => {
    const event = await createEvent(e2e.admin.api, { title: 'Paid recital', priceCents: 1200, capacity: 20 });
    const email = uniqueEmail('wallet-paid');
    const page = await e2e.openPage(`/events/${event.id}`);
    await page.getByRole('heading', { level: 1, name: 'Paid recital' }).waitFor();
    await page.getByLabel('Your name').fill('Paul Paid');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/pay/'), { timeout: 15_000 });
    await page.getByRole('button', { name: /^Pay / }).click();
    await waitShowing(page, page.getByRole('heading', { level: 2, name: 'Your tickets' }), 'the tickets after paying');
    const wallet = page.locator('.paid-tickets').getByRole('link', { name: 'Add to Apple Wallet' });
    await waitShowing(page, wallet, 'the Wallet link on /pay');
    await expectPass(page, wallet);

    const cancel = await e2e.openPage(`/cancel/${await cancelTokenOf(email)}`);
    const before = cancel.locator('.v-refund');
    await waitShowing(cancel, before, 'the refund note before cancelling');
    expect(await before.innerText()).toMatch(/^This ticket was paid for: cancelling it does not refund the payment automatically\./);
    await cancel.getByRole('button', { name: 'Cancel my sign-up' }).click();
    await waitShowing(cancel, cancel.getByRole('heading', { name: 'Your sign-up is cancelled' }), 'the cancelled state');
    expect(await cancel.locator('.v-refund').innerText()).toMatch(/^Cancelling this paid ticket did not refund it automatically\./);
    await expectAccessible(cancel, 'cancelled paid ticket');
  });

  test('a confirmed booking’s manage page offers its pass', async () => {
    const host = await createHost(e2e.admin.api);
    const type = await createType(e2e.admin.api, { hosts: [host], title: 'Fitting' });
    const made = await submitBooking(e2e.server.url, bookingBody(type.id, futureStart(5, 10)));
    expect(made.status).toBe(201);
    const [row] = await queryRows<{ cancel_token: string }>(e2e.db(), sql`select cancel_token from svc_bookings where booking_id = ${made.body.bookingId}`);
    const page = await e2e.openPage(`/manage/${row!.cancel_token}`);
    const wallet = page.getByRole('link', { name: 'Add to Apple Wallet' });
    await waitShowing(page, wallet, 'the Wallet link on the manage page');
    await expectPass(page, wallet);
  });
});
