/**
 * A host's own working hours page in real Chromium (docs/api.md#host-hours): a host signs in,
 * opens their hours, adds a day off, a vacation and special hours, removes one, saves, and the
 * server holds exactly that; no axe violations.
 */
import { describe, expect, test } from 'vitest';
import { useE2e } from '../helpers/e2e';
import { loginAs } from '../helpers/http';
import { expectAccessible } from '../helpers/visitor-e2e';

const e2e = useE2e({ env: { SVC_JOBS: 'off' }, login: true });

describe('host hours page', () => {
  test('a host sets their exceptions and saves them for themselves', async () => {
    const email = `hours-page-${process.pid}@example.test`;
    const created = await e2e.admin.api.post('/users', { email, displayName: 'Uma Host', role: 'host', password: 'long enough password' });
    expect(created.status).toBe(201);
    const hostId = created.body.id as number;
    const host = await loginAs(e2e.server.url, email, 'long enough password');

    const page = await e2e.openPage(`/admin/hosts/${hostId}/hours`, { cookie: host.cookie });
    await page.getByText('No hours are set yet').waitFor();
    await expectAccessible(page, '/admin/hosts/{id}/hours');

    const kind = page.getByLabel('New exception');
    await page.getByLabel('Date', { exact: true }).fill('2030-05-01');
    await page.getByRole('button', { name: 'Add exception' }).click();

    await kind.selectOption('vacation');
    await page.getByLabel('First day').fill('2030-08-03');
    await page.getByLabel('Last day').fill('2030-08-16');
    await page.getByRole('button', { name: 'Add exception' }).click();

    await kind.selectOption('special');
    await page.getByLabel('Date', { exact: true }).fill('2030-06-07');
    await page.getByLabel('From', { exact: true }).fill('10:00');
    await page.getByLabel('Until', { exact: true }).fill('13:00');
    await page.getByRole('button', { name: 'Add exception' }).click();

    await expect.poll(() => page.locator('.window-item').filter({ hasText: '2030' }).count()).toBe(3);
    await page
      .locator('.window-item', { hasText: '2030' })
      .first()
      .getByRole('button', { name: /^Remove the exception for / })
      .click();
    await expect.poll(() => page.locator('.window-item').filter({ hasText: '2030' }).count()).toBe(2);

    await page.getByRole('button', { name: 'Save hours' }).click();
    await expect.poll(async () => (await host.api.get(`/hosts/${hostId}/hours`)).body.stored).toBe(true);
    const saved = (await host.api.get(`/hosts/${hostId}/hours`)).body;
    expect(saved.overrides).toEqual([
      { from: '2030-06-07', to: '2030-06-07', windows: [['10:00', '13:00']] },
      { from: '2030-08-03', to: '2030-08-16', windows: [] },
    ]);
    expect(saved.weekly.mon).toEqual([['00:00', '24:00']]);
  });
});
