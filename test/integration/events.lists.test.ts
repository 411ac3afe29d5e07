/**
 * The events list's filters and the duplicate (docs/api.md#rest, "Admin lists and figures"):
 * `when` (upcoming / past by the end, or the start without one), `q` on the title, the admin's
 * `seatsTaken`, and `POST /events/{id}/duplicate` — a draft copy with the settings, sign-up
 * questions and ticket categories, made through the create's path, REST and tRPC alike.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../server/db/client';
import { HOOK_KINDS } from '../../server/hooks/catalogue';
import { useTestServer } from '../helpers/test-server';
import { apiClient, loginAs } from '../helpers/http';
import { attendeeRows, createEvent, resetThrottles, signUp } from '../helpers/registration';

const { server: srv, admin, db, hooks } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off' } });
beforeEach(() => resetThrottles(srv));

let counter = 0;
/** A word no other test's title holds, so `q` isolates this test's events in the shared database. */
const token = () => `zq${Date.now().toString(36)}${(counter += 1)}`;
const hoursFromNow = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
const ids = (body: any[]) => body.map((e) => e.id);

async function reminderJobs(eventId: number): Promise<{ state: string }[]> {
  return queryRows(db(), sql`select state from svc_jobs where type = 'event.reminder' and payload->>'eventId' = ${String(eventId)} order by id`);
}

/** How often each action of the catalogue has fired so far. */
function actionCounts(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [name, kind] of Object.entries(HOOK_KINDS)) if (kind === 'action') counts[name] = hooks().didAction(name as never);
  return counts;
}
const firedBetween = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(Object.keys(after).flatMap((name) => (after[name]! > before[name]! ? [[name, after[name]! - before[name]!]] : [])));

async function staffSession() {
  const email = `staff-${token()}@example.test`;
  expect((await admin.api.post('/users', { email, role: 'staff', password: 'long enough password', eventIds: [] })).status).toBe(201);
  return loginAs(srv.url, email, 'long enough password');
}

describe('GET /events: when and q', () => {
  it('upcoming holds events not over yet (one that started and has not ended too), soonest first; past the ended ones, latest first', async () => {
    const word = token();
    const later = await createEvent(admin.api, { title: `${word} later`, startsUtc: hoursFromNow(72) });
    const soon = await createEvent(admin.api, { title: `${word} soon`, startsUtc: hoursFromNow(24) });
    const running = await createEvent(admin.api, { title: `${word} running`, startsUtc: hoursFromNow(-2), endsUtc: hoursFromNow(2) });
    const ended = await createEvent(admin.api, { title: `${word} ended`, startsUtc: hoursFromNow(-5), endsUtc: hoursFromNow(-3) });
    const older = await createEvent(admin.api, { title: `${word} older`, startsUtc: hoursFromNow(-48) });
    await createEvent(admin.api, { title: `${word} draft`, startsUtc: hoursFromNow(5), status: 'draft' });
    const pub = apiClient(srv.url);

    const upcoming = await pub.get(`/events?when=upcoming&q=${word}`);
    expect(ids(upcoming.body)).toEqual([running.id, soon.id, later.id]);
    expect(Number(upcoming.headers.get('x-total-count'))).toBe(3);
    expect(ids((await pub.get(`/events?when=past&q=${word}`)).body)).toEqual([ended.id, older.id]);
    expect((await pub.get(`/events?q=${word}`)).body).toHaveLength(5);
    // administrators see the draft in its place
    expect((await admin.api.get(`/events?when=upcoming&q=${word}`)).body.map((e: any) => e.title)).toEqual([
      `${word} running`,
      `${word} draft`,
      `${word} soon`,
      `${word} later`,
    ]);
  });

  it('q matches part of the title in any case, and % and _ are letters, not wildcards', async () => {
    const word = token();
    const plain = await createEvent(admin.api, { title: `Jazz ${word} Night` });
    const percent = await createEvent(admin.api, { title: `${word} 100% fun` });
    const pub = apiClient(srv.url);
    expect(ids((await pub.get(`/events?q=${encodeURIComponent(`jAZZ ${word.toUpperCase()}`)}`)).body)).toEqual([plain.id]);
    expect(ids((await pub.get(`/events?q=${encodeURIComponent(`${word} 100%`)}`)).body)).toEqual([percent.id]);
    expect((await pub.get(`/events?q=${encodeURIComponent(`${word}%fun`)}`)).body).toEqual([]);
    expect((await pub.get(`/events?q=${encodeURIComponent(`${word}_100`)}`)).body).toEqual([]);
  });

  it('an unknown when is 400 naming it', async () => {
    const res = await apiClient(srv.url).get('/events?when=soon');
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.data.params)).toEqual(['when']);
  });

  it('administrators read the seats taken of each event; the public does not', async () => {
    const word = token();
    const event = await createEvent(admin.api, { title: word, capacity: 40 });
    expect((await signUp(srv, event.id, { quantity: 3 })).status).toBe(201);
    const [row] = (await admin.api.get(`/events?q=${word}`)).body;
    expect(row).toMatchObject({ seatsTaken: 3, capacity: 40, placesLeft: 37 });
    expect((await admin.api.get(`/events/${event.id}`)).body.seatsTaken).toBe(3);
    const [pub] = (await apiClient(srv.url).get(`/events?q=${word}`)).body;
    expect(pub).not.toHaveProperty('seatsTaken');
    expect(pub.placesLeft).toBe(37);
  });
});

