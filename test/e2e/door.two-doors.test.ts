/**
 * Two doors, one ticket, both offline (the field test of issue 15, end to end in Chromium): two
 * phones paired as North and South doors go offline, each admits the same attendee (OK on both),
 * then sync. The server keeps both check-ins and flags the later one `again_elsewhere`; after
 * their next sync both doors list it under Needs attention, and the admin's dashboard lists it
 * under "Conflicts to review" with each row's device.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { queryRows } from '../../server/db/client';
import { createAttendee, createEvent } from '../helpers/checkin';
import { expectVerdict, recordVerdicts } from '../helpers/door';
import { useE2e } from '../helpers/e2e';
import { PHONE_390 } from '../helpers/screens';

const e2e = useE2e({ env: { SVC_JOBS: 'off' }, login: true, context: { viewport: PHONE_390 } });

async function pairDoor(name: string, eventId: number): Promise<Page> {
  const created = await e2e.admin.api.post('/devices', { name, eventIds: [eventId] });
  expect(created.status).toBe(201);
  const page = await e2e.newPage();
  await recordVerdicts(page);
  await page.goto(new URL(`/door#pair=${created.body.pairing.pairingCode}`, e2e.server.url).href);
  await page.locator('.door-counts', { hasText: '0 checked in / 2 going' }).waitFor();
  await page.getByText('All scans synced').waitFor();
  return page;
}

async function admit(page: Page, code: string): Promise<void> {
  await page.getByLabel('Ticket code').fill(code);
  await page.getByRole('button', { name: 'Check in', exact: true }).click();
  await expectVerdict(page, 'OK', 'Ada Twice');
  await page.keyboard.press('Escape');
}

describe('two doors, one ticket, both offline', () => {
  test('both admit it; after syncing the pair is flagged again_elsewhere on the server, on both doors and on the dashboard', async () => {
    const event = await createEvent(e2e.db(), 'Two doors gala');
    const ada = await createAttendee(e2e.db(), event.id, { name: 'Ada Twice' });
    await createAttendee(e2e.db(), event.id, { name: 'Someone Else' });
    const north = await pairDoor('North door', event.id);
    const south = await pairDoor('South door', event.id);

    await north.context().setOffline(true);
    await south.context().setOffline(true);
    await admit(north, ada.ticketCode);
    await admit(south, ada.ticketCode);
    await north.getByText('1 not yet synced').waitFor();
    await south.getByText('1 not yet synced').waitFor();

    // North syncs first, then South: the server holds both rows and flags South's later entry
    await north.context().setOffline(false);
    await north.getByText('All scans synced').waitFor({ timeout: 30_000 });
    await south.context().setOffline(false);
    await south.getByText('All scans synced').waitFor({ timeout: 30_000 });
    const rows = await queryRows<{ device: string; conflict: string | null }>(
      e2e.db(),
      sql`select d.name as device, c.conflict from svc_checkins c join svc_devices d on d.id = c.device_id where c.attendee_id = ${ada.id} order by c.scanned_utc, c.id`,
    );
    expect(rows).toEqual([
      { device: 'North door', conflict: null },
      { device: 'South door', conflict: 'again_elsewhere' },
    ]);

    // both doors, after their next sync, say so under Needs attention
    for (const page of [south, north]) {
      await page.getByRole('button', { name: 'Sync now' }).click();
      const badge = page.getByRole('button', { name: /Needs attention 1/ });
      await badge.waitFor({ timeout: 30_000 });
      await badge.click();
      await expect
        .poll(async () => (await page.locator('.door-attention').innerText()).replace(/\s+/g, ' '))
        .toMatch(/Ada Twice was let in at .+ but was also let in at another door/);
    }

    // the dashboard lists the conflict, with each row's device
    const dashboard = await e2e.newPage({ cookie: e2e.admin.cookie, viewport: { width: 1280, height: 900 } });
    await dashboard.goto(new URL(`/admin/events/${event.id}`, e2e.server.url).href);
    const conflicts = dashboard.locator('section[aria-labelledby="conflicts-heading"]');
    await conflicts.getByText('Let in at two doors').waitFor();
    expect(await conflicts.getByText('Ada Twice').count()).toBeGreaterThan(0);
    expect(await conflicts.getByText('South door').count()).toBeGreaterThan(0);
  });
});
