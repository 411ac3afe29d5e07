import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { AppError } from '../../shared/errors';
import { useTestServer } from '../helpers/test-server';
import { apiClient } from '../helpers/http';
import { attendeeRows, createEvent, resetThrottles, signUp } from '../helpers/registration';

const { server: srv, admin } = useTestServer({ env: { SVC_JOBS: 'off' } });
beforeEach(() => resetThrottles(srv));

/** Records every call of the given actions, in order, as [name, ...args]. */
function recordActions(names: string[]) {
  const calls: unknown[][] = [];
  const hooks = srv.server.ctx.hooks as any;
  const callbacks = names.map((name) => {
    const cb = (...args: unknown[]) => void calls.push([name, ...args]);
    hooks.addAction(name, cb, 50, 3);
    return [name, cb] as const;
  });
  return {
    calls,
    stop: () => {
      for (const [name, cb] of callbacks) hooks.removeAction(name, cb, 50);
    },
  };
}

async function withFilter<T>(name: string, cb: (...args: any[]) => unknown, acceptedArgs: number, run: () => Promise<T>, priority = 50): Promise<T> {
  const hooks = srv.server.ctx.hooks as any;
  hooks.addFilter(name, cb, priority, acceptedArgs);
  try {
    return await run();
  } finally {
    hooks.removeFilter(name, cb, priority);
  }
}

describe('svc_rsvp_custom_fields', () => {
  it('with no callback nothing is stored, whatever svc_cf_ inputs arrive', async () => {
    const event = await createEvent(admin.api);
    const res = await signUp(srv, event.id, { svc_cf_diet: 'vegan' });
    expect(res.status).toBe(201);
    expect((await attendeeRows(srv, event.id))[0].custom_fields).toBeNull();
  });

  it('receives ({}, sanitized svc_cf_ inputs without the prefix, event id); other inputs never reach it', async () => {
    const event = await createEvent(admin.api);
    const args: unknown[][] = [];
    await withFilter(
      'svc_rsvp_custom_fields',
      (fields, raw, id) => (args.push([fields, raw, id]), fields),
      3,
      () => signUp(srv, event.id, { svc_cf_Diet: ' <b>vegan</b>\n please ', 'svc_cf_to pics': ['a', '<i>b</i>'], other_input: 'x', svc_cf_: 'nokey' }),
    );
    expect(args).toEqual([[{}, { diet: 'vegan please', topics: ['a', 'b'] }, event.id]]);
  });

  it('form-encoded arrays (svc_cf_key[]) arrive as arrays of strings', async () => {
    const event = await createEvent(admin.api);
    const raws: unknown[] = [];
    await withFilter(
      'svc_rsvp_custom_fields',
      (fields, raw) => (raws.push(raw), fields),
      2,
      () => signUp(srv, event.id, { svc_cf_topics: ['a', 'b'] }, { form: true }),
    );
    expect(raws).toEqual([{ topics: ['a', 'b'] }]);
  });

  it('returned answers are stored as JSON and read back as customFields', async () => {
    const event = await createEvent(admin.api);
    const res = await withFilter(
      'svc_rsvp_custom_fields',
      (fields, raw) => ({ ...fields, ...raw, n: 3, ok: true }),
      2,
      () => signUp(srv, event.id, { svc_cf_diet: 'vegan' }),
    );
    const [row] = await attendeeRows(srv, event.id);
    expect(JSON.parse(row.custom_fields)).toEqual({ diet: 'vegan', n: 3, ok: true });
    expect((await admin.api.get(`/attendees/${res.body.id}`)).body.customFields).toEqual({ diet: 'vegan', n: 3, ok: true });
  });

  it('only scalars and arrays of strings are stored', async () => {
    const event = await createEvent(admin.api);
    await withFilter(
      'svc_rsvp_custom_fields',
      () => ({ keep: 'x', list: ['a'], nested: { a: 1 }, mixed: ['a', 1], nul: null, nan: NaN }),
      1,
      () => signUp(srv, event.id),
    );
    expect(JSON.parse((await attendeeRows(srv, event.id))[0].custom_fields)).toEqual({ keep: 'x', list: ['a'] });
  });

  it('an empty answer set is stored as NULL and reads back null', async () => {
    const event = await createEvent(admin.api);
    const res = await withFilter(
      'svc_rsvp_custom_fields',
      () => ({}),
      1,
      () => signUp(srv, event.id, { svc_cf_a: 'b' }),
    );
    expect((await attendeeRows(srv, event.id))[0].custom_fields).toBeNull();
    expect((await admin.api.get(`/attendees/${res.body.id}`)).body.customFields).toBeNull();
  });

  it('a return that is neither array nor error drops every answer', async () => {
    const event = await createEvent(admin.api);
    await withFilter(
      'svc_rsvp_custom_fields',
      () => 'yes',
      1,
      () => signUp(srv, event.id, { svc_cf_a: 'b' }),
    );
    expect((await attendeeRows(srv, event.id))[0].custom_fields).toBeNull();
  });

  it('an error object is returned as is, with its status, and nothing is stored or fired', async () => {
    const event = await createEvent(admin.api);
    const rec = recordActions(['svc_rsvp_submitted']);
    try {
      const res = await withFilter(
        'svc_rsvp_custom_fields',
        () => new AppError('my_plugin_bad_answer', 'Tell us your diet.', { status: 400 }),
        1,
        () => signUp(srv, event.id),
      );
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'my_plugin_bad_answer', message: 'Tell us your diet.', data: { status: 400 } });
      expect(rec.calls).toEqual([]);
      expect(await attendeeRows(srv, event.id)).toHaveLength(0);
    } finally {
      rec.stop();
    }
  });

  it('runs after validation: invalid input never reaches it', async () => {
    const event = await createEvent(admin.api);
    let called = 0;
    const res = await withFilter(
      'svc_rsvp_custom_fields',
      (f) => (called++, f),
      1,
      () => signUp(srv, event.id, { email: 'bad' }),
    );
    expect(res.status).toBe(400);
    expect(called).toBe(0);
  });
});

