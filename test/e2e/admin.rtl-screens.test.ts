/**
 * The admin's events, booking, order, integration, device and settings pages in Arabic on a phone (issue 28, "Right to
 * left is right"; docs/decisions/027-languages.md): signed in as an administrator with a little of
 * everything seeded, each page at 390 px answers `<html dir="rtl" lang="ar">`, shows its Arabic
 * words from the catalogue, is no wider than the screen and is axe clean. Screenshots land under
 * test-results/screens for a human to look at.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { createHost } from '../helpers/booking';
import { createAttendee, createEvent } from '../helpers/checkin';
import { useE2e } from '../helpers/e2e';
import { apiClient } from '../helpers/http';
import { createEvent as createPublishedEvent, signUp } from '../helpers/registration';
import { checkScreen, PHONE_390 } from '../helpers/screens';
import { proposal, submitProposal } from '../helpers/submissions';

const e2e = useE2e({ env: { SVC_JOBS: 'off', SVC_EDITION: 'extended', SVC_WEBHOOKS_ALLOW_PRIVATE: '1' }, login: true });

/** The Arabic admin catalogue: what the pages must show comes from it, not from this file. */
const ar = JSON.parse(readFileSync(join(process.cwd(), 'client/i18n/admin/ar.json'), 'utf8')) as Record<string, string>;
const ids: Record<string, number> = {};

beforeAll(async () => {
  const db = e2e.db();
  const api = e2e.admin.api;
  const event = await createEvent(db, 'أمسية الخريف');
  await createAttendee(db, event.id);
  expect((await api.post('/devices', { name: 'الباب الشمالي', eventIds: [event.id] })).status).toBe(201);

  const host = await createHost(api, 'Alex');
  const all = ['09:00', '17:00'];
  const type = await api.post('/booking-types', {
    title: 'Consultation',
    status: 'published',
    durationMinutes: 60,
    timezone: 'UTC',
    hosts: [host],
    weeklyWindows: { mon: [all], tue: [all], wed: [all], thu: [all], fri: [all], sat: [all], sun: [all] },
    daysOff: ['2099-12-24', '2099-12-31'],
  });
  ids.type = type.body.id;
  const slots = (await api.get(`/booking-types/${ids.type}/slots`)).body.slots as Array<{ start_utc: string }>;
  const booked = await api.post('/bookings/admin', {
    bookingTypeId: ids.type,
    startUtc: slots[0]!.start_utc,
    customerName: 'Sam Karim',
    customerEmail: 'sam@example.test',
    customerTz: 'UTC',
  });
  expect(booked.status).toBe(201);

  // a paid order of 2 tickets (local provider: Pay, then the jobs deliver and process its webhook)
  const concert = await createPublishedEvent(api, { title: 'Paid concert', priceCents: 1500, capacity: 50 });
  const held = await signUp(e2e.server, concert.id, { quantity: 2, email: 'olivia@example.test', display_name: 'Olivia Order' });
  expect(held.status).toBe(201);
  ids.order = held.body.orderId;
  const paymentId = String(held.body.paymentUrl).split('/pay/')[1]!;
  expect((await apiClient(e2e.server.url).post(`/payments/local/${paymentId}/pay`, {})).status).toBe(202);
  await e2e.server.server.ctx.jobs.idle();

  expect((await submitProposal(e2e.server, proposal(e2e.server, { submitterName: 'Pat Proposer' }))).status).toBe(201);
  expect((await api.post('/resources', { name: 'Room 2', capacity: 3 })).status).toBe(201);
  const hook = await api.post('/webhooks', { url: 'http://127.0.0.1:9/hooks/rtl', events: ['ping'] });
  expect(hook.status).toBe(201);
  ids.webhook = hook.body.id;
});

