/**
 * Every mail is multipart: a text part and an HTML part with the same content, through the one
 * layout (server/mail/layout.ts), escaped so nothing a visitor typed becomes markup. Each kind the
 * app sends is made by its real flow and delivered to a real SMTP server.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { apiClient } from '../helpers/http';
import { bookingBody, createType, disableIpThrottle, futureStart, submitBooking } from '../helpers/booking';
import { paymentIdOf } from '../helpers/payments';
import { attendeeRows, createEvent, resetThrottles, signUp, uniqueEmail } from '../helpers/registration';
import { mimeParts, startSmtpServer, type ReceivedMail } from '../helpers/smtp';
import { proposal, submitProposal } from '../helpers/submissions';
import { useTestServer } from '../helpers/test-server';

const PUBLIC_URL = 'https://mail.example.test';
/** A visitor's name that would be markup if it went into the HTML unescaped. */
const HOSTILE_NAME = 'Eve <img src=x onerror=alert(1)> & "Co"';

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp?.close());
const {
  server: srv,
  admin,
  hooks,
} = useTestServer({
  env: () => ({ SVC_EDITION: 'extended', SVC_JOBS: 'off', SMTP_URL: smtp.url, SVC_PUBLIC_URL: PUBLIC_URL }),
});
const anon = () => apiClient(srv.url);
let host: number;

beforeAll(async () => {
  host = (await admin.api.post('/users', { email: 'parts.host@example.test', displayName: 'Pia Parts', role: 'host', password: 'long enough password' })).body
    .id;
  disableIpThrottle(hooks());
  hooks().addFilter('svc_rsvp_client_ip', () => '', 50);
});
beforeEach(() => resetThrottles(srv));

/** Runs the mail jobs (and any due at `atMs`), then answers what reached the SMTP server for `to`. */
async function deliveredTo(to: string, atMs?: number): Promise<ReceivedMail[]> {
  await srv.server.ctx.jobs.runDue(atMs);
  return smtp.received.filter((m) => m.to.includes(to.toLowerCase()));
}
const subjectOf = (mail: ReceivedMail) => /^Subject: (.*)$/m.exec(mail.raw)?.[1] ?? '';

/** Each mail has one text/plain and one text/html part, side by side in a multipart/alternative. */
function expectTextAndHtml(mail: ReceivedMail, text: RegExp) {
  const parts = mimeParts(mail.raw);
  const plain = parts.filter((p) => p.type === 'text/plain');
  const html = parts.filter((p) => p.type === 'text/html');
  expect(plain, subjectOf(mail)).toHaveLength(1);
  expect(html, subjectOf(mail)).toHaveLength(1);
  expect(plain[0]!.within.at(-1)).toBe('multipart/alternative');
  expect(html[0]!.within.at(-1)).toBe('multipart/alternative');
  // the same content: what the text says, the HTML says too
  expect(plain[0]!.text).toMatch(text);
  expect(html[0]!.text).toMatch(text);
  expect(html[0]!.text).toMatch(/^<!doctype html>/);
  return { text: plain[0]!.text, html: html[0]!.text };
}

