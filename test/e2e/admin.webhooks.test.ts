/**
 * Outgoing webhooks from the admin's side, in real Chromium against the real server and a real
 * receiver on 127.0.0.1: an endpoint is added with two events from the picker, its secret is
 * shown once, a test ping arrives signed with it (checked with the `standardwebhooks` package),
 * the deliveries table shows each attempt, and Redeliver sends a refused delivery again.
 * The job runner does not poll (SVC_JOBS=off): the test runs the due jobs itself.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { PHONE, useE2e } from '../helpers/e2e';
import { createEvent, signUp } from '../helpers/registration';
import { expectAccessible } from '../helpers/visitor-e2e';

interface Received {
  headers: Record<string, string>;
  body: string;
}

/** A webhook receiver: records every request and answers `status`. */
function startReceiver(): Promise<{ url: string; received: Received[]; answer: (status: number) => void; close: () => Promise<void> }> {
  const received: Received[] = [];
  let status = 200;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
      received.push({ headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'receiver broken');
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/hooks/svc`,
        received,
        answer: (next) => {
          status = next;
        },
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

/** The message as the receiver verified it with the secret the admin was shown (throws when the signature is wrong). */
function verified(secret: string, message: Received): { type: string; data: Record<string, unknown> } {
  return new Webhook(secret).verify(message.body, message.headers) as { type: string; data: Record<string, unknown> };
}

describe('webhooks admin (extended edition)', () => {
  const e2e = useE2e({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off', SVC_WEBHOOKS_ALLOW_PRIVATE: '1' }, login: true });
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let endpointId = 0;
  let secret = '';

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver?.close());

  const runJobs = () => e2e.server.server.ctx.jobs.idle();
  const deliveryRow = (page: Page, type: string) => page.locator('tr[data-delivery-id]', { has: page.locator('code', { hasText: type }) });
  const refresh = (page: Page) => page.getByRole('button', { name: 'Refresh the deliveries' }).click();

  test('an admin adds an endpoint with two events from the picker, sees its secret once, and a test ping arrives signed with it', async () => {
    const page = await e2e.openPage('/admin', { cookie: e2e.admin.cookie });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e2e.server.url });
    await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/webhooks');
    await page.getByText('No endpoints yet.').waitFor();
    await expectAccessible(page, '/admin/webhooks');

    // nothing filled in: each problem at its field, nothing stored
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByText('Enter the address that should receive the events.').waitFor();
    expect(await page.getByLabel('Address (URL)').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('group', { name: 'Events to send' }).getAttribute('aria-invalid')).toBe('true');
    await page.getByText('Choose at least one event.').waitFor();
    expect((await e2e.admin.api.get('/webhooks')).body).toEqual([]);

    // a family's checkbox ticks and clears the whole family
    const bookings = page.getByRole('group', { name: 'Bookings' });
    await bookings.getByLabel('All booking events').check();
    expect(await bookings.getByLabel('booking.paid', { exact: true }).isChecked()).toBe(true);
    await bookings.getByLabel('All booking events').uncheck();
    expect(await bookings.locator('input:checked').count()).toBe(0);

    await page.getByLabel('Address (URL)').fill(receiver.url);
    await page.getByLabel('Description (optional)').fill('CRM sync');
    await page.getByLabel('attendee.created', { exact: true }).check();
    await bookings.getByLabel('booking.created', { exact: true }).check();
    expect(await bookings.getByLabel('All booking events').evaluate((input) => (input as HTMLInputElement).indeterminate)).toBe(true);
    await page.getByRole('button', { name: 'Add endpoint' }).click();

    const secretBox = page.getByRole('region', { name: `Signing secret for ${receiver.url}` });
    await secretBox.waitFor();
    await secretBox.getByText('it will not be shown again').waitFor();
    secret = await secretBox.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    await secretBox.getByRole('button', { name: 'Copy the signing secret' }).click();
    await secretBox.getByText('✓ Copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

    // the form is empty again for the next endpoint
    expect(await page.getByLabel('Address (URL)').inputValue()).toBe('');
    expect(await page.getByLabel('Description (optional)').inputValue()).toBe('');
    const row = page.locator('tr[data-webhook-id]');
    await expect.poll(() => row.count()).toBe(1);
    endpointId = Number(await row.getAttribute('data-webhook-id'));
    expect(await row.innerText()).toMatch(
      new RegExp(`${receiver.url.replace(/[.]/g, '\\.')}[\\s\\S]*CRM sync[\\s\\S]*attendee\\.created, booking\\.created[\\s\\S]*Active`),
    );
    expect((await e2e.admin.api.get(`/webhooks/${endpointId}`)).body.events).toEqual(['attendee.created', 'booking.created']);
    await expectAccessible(page, '/admin/webhooks with the new secret');

    // once put away, the secret is nowhere on the page, not even after a reload
    await secretBox.getByRole('button', { name: 'Done: I have stored it' }).click();
    expect(await page.getByLabel('Signing secret').count()).toBe(0);
    await page.reload();
    await row.waitFor();
    expect(await page.content()).not.toContain(secret);

    await row.getByRole('link', { name: receiver.url }).click();
    await page.waitForURL((url) => url.pathname === `/admin/webhooks/${endpointId}`);
    await page.getByRole('heading', { level: 1, name: `Webhook #${endpointId}` }).waitFor();
    await page.getByText('No deliveries yet.').waitFor();

    await page.getByRole('button', { name: 'Send test ping' }).click();
    await page.getByText('Test ping queued').waitFor();
    await deliveryRow(page, 'ping').waitFor();
    expect(await deliveryRow(page, 'ping').innerText()).toMatch(/Pending\s+0/);

    await runJobs();
    expect(receiver.received).toHaveLength(1);
    const ping = verified(secret, receiver.received[0]!);
    expect(ping.type).toBe('ping');
    expect(ping.data).toEqual({ endpointId });

    await refresh(page);
    await expect.poll(() => deliveryRow(page, 'ping').innerText()).toMatch(/Delivered\s+1\s+200\s+\d[\d,]* ms\s+—/);

    // a row opens the payload as it was sent
    const pingId = await deliveryRow(page, 'ping').getAttribute('data-delivery-id');
    await page.getByRole('button', { name: `Payload of delivery #${pingId}` }).click();
    const payload = page.getByLabel(`Payload of delivery #${pingId}`);
    await payload.waitFor();
    expect(JSON.parse(await payload.innerText())).toEqual(JSON.parse(receiver.received[0]!.body));
    expect(await page.getByRole('button', { name: `Payload of delivery #${pingId}` }).getAttribute('aria-expanded')).toBe('true');
    await expectAccessible(page, '/admin/webhooks/:id with a payload open');
  });

  test('a delivery the receiver refuses waits for its next try; once the receiver answers again, Redeliver delivers it', async () => {
    expect(endpointId).toBeGreaterThan(0);
    const event = await createEvent(e2e.admin.api, { title: 'Webhook meetup', capacity: 20 });
    receiver.answer(500);
    const before = receiver.received.length;
    expect((await signUp(e2e.server, event.id, { email: 'wanda@example.test', display_name: 'Wanda Webhook' })).status).toBe(201);
    await runJobs();
    expect(receiver.received).toHaveLength(before + 1);
    const refused = receiver.received[before]!;
    expect(verified(secret, refused).type).toBe('attendee.created');

    const page = await e2e.openPage(`/admin/webhooks/${endpointId}`, { cookie: e2e.admin.cookie });
    const row = deliveryRow(page, 'attendee.created');
    await row.waitFor();
    expect(await row.innerText()).toMatch(/attendee\.created\s+Pending\s+1\s+500\s+\d[\d,]* ms/);
    expect(await row.innerText()).toContain('HTTP 500: receiver broken');
    // the next try is a time on the page, within the first retry's few seconds
    const nextTry = row.locator('td').nth(5).locator('time');
    const nextMs = Date.parse((await nextTry.getAttribute('datetime')) ?? '');
    expect(nextMs).toBeGreaterThan(Date.now() - 60_000);
    expect(nextMs).toBeLessThan(Date.now() + 60_000);
    await page.getByText('Active, failing since').waitFor();
    await expectAccessible(page, '/admin/webhooks/:id with a failing delivery');

    receiver.answer(200);
    const deliveryId = await row.getAttribute('data-delivery-id');
    await page.getByRole('button', { name: `Redeliver delivery #${deliveryId}` }).click();
    await page.getByText(`Delivery #${deliveryId} (attendee.created) queued again.`).waitFor();
    await runJobs();
    expect(receiver.received).toHaveLength(before + 2);
    const again = receiver.received[before + 1]!;
    expect(verified(secret, again).type).toBe('attendee.created');
    // the same message: a receiver can drop the duplicate by its id
    expect(again.headers['webhook-id']).toBe(refused.headers['webhook-id']);

    await refresh(page);
    await expect.poll(() => row.innerText()).toMatch(/attendee\.created\s+Delivered\s+2\s+200\s+\d[\d,]* ms\s+—/);
    await page.locator('dl.facts').getByText('Active', { exact: true }).waitFor();

    // on a phone the table scrolls inside its region; the page itself does not widen
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  });

  test('Rotate secret asks first, then shows the new secret once and signs with it; Delete asks, then the endpoint is gone', async () => {
    const page = await e2e.openPage(`/admin/webhooks/${endpointId}`, { cookie: e2e.admin.cookie });
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: `Make a new signing secret for ${receiver.url}?` }).waitFor();
    await dialog.getByRole('button', { name: 'Make a new secret' }).click();
    const secretBox = page.getByRole('region', { name: 'The new signing secret' });
    const rotated = await secretBox.getByLabel('Signing secret').inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);

    const before = receiver.received.length;
    expect((await e2e.admin.api.post(`/webhooks/${endpointId}/test`)).status).toBe(202);
    await runJobs();
    expect(verified(rotated, receiver.received[before]!).type).toBe('ping');
    expect(() => verified(secret, receiver.received[before]!)).toThrow();

    await page.getByRole('button', { name: 'Delete the endpoint' }).click();
    await dialog.getByRole('heading', { name: `Delete the endpoint ${receiver.url}?` }).waitFor();
    await dialog.getByRole('button', { name: 'Delete endpoint' }).click();
    await page.waitForURL((url) => url.pathname === '/admin/webhooks');
    await page.getByText('No endpoints yet.').waitFor();
    expect((await e2e.admin.api.get(`/webhooks/${endpointId}`)).status).toBe(404);
  });
});
