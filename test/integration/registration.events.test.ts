import { beforeEach, describe, expect, it } from 'vitest';
import superjson from 'superjson';
import { useTestServer } from '../helpers/test-server';
import { apiClient } from '../helpers/http';
import { orders } from '../../server/modules/orders/payments.sql';
import { createEvent, nonce, resetThrottles, signUp, agedFormToken, attendeeRows } from '../helpers/registration';

const { server: srv, admin } = useTestServer({ env: { SVC_JOBS: 'off' } });
beforeEach(() => resetThrottles(srv));

describe('events REST (docs/api.md#rest shapes)', () => {
  it('POST creates with the documented defaults and answers 201', async () => {
    const res = await admin.api.post('/events', { title: 'Defaults', startsUtc: '2099-01-01 10:00:00' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      title: 'Defaults',
      description: '',
      startsUtc: '2099-01-01 10:00:00',
      endsUtc: null,
      timezone: 'UTC',
      language: null,
      venue: '',
      venueAddress: '',
      venueLat: null,
      venueLon: null,
      capacity: null,
      maxPerSignup: 10,
      signupOpensUtc: null,
      signupClosesUtc: null,
      waitlist: true,
      waitlistPromotion: 'manual',
      status: 'draft',
      priceCents: 0,
      currency: 'USD',
      reminderMinutes: 1440,
      placesLeft: null,
      seatsTaken: 0,
      signupState: 'open',
      image: null,
      createdUtc: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      updatedUtc: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
  });

  it('bad input is 400 naming each field', async () => {
    const res = await admin.api.post('/events', {
      title: '',
      startsUtc: '2099-01-01T10:00:00Z',
      timezone: 'Mars/Base',
      capacity: 0,
      status: 'live',
      maxPerSignup: 'ten',
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.data.params).sort()).toEqual(['capacity', 'maxPerSignup', 'startsUtc', 'status', 'timezone', 'title']);
    const ends = await admin.api.post('/events', { title: 'x', startsUtc: '2099-01-02 10:00:00', endsUtc: '2099-01-01 10:00:00' });
    expect(ends.body.data.params).toHaveProperty('endsUtc');
  });

  it('the public sees published events only; a draft is 404 to them and visible to administrators', async () => {
    const published = await createEvent(admin.api, { title: 'Public one' });
    const draft = await createEvent(admin.api, { title: 'Secret draft', status: 'draft' });
    const pub = apiClient(srv.url);
    const list = await pub.get('/events?perPage=500');
    expect(list.body.map((e: any) => e.id)).toContain(published.id);
    expect(list.body.map((e: any) => e.id)).not.toContain(draft.id);
    expect(Number(list.headers.get('x-total-count'))).toBe(list.body.length);
    expect((await pub.get(`/events/${draft.id}`)).status).toBe(404);
    expect((await pub.get(`/events?status=draft`)).body.map((e: any) => e.id)).not.toContain(draft.id);
    expect((await admin.api.get(`/events/${draft.id}`)).status).toBe(200);
    expect((await admin.api.get('/events?status=draft&perPage=500')).body.map((e: any) => e.id)).toContain(draft.id);
  });

  it('PATCH updates, DELETE removes; an event with attendees is 409 on delete', async () => {
    const event = await createEvent(admin.api);
    const patched = await admin.api.patch(`/events/${event.id}`, { capacity: 5, waitlist: false });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ capacity: 5, waitlist: false, title: 'Spring meetup' });
    await signUp(srv, event.id);
    const refused = await admin.api.delete(`/events/${event.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('svc_conflict');
    const empty = await createEvent(admin.api);
    expect((await admin.api.delete(`/events/${empty.id}`)).status).toBe(204);
    expect((await admin.api.get(`/events/${empty.id}`)).status).toBe(404);
  });

  it('writes are administrator-only: 401 anonymous, 403 staff', async () => {
    expect((await apiClient(srv.url).post('/events', { title: 'x', startsUtc: '2099-01-01 10:00:00' })).status).toBe(401);
    const token = (await admin.api.post('/auth/tokens', { name: 'door', role: 'staff' })).body.token;
    const staff = apiClient(srv.url, { bearer: token });
    expect((await staff.post('/events', { title: 'x', startsUtc: '2099-01-01 10:00:00' })).status).toBe(403);
    expect((await staff.patch('/events/1', { title: 'x' })).status).toBe(403);
    expect((await staff.delete('/events/1')).status).toBe(403);
  });
});

describe('what a visitor decides on (docs/api.md#rest "Event")', () => {
  const pub = () => apiClient(srv.url);

  it('places left: capacity minus seats going, never below 0; null when unlimited; no attendee data in the answer', async () => {
    const event = await createEvent(admin.api, { capacity: 5, priceCents: 4500 });
    const unlimited = await createEvent(admin.api);
    await signUp(srv, event.id, { quantity: 2 });
    const cancelled = await signUp(srv, event.id, { quantity: 1 });
    await admin.api.patch(`/attendees/${cancelled.body.id}`, { status: 'cancelled' });
    const one = await pub().get(`/events/${event.id}`);
    expect(one.body).toMatchObject({ priceCents: 4500, currency: 'USD', placesLeft: 3, signupState: 'open' });
    const text = JSON.stringify(one.body);
    expect(text).not.toContain('@example');
    expect(text).not.toContain('Ada Lovelace');
    expect(Object.keys(one.body)).not.toEqual(expect.arrayContaining(['attendees']));
    expect((await pub().get(`/events/${unlimited.id}`)).body.placesLeft).toBeNull();
    const list = await pub().get('/events?perPage=500');
    const listed = list.body.find((e: any) => e.id === event.id);
    expect(listed).toMatchObject({ placesLeft: 3, signupState: 'open' });
    // capacity lowered under the seats taken: 0 left, not negative
    await admin.api.patch(`/events/${event.id}`, { capacity: 1 });
    expect((await pub().get(`/events/${event.id}`)).body).toMatchObject({ placesLeft: 0, signupState: 'full_waitlist' });
  });

  it('unpaid orders hold seats like the sign-up counts them', async () => {
    const event = await createEvent(admin.api, { capacity: 4 });
    await srv.server.ctx.db.insert(orders).values({
      eventId: event.id,
      lines: [],
      email: 'buyer@example.com',
      name: 'Buyer',
      quantity: 3,
      amountCents: 0,
      currency: 'USD',
      status: 'pending_payment',
      source: 'checkout',
    });
    expect((await pub().get(`/events/${event.id}`)).body.placesLeft).toBe(1);
  });

  it('a full event answers full_waitlist with a waitlist and full without', async () => {
    const withList = await createEvent(admin.api, { capacity: 2, waitlist: true });
    const withoutList = await createEvent(admin.api, { capacity: 2, waitlist: false });
    await signUp(srv, withList.id, { quantity: 2 });
    await signUp(srv, withoutList.id, { quantity: 2 });
    expect((await pub().get(`/events/${withList.id}`)).body).toMatchObject({ placesLeft: 0, signupState: 'full_waitlist' });
    expect((await pub().get(`/events/${withoutList.id}`)).body).toMatchObject({ placesLeft: 0, signupState: 'full' });
    // a waitlisted sign-up takes no seat
    expect((await signUp(srv, withList.id)).body.status).toBe('waitlist');
    expect((await pub().get(`/events/${withList.id}`)).body.placesLeft).toBe(0);
  });

  it('the window comes first: closed after signupClosesUtc (or the start), not_yet_open before signupOpensUtc', async () => {
    const closed = await createEvent(admin.api, { capacity: 3, signupClosesUtc: '2000-01-01 00:00:00' });
    const started = await createEvent(admin.api, { startsUtc: '2000-01-01 00:00:00' });
    const later = await createEvent(admin.api, { signupOpensUtc: '2098-01-01 00:00:00' });
    expect((await pub().get(`/events/${closed.id}`)).body).toMatchObject({ signupState: 'closed', placesLeft: 3 });
    expect((await pub().get(`/events/${started.id}`)).body.signupState).toBe('closed');
    expect((await pub().get(`/events/${later.id}`)).body.signupState).toBe('not_yet_open');
  });
});

describe('tRPC procedures for the PWA', () => {
  async function trpcQuery(path: string, input: unknown) {
    const res = await fetch(`${srv.url}/trpc/${path}?input=${encodeURIComponent(JSON.stringify(superjson.serialize(input)))}`);
    return { status: res.status, body: (await res.json()) as any };
  }
  async function trpcMutation(path: string, input: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${srv.url}/trpc/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(superjson.serialize(input)),
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  it('events.list / events.get / attendees.form answer like REST', async () => {
    const event = await createEvent(admin.api, { title: 'Via tRPC' });
    const list = await trpcQuery('events.list', { perPage: 500 });
    expect(list.body.result.data.json.items.map((e: any) => e.id)).toContain(event.id);
    expect((await trpcQuery('events.get', { id: event.id })).body.result.data.json.title).toBe('Via tRPC');
    expect((await trpcQuery('attendees.form', { id: event.id })).body.result.data.json).toEqual({ html: '', formToken: expect.any(String) });
  });

  it('attendees.signup requires X-Svc-Nonce and runs the same rules', async () => {
    const event = await createEvent(admin.api, { capacity: 1, waitlist: false });
    const fields = { email: 'trpc@example.test', display_name: 'T', svc_ts: agedFormToken(srv, event.id) };
    const noNonce = await trpcMutation('attendees.signup', { id: event.id, fields });
    expect(noNonce.body.error.json.data.svcCode).toBe('svc_invalid_nonce');
    const ok = await trpcMutation('attendees.signup', { id: event.id, fields }, { 'x-svc-nonce': await nonce(srv) });
    expect(ok.body.result.data.json).toEqual({
      id: expect.any(Number),
      status: 'going',
      ticketCode: expect.any(String),
      calendarUid: expect.stringMatching(/^attendee-\d+-/),
      ticketPdfToken: expect.any(String),
      walletAvailable: false,
    });
    const full = await trpcMutation(
      'attendees.signup',
      { id: event.id, fields: { ...fields, email: 'trpc2@example.test' } },
      { 'x-svc-nonce': await nonce(srv) },
    );
    expect(full.body.error.json.data.svcCode).toBe('svc_event_full');
    const bad = await trpcMutation('attendees.signup', { id: event.id, fields: { ...fields, quantity: 0 } }, { 'x-svc-nonce': await nonce(srv) });
    expect(bad.body.error.json.data.params).toHaveProperty('quantity');
  });

  it('attendees.cancelPreview and attendees.cancel use the cancel token', async () => {
    const event = await createEvent(admin.api);
    await signUp(srv, event.id, { display_name: 'Cancel Me' });
    const token = (await attendeeRows(srv, event.id))[0].cancel_token;
    expect((await trpcQuery('attendees.cancelPreview', { token })).body.result.data.json.displayName).toBe('Cancel Me');
    const origin = new URL(srv.url).origin;
    expect((await trpcMutation('attendees.cancel', { token }, { origin })).body.result.data.json.status).toBe('cancelled');
    expect((await trpcMutation('attendees.cancel', { token }, { origin })).body.error.json.data.svcCode).toBe('svc_already_cancelled');
  });
});
