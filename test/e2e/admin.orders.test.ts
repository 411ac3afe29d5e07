/**
 * The extended edition's admin pages in real Chromium against the real server: Orders (filters,
 * ticket type and promo code among them, detail with its tickets, a refund after a confirmation
 * naming amount and tickets), the dashboard's sales per ticket type, the payment state in the
 * bookings list, and Settings › Payments; in the free edition none of it is offered.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, test } from 'vitest';
import { queryRows } from '../../server/db/client';
import { bookingBody, createHost, createType, disableIpThrottle, futureStart, submitBooking } from '../helpers/booking';
import { LAPTOP, PHONE, useE2e } from '../helpers/e2e';
import { apiClient } from '../helpers/http';
import { createEvent, signUp } from '../helpers/registration';
import { expectAccessible } from '../helpers/visitor-e2e';

describe('extended edition', () => {
  const e2e = useE2e({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off' }, login: true });
  let concertId: number;
  let paidOrderId: number;
  let heldOrderId: number;

  /** A sign-up on a priced event; `pay` pays it with the local provider and runs the jobs that process it. */
  async function order(eventId: number, email: string, name: string, quantity: number, pay: boolean): Promise<number> {
    const res = await signUp(e2e.server, eventId, { email, display_name: name, quantity });
    expect(res.status).toBe(201);
    if (pay) {
      const paymentId = String(res.body.paymentUrl).split('/pay/')[1]!;
      expect((await apiClient(e2e.server.url).post(`/payments/local/${paymentId}/pay`, {})).status).toBe(202);
      await e2e.server.server.ctx.jobs.idle();
    }
    return res.body.orderId as number;
  }

  beforeAll(async () => {
    expect((await e2e.admin.api.patch('/settings', { currency: 'EUR' })).status).toBe(200);
    concertId = (await createEvent(e2e.admin.api, { title: 'Paid concert', priceCents: 1500, capacity: 50 })).id;
    const workshop = (await createEvent(e2e.admin.api, { title: 'Paid workshop', priceCents: 4000, capacity: 10 })).id;
    paidOrderId = await order(concertId, 'olivia@example.test', 'Olivia Order', 2, true);
    heldOrderId = await order(workshop, 'henry@example.test', 'Henry Held', 1, false);
  });

  test('Orders lists paid and held orders; filters by status, event and search; the list keeps its filters in the URL', async () => {
    const page = await e2e.openPage('/admin', { cookie: e2e.admin.cookie });
    await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Orders' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/orders');
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
    const rows = page.locator('tr[data-order-id]');
    await expect.poll(() => rows.count()).toBe(2);
    const paidRow = page.locator(`tr[data-order-id="${paidOrderId}"]`);
    expect(await paidRow.innerText()).toMatch(/Paid concert[\s\S]*Olivia Order[\s\S]*olivia@example\.test[\s\S]*2[\s\S]*€30\.00[\s\S]*Paid[\s\S]*Paid/);
    expect(await page.locator(`tr[data-order-id="${heldOrderId}"]`).innerText()).toContain('Awaiting payment');
    await expectAccessible(page, '/admin/orders');

    await page.getByLabel('Status').selectOption('paid');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-order-id')).toBe(String(paidOrderId));
    expect(new URL(page.url()).search).toBe('?status=paid');

    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('Event').selectOption({ label: 'Paid workshop' });
    await expect.poll(() => page.locator(`tr[data-order-id="${heldOrderId}"]`).count()).toBe(1);
    await expect.poll(() => rows.count()).toBe(1);

    await page.getByLabel('Event').selectOption('');
    await page.getByLabel('Search name, email or shop id').fill('olivia');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-order-id')).toBe(String(paidOrderId));
    await page.getByLabel('Search name, email or shop id').fill('nobody-here');
    await page.getByText('No order matches these filters.').waitFor();

    // a reload keeps the list where it was
    await page.reload();
    await page.getByText('No order matches these filters.').waitFor();
    expect(await page.getByLabel('Search name, email or shop id').inputValue()).toBe('nobody-here');
  });

  test('more than 50 orders page through with Previous and Next; the position is announced and kept in the URL', async () => {
    const hooks = e2e.server.server.ctx.hooks;
    const noIp = () => '';
    hooks.addFilter('svc_rsvp_client_ip', noIp, 50);
    try {
      const fair = (await createEvent(e2e.admin.api, { title: 'Busy fair', priceCents: 500, capacity: 500 })).id;
      for (let i = 1; i <= 52; i++) await order(fair, `fair${i}@example.test`, `Fair Visitor ${i}`, 1, false);
      const page = await e2e.openPage(`/admin/orders?event=${fair}`, { cookie: e2e.admin.cookie });
      const rows = page.locator('tr[data-order-id]');
      await expect.poll(() => rows.count()).toBe(50);
      await page.getByText('52 orders · 1–50 shown').waitFor();
      const pager = page.getByRole('navigation', { name: 'Pages of orders' });
      expect(await pager.getByRole('button', { name: 'Previous page' }).isDisabled()).toBe(true);
      await pager.getByRole('button', { name: 'Next page' }).click();
      await page.getByText('52 orders · 51–52 shown').waitFor();
      await expect.poll(() => rows.count()).toBe(2);
      // newest first: the first two orders made are on the last page
      expect(await rows.allInnerTexts()).toEqual([expect.stringContaining('Fair Visitor 2'), expect.stringContaining('Fair Visitor 1')]);
      expect(await page.getByText('Page 2 of 2').count()).toBe(1);
      expect(new URL(page.url()).search).toBe(`?event=${fair}&page=2`);
      expect(await pager.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
      await expectAccessible(page, '/admin/orders page 2');
    } finally {
      hooks.removeFilter('svc_rsvp_client_ip', noIp, 50);
    }
  });

  test('an order shows its tickets; Refund asks with the amount and the tickets, then cancels every ticket and says so', async () => {
    const page = await e2e.openPage(`/admin/orders/${paidOrderId}`, { cookie: e2e.admin.cookie });
    await page.getByRole('heading', { level: 1, name: `Order #${paidOrderId}` }).waitFor();
    const tickets = page.locator('table', { has: page.getByRole('columnheader', { name: 'Attendee' }) }).locator('tbody tr');
    await expect.poll(() => tickets.count()).toBe(2);
    expect(await tickets.first().innerText()).toContain('going');
    // the paid order's receipt is linked for download
    const receipt = page.getByRole('link', { name: /^Receipt R-\d{6} \(PDF\)$/ });
    expect(await receipt.getAttribute('href')).toBe(`/svc/v1/orders/${paidOrderId}/receipt.pdf`);
    await expectAccessible(page, '/admin/orders/:id');

    await page.getByRole('button', { name: `Refund order #${paidOrderId}` }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Refund €30.00 and cancel 2 tickets?' }).waitFor();
    await expectAccessible(page, 'refund dialog');
    // asking changes nothing
    expect((await e2e.admin.api.get(`/orders/${paidOrderId}`)).body.status).toBe('paid');

    await dialog.getByRole('button', { name: 'Refund order' }).click();
    await page.getByText(`Order #${paidOrderId} refunded: 2 tickets cancelled.`).waitFor();
    // the button that was pressed is gone; the outcome has the focus
    expect(await page.evaluate(() => document.activeElement?.textContent ?? '')).toContain('refunded: 2 tickets cancelled');
    await expect.poll(() => tickets.filter({ hasText: 'cancelled' }).count()).toBe(2);
    expect(await page.getByRole('button', { name: /^Refund/ }).count()).toBe(0);
    await page.locator('dd', { hasText: 'Refunded' }).first().waitFor();
    // the refund's credit note is linked beside the receipt
    await page.getByRole('link', { name: /^Credit note CN-\d{6} \(PDF\)$/ }).waitFor();
    const rows = await queryRows<{ status: string }>(e2e.db(), sql`select status from svc_attendees where order_id = ${paidOrderId}`);
    expect(rows.map((r) => r.status)).toEqual(['cancelled', 'cancelled']);

    // a ticket's link opens the event's attendees on that person
    await tickets.first().getByRole('link').click();
    await page.waitForURL((url) => url.pathname === `/admin/events/${concertId}/attendees`);
    expect(await page.getByLabel('Search name or email').inputValue()).toBe('olivia@example.test');
  });

  test('the bookings list shows each booking’s payment state', async () => {
    const restore = disableIpThrottle(e2e.server.server.ctx.hooks);
    try {
      const host = await createHost(e2e.admin.api);
      const type = await createType(e2e.admin.api, { title: 'Paid advice', priceCents: 2500, hosts: [host] });
      const booked = await submitBooking(e2e.server.url, bookingBody(type.id, futureStart(2, 10), { customerName: 'Petra Pending' }));
      expect(booked.body.status).toBe('pending_payment');
      const page = await e2e.openPage('/admin/bookings', { cookie: e2e.admin.cookie });
      const row = page.locator('tr', { hasText: 'Petra Pending' });
      await row.waitFor();
      expect(await row.innerText()).toMatch(/Awaiting payment[\s\S]*Payment pending/);
    } finally {
      restore();
    }
  });

  test('Orders filters by a ticket type of the chosen event and by promo code; the dashboard shows each type’s sold seats, quota and money', async () => {
    const hooks = e2e.server.server.ctx.hooks;
    const noIp = () => '';
    hooks.addFilter('svc_rsvp_client_ip', noIp, 50);
    try {
      const gala = (await createEvent(e2e.admin.api, { title: 'Gala night', capacity: 30 })).id;
      const category = async (name: string, priceCents: number, quota: number | null) =>
        (await e2e.admin.api.post(`/events/${gala}/ticket-categories`, { name, priceCents, quota })).body.id as number;
      const stalls = await category('Stalls', 2000, 10);
      const balcony = await category('Balcony', 5000, null);
      expect((await e2e.admin.api.post(`/events/${gala}/vouchers`, { code: 'Opera20', kind: 'percent', value: 2000 })).status).toBe(201);
      const ticket = async (email: string, categoryId: number, voucher?: string) => {
        const res = await signUp(e2e.server, gala, {
          email,
          display_name: email.split('@')[0],
          tickets: [{ categoryId, quantity: 1 }],
          ...(voucher ? { voucher } : {}),
        });
        expect(res.status).toBe(201);
        const paymentId = String(res.body.paymentUrl).split('/pay/')[1]!;
        expect((await apiClient(e2e.server.url).post(`/payments/local/${paymentId}/pay`, {})).status).toBe(202);
        await e2e.server.server.ctx.jobs.idle();
        return res.body.orderId as number;
      };
      const stallsOrder = await ticket('stella@example.test', stalls, 'opera20');
      const balconyOrder = await ticket('bruno@example.test', balcony);

      const page = await e2e.openPage(`/admin/orders?event=${gala}`, { cookie: e2e.admin.cookie });
      const rows = page.locator('tr[data-order-id]');
      await expect.poll(() => rows.count()).toBe(2);
      await page.getByLabel('Ticket type').selectOption({ label: 'Balcony' });
      await expect.poll(() => rows.count()).toBe(1);
      expect(await rows.first().getAttribute('data-order-id')).toBe(String(balconyOrder));
      expect(new URL(page.url()).search).toBe(`?event=${gala}&category=${balcony}`);

      await page.getByLabel('Ticket type').selectOption('');
      await page.getByLabel('Promo code').fill('OPERA20');
      await expect.poll(() => rows.count()).toBe(1);
      expect(await rows.first().getAttribute('data-order-id')).toBe(String(stallsOrder));
      expect(new URL(page.url()).search).toBe(`?event=${gala}&code=OPERA20`);
      await expectAccessible(page, '/admin/orders filtered by code');
      await page.getByLabel('Promo code').fill('two words');
      await page.getByText('A code holds only letters, digits, “-”, “_” and “.” (at most 64).').waitFor();
      expect(await page.getByLabel('Promo code').getAttribute('aria-invalid')).toBe('true');

      const dashboard = await e2e.openPage(`/admin/events/${gala}`, { cookie: e2e.admin.cookie });
      const table = dashboard.locator('table', { has: dashboard.getByRole('columnheader', { name: 'Sold' }) });
      await table.waitFor();
      expect(await table.locator('thead').innerText()).toMatch(/Ticket type[\s\S]*Sold[\s\S]*Quota[\s\S]*Paid online[\s\S]*Due at the door/);
      // Stalls: €20.00 less the code's 20 %; Balcony: €50.00, no quota
      expect(await table.locator('tbody tr', { hasText: 'Stalls' }).innerText()).toMatch(/Stalls\s+0\s+1\s+1\s+10\s+€16\.00\s+€0\.00/);
      expect(await table.locator('tbody tr', { hasText: 'Balcony' }).innerText()).toMatch(/Balcony\s+0\s+1\s+1\s+No limit\s+€50\.00\s+€0\.00/);
    } finally {
      hooks.removeFilter('svc_rsvp_client_ip', noIp, 50);
    }
  });

  test('Settings › Payments shows the edition, the provider and the webhook URL to copy', async () => {
    const page = await e2e.openPage('/admin/settings', { cookie: e2e.admin.cookie });
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Payments' }) });
    await section.getByLabel('Webhook URL').waitFor();
    expect(await section.getByLabel('Webhook URL').inputValue()).toMatch(/\/svc\/v1\/payments\/local\/webhook$/);
    const facts = await section.locator('dl').innerText();
    expect(facts).toMatch(/Edition\s+Extended/);
    expect(facts).toMatch(/Provider\s+Built-in/);
    expect(facts).toMatch(/Configured\s+✓ Yes/);
    expect(facts).toMatch(/Currency\s+EUR/);
    await expectAccessible(page, 'Settings › Payments');

    for (const viewport of [LAPTOP, PHONE]) {
      await page.setViewportSize(viewport);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `settings at ${viewport.width} px`).toBeLessThanOrEqual(viewport.width);
    }
  });
});

describe('free edition', () => {
  const e2e = useE2e({ env: { SVC_JOBS: 'off' }, login: true });

  test('no Orders in the navigation; Settings › Payments says which edition runs; /admin/orders explains instead of failing', async () => {
    const page = await e2e.openPage('/admin/settings', { cookie: e2e.admin.cookie });
    const section = page.locator('section', { has: page.getByRole('heading', { name: 'Payments' }) });
    await section.getByText('Free', { exact: true }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Orders' }).count()).toBe(0);
    expect(await section.getByLabel('Webhook URL').count()).toBe(0);

    await page.goto(new URL('/admin/orders', e2e.server.url).href);
    await page.getByText('This server runs the free edition.').waitFor();
    expect(await page.locator('[role="alert"]').count()).toBe(0);
  });
});
