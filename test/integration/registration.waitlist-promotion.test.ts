/**
 * Waitlist promotion (docs/decisions/045-waitlist-promotion.md): in an event whose waitlist moves
 * up by itself (`waitlistPromotion: 'auto'`), freed seats go to the oldest waitlisted parties that
 * fit, whole, in the transaction that frees them; each is mailed its ticket once, in its own
 * language, and `svc_attendee_status_changed` (id, 'going', 'waitlist') fires once per row, no
 * other action for it. In `manual` mode (the default) nobody moves until an administrator does.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../server/db/client';
import { translator } from '../../server/i18n/translate';
import { useTestServer } from '../helpers/test-server';
import { apiClient } from '../helpers/http';
import { storedMails } from '../helpers/mail';
import { attendeeRows, createEvent, resetThrottles, signUp, uniqueEmail } from '../helpers/registration';

const { server: srv, admin } = useTestServer({ env: { SVC_JOBS: 'off' } });
beforeEach(() => resetThrottles(srv));

const ACTIONS = ['svc_rsvp_cancelled', 'svc_attendee_status_changed', 'svc_attendee_updated', 'svc_rsvp_submitted', 'svc_attendee_deleted'];

/** Records every call of the attendee actions while `run` runs, as [name, ...args]. */
async function recordingActions(run: () => Promise<unknown>): Promise<unknown[][]> {
  const calls: unknown[][] = [];
  const hooks = srv.server.ctx.hooks as any;
  const callbacks = ACTIONS.map((name) => {
    const cb = (...args: unknown[]) => void calls.push([name, ...args]);
    hooks.addAction(name, cb, 50, 3);
    return [name, cb] as const;
  });
  try {
    await run();
  } finally {
    for (const [name, cb] of callbacks) hooks.removeAction(name, cb, 50);
  }
  return calls;
}

/** Signs up `quantity` seats; answers the row's id, status, email and cancel token. */
async function party(eventId: number, quantity: number, headers: Record<string, string> = {}) {
  const email = uniqueEmail('party');
  const res = await signUp(srv, eventId, { email, quantity }, { headers });
  expect(res.status).toBe(201);
  const [row] = await queryRows<{ cancel_token: string }>(srv.server.ctx.db, sql`select cancel_token from svc_attendees where id = ${res.body.id}`);
  return { id: res.body.id as number, status: res.body.status as string, email, token: row!.cancel_token };
}

const statusOf = async (eventId: number) => Object.fromEntries((await attendeeRows(srv, eventId)).map((r) => [r.id, r.status]));

/** The ticket mails (not the waitlist notice) written for an address. */
async function ticketMails(email: string) {
  return (await storedMails(srv.server.ctx.db, email)).filter((m) => !/waitlist|Warteliste/i.test(m.subject));
}