describe('visitor cancel', () => {
  async function signedUp(overrides: Record<string, unknown> = {}, eventOverrides: Record<string, unknown> = {}) {
    const event = await createEvent(admin.api, eventOverrides);
    const res = await signUp(srv, event.id, overrides);
    const row = (await attendeeRows(srv, event.id)).find((r) => r.id === res.body.id);
    return { event, id: res.body.id as number, token: row.cancel_token as string };
  }

  it('GET /attendees/cancel/{token} previews without secrets and changes nothing', async () => {
    const { event, id, token } = await signedUp({ display_name: 'Grace', quantity: 2 });
    const res = await apiClient(srv.url).get(`/attendees/cancel/${token}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      eventId: event.id,
      eventTitle: 'Spring meetup',
      eventStartsUtc: '2099-05-01 18:00:00',
      eventTimezone: 'UTC',
      displayName: 'Grace',
      quantity: 2,
      status: 'going',
      walletAvailable: false,
      refund: null,
    });
    expect(JSON.stringify(res.body)).not.toContain(token);
    expect((await attendeeRows(srv, event.id)).find((r) => r.id === id).status).toBe('going');
  });

  it('POST cancels, releases the seat and fires svc_rsvp_cancelled once with the id', async () => {
    const { event, id, token } = await signedUp({}, { capacity: 1, waitlist: false });
    const rec = recordActions(['svc_rsvp_cancelled', 'svc_attendee_status_changed']);
    try {
      const res = await apiClient(srv.url).post(`/attendees/cancel/${token}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ id, status: 'cancelled' });
      expect(rec.calls).toEqual([['svc_rsvp_cancelled', id]]);
    } finally {
      rec.stop();
    }
    const row = (await attendeeRows(srv, event.id))[0];
    expect(row.status).toBe('cancelled');
    expect(row.updated_utc >= row.created_utc).toBe(true);
    expect((await signUp(srv, event.id)).body.status).toBe('going');
  });

  it('an already cancelled row answers 409 svc_already_cancelled and fires nothing', async () => {
    const { token } = await signedUp();
    await apiClient(srv.url).post(`/attendees/cancel/${token}`);
    const rec = recordActions(['svc_rsvp_cancelled']);
    try {
      const res = await apiClient(srv.url).post(`/attendees/cancel/${token}`);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('svc_already_cancelled');
      expect(rec.calls).toEqual([]);
    } finally {
      rec.stop();
    }
  });

  it('an unknown token is 404 on both routes', async () => {
    const { token } = await signedUp();
    const wrong = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    expect((await apiClient(srv.url).post(`/attendees/cancel/${wrong}`)).status).toBe(404);
    expect((await apiClient(srv.url).get(`/attendees/cancel/${wrong}`)).status).toBe(404);
  });

  it('no automatic promotion in manual mode (the default): a waitlisted attendee stays on the waitlist when a seat frees up', async () => {
    const event = await createEvent(admin.api, { capacity: 1 });
    const first = await signUp(srv, event.id);
    const second = await signUp(srv, event.id);
    expect(second.body.status).toBe('waitlist');
    const token = (await attendeeRows(srv, event.id))[0].cancel_token;
    await apiClient(srv.url).post(`/attendees/cancel/${token}`);
    const rows = await attendeeRows(srv, event.id);
    expect(rows.map((r) => [r.id, r.status])).toEqual([
      [first.body.id, 'cancelled'],
      [second.body.id, 'waitlist'],
    ]);
  });
});