describe('POST /events/{id}/duplicate', () => {
  it('answers 201 with a draft "<title> (copy)" holding the settings, questions and ticket categories, without attendees', async () => {
    const fields = [
      { key: 'diet', label: 'Diet', type: 'select', options: ['Vegan', 'Any'], required: false },
      { key: 'note', label: 'Note', type: 'text' },
    ];
    const source = await createEvent(admin.api, {
      title: 'Harvest dinner',
      description: 'Long tables.',
      startsUtc: '2099-09-01 18:00:00',
      endsUtc: '2099-09-01 22:00:00',
      timezone: 'Europe/Berlin',
      language: 'de',
      venue: 'Barn',
      capacity: 40,
      maxPerSignup: 4,
      signupOpensUtc: '2099-08-01 00:00:00',
      signupClosesUtc: '2099-09-01 12:00:00',
      waitlist: false,
      reminderMinutes: 90,
      fields,
      chatWebhookUrl: 'https://chat.example.com/hook',
    });
    const early = (await admin.api.post(`/events/${source.id}/ticket-categories`, { name: 'Early', quota: 10, position: 1, maxPerOrder: 2 })).body;
    const regular = (await admin.api.post(`/events/${source.id}/ticket-categories`, { name: 'Regular', description: 'At the door', position: 2, hidden: true }))
      .body;
    await admin.api.patch(`/events/${source.id}`, { signupOpensUtc: null });
    expect((await signUp(srv, source.id, { tickets: [{ categoryId: early.id, quantity: 2 }] })).status).toBe(201);

    const res = await admin.api.post(`/events/${source.id}/duplicate`);
    expect(res.status).toBe(201);
    const copy = res.body;
    const {
      id: _id,
      createdUtc: _c,
      updatedUtc: _u,
      title: _t,
      status: _s,
      placesLeft: _p,
      seatsTaken: _st,
      signupState: _ss,
      ...settings
    } = (await admin.api.get(`/events/${source.id}`)).body;
    expect(copy).toMatchObject({ ...settings, title: 'Harvest dinner (copy)', status: 'draft', seatsTaken: 0, placesLeft: 40, fields });
    expect(copy.id).not.toBe(source.id);
    expect((await admin.api.get(`/events/${copy.id}`)).body).toMatchObject({ title: 'Harvest dinner (copy)', status: 'draft' });

    const strip = (c: any) => {
      const { id: _i, eventId: _e, soldCount: _sc, createdUtc: _cu, updatedUtc: _uu, ...rest } = c;
      return rest;
    };
    const copied = (await admin.api.get(`/events/${copy.id}/ticket-categories`)).body;
    expect(copied.map(strip)).toEqual([early, regular].map(strip));
    expect(copied.map((c: any) => c.soldCount)).toEqual([0, 0]);
    expect(copied.every((c: any) => c.eventId === copy.id && ![early.id, regular.id].includes(c.id))).toBe(true);

    expect(await attendeeRows(srv, copy.id)).toEqual([]);
    expect(await attendeeRows(srv, source.id)).toHaveLength(1);
    // the source is left as it was
    expect((await admin.api.get(`/events/${source.id}/ticket-categories`)).body.map((c: any) => c.soldCount)).toEqual([2, 0]);
  });

  it('fires what a create fires and nothing else: no action hook, and its reminder planned once it is published', async () => {
    const beforeCreate = actionCounts();
    const created = await createEvent(admin.api, { title: 'Quiz night', startsUtc: '2099-03-01 19:00:00', status: 'draft', reminderMinutes: 60 });
    const byCreate = firedBetween(beforeCreate, actionCounts());

    await admin.api.patch(`/events/${created.id}`, { status: 'published' });
    expect(await reminderJobs(created.id)).toEqual([{ state: 'queued' }]);

    const beforeCopy = actionCounts();
    const copy = (await admin.api.post(`/events/${created.id}/duplicate`)).body;
    expect(firedBetween(beforeCopy, actionCounts())).toEqual(byCreate);
    // a draft, as a created draft: no reminder until it is published, then one at its own lead
    expect(await reminderJobs(copy.id)).toEqual([]);
    await admin.api.patch(`/events/${copy.id}`, { status: 'published' });
    expect(await reminderJobs(copy.id)).toEqual([{ state: 'queued' }]);
    expect(await reminderJobs(created.id)).toEqual([{ state: 'queued' }]);
  });

  it('a copy of a title at the longest allowed keeps within it, cut between characters, and can be saved again', async () => {
    const title = `${'a'.repeat(182)}🎉🎉🎉🎉`; // 190 UTF-16 units, an emoji across the cut
    const source = await createEvent(admin.api, { title });
    const copy = (await admin.api.post(`/events/${source.id}/duplicate`)).body;
    expect(copy.title).toBe(`${'a'.repeat(182)} (copy)`);
    expect((await admin.api.patch(`/events/${copy.id}`, { title: copy.title })).status).toBe(200);
  });

  it('an unknown event is 404; staff are 403 and nobody signed in 401, and nothing is copied', async () => {
    const unknown = await admin.api.post('/events/999999/duplicate');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('svc_not_found');

    const word = token();
    const source = await createEvent(admin.api, { title: word });
    const staff = await staffSession();
    const refused = await staff.api.post(`/events/${source.id}/duplicate`);
    expect(refused.status).toBe(403);
    expect((await apiClient(srv.url).post(`/events/${source.id}/duplicate`)).status).toBe(401);
    expect((await admin.api.get(`/events?q=${word}`)).body).toHaveLength(1);
  });

  it('is the same operation over tRPC (events.duplicate) and in the OpenAPI document', async () => {
    const source = await createEvent(admin.api, { title: 'Board games' });
    const res = await fetch(`${srv.url}/trpc/events.duplicate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: admin.cookie, origin: new URL(srv.url).origin },
      body: JSON.stringify({ json: { id: source.id } }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).result.data.json).toMatchObject({ title: 'Board games (copy)', status: 'draft' });

    const doc = (await apiClient(srv.url).get('/openapi.json')).body;
    expect(Object.keys(doc.paths['/events/{id}/duplicate'].post.responses)).toEqual(expect.arrayContaining(['201', '404']));
  });
});
