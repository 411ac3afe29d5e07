/**
 * axe-core on every admin page, with real data on it, at laptop and phone width: no
 * serious or critical violation (UX "Everywhere"). Dialogs are checked open.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createHost } from '../helpers/booking';
import { createAttendee, createEvent } from '../helpers/checkin';
import { launchBrowser } from '../helpers/browser';
import { loginAs } from '../helpers/http';
import { startTestServer, type TestServer } from '../helpers/server';

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

let server: TestServer;
let browser: Browser;
let admin: Awaited<ReturnType<typeof loginAs>>;
let eventId: number;
let typeId: number;

beforeAll(async () => {
  server = await startTestServer({ client: true, env: { SVC_JOBS: 'off' } });
  browser = await launchBrowser();
  admin = await loginAs(server.url, server.admin.email, server.admin.password);
  const db = server.server.ctx.db;
  const event = await createEvent(db, 'Accessible evening');
  eventId = event.id;
  const people = [];
  for (let i = 0; i < 5; i++) people.push(await createAttendee(db, event.id));
  await admin.api.post('/checkins', { attendeeId: people[0]!.id, eventId });
  await admin.api.post('/devices', { name: 'Main door', eventIds: [eventId] });
  const host = await createHost(admin.api, 'Alex');
  const all = ['09:00', '17:00'];
  const type = await admin.api.post('/booking-types', {
    title: 'Consultation',
    status: 'published',
    durationMinutes: 60,
    timezone: 'UTC',
    hosts: [host],
    weeklyWindows: { mon: [all], tue: [all], wed: [all], thu: [all], fri: [all], sat: [all], sun: [all] },
  });
  typeId = type.body.id;
  const slots = (await admin.api.get(`/booking-types/${typeId}/slots`)).body.slots as Array<{ start_utc: string }>;
  await admin.api.post('/bookings/admin', { bookingTypeId: typeId, startUtc: slots[0]!.start_utc, customerName: 'Sam', customerEmail: 'sam@example.test', customerTz: 'UTC' });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE_PATH });
  const violations = (await page.evaluate(async () => (await (window as unknown as { axe: { run: () => Promise<{ violations: unknown[] }> } }).axe.run()).violations)) as Violation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const pages = (): Array<{ path: string; ready: string }> => [
  { path: '/admin', ready: 'text=Email outbox' },
  { path: '/admin/events', ready: 'text=Accessible evening' },
  { path: '/admin/events/new', ready: 'text=Create event' },
  { path: `/admin/events/${eventId}`, ready: '.stats' },
  { path: `/admin/events/${eventId}/edit`, ready: 'text=Save changes' },
  { path: `/admin/events/${eventId}/attendees`, ready: 'tr.vrow[data-attendee-id]' },
  { path: '/admin/booking-types', ready: 'text=Consultation' },
  { path: '/admin/booking-types/new', ready: 'text=Create booking type' },
  { path: `/admin/booking-types/${typeId}`, ready: '.preview-slot' },
  { path: '/admin/bookings', ready: 'text=Sam' },
  { path: '/admin/devices', ready: 'text=Main door' },
  { path: '/admin/settings', ready: 'text=API tokens' },
];

describe('admin pages pass axe-core (no serious or critical violation)', () => {
  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 360, height: 740 },
  ]) {
    test(`every admin page at ${viewport.width} px`, async () => {
      const context = await browser.newContext({ viewport });
      const [name, value] = admin.cookie.split(/=(.*)/s) as [string, string];
      await context.addCookies([{ name, value, url: server.url }]);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      const found: Record<string, string[]> = {};
      try {
        for (const { path, ready } of pages()) {
          await page.goto(new URL(path, server.url).href);
          await page.locator(ready).first().waitFor();
          await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' }).catch(() => undefined);
          const violations = await seriousViolations(page);
          if (violations.length > 0) found[path] = violations;
        }
        // a confirmation dialog, open
        await page.goto(new URL(`/admin/events/${eventId}/attendees`, server.url).href);
        await page.locator('tr.vrow[data-attendee-id] button', { hasText: 'Delete' }).first().click();
        await page.getByRole('dialog').waitFor();
        const dialogViolations = await seriousViolations(page);
        if (dialogViolations.length > 0) found['attendee delete dialog'] = dialogViolations;
      } finally {
        await context.close();
      }
      expect(found).toEqual({});
      expect(errors).toEqual([]);
    });
  }
});