describe('admin attendee API', () => {
  let event: any;
  let other: any;
  const ids: number[] = [];
  beforeAll(async () => {
    event = await createEvent(admin.api, { title: 'Listed', capacity: 2 });
    other = await createEvent(admin.api, { title: 'Other' });
    for (const [email, name] of [
      ['alan@example.test', 'Alan Turing'],
      ['grace@example.test', 'Grace Hopper'],
      ['edsger@example.test', 'Edsger 100%_Dijkstra'],
    ]) {
      await resetThrottles(srv);
      ids.push((await signUp(srv, event.id, { email, display_name: name })).body.id);
    }
    await signUp(srv, other.id, { email: 'x@example.test', display_name: 'Other Person' });
  });

  it('lists with eventId, status and search filters, pagination and X-Total-Count', async () => {
    const all = await admin.api.get(`/attendees?eventId=${event.id}`);
    expect(all.status).toBe(200);
    expect(all.headers.get('x-total-count')).toBe('3');
    expect(all.body.map((a: any) => a.id)).toEqual(ids);
    const waitlist = await admin.api.get(`/attendees?eventId=${event.id}&status=waitlist`);
    expect(waitlist.body.map((a: any) => a.displayName)).toEqual(['Edsger 100%_Dijkstra']);
    const byName = await admin.api.get(`/attendees?search=hopper`);
    expect(byName.body.map((a: any) => a.email)).toEqual(['grace@example.test']);
    const byEmail = await admin.api.get(`/attendees?eventId=${event.id}&search=ALAN@`);
    expect(byEmail.body.map((a: any) => a.displayName)).toEqual(['Alan Turing']);
    const wildcard = await admin.api.get(`/attendees?search=${encodeURIComponent('%_')}`);
    expect(wildcard.body.map((a: any) => a.id)).toEqual([ids[2]]);
    const page2 = await admin.api.get(`/attendees?eventId=${event.id}&page=2&perPage=2`);
    expect(page2.headers.get('x-total-count')).toBe('3');
    expect(page2.body.map((a: any) => a.id)).toEqual([ids[2]]);
    expect((await admin.api.get('/attendees?status=maybe')).status).toBe(400);
  });

  it('serializes the contract table plus createdUtc/updatedUtc, never the cancel token or ticket code', async () => {
    const res = await admin.api.get(`/attendees/${ids[0]}`);
    expect(Object.keys(res.body).sort()).toEqual(['createdUtc', 'customFields', 'displayName', 'email', 'eventId', 'id', 'quantity', 'status', 'updatedUtc']);
    const row = (await attendeeRows(srv, event.id))[0];
    for (const body of [JSON.stringify(res.body), JSON.stringify((await admin.api.get('/attendees')).body)]) {
      expect(body).not.toContain(row.cancel_token);
      expect(body).not.toContain(row.ticket_code);
    }
  });

  it('unknown attendee is 404; no credentials is 401 even for an unknown id', async () => {
    expect((await admin.api.get('/attendees/999999')).status).toBe(404);
    expect((await apiClient(srv.url).get('/attendees/999999')).status).toBe(401);
    expect((await apiClient(srv.url).get('/attendees')).status).toBe(401);
  });

  it('staff read attendees of their events only and get 403 on PATCH and DELETE', async () => {
    const token = (await admin.api.post('/auth/tokens', { name: 'door', role: 'staff', eventIds: [event.id] })).body.token;
    const staff = apiClient(srv.url, { bearer: token });
    expect((await staff.get(`/attendees?eventId=${event.id}`)).body).toHaveLength(3);
    const unfiltered = await staff.get('/attendees');
    expect(unfiltered.body.every((a: any) => a.eventId === event.id)).toBe(true);
    expect(unfiltered.headers.get('x-total-count')).toBe('3');
    expect((await staff.get(`/attendees/${ids[0]}`)).status).toBe(200);
    expect((await staff.get(`/attendees?eventId=${other.id}`)).status).toBe(403);
    const otherId = (await attendeeRows(srv, other.id))[0].id;
    expect((await staff.get(`/attendees/${otherId}`)).status).toBe(403);
    expect((await staff.patch(`/attendees/${ids[0]}`, { displayName: 'x' })).status).toBe(403);
    expect((await staff.delete(`/attendees/${ids[0]}`)).status).toBe(403);
  });

  it('svc_rest_attendee_response runs once per row with (serialized, raw snake_case row) and its keys appear', async () => {
    const seen: any[] = [];
    const res = await withFilter(
      'svc_rest_attendee_response',
      (serialized, row) => (seen.push([serialized, row]), { ...serialized, badge: `B-${row.id}` }),
      2,
      () => admin.api.get(`/attendees?eventId=${event.id}`),
    );
    expect(seen).toHaveLength(3);
    expect(seen[0][1]).toMatchObject({
      id: ids[0],
      event_id: event.id,
      display_name: 'Alan Turing',
      custom_fields: null,
      created_utc: expect.any(String),
      updated_utc: expect.any(String),
    });
    expect(seen[0][0]).toMatchObject({ id: ids[0], eventId: event.id, displayName: 'Alan Turing' });
    expect(res.body.map((a: any) => a.badge)).toEqual(ids.map((id) => `B-${id}`));
  });

  it('a non-object svc_rest_attendee_response result keeps the serialized payload', async () => {
    const res = await withFilter(
      'svc_rest_attendee_response',
      () => 'oops',
      1,
      () => admin.api.get(`/attendees/${ids[0]}`),
    );
    expect(res.body).toMatchObject({ id: ids[0], displayName: 'Alan Turing' });
  });
});

