/**
 * A host's own space in real Chromium (docs/decisions/043-host-space.md): a host signs in and
 * lands on their bookings (not the public home page), moves one to another free time after a
 * confirmation (the visitor is mailed), edits their profile and photo, and the public booking
 * page introduces them by name, photo and bio; no axe violations on the way.
 */
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { queryRows } from '../../server/db/client';
import { bookingBody, createType, disableIpThrottle, futureStart, submitBooking, uniqueEmail } from '../helpers/booking';
import { useE2e } from '../helpers/e2e';
import { expectAccessible } from '../helpers/visitor-e2e';

const e2e = useE2e({ env: { SVC_JOBS: 'off' }, login: true });

describe("a host's own space", () => {
  test('a host signs in to their bookings, moves one, edits their profile; the booking page shows their name, photo and bio', async () => {
    const email = `hana-${process.pid}@example.test`;
    const created = await e2e.admin.api.post('/users', { email, displayName: 'Hana Host', role: 'host', password: 'long enough password' });
    expect(created.status).toBe(201);
    const hostId = created.body.id as number;
    const type = await createType(e2e.admin.api, { title: 'Garden advice', hosts: [hostId] });
    const visitorEmail = uniqueEmail('hana-visitor');
    const off = disableIpThrottle(e2e.hooks());
    const booked = await submitBooking(e2e.server.url, bookingBody(type.id, futureStart(2, 9), { customerName: 'Vik Visitor', customerEmail: visitorEmail }));
    off();
    expect(booked.status).toBe(201);

    const page = await e2e.openPage('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('long enough password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`**/admin/hosts/${hostId}/bookings`);
    const nav = page.getByRole('navigation');
    await nav.getByRole('link', { name: 'My bookings' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Settings' }).count()).toBe(0);
    await page.getByRole('cell', { name: /^Vik Visitor hana-visitor/ }).waitFor();
    await expectAccessible(page, "a host's bookings");

    // move it to a free time two days later, after a confirmation
    await page.getByRole('button', { name: 'Move booking of Vik Visitor' }).click();
    const target = futureStart(4, 14);
    await page.getByLabel('Day').fill(target.slice(0, 10));
    await page.locator(`input[name="move-slot"][value="${target}"]`).check();
    await page.getByRole('button', { name: 'Move to this time' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: /Move the booking of Vik Visitor/ }).waitFor();
    await dialog.getByRole('button', { name: 'Move booking' }).click();
    await page.getByText(/Moved the booking of Vik Visitor/).waitFor();
    const [row] = await queryRows<{ start: string }>(
      e2e.db(),
      sql`select to_char(start_utc, 'YYYY-MM-DD HH24:MI:SS') as start from svc_bookings where booking_id = ${booked.body.bookingId}`,
    );
    expect(row!.start).toBe(target);
    const subjects = await queryRows<{ subject: string }>(e2e.db(), sql`select subject from svc_outbox where to_address = ${visitorEmail} order by id`);
    expect(subjects.map((m) => m.subject)).toEqual(['Booking confirmed: Garden advice', 'Booking moved: Garden advice']);

    // the profile: bio and photo
    await nav.getByRole('link', { name: 'Profile' }).click();
    await page.waitForURL('**/admin/profile');
    await page.getByLabel('Short bio').fill('Forty years of roses and apple trees.');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('status').filter({ hasText: /Saved/ }).waitFor();
    const photo = await sharp({ create: { width: 600, height: 600, channels: 3, background: '#228833' } })
      .jpeg()
      .toBuffer();
    await page.getByLabel('Choose a new photo').setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: photo });
    await page.getByText('Photo saved.').waitFor();
    await page.getByRole('img', { name: 'Photo of Hana Host' }).waitFor();
    await expectAccessible(page, "a host's profile");

    // the public booking page introduces the host
    const visitor = await e2e.openPage(`/book/${type.id}`);
    await visitor.getByRole('heading', { name: 'Your host' }).waitFor();
    await visitor.getByText('Hana Host').waitFor();
    await visitor.getByText('Forty years of roses and apple trees.').waitFor();
    const img = visitor.getByRole('img', { name: 'Photo of Hana Host' });
    await img.waitFor();
    await expect.poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  });

  test("an administrator's Hosts page lists who hosts a type and opens their bookings and profile", async () => {
    const created = await e2e.admin.api.post('/users', {
      email: `ravi-${process.pid}@example.test`,
      displayName: 'Ravi Host',
      role: 'host',
      password: 'long enough password',
    });
    const hostId = created.body.id as number;
    await createType(e2e.admin.api, { title: 'Bike repair', hosts: [hostId] });
    const page = await e2e.openPage('/admin/hosts', { cookie: e2e.admin.cookie });
    const row = page.locator('tr', { has: page.getByRole('cell', { name: /^Ravi Host/ }) });
    await row.getByRole('cell', { name: 'Bike repair' }).waitFor();
    await expectAccessible(page, 'the Hosts page');
    await row.getByRole('link', { name: 'Profile' }).click();
    await page.waitForURL(`**/admin/hosts/${hostId}/profile`);
    await page.getByLabel('Short bio').fill('Fixes anything with two wheels.');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByRole('status').filter({ hasText: /Saved/ }).waitFor();
    expect((await e2e.admin.api.get(`/hosts/${hostId}/profile`)).body.bio).toBe('Fixes anything with two wheels.');
    await page.goto(new URL(`/admin/hosts/${hostId}/bookings`, e2e.server.url).href);
    await page.getByRole('heading', { name: 'Bookings with Ravi Host' }).waitFor();
  });
});
