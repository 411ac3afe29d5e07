/**
 * Walk-ins at the door in real Chromium against the real server: a paired device the
 * administrator allowed registers a walk-in while offline (the verdict says OK at once), comes
 * back online, and the server then holds exactly one attendee and one check-in for them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AttendeeDto } from '../../shared/attendees';
import type { CheckinDto } from '../../shared/checkin';
import { launchPersistentContext } from '../helpers/browser';
import { createEvent } from '../helpers/checkin';
import { expectVerdict, recordVerdicts } from '../helpers/door';
import { useE2e } from '../helpers/e2e';
import { checkScreen, PHONE_390 } from '../helpers/screens';

const e2e = useE2e({ env: { SVC_JOBS: 'off' }, login: true });
let workDir: string;
beforeAll(() => {
  workDir = mkdtempSync(path.join(tmpdir(), 'svc-door-walk-in-'));
});
afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

describe('walk-ins at the door', () => {
  test('a device offline registers a walk-in, shows OK, and once online the server holds exactly one attendee and one check-in', async () => {
    const event = await createEvent(e2e.db(), 'Open studio night');
    const created = await e2e.admin.api.post('/devices', { name: 'Front desk', eventIds: [event.id] });
    expect(created.status).toBe(201);
    expect((await e2e.admin.api.patch(`/devices/${created.body.id}`, { walkIns: true })).body.walkIns).toBe(true);

    const context = await launchPersistentContext(path.join(workDir, 'profile'), { viewport: PHONE_390 });
    await recordVerdicts(context);
    const page = e2e.track(context.pages()[0] ?? (await context.newPage()));
    await page.goto(new URL(`/door#pair=${created.body.pairing.pairingCode}`, e2e.server.url).href);
    await page.getByText('Front desk').first().waitFor();
    const open = page.getByRole('button', { name: 'Register a walk-in' });
    await open.waitFor();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), { timeout: 20_000 }).toBe(true);

    await context.setOffline(true);
    await open.click();
    const form = page.getByRole('form', { name: 'Register a walk-in' });
    // an empty name is refused on the device, next to the field
    await form.getByRole('button', { name: 'Register and check in' }).click();
    await form.getByText('Enter the person’s name.').waitFor();
    await form.getByLabel('Name').fill('Walker Offline');
    await form.getByRole('button', { name: 'One person more' }).click();
    await checkScreen(page, 'door-390-walk-in-form');
    await form.getByRole('button', { name: 'Register and check in' }).click();
    await expectVerdict(page, 'OK', 'Walker Offline');
    expect(await e2e.admin.api.get<AttendeeDto[]>(`/attendees?eventId=${event.id}`).then((r) => r.body)).toEqual([]);

    await context.setOffline(false);
    await expect
      .poll(async () => (await e2e.admin.api.get<CheckinDto[]>(`/checkins?eventId=${event.id}`)).body.length, { timeout: 30_000, interval: 250 })
      .toBe(1);
    const attendees = (await e2e.admin.api.get<AttendeeDto[]>(`/attendees?eventId=${event.id}`)).body;
    expect(attendees.map((a) => [a.displayName, a.email, a.quantity, a.status])).toEqual([['Walker Offline', '', 2, 'going']]);
    const checkins = (await e2e.admin.api.get<CheckinDto[]>(`/checkins?eventId=${event.id}`)).body;
    expect(checkins.map((c) => [c.attendeeId, c.deviceId, c.source, c.conflict])).toEqual([[attendees[0]!.id, created.body.id, 'walk_in', null]]);

    // the door lists the person once, under the server's id, found by name now
    await page.getByLabel('Find by name or email').fill('walker');
    const found = page.getByRole('region', { name: 'Name search' }).getByRole('button', { name: /Walker Offline/ });
    await expect.poll(() => found.count(), { timeout: 10_000 }).toBe(1);
    await context.close();
  });
});
