/**
 * Inviting a person from the users page, in real Chromium: the administrator invites a
 * door-staff user assigned to one event; the link from the outbox opens the public invite
 * page, where they choose a password, land signed in on /admin and see only that event.
 * axe-core on the invite page (valid and used link) and on the users page with the event
 * picker open.
 */
import { describe, expect, test } from 'vitest';
import { createEvent } from '../helpers/checkin';
import { PHONE, seriousViolations, useE2e } from '../helpers/e2e';
import { loginAs } from '../helpers/http';
import { storedMails } from '../helpers/mail';

const e2e = useE2e({ env: { SVC_JOBS: 'off' }, login: true });

/** The path of the newest invite link mailed to `email`, as the outbox table holds it. */
async function inviteLinkPath(email: string): Promise<string> {
  const [mail] = await storedMails(e2e.db(), email);
  expect(mail, `an invite mail to ${email}`).toBeDefined();
  const link = /https?:\/\/\S+\/invite\/[A-Za-z0-9_-]+/.exec(mail!.text)?.[0];
  expect(link, mail!.text).toBeDefined();
  return new URL(link!).pathname;
}

describe('inviting a user', () => {
  test('an administrator invites door staff for one event; they set a password from the link, land signed in and see only that event', async () => {
    const gala = await createEvent(e2e.db(), 'Invite gala');
    await createEvent(e2e.db(), 'Other fair');
    const email = 'robin@example.test';

    const page = await e2e.openPage('/admin/settings', { cookie: e2e.admin.cookie });
    await page.locator('#nu-email').fill(email);
    await page.locator('#nu-name').fill('Robin');
    await page.locator('#nu-role').selectOption('staff');
    await page.getByLabel('Only these events').check();
    await page.getByLabel(/^Invite gala/).check();
    const pickerViolations = await seriousViolations(page);
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByText(`Invitation emailed to ${email}.`).waitFor();

    const row = page.locator('tr', { has: page.getByRole('cell', { name: email }) });
    await expect.poll(() => row.innerText()).toContain('Invited, not yet accepted');
    expect(await row.locator('.cell-events').innerText()).toContain('Invite gala');
    expect(await row.locator('.cell-events').innerText()).not.toContain('Other fair');
    const users = (await e2e.admin.api.get('/users')).body as Array<{ email: string; eventIds: number[] | null; hasPassword: boolean }>;
    expect(users.find((u) => u.email === email)).toMatchObject({ eventIds: [gala.id], hasPassword: false });

    const linkPath = await inviteLinkPath(email);
    const invitee = await e2e.openPage(linkPath, { viewport: PHONE });
    await invitee.getByRole('heading', { name: 'Accept your invitation' }).waitFor();
    await invitee.getByText('You are invited as').waitFor();
    expect(await invitee.getByLabel('Email').inputValue()).toBe(email);
    const inviteViolations = await seriousViolations(invitee);

    // too short: refused in the page, the link is still good
    await invitee.getByLabel('New password').fill('short');
    await invitee.getByLabel('Repeat the password').fill('short');
    await invitee.getByRole('button', { name: 'Set password and sign in' }).click();
    await invitee.getByRole('alert').getByText('at least 8 characters').waitFor();

    await invitee.getByLabel('New password').fill('robin’s own password');
    await invitee.getByLabel('Repeat the password').fill('robin’s own password');
    await invitee.getByRole('button', { name: 'Set password and sign in' }).click();
    await invitee.waitForURL((url) => url.pathname === '/admin');
    await invitee.getByText('Signed in as').waitFor();
    expect(await invitee.locator('.account').innerText()).toContain('Robin');
    await invitee.getByRole('link', { name: 'Invite gala' }).waitFor();
    expect(await invitee.getByRole('link', { name: 'Other fair' }).count()).toBe(0);

    await invitee.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Events' }).click();
    await invitee.waitForURL((url) => url.pathname === '/admin/events');
    await invitee.getByRole('link', { name: 'Invite gala' }).waitFor();
    expect(await invitee.getByRole('link', { name: 'Other fair' }).count()).toBe(0);

    // the used link now says so, and the admin sees the user as active
    await invitee.goto(new URL(linkPath, e2e.server.url).href);
    await invitee.getByRole('alert').getByText('not valid').waitFor();
    const deadLinkViolations = await seriousViolations(invitee);
    await page.reload();
    await expect.poll(() => page.locator('tr', { has: page.getByRole('cell', { name: email }) }).innerText()).toContain('Active');

    expect({ picker: pickerViolations, invite: inviteViolations, deadLink: deadLinkViolations }).toEqual({ picker: [], invite: [], deadLink: [] });
  });

  test('the users page changes the events of a staff user and resets a password by emailing a fresh link', async () => {
    const first = await createEvent(e2e.db(), 'Spring market');
    const second = await createEvent(e2e.db(), 'Autumn market');
    const email = 'sam.staff@example.test';
    const created = await e2e.admin.api.post('/users', { email, displayName: 'Sam', role: 'staff', password: 'sam’s first password' });
    expect(created.status).toBe(201);

    const page = await e2e.openPage('/admin/settings', { cookie: e2e.admin.cookie });
    const row = page.locator('tr', { has: page.getByRole('cell', { name: email }) });
    await expect.poll(() => row.locator('.cell-events').innerText()).toContain('All events');
    await row.getByRole('button', { name: 'Change events of Sam' }).click();
    await row.getByLabel('Only these events').check();
    await row.getByLabel(/^Autumn market/).check();
    await row.getByRole('button', { name: 'Save events' }).click();
    await page.getByText('Sam now works on 1 event.').waitFor();
    await expect.poll(() => row.locator('.cell-events').innerText()).toContain('Autumn market');
    const after = (await e2e.admin.api.get(`/users/${created.body.id}`)).body as { eventIds: number[] | null };
    expect(after.eventIds).toEqual([second.id]);
    expect(after.eventIds).not.toContain(first.id);

    await row.getByRole('button', { name: 'Reset password of Sam' }).click();
    await row.getByRole('button', { name: 'Email a link to Sam' }).click();
    await page.getByText(`A link to choose a password was emailed to ${email}.`).waitFor();
    await expect.poll(() => row.innerText()).toContain('password link sent');

    const invitee = await e2e.openPage(await inviteLinkPath(email));
    await invitee.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await invitee.getByLabel('New password').fill('sam’s second password');
    await invitee.getByLabel('Repeat the password').fill('sam’s second password');
    await invitee.getByRole('button', { name: 'Set password and sign in' }).click();
    await invitee.waitForURL((url) => url.pathname === '/admin');
    await invitee.getByRole('link', { name: 'Autumn market' }).waitFor();
    expect(await invitee.getByRole('link', { name: 'Spring market' }).count()).toBe(0);
    await loginAs(e2e.server.url, email, 'sam’s second password');
  });
});