describe('waitlist promotion, auto', () => {
  it('a visitor cancel gives the seats to the oldest waitlisted party that fits, skipping one too big, with one ticket mail in the person’s language', async () => {
    const event = await createEvent(admin.api, { title: 'Promoted', capacity: 3, waitlistPromotion: 'auto' });
    expect(event.waitlistPromotion).toBe('auto');
    const a = await party(event.id, 2);
    const b = await party(event.id, 1);
    const tooBig = await party(event.id, 3);
    const german = await party(event.id, 2, { 'accept-language': 'de' });
    const behind = await party(event.id, 1);
    expect([a.status, b.status, tooBig.status, german.status, behind.status]).toEqual(['going', 'going', 'waitlist', 'waitlist', 'waitlist']);

    const calls = await recordingActions(async () => expect((await apiClient(srv.url).post(`/attendees/cancel/${a.token}`)).status).toBe(200));

    // 2 seats freed: the party of 3 does not fit and is skipped; the party of 2 behind it takes both
    expect(await statusOf(event.id)).toEqual({ [a.id]: 'cancelled', [b.id]: 'going', [tooBig.id]: 'waitlist', [german.id]: 'going', [behind.id]: 'waitlist' });
    expect(calls).toEqual([
      ['svc_rsvp_cancelled', a.id],
      ['svc_attendee_status_changed', german.id, 'going', 'waitlist'],
    ]);
    const mails = await ticketMails(german.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(translator('de')('mail.signup.subjectRegistered', { title: 'Promoted' }));
    expect(mails[0]!.text).toContain(german.token);
    expect(await ticketMails(tooBig.email)).toEqual([]);
    expect(await ticketMails(behind.email)).toEqual([]);
  });

  it('a capacity raise moves up whole parties in sign-up order, firing svc_attendee_status_changed once per promoted row', async () => {
    const event = await createEvent(admin.api, { capacity: 1, waitlistPromotion: 'auto' });
    const first = await party(event.id, 1);
    const two = await party(event.id, 2);
    const one = await party(event.id, 1);
    const last = await party(event.id, 1);
    expect([first.status, two.status, one.status, last.status]).toEqual(['going', 'waitlist', 'waitlist', 'waitlist']);

    const calls = await recordingActions(async () => expect((await admin.api.patch(`/events/${event.id}`, { capacity: 4 })).status).toBe(200));

    expect(await statusOf(event.id)).toEqual({ [first.id]: 'going', [two.id]: 'going', [one.id]: 'going', [last.id]: 'waitlist' });
    expect(calls).toEqual([
      ['svc_attendee_status_changed', two.id, 'going', 'waitlist'],
      ['svc_attendee_status_changed', one.id, 'going', 'waitlist'],
    ]);
    expect(await ticketMails(two.email)).toHaveLength(1);
    expect(await ticketMails(one.email)).toHaveLength(1);
    expect(await ticketMails(last.email)).toEqual([]);
    const seats = await admin.api.get(`/events/${event.id}`);
    expect(seats.body.placesLeft).toBe(0);
  });

  it('an administrator lowering a quantity or putting a going attendee on the waitlist moves the next party up, never that row straight back', async () => {
    const event = await createEvent(admin.api, { capacity: 3, waitlistPromotion: 'auto' });
    const big = await party(event.id, 3);
    const waiting = await party(event.id, 1);
    const next = await party(event.id, 2);

    const lowered = await recordingActions(async () => expect((await admin.api.patch(`/attendees/${big.id}`, { quantity: 2 })).status).toBe(200));
    expect(await statusOf(event.id)).toEqual({ [big.id]: 'going', [waiting.id]: 'going', [next.id]: 'waitlist' });
    expect(lowered).toEqual([
      ['svc_attendee_updated', big.id, { quantity: { from: 3, to: 2 } }],
      ['svc_attendee_status_changed', waiting.id, 'going', 'waitlist'],
    ]);

    const moved = await recordingActions(async () => expect((await admin.api.patch(`/attendees/${big.id}`, { status: 'waitlist' })).status).toBe(200));
    expect(await statusOf(event.id)).toEqual({ [big.id]: 'waitlist', [waiting.id]: 'going', [next.id]: 'going' });
    expect(moved).toEqual([
      ['svc_attendee_updated', big.id, {}],
      ['svc_attendee_status_changed', big.id, 'waitlist', 'going'],
      ['svc_attendee_status_changed', next.id, 'going', 'waitlist'],
    ]);
  });

  it('an administrator lowering a waitlisted party’s quantity so it fits moves it up in the same save', async () => {
    const event = await createEvent(admin.api, { capacity: 2, waitlistPromotion: 'auto' });
    const going = await party(event.id, 1);
    const waiting = await party(event.id, 3);
    expect(waiting.status).toBe('waitlist');
    const calls = await recordingActions(async () => expect((await admin.api.patch(`/attendees/${waiting.id}`, { quantity: 1 })).status).toBe(200));
    expect(calls).toEqual([
      ['svc_attendee_updated', waiting.id, { quantity: { from: 3, to: 1 } }],
      ['svc_attendee_status_changed', waiting.id, 'going', 'waitlist'],
    ]);
    expect(await statusOf(event.id)).toEqual({ [going.id]: 'going', [waiting.id]: 'going' });
  });

  it('a promotion never fills an event beyond its capacity: with no seat freed, nobody moves', async () => {
    const event = await createEvent(admin.api, { capacity: 2, waitlistPromotion: 'auto' });
    const going = await party(event.id, 2);
    const waiting = await party(event.id, 1);
    const calls = await recordingActions(async () => expect((await admin.api.patch(`/attendees/${going.id}`, { displayName: 'Renamed' })).status).toBe(200));
    expect(calls).toEqual([['svc_attendee_updated', going.id, { display_name: { from: 'Ada Lovelace', to: 'Renamed' } }]]);
    expect(await statusOf(event.id)).toEqual({ [going.id]: 'going', [waiting.id]: 'waitlist' });
  });
});

describe('waitlist promotion, manual', () => {
  it('is the default: a cancel moves nobody up until the administrator moves the party, which mails the ticket once', async () => {
    const event = await createEvent(admin.api, { capacity: 1 });
    expect(event.waitlistPromotion).toBe('manual');
    const going = await party(event.id, 1);
    const waiting = await party(event.id, 1);

    const cancelled = await recordingActions(async () => expect((await apiClient(srv.url).post(`/attendees/cancel/${going.token}`)).status).toBe(200));
    expect(cancelled).toEqual([['svc_rsvp_cancelled', going.id]]);
    const raised = await recordingActions(async () => expect((await admin.api.patch(`/events/${event.id}`, { capacity: 5 })).status).toBe(200));
    expect(raised).toEqual([]);
    expect(await statusOf(event.id)).toEqual({ [going.id]: 'cancelled', [waiting.id]: 'waitlist' });
    expect(await ticketMails(waiting.email)).toEqual([]);

    const acted = await recordingActions(async () => expect((await admin.api.patch(`/attendees/${waiting.id}`, { status: 'going' })).status).toBe(200));
    expect(acted).toEqual([
      ['svc_attendee_updated', waiting.id, {}],
      ['svc_attendee_status_changed', waiting.id, 'going', 'waitlist'],
    ]);
    expect(await statusOf(event.id)).toEqual({ [going.id]: 'cancelled', [waiting.id]: 'going' });
    expect(await ticketMails(waiting.email)).toHaveLength(1);
  });

  it('switching an event to auto gives its free seats to the waitlist at once', async () => {
    const event = await createEvent(admin.api, { capacity: 1 });
    const going = await party(event.id, 1);
    const waiting = await party(event.id, 1);
    await apiClient(srv.url).post(`/attendees/cancel/${going.token}`);
    expect(await statusOf(event.id)).toEqual({ [going.id]: 'cancelled', [waiting.id]: 'waitlist' });

    const calls = await recordingActions(async () => expect((await admin.api.patch(`/events/${event.id}`, { waitlistPromotion: 'auto' })).status).toBe(200));
    expect(calls).toEqual([['svc_attendee_status_changed', waiting.id, 'going', 'waitlist']]);
    expect(await statusOf(event.id)).toEqual({ [going.id]: 'cancelled', [waiting.id]: 'going' });
  });

  it('an unknown mode is refused naming the field', async () => {
    const res = await admin.api.post('/events', { title: 'Bad', startsUtc: '2099-05-01 18:00:00', waitlistPromotion: 'sometimes' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('waitlistPromotion');
  });
});
