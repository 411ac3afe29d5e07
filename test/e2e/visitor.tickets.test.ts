/**
 * Tickets end to end in real Chromium against the extended edition with the local provider
 * (docs/api.md#tickets): a visitor buys 2 VIP and 1 standard ticket with a 20 % code, sees the
 * price before committing (the code's discount, net and tax, the total and the hold), pays, and
 * the order's mail names each ticket's category; a VIP-only door admits the VIP ticket and refuses
 * the standard one offline.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { queryRows } from '../../server/db/client';
import { launchPersistentContext } from '../helpers/browser';
import { disableIpThrottle, uniqueEmail } from '../helpers/booking';
import { expectVerdict, recordVerdicts } from '../helpers/door';
import { PHONE, seriousViolations, useE2e } from '../helpers/e2e';
import { storedMails } from '../helpers/mail';
import { createEvent } from '../helpers/registration';
import { horizontalOverflow } from '../helpers/screens';
import { expectAccessible, isTrpcMutation, phoneProfile } from '../helpers/visitor-e2e';

// SVC_JOBS stays on (the default): the local provider's webhook is delivered and processed by jobs.
const e2e = useE2e({ env: { SVC_EDITION: 'extended' }, login: true, context: phoneProfile() });
let workDir: string;
const cleanups: Array<() => void> = [];

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), 'svc-tickets-'));
  const hooks = e2e.server.server.ctx.hooks;
  cleanups.push(disableIpThrottle(hooks));
  const noIp = () => '';
  hooks.addFilter('svc_rsvp_client_ip', noIp, 50);
  cleanups.push(() => hooks.removeFilter('svc_rsvp_client_ip', noIp, 50));
  expect((await e2e.admin.api.patch('/settings', { currency: 'EUR', sellerName: 'Gala Events GmbH', sellerTaxId: 'DE123456789' })).status).toBe(200);
});
afterAll(() => {
  for (const cleanup of cleanups) cleanup();
  rmSync(workDir, { recursive: true, force: true });
});

describe('tickets in categories, bought with a code and checked at the right door', () => {
  test('2 VIP and 1 standard with a 20 % code: the price before paying, Pay, each ticket named by its category; a VIP-only door admits VIP and refuses standard offline', async () => {
    const event = await createEvent(e2e.admin.api, { title: 'Winter gala', capacity: 50, maxPerSignup: 6 });
    const category = async (fields: Record<string, unknown>) => {
      const res = await e2e.admin.api.post(`/events/${event.id}/ticket-categories`, { taxRateBp: 1900, taxMode: 'included', ...fields });
      expect(res.status).toBe(201);
      return res.body as { id: number };
    };
    const vip = await category({ name: 'VIP', priceCents: 4500, quota: 10, position: 0, description: 'Lounge and a drink' });
    const standard = await category({ name: 'Standard', priceCents: 1800, position: 1 });
    expect((await e2e.admin.api.post(`/events/${event.id}/vouchers`, { code: 'WINTER20', kind: 'percent', value: 2000 })).status).toBe(201);

    const email = uniqueEmail('gala');
    const page = await e2e.openPage(`/events/${event.id}`);
    await page.getByRole('heading', { level: 1, name: 'Winter gala' }).waitFor();
    // the facts say what the cheapest ticket costs
    await page.locator('dl.v-facts', { hasText: 'From €18.00' }).waitFor();
    await page.getByLabel('Your name').fill('Greta Gala');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('VIP').fill('2');
    await page.getByLabel('Standard').fill('1');
    const summary = page.locator('.price-summary');
    await summary.getByText('2 × VIP: €90.00').waitFor();
    await summary.getByText('Total: €108.00').waitFor();

    // a wrong code is refused at its field; the right one is applied and priced
    await page.getByLabel('Promo code or voucher').fill('WINTER10');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('This code is not valid for this event.').waitFor();
    await page.getByLabel('Promo code or voucher').fill('winter20');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByText('Code WINTER20 applied.').waitFor();
    // 2 × 45.00 + 18.00 = 108.00, less 20 % = 86.40, of which 19 % tax included: 72.60 net + 13.80 tax
    expect((await summary.locator('.price-lines').innerText()).split('\n')).toEqual([
      '2 × VIP: €90.00',
      '1 × Standard: €18.00',
      'Code WINTER20: −€21.60',
      'Net: €72.60',
      'Tax 19%: €13.80',
    ]);
    await summary.getByText('Total: €86.40').waitFor();
    await summary.getByText('Your seats are held for').waitFor();
    expect(await page.getByRole('button', { name: 'Sign up' }).count(), 'the summary carries the only submit button').toBe(0);
    expect(await horizontalOverflow(page), 'the ticket form is wider than the phone').toBe(0);
    await expectAccessible(page, '/events/:id with ticket categories');

    const [signup] = await Promise.all([
      page.waitForResponse((r) => isTrpcMutation(r, 'attendees.signup'), { timeout: 15_000 }),
      page.getByRole('button', { name: 'Continue to payment' }).click(),
    ]);
    expect(signup.status()).toBe(200);
    await page.waitForURL((url) => url.pathname.startsWith('/pay/'));
    expect((await page.locator('.v-amount').innerText()).trim()).toBe('€86.40');
    await page.getByRole('button', { name: 'Pay €86.40' }).click();
    await page.getByText('Paid — your tickets are on their way to your email.').waitFor({ timeout: 60_000 });

    const rows = await queryRows<{ status: string; quantity: number; ticket_category_id: number }>(
      e2e.db(),
      sql`select status, quantity, ticket_category_id from svc_attendees where event_id = ${event.id} and email = ${email} order by id`,
    );
    // a paid order's seats become one ticket each, every one in its category
    expect(rows).toEqual([
      { status: 'going', quantity: 1, ticket_category_id: vip.id },
      { status: 'going', quantity: 1, ticket_category_id: vip.id },
      { status: 'going', quantity: 1, ticket_category_id: standard.id },
    ]);
    const [order] = await queryRows<{ amount_cents: number; discount_cents: number; voucher_code: string; net_cents: number; tax_cents: number }>(
      e2e.db(),
      sql`select amount_cents, discount_cents, voucher_code, net_cents, tax_cents from svc_orders where email = ${email}`,
    );
    expect(order).toEqual({ amount_cents: 8640, discount_cents: 2160, voucher_code: 'WINTER20', net_cents: 7260, tax_cents: 1380 });

    // the order's mail: each ticket with its category and its code
    await e2e.server.server.ctx.jobs.idle();
    const mails = await storedMails(e2e.db(), email);
    expect(mails).toHaveLength(1);
    const codes = [...mails[0]!.text.matchAll(/Ticket code: (\S+)/g)].map((m) => m[1]!);
    expect(codes).toHaveLength(3);
    expect(mails[0]!.text).toMatch(/Ticket 1 of 3: Winter gala · VIP/);
    expect(mails[0]!.text).toMatch(/Ticket 2 of 3: Winter gala · VIP/);
    expect(mails[0]!.text).toMatch(/Ticket 3 of 3: Winter gala · Standard/);
    // and the price as charged, the lines the page showed
    expect(mails[0]!.text).toContain('2 × VIP: €90.00\n1 × Standard: €18.00\nCode WINTER20: −€21.60\nNet: €72.60\nTax 19%: €13.80\nTotal: €86.40');
    const [vipCode, , standardCode] = codes as [string, string, string];

    // a VIP-only door, offline: the VIP ticket is admitted, the standard one refused
    const device = await e2e.admin.api.post('/devices', { name: 'VIP entrance', eventIds: [event.id], categoryIds: [vip.id] });
    expect(device.status).toBe(201);
    const context = await launchPersistentContext(path.join(workDir, 'door'), { viewport: PHONE });
    await recordVerdicts(context);
    const door = e2e.track(context.pages()[0] ?? (await context.newPage()));
    await door.goto(new URL(`/door#pair=${device.body.pairing.pairingCode}`, e2e.server.url).href);
    await door.getByText('This device: VIP entrance').waitFor();
    await door.getByText('All scans synced').waitFor();
    await expect.poll(() => door.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 20_000 }).toBe(true);
    await context.setOffline(true);
    await door.getByRole('status').filter({ hasText: 'Offline. Scanning still works' }).waitFor();
    const scan = async (code: string) => {
      await door.getByLabel('Ticket code').fill(code);
      await door.getByRole('button', { name: 'Check in', exact: true }).click();
    };
    await scan(vipCode);
    expect(await expectVerdict(door, 'OK', 'Greta Gala')).toContain('VIP');
    await door.keyboard.press('Escape');
    await door.locator('section.verdict').waitFor({ state: 'detached' });
    await scan(standardCode);
    expect(await expectVerdict(door, 'WRONG TICKET TYPE', 'Greta Gala')).toContain('Wrong ticket type — Standard');
    expect(await seriousViolations(door)).toEqual([]);
    await context.close();
  });
});