describe('every mail the app sends has a text and an HTML part', () => {
  it('booking: confirmation, reminder, "moved", cancellation; and a request: received, declined; the visitor\'s name escaped in the HTML', async () => {
    const type = await createType(admin.api, { hosts: [host], title: 'Fitting' });
    const email = uniqueEmail('parts-booking');
    const start = futureStart(5, 10);
    const created = await submitBooking(srv.url, bookingBody(type.id, start, { customerEmail: email, customerName: HOSTILE_NAME }));
    expect(created.status).toBe(201);
    const [row] = await queryRows<{ cancel_token: string }>(
      srv.server.ctx.db,
      sql`select cancel_token from svc_bookings where booking_id = ${created.body.bookingId}`,
    );
    const token = row!.cancel_token;
    expect((await anon().patch(`/bookings/${token}/reschedule`, { startUtc: futureStart(6, 11) })).status).toBe(200);
    // the reminder of the moved booking, a day before it
    await deliveredTo(email, Date.parse(`${futureStart(5, 11).replace(' ', 'T')}Z`) + 1000);
    expect((await anon().delete(`/bookings/${token}`)).status).toBe(204);
    const mails = await deliveredTo(email);
    expect(mails.map(subjectOf)).toEqual(['Booking confirmed: Fitting', 'Booking moved: Fitting', 'Reminder: Fitting', 'Booking cancelled: Fitting']);
    for (const mail of mails) {
      const { html } = expectTextAndHtml(mail, /Fitting/);
      expect(html).toContain('Hello Eve &lt;img src=x onerror=alert(1)&gt; &amp; &quot;Co&quot;,');
      expect(html).not.toContain('<img');
    }
    // the manage link is a link, to the site
    const confirmation = expectTextAndHtml(mails[0]!, /Manage or cancel/);
    expect(confirmation.html).toContain(`<a href="${PUBLIC_URL}/manage/${token}">`);

    const request = await createType(admin.api, { hosts: [host], title: 'Review', requiresApproval: true });
    const requester = uniqueEmail('parts-request');
    const asked = await submitBooking(srv.url, bookingBody(request.id, futureStart(7, 9), { customerEmail: requester }));
    expect((await admin.api.post(`/bookings/${asked.body.bookingId}/decline`)).status).toBe(200);
    const requestMails = await deliveredTo(requester);
    expect(requestMails.map(subjectOf)).toEqual(['Booking request received: Review', 'Booking cancelled: Review']);
    for (const mail of requestMails) expectTextAndHtml(mail, /Review/);
  });

  it('sign-up: registered, waitlisted, then moved to going', async () => {
    const event = await createEvent(admin.api, { title: 'Parts night', capacity: 1, waitlist: true });
    const first = uniqueEmail('parts-going');
    const second = uniqueEmail('parts-wait');
    expect((await signUp(srv, event.id, { email: first, display_name: HOSTILE_NAME })).status).toBe(201);
    expect((await signUp(srv, event.id, { email: second })).body.status).toBe('waitlist');
    const waiting = (await attendeeRows(srv, event.id)).find((r) => r.email === second);
    expect((await admin.api.patch(`/attendees/${waiting.id}`, { status: 'going' })).status).toBe(200);
    const [going] = await deliveredTo(first);
    const { html } = expectTextAndHtml(going!, /You are registered for Parts night/);
    expect(html).not.toContain('<img');
    expect(html).toMatch(new RegExp(`<a href="${PUBLIC_URL}/cancel/[A-Za-z0-9_-]+">`));
    expect((await deliveredTo(second)).map((m) => expectTextAndHtml(m, /Parts night/)).length).toBe(2);
  });

  it("a paid order's tickets", async () => {
    const event = await createEvent(admin.api, { title: 'Paid parts', priceCents: 1500, capacity: 10 });
    const email = uniqueEmail('parts-buyer');
    const res = await signUp(srv, event.id, { email, quantity: 1 });
    expect(res.status).toBe(201);
    expect((await anon().post(`/payments/local/${paymentIdOf(res.body.paymentUrl)}/pay`)).status).toBe(202);
    await srv.server.ctx.jobs.idle();
    const mails = await deliveredTo(email);
    expect(mails.map(subjectOf)).toEqual(['Your ticket: Paid parts']);
    expectTextAndHtml(mails[0]!, /Paid parts/);
  });

  it('accounts: an invitation, a new-password link, a password reset', async () => {
    const email = uniqueEmail('parts-user');
    const invited = await admin.api.post('/users/invite', { email, role: 'host' });
    expect(invited.status).toBe(201);
    const other = uniqueEmail('parts-reset');
    expect((await admin.api.post('/users', { email: other, role: 'host', password: 'long enough password' })).status).toBe(201);
    const users = await admin.api.get(`/users?search=${encodeURIComponent(other)}`);
    const otherId = (users.body as Array<{ id: number; email: string }>).find((u) => u.email === other)?.id;
    expect((await admin.api.post(`/users/${otherId}/invite`)).status).toBeLessThan(300);
    // sent before the reset replaces its link (a replaced link's queued mail is withdrawn)
    expect(await deliveredTo(other)).toHaveLength(1);
    expect((await anon().post('/auth/password-reset', { email: other })).status).toBeLessThan(300);
    const [invitation] = await deliveredTo(email);
    const { html } = expectTextAndHtml(invitation!, /invited you to svc/);
    expect(html).toMatch(new RegExp(`<a href="${PUBLIC_URL}/invite/[A-Za-z0-9_-]+">`));
    const mails = await deliveredTo(other);
    expect(mails.map(subjectOf)).toEqual(['Set a new password for svc', 'Reset your svc password']);
    for (const mail of mails) expectTextAndHtml(mail, /password/);
  });

  it('event proposals: received, then published', async () => {
    const body = proposal(srv, { title: 'Proposed parts' });
    const submitted = await submitProposal(srv, body);
    expect(submitted.status).toBe(201);
    expect((await admin.api.post(`/events/submissions/${submitted.body.id}/publish`)).status).toBe(200);
    const mails = await deliveredTo(body.submitterEmail as string);
    expect(mails.map(subjectOf)).toEqual(['We received your event proposal: Proposed parts', 'Your event is published: Proposed parts']);
    for (const mail of mails) expectTextAndHtml(mail, /Proposed parts/);
  });

  it('no mail in the outbox lacks its HTML part', async () => {
    const [{ n }] = await queryRows<{ n: number }>(srv.server.ctx.db, sql`select count(*)::int as n from svc_outbox where html is null or html = ''`);
    const [{ all }] = await queryRows<{ all: number }>(srv.server.ctx.db, sql`select count(*)::int as all from svc_outbox`);
    expect(all).toBeGreaterThan(10);
    expect(n).toBe(0);
  });
});