/** Each page, what shows once its data is on screen, and Arabic texts it must show (catalogue keys). */
const screens = (): Array<{ path: string; ready: string; texts: string[] }> => [
  // on a phone the events list stacks each event as a card, its values labelled
  { path: '/admin/events', ready: 'text=أمسية الخريف', texts: ['admin.events.heading', 'admin.events.col.starts', 'admin.events.published'] },
  { path: '/admin/booking-types', ready: 'text=Consultation', texts: ['admin.bookingTypes.heading', 'admin.bookingTypes.new', 'admin.bookingTypes.published'] },
  { path: '/admin/booking-types/new', ready: '#bt-title', texts: ['admin.bookingTypeForm.create', 'admin.bookingTypeForm.previewUnsaved'] },
  {
    path: `/admin/booking-types/${ids.type}`,
    ready: '.preview-slot',
    texts: ['admin.bookingTypeForm.preview', 'admin.bookingTypeForm.save', 'admin.bookingTypeForm.hosts', 'admin.bookingTypeForm.addDayOff'],
  },
  { path: '/admin/bookings', ready: 'text=Sam Karim', texts: ['admin.bookings.newHeading', 'admin.bookings.viewWeek', 'admin.bookings.book'] },
  { path: '/admin/orders', ready: 'text=Olivia Order', texts: ['admin.orders.heading', 'admin.orders.col.customer'] },
  { path: `/admin/orders/${ids.order}`, ready: '.facts', texts: ['admin.order.tickets', 'admin.order.sourceSignup'] },
  { path: '/admin/submissions', ready: 'text=Pat Proposer', texts: ['admin.submissions.heading', 'admin.submissions.intro'] },
  { path: '/admin/resources', ready: 'text=Room 2', texts: ['admin.resources.addHeading', 'admin.resources.col.capacity'] },
  { path: '/admin/webhooks', ready: 'tr[data-webhook-id]', texts: ['admin.webhooks.heading', 'admin.webhooks.add', 'admin.webhook.state.active'] },
  {
    path: `/admin/webhooks/${ids.webhook}`,
    ready: '#endpoint-heading',
    texts: ['admin.webhook.ping', 'admin.webhook.deliveries', 'admin.webhook.editHeading'],
  },
  { path: '/admin/devices', ready: 'text=الباب الشمالي', texts: ['admin.devices.heading', 'admin.devices.addHeading', 'admin.devices.state.waiting'] },
  { path: '/admin/outbox', ready: '#outbox-list-heading', texts: ['admin.outbox.heading', 'admin.outbox.recipient'] },
  {
    path: '/admin/settings',
    ready: '#tk-name',
    texts: ['admin.settings.siteHeading', 'admin.settings.users.heading', 'admin.settings.tokens.heading', 'admin.settings.payments.webhookUrl'],
  },
];

describe('the admin in Arabic on a phone', () => {
  test('the events list, booking types, bookings, orders, submissions, resources, webhooks, devices, the outbox and settings read right to left, in Arabic, at 390 px', async () => {
    const page = await e2e.newPage({ cookie: e2e.admin.cookie, viewport: PHONE_390 });
    // ?lang= chooses the language once and keeps it in the svc_lang cookie for the pages after
    await page.goto(new URL('/admin/booking-types?lang=ar', e2e.server.url).href);
    for (const { path, ready, texts } of screens()) {
      await page.goto(new URL(path, e2e.server.url).href);
      await page.locator(ready).first().waitFor();
      await page
        .locator('[aria-busy="true"]')
        .first()
        .waitFor({ state: 'detached' })
        .catch(() => undefined);
      expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]), path).toEqual(['ar', 'rtl']);
      for (const key of texts) {
        expect(ar[key], key).toBeTruthy();
        await page.getByText(ar[key]!, { exact: false }).first().waitFor();
      }
      await checkScreen(page, `admin-ar-390${path.replaceAll('/', '-')}`);
    }
    // the order's amount in the Arabic locale's own currency form (Intl for ar, as the browser formats it)
    const order = (await e2e.admin.api.get(`/orders/${ids.order}`)).body as { amountCents: number; currency: string };
    await page.goto(new URL(`/admin/orders/${ids.order}`, e2e.server.url).href);
    await page.locator('.facts').waitFor();
    const amount = await page.evaluate(({ cents, currency }) => new Intl.NumberFormat('ar', { style: 'currency', currency }).format(cents / 100), {
      cents: order.amountCents,
      currency: order.currency,
    });
    expect(await page.locator('#order-heading').innerText()).toContain(amount);
  });
});
