/**
 * An event's own sign-up questions in real Chromium (extended edition, docs/api.md#custom-fields):
 * the admin defines two through the API, the visitor's form shows them once, between the email
 * and the seats, refuses bad answers on the phone (nothing is sent) with the reason at the field,
 * then signs up; the answers show in the admin's attendee table, and the admin's question editor
 * adds and reorders a question. axe finds nothing serious on any of these screens.
 */
import { describe, expect, test } from 'vitest';
import { LAPTOP, useE2e } from '../helpers/e2e';
import { attendeeRows, uniqueEmail, createEvent } from '../helpers/registration';
import { expectAccessible, isTrpcMutation, phoneProfile } from '../helpers/visitor-e2e';

const e2e = useE2e({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off' }, login: true, context: phoneProfile() });

describe('custom fields', () => {
  test('the visitor answers the event’s questions: checked on the phone, stored, shown to the admin', async () => {
    const hooks = e2e.server.server.ctx.hooks;
    const noIp = () => '';
    hooks.addFilter('svc_rsvp_client_ip', noIp, 50);
    const event = await createEvent(e2e.admin.api, {
      title: 'Team lunch',
      fields: [
        { key: 'diet', label: 'Dietary needs', type: 'text', required: true, maxLength: 40 },
        { key: 'age', label: 'Age', type: 'number' },
      ],
    });

    const page = await e2e.openPage(`/events/${event.id}`);
    let signups = 0;
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/trpc/attendees.signup') signups += 1;
    });
    await page.getByRole('heading', { level: 1, name: 'Team lunch' }).waitFor();
    await page.getByLabel('Dietary needs').waitFor();
    // rendered once (not also from the server's HTML), after the email and before the seats
    const names = await page.locator('form input, form select, form textarea').evaluateAll((els) => els.map((el) => (el as HTMLInputElement).name));
    expect(names.filter((n) => ['email', 'svc_cf_diet', 'svc_cf_age', 'quantity'].includes(n))).toEqual(['email', 'svc_cf_diet', 'svc_cf_age', 'quantity']);
    expect(await page.getByText('(required)').count()).toBe(1);
    await expectAccessible(page, '/events/:id with questions');

    const email = uniqueEmail('lunch');
    await page.getByLabel('Your name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill(email);

    // the required answer is missing: refused on the phone, the reason at the field
    await page.getByRole('button', { name: 'Sign up' }).click();
    const diet = page.getByLabel('Dietary needs');
    await expect.poll(() => diet.getAttribute('aria-invalid')).toBe('true');
    await page.getByText('An answer is required.').waitFor();
    expect(await diet.getAttribute('aria-describedby')).toBe('signup-cf-diet-error');

    // a number the browser cannot judge: the shared check refuses it before anything is queued
    await diet.fill('vegetarian');
    await expect.poll(() => diet.getAttribute('aria-invalid')).toBe(null);
    await page.getByLabel('Age', { exact: true }).fill('forty');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByText('Enter a number, like 12 or 2.5.').waitFor();
    expect(await page.getByLabel('Age', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await page.getByText('Please check your answer to “Age”.').waitFor();
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe('svc_cf_age');
    await expectAccessible(page, '/events/:id with refused answers');
    expect(signups).toBe(0);

    await page.getByLabel('Age', { exact: true }).fill('42');
    const [response] = await Promise.all([
      page.waitForResponse((r) => isTrpcMutation(r, 'attendees.signup'), { timeout: 15_000 }),
      page.getByRole('button', { name: 'Sign up' }).click(),
    ]);
    expect(response.status()).toBe(200);
    await page.getByRole('heading', { name: 'You’re going!' }).waitFor();
    const [row] = (await attendeeRows(e2e.server, event.id)).filter((r) => r.email === email);
    expect(JSON.parse(row.custom_fields)).toEqual({ diet: 'vegetarian', age: 42 });
    hooks.removeFilter('svc_rsvp_client_ip', noIp, 50);

    // the admin's attendee table: an Answers column, labelled from the definitions
    const admin = await e2e.openPage(`/admin/events/${event.id}/attendees`, { cookie: e2e.admin.cookie, viewport: LAPTOP });
    await admin.getByRole('columnheader', { name: 'Answers' }).waitFor();
    const answers = admin.locator(`tr[data-attendee-id="${row.id}"] td.col-answers`);
    await expect.poll(() => answers.innerText()).toBe('Dietary needs: vegetarian · Age: 42');
    await expectAccessible(admin, '/admin/events/:id/attendees with answers');

    // the question editor: the two questions, a third added (key from its label) and moved to the top
    await admin.goto(new URL(`/admin/events/${event.id}/edit`, e2e.server.url).href);
    await admin.getByRole('group', { name: 'Sign-up questions' }).waitFor();
    expect(await admin.getByLabel('Label', { exact: true }).evaluateAll((els) => els.map((el) => (el as HTMLInputElement).value))).toEqual([
      'Dietary needs',
      'Age',
    ]);
    await admin.getByRole('button', { name: 'Add a question' }).click();
    await admin.getByLabel('Label', { exact: true }).nth(2).fill('Company name');
    expect(await admin.getByLabel('Key', { exact: true }).nth(2).inputValue()).toBe('company_name');
    await admin.getByRole('button', { name: 'Move “Company name” up' }).click();
    await admin.getByRole('button', { name: 'Move “Company name” up' }).click();
    await expectAccessible(admin, '/admin/events/:id/edit with questions');
    await admin.getByRole('button', { name: 'Save changes' }).click();
    await admin.getByText('✓ Saved').waitFor();
    const saved = await e2e.admin.api.get(`/events/${event.id}`);
    expect(saved.body.fields.map((f: { key: string }) => f.key)).toEqual(['company_name', 'diet', 'age']);
  });
});
