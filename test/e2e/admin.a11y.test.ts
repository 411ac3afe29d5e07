/**
 * axe-core on every admin page, with real data on it, at laptop and phone width: no
 * serious or critical violation (UX "Everywhere"). Dialogs are checked open. The server runs the
 * extended edition, so its pages (Orders) and sections (Settings › Payments) are checked too.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { createHost } from '../helpers/booking';
import { createAttendee, createEvent } from '../helpers/checkin';
import { LAPTOP, PHONE, seriousViolations, useE2e } from '../helpers/e2e';
import { apiClient } from '../helpers/http';
import { createEvent as createPublishedEvent, resetThrottles, signUp } from '../helpers/registration';

const e2e = useE2e({ env: { SVC_JOBS: 'off', SVC_EDITION: 'extended' }, login: true });
let eventId: number;
let typeId: number;
let orderId: number;
let dinnerId: number;

beforeAll(async () => {
  const db = e2e.db();
  const event = await createEvent(db, 'Accessible evening');
  eventId = event.id;
  const people = [];
  for (let i = 0; i < 5; i++) people.push(await createAttendee(db, event.id));
  await e2e.admin.api.post('/checkins', { attendeeId: people[0]!.id, eventId });
  await e2e.admin.api.post('/devices', { name: 'Main door', eventIds: [eventId] });
  const host = await createHost(e2e.admin.api, 'Alex');
  const all = ['09:00', '17:00'];
  const type = await e2e.admin.api.post('/booking-types', {
    title: 'Consultation',
    status: 'published',
    durationMinutes: 60,
    timezone: 'UTC',
    hosts: [host],
    weeklyWindows: { mon: [all], tue: [all], wed: [all], thu: [all], fri: [all], sat: [all], sun: [all] },
    daysOff: ['2099-12-24', '2099-12-31'],
  });
  typeId = type.body.id;
  const slots = (await e2e.admin.api.get(`/booking-types/${typeId}/slots`)).body.slots as Array<{ start_utc: string }>;
  await e2e.admin.api.post('/bookings/admin', {
    bookingTypeId: typeId,
    startUtc: slots[0]!.start_utc,
    customerName: 'Sam',
    customerEmail: 'sam@example.test',
    customerTz: 'UTC',
  });
  // a paid order of 2 tickets (local provider: Pay, then the jobs deliver and process its webhook)
  const concert = await createPublishedEvent(e2e.admin.api, { title: 'Paid concert', priceCents: 1500, capacity: 50 });
  const held = await signUp(e2e.server, concert.id, { quantity: 2, email: 'olivia@example.test', display_name: 'Olivia Order' });
  expect(held.status).toBe(201);
  orderId = held.body.orderId;
  const paymentId = String(held.body.paymentUrl).split('/pay/')[1]!;
  expect((await apiClient(e2e.server.url).post(`/payments/local/${paymentId}/pay`, {})).status).toBe(202);
  await e2e.server.server.ctx.jobs.idle();
  // an event with sign-up questions: its attendee table has an Answers column
  const dinner = await createPublishedEvent(e2e.admin.api, {
    title: 'Dinner with questions',
    fields: [
      { key: 'diet', label: 'Dietary needs', type: 'text' },
      { key: 'faculty', label: 'Faculty', type: 'text' },
      { key: 'guests', label: 'Guests', type: 'number' },
    ],
  });
  dinnerId = dinner.id;
  await resetThrottles(e2e.server);
  const answered = await signUp(e2e.server, dinnerId, { display_name: 'Ada Answers', svc_cf_diet: 'vegan', svc_cf_faculty: 'Arts', svc_cf_guests: '2' });
  expect(answered.status).toBe(201);
});

const pages = (): Array<{ path: string; ready: string }> => [
  { path: '/admin', ready: 'text=Email outbox' },
  { path: '/admin/events', ready: 'text=Accessible evening' },
  { path: '/admin/events/new', ready: 'text=Create event' },
  { path: `/admin/events/${eventId}`, ready: '.stats' },
  { path: `/admin/events/${eventId}/edit`, ready: 'text=Save changes' },
  { path: `/admin/events/${eventId}/attendees`, ready: 'tr.vrow[data-attendee-id]' },
  { path: `/admin/events/${dinnerId}/attendees`, ready: 'td.col-answers' },
  { path: '/admin/booking-types', ready: 'text=Consultation' },
  { path: '/admin/booking-types/new', ready: 'text=Create booking type' },
  { path: `/admin/booking-types/${typeId}`, ready: '#bt-dayoff-1' },
  { path: '/admin/bookings', ready: 'text=Sam' },
  { path: '/admin/orders', ready: 'text=Olivia Order' },
  { path: `/admin/orders/${orderId}`, ready: 'text=Attendee #' },
  { path: '/admin/devices', ready: 'text=Main door' },
  { path: '/admin/settings', ready: 'text=Webhook URL' },
];

describe('admin pages pass axe-core (no serious or critical violation)', () => {
  for (const viewport of [LAPTOP, PHONE]) {
    test(`every admin page at ${viewport.width} px`, async () => {
      const page = await e2e.newPage({ cookie: e2e.admin.cookie, viewport });
      const found: Record<string, string[]> = {};
      for (const { path, ready } of pages()) {
        await page.goto(new URL(path, e2e.server.url).href);
        await page.locator(ready).first().waitFor();
        await page
          .locator('[aria-busy="true"]')
          .first()
          .waitFor({ state: 'detached' })
          .catch(() => undefined);
        const violations = await seriousViolations(page);
        if (violations.length > 0) found[path] = violations;
      }
      // a confirmation dialog, open
      await page.goto(new URL(`/admin/events/${eventId}/attendees`, e2e.server.url).href);
      await page
        .getByRole('button', { name: /^Actions for / })
        .first()
        .click();
      await page.getByRole('menu').waitFor();
      const menuViolations = await seriousViolations(page);
      if (menuViolations.length > 0) found['attendee row menu'] = menuViolations;
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      await page.getByRole('dialog').waitFor();
      const panelViolations = await seriousViolations(page);
      if (panelViolations.length > 0) found['attendee edit panel'] = panelViolations;
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
      await page
        .getByRole('button', { name: /^Actions for / })
        .first()
        .click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await page.getByRole('dialog').waitFor();
      const dialogViolations = await seriousViolations(page);
      if (dialogViolations.length > 0) found['attendee delete dialog'] = dialogViolations;
      await page.goto(new URL(`/admin/orders/${orderId}`, e2e.server.url).href);
      await page.getByRole('button', { name: /^Refund/ }).click();
      await page.getByRole('dialog').waitFor();
      const refundViolations = await seriousViolations(page);
      if (refundViolations.length > 0) found['order refund dialog'] = refundViolations;
      expect(found).toEqual({});
      expect(e2e.pageErrors).toEqual([]);
    });
  }
});