describe('PATCH /attendees/{id}', () => {
  async function fresh(fields: Record<string, unknown> = {}) {
    const event = await createEvent(admin.api);
    return (await signUp(srv, event.id, { email: 'p@example.test', display_name: 'Pat', quantity: 1, ...fields })).body.id as number;
  }

  it('diffs only changed columns as {from, to}, then fires svc_attendee_status_changed(id, new, old) after svc_attendee_updated', async () => {
    const id = await fresh();
    const rec = recordActions(['svc_attendee_updated', 'svc_attendee_status_changed', 'svc_rsvp_cancelled']);
    try {
      const res = await admin.api.patch(`/attendees/${id}`, { displayName: 'Patricia', email: 'p@example.test', quantity: 2, status: 'waitlist' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id, displayName: 'Patricia', quantity: 2, status: 'waitlist' });
      expect(rec.calls).toEqual([
        ['svc_attendee_updated', id, { display_name: { from: 'Pat', to: 'Patricia' }, quantity: { from: 1, to: 2 } }],
        ['svc_attendee_status_changed', id, 'waitlist', 'going'],
      ]);
    } finally {
      rec.stop();
    }
  });

  it('svc_attendee_updated fires with an empty diff; no status sent means no status action', async () => {
    const id = await fresh();
    const rec = recordActions(['svc_attendee_updated', 'svc_attendee_status_changed']);
    try {
      expect((await admin.api.patch(`/attendees/${id}`, { displayName: 'Pat' })).status).toBe(200);
      expect((await admin.api.patch(`/attendees/${id}`, {})).status).toBe(200);
      expect(rec.calls).toEqual([
        ['svc_attendee_updated', id, {}],
        ['svc_attendee_updated', id, {}],
      ]);
    } finally {
      rec.stop();
    }
  });

  it('old status is an empty string when the row had none', async () => {
    const id = await fresh();
    await srv.server.ctx.db.execute(sql`update svc_attendees set status = '' where id = ${id}`);
    const rec = recordActions(['svc_attendee_status_changed']);
    try {
      await admin.api.patch(`/attendees/${id}`, { status: 'going' });
      expect(rec.calls).toEqual([['svc_attendee_status_changed', id, 'going', '']]);
    } finally {
      rec.stop();
    }
  });

  it('PATCH to cancelled fires svc_attendee_status_changed but never svc_rsvp_cancelled', async () => {
    const id = await fresh();
    const rec = recordActions(['svc_attendee_status_changed', 'svc_rsvp_cancelled']);
    try {
      await admin.api.patch(`/attendees/${id}`, { status: 'cancelled' });
      expect(rec.calls).toEqual([['svc_attendee_status_changed', id, 'cancelled', 'going']]);
    } finally {
      rec.stop();
    }
  });

  it('a failed database write answers 500 svc_internal and fires no action', async () => {
    const id = await fresh();
    await srv.server.ctx.db.execute(
      sql.raw(`
      create or replace function svc_test_refuse() returns trigger language plpgsql as $$
      begin raise exception 'refused by test'; end $$`),
    );
    await srv.server.ctx.db.execute(
      sql.raw(`
      create trigger svc_test_refuse before update on svc_attendees for each row when (new.display_name = 'refuse me') execute function svc_test_refuse();`),
    );
    const rec = recordActions(['svc_attendee_updated', 'svc_attendee_status_changed']);
    try {
      const res = await admin.api.patch(`/attendees/${id}`, { displayName: 'refuse me', status: 'cancelled' });
      expect(res.status).toBe(500);
      expect(res.body.code).toBe('svc_internal');
      expect(JSON.stringify(res.body)).not.toContain('refused by test');
      expect(rec.calls).toEqual([]);
    } finally {
      rec.stop();
      await srv.server.ctx.db.execute(sql.raw(`drop trigger svc_test_refuse on svc_attendees`));
      await srv.server.ctx.db.execute(sql.raw(`drop function svc_test_refuse()`));
    }
  });

  it('bad input is 400 naming the field; unknown id is 404', async () => {
    const id = await fresh();
    const res = await admin.api.patch(`/attendees/${id}`, { email: 'nope', quantity: 0, status: 'maybe' });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.data.params).sort()).toEqual(['email', 'quantity', 'status']);
    expect((await admin.api.patch('/attendees/999999', { displayName: 'x' })).status).toBe(404);
  });

  it('updated_utc is maintained on every change', async () => {
    const id = await fresh();
    await srv.server.ctx.db.execute(sql`update svc_attendees set updated_utc = '2000-01-01 00:00:00' where id = ${id}`);
    await admin.api.patch(`/attendees/${id}`, { quantity: 3 });
    const row = (await attendeeRows(srv)).find((r) => r.id === id);
    expect(row.updated_utc > '2000-01-01 00:00:00').toBe(true);
  });
});

describe('DELETE /attendees/{id}', () => {
  it('fires svc_attendee_deleted(id) after the row is gone; 204; then 404', async () => {
    const event = await createEvent(admin.api);
    const id = (await signUp(srv, event.id)).body.id;
    const seen: unknown[] = [];
    const cb = async (attendeeId: number) => {
      const rows = await attendeeRows(srv, event.id);
      seen.push([attendeeId, rows.length]);
    };
    srv.server.ctx.hooks.addAction('svc_attendee_deleted', cb, 50);
    try {
      expect((await admin.api.delete(`/attendees/${id}`)).status).toBe(204);
      expect(seen).toEqual([[id, 0]]);
      expect((await admin.api.delete(`/attendees/${id}`)).status).toBe(404);
      expect(seen).toHaveLength(1);
    } finally {
      srv.server.ctx.hooks.removeAction('svc_attendee_deleted', cb, 50);
    }
  });
});
