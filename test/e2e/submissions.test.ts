/**
 * Public event submission in real Chromium against the real server (extended edition,
 * docs/api.md#event-submission): a visitor finds "Propose an event" on /events, is told at the
 * field what is missing, proposes an event on /events/submit; the administrator finds it under
 * Submissions, publishes it (and rejects another with a reason), and it appears on /events.
 */
import { expect, test } from 'vitest';
import { LAPTOP, useE2e } from '../helpers/e2e';
import { storedMails } from '../helpers/mail';
import { uniqueEmail } from '../helpers/registration';
import { proposal, submissionRows, submitProposal } from '../helpers/submissions';
import { expectAccessible } from '../helpers/visitor-e2e';
import { wallTimeToUtc } from '../../shared/submissions';
import { toUtcDate } from '../../shared/time';

const e2e = useE2e({
  env: { SVC_EDITION: 'extended', SVC_JOBS: 'off' },
  login: true,
  context: { viewport: LAPTOP, locale: 'en-GB', timezoneId: 'Europe/Berlin' },
});

test('a visitor proposes an event; the administrator publishes it from Submissions and it is listed on /events', async () => {
  const day = toUtcDate(Date.now() + 40 * 86_400_000);
  const email = uniqueEmail('proposer');

  // the visitor: /events offers the form in the extended edition
  const visitor = await e2e.openPage('/events');
  await visitor.getByRole('heading', { level: 1, name: 'Events' }).waitFor();
  await visitor.getByRole('link', { name: 'Propose an event' }).click();
  await visitor.getByRole('heading', { level: 1, name: 'Propose an event' }).waitFor();
  await visitor.getByLabel('Event title').waitFor();
  // the searchable zone picker shows the device's zone by its city and name; the form sends its id
  expect(await visitor.getByRole('combobox', { name: 'Time zone' }).inputValue()).toMatch(/^Berlin \(.+\) · UTC\+0[12]:00$/);
  expect(await visitor.locator('input[type="hidden"][name="timezone"]').inputValue()).toBe('Europe/Berlin');
  await expectAccessible(visitor, '/events/submit');

  // nothing filled in: each missing field says so, marked aria-invalid and described by its message
  await visitor.getByRole('button', { name: 'Send proposal' }).click();
  await visitor.getByText('Please check the fields marked below.').waitFor();
  for (const label of ['Event title', 'Starts', 'Your name', 'Your email']) {
    const field = visitor.getByLabel(label, { exact: true });
    expect(await field.getAttribute('aria-invalid'), label).toBe('true');
    expect(await field.getAttribute('aria-describedby'), label).toMatch(/-error/);
  }
  expect(await visitor.evaluate(() => document.activeElement?.id)).toBe('submit-title');
  await expectAccessible(visitor, '/events/submit with errors');

  await visitor.getByLabel('Event title').fill('Harbour clean-up');
  await visitor.getByLabel('What is it about? (optional)').fill('Gloves and bags provided.');
  await visitor.getByLabel('Starts').fill(`${day}T10:00`);
  await visitor.getByLabel('Ends (optional)').fill(`${day}T13:00`);
  await visitor.getByLabel('Where (optional)').fill('Old harbour');
  await visitor.getByLabel('Your name').fill('Robin Proposer');
  await visitor.getByLabel('Your email').fill(email);
  // a corrected field drops its message
  expect(await visitor.getByLabel('Event title').getAttribute('aria-invalid')).toBeNull();
  expect(await visitor.getByLabel('Your email').getAttribute('aria-invalid')).toBeNull();
  await visitor.getByRole('button', { name: 'Send proposal' }).click();
  // the page holds the post until the form token is 3 s old (the server's minimum fill time)
  await visitor.getByRole('heading', { name: 'Thanks — we’ll review it and email you' }).waitFor({ timeout: 15_000 });
  await expect.poll(() => visitor.locator('main').innerText()).toContain(email);
  await expectAccessible(visitor, 'proposal received');

  const row = (await submissionRows(e2e.server)).find((r) => r.submitter_email === email);
  expect(row).toMatchObject({
    title: 'Harbour clean-up',
    status: 'draft',
    submission_status: 'submitted',
    timezone: 'Europe/Berlin',
    venue: 'Old harbour',
    // the wall-clock times were read in the chosen zone
    starts_utc: wallTimeToUtc(`${day}T10:00`, 'Europe/Berlin'),
    ends_utc: wallTimeToUtc(`${day}T13:00`, 'Europe/Berlin'),
  });
  expect(row.starts_utc).not.toBe(`${day} 10:00:00`);

  // another proposal, to reject
  const other = proposal(e2e.server, { title: 'Midnight drum circle' });
  expect((await submitProposal(e2e.server, other)).status).toBe(201);

  // the administrator: Submissions lists both, awaiting review
  const admin = await e2e.openPage('/admin', { cookie: e2e.admin.cookie });
  await admin.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Submissions' }).click();
  await admin.getByRole('heading', { level: 1, name: 'Submissions' }).waitFor();
  const harbour = admin.locator(`tr[data-submission-id="${row.id}"]`);
  await harbour.waitFor();
  expect(await harbour.innerText()).toMatch(/Harbour clean-up[\s\S]*Old harbour[\s\S]*Robin Proposer[\s\S]*Awaiting review/);
  expect(await harbour.innerText()).toContain(email);
  expect(await harbour.getByRole('link', { name: 'Edit draft Harbour clean-up' }).getAttribute('href')).toBe(`/admin/events/${row.id}/edit`);
  await expectAccessible(admin, '/admin/submissions');

  // reject one with a reason, in the dialog
  await admin.getByRole('button', { name: 'Reject Midnight drum circle' }).click();
  const dialog = admin.getByRole('dialog', { name: 'Reject “Midnight drum circle”?' });
  await dialog.getByLabel('Reason (optional)').fill('Too loud for the neighbourhood.');
  await expectAccessible(admin, 'the reject dialog');
  await dialog.getByRole('button', { name: 'Reject proposal' }).click();
  await admin.getByText('Rejected “Midnight drum circle”.', { exact: false }).waitFor();
  const [rejectMail] = await storedMails(e2e.db(), String(other.submitterEmail));
  expect(rejectMail!.text).toContain('Reason: Too loud for the neighbourhood.');

  await harbour.getByRole('button', { name: 'Publish Harbour clean-up' }).click();
  await admin.getByText('Published “Harbour clean-up”.', { exact: false }).waitFor();
  await admin.getByText('No proposals are waiting for review.').waitFor();
  await admin.getByLabel('Show').selectOption('published');
  await expect.poll(() => admin.locator(`tr[data-submission-id="${row.id}"]`).innerText()).toContain('Published');
  const [publishMail] = await storedMails(e2e.db(), email);
  expect(publishMail!.subject).toBe('Your event is published: Harbour clean-up');

  // the visitor sees it listed now
  await visitor.goto(new URL('/events', e2e.server.url).href);
  await visitor.getByRole('link', { name: /Harbour clean-up/ }).waitFor();
  expect(await visitor.getByRole('link', { name: /Midnight drum circle/ }).count()).toBe(0);
});
