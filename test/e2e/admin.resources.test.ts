/**
 * Shared resources in the admin app (extended edition, docs/api.md#resources), in real Chromium
 * against the real server: the Resources page (add with the problem shown at its field, rename,
 * change the capacity, a refused and an allowed delete) and the booking type form's Resources
 * checkboxes.
 */
import { expect, test } from 'vitest';
import { createHost, createType } from '../helpers/booking';
import { useE2e } from '../helpers/e2e';
import { expectAccessible } from '../helpers/visitor-e2e';

const e2e = useE2e({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off' }, login: true });

const resourceByName = async (name: string) =>
  ((await e2e.admin.api.get('/resources')).body as Array<{ id: number; name: string; capacity: number }>).find((r) => r.name === name);

test('Resources: add (the problem at its field first), rename and change the capacity, give it to a booking type on its form, delete refused while needed', async () => {
  const page = await e2e.openPage('/admin/resources', { cookie: e2e.admin.cookie });
  await page.getByRole('heading', { level: 1, name: 'Resources' }).waitFor();
  await page.getByText('No resources yet.').waitFor();

  const add = page.getByRole('form', { name: 'Add a resource' });
  await add.getByLabel('Capacity').fill('0');
  await add.getByRole('button', { name: 'Add resource' }).click();
  await add.getByText('Give the resource a name.').waitFor();
  expect(await add.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
  expect(await add.getByLabel('Capacity').getAttribute('aria-invalid')).toBe('true');
  expect(await resourceByName('')).toBeUndefined();

  await add.getByLabel('Name').fill('Room 1');
  await add.getByLabel('Capacity').fill('2');
  await add.getByRole('button', { name: 'Add resource' }).click();
  await page.getByText('Added Room 1.').waitFor();
  const row = page.getByRole('row', { name: /Room 1/ });
  await row.waitFor();
  await expectAccessible(page, '/admin/resources');

  await row.getByRole('button', { name: 'Edit Room 1' }).click();
  const edit = page.getByRole('form', { name: 'Edit “Room 1”' });
  await edit.getByLabel('Name').fill('Room Blue');
  await edit.getByLabel('Capacity').fill('1');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await page.getByText('Saved Room Blue.').waitFor();
  expect(await resourceByName('Room Blue')).toMatchObject({ capacity: 1 });

  // The booking type form offers the resource; saving gives it to the type.
  const type = await createType(e2e.admin.api, { title: 'Consultation in Blue', hosts: [await createHost(e2e.admin.api)] });
  const form = await e2e.openPage(`/admin/booking-types/${type.id}`, { cookie: e2e.admin.cookie });
  const box = form.getByRole('group', { name: 'Resources' }).getByLabel('Room Blue (capacity 1)');
  await box.check();
  await form.getByRole('button', { name: 'Save changes' }).click();
  await form.getByText('✓ Saved').waitFor();
  expect((await e2e.admin.api.get(`/booking-types/${type.id}`)).body.resourceIds).toEqual([(await resourceByName('Room Blue'))!.id]);

  // Deleting it is refused while the type needs it; the dialog says which type.
  await page.reload();
  const blue = page.getByRole('row', { name: /Room Blue/ });
  await blue.getByRole('link', { name: 'Consultation in Blue' }).waitFor();
  await blue.getByRole('button', { name: 'Delete Room Blue' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete the resource “Room Blue”?' });
  await dialog.getByRole('button', { name: 'Delete resource' }).click();
  await dialog.getByText(/Consultation in Blue/).waitFor();
  await dialog.getByRole('button', { name: 'Keep it' }).click();
  expect(await resourceByName('Room Blue')).toBeDefined();

  await box.uncheck();
  await form.getByRole('button', { name: 'Save changes' }).click();
  await expect.poll(async () => (await e2e.admin.api.get(`/booking-types/${type.id}`)).body.resourceIds).toEqual([]);
  await page.reload();
  await page
    .getByRole('row', { name: /Room Blue/ })
    .getByRole('button', { name: 'Delete Room Blue' })
    .click();
  await dialog.getByRole('button', { name: 'Delete resource' }).click();
  await page.getByText('Deleted Room Blue.').waitFor();
  expect(await resourceByName('Room Blue')).toBeUndefined();
});
