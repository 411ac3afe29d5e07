import { beforeEach, describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/test-server';
import { apiClient } from '../helpers/http';
import { agedFormToken, attendeeRows, createEvent, resetThrottles, signUp, uniqueEmail } from '../helpers/registration';
import { sha256Hex } from '../../server/security/crypto';

const { server: srv, admin } = useTestServer({ env: { SVC_JOBS: 'off' } });
beforeEach(() => resetThrottles(srv));

describe('sign-up happy path', () => {
  it('answers 201 {id, status: going} and stores a 64-char cancel token and a separate hashed ticket code', async () => {
    const event = await createEvent(admin.api);
    const res = await signUp(srv, event.id, { email: 'ada@example.test', display_name: 'Ada', quantity: 2 });
    expect(res.status).toBe(201);
    const [row] = await attendeeRows(srv, event.id);
    expect(res.body).toEqual({
      id: row.id,
      status: 'going',
      ticketCode: row.ticket_code,
      calendarUid: expect.stringMatching(/^attendee-\d+-/),
      ticketPdfToken: expect.stringMatching(/^\d+\.[0-9a-f]{32}$/),
      walletAvailable: false,
    });
    expect(row).toMatchObject({ id: res.body.id, email: 'ada@example.test', display_name: 'Ada', quantity: 2, status: 'going', custom_fields: null });
    expect(row.cancel_token).toHaveLength(64);
    expect(row.ticket_code).not.toBe(row.cancel_token);
    expect(Buffer.from(row.ticket_code, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(row.ticket_code_hash).toBe(sha256Hex(row.ticket_code));
    expect(row.created_utc).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(row.updated_utc).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('accepts a form-encoded post', async () => {
    const event = await createEvent(admin.api);
    const res = await signUp(srv, event.id, { quantity: '3' }, { form: true });
    expect(res.status).toBe(201);
    expect((await attendeeRows(srv, event.id))[0].quantity).toBe(3);
  });

  it('svc_rsvp_submitted fires once with (attendee id, exactly the contract payload keys)', async () => {
    const event = await createEvent(admin.api);
    const calls: unknown[][] = [];
    const cb = (...args: unknown[]) => void calls.push(args);
    srv.server.ctx.hooks.addAction('svc_rsvp_submitted', cb, 50, 2);
    try {
      const res = await signUp(srv, event.id, { email: 'payload@example.test', display_name: 'Pay Load', quantity: 1, svc_cf_x: 'y' });
      const [row] = await attendeeRows(srv, event.id);
      expect(calls).toEqual([
        [res.body.id, { event_id: event.id, email: 'payload@example.test', display_name: 'Pay Load', quantity: 1, cancel_token: row.cancel_token }],
      ]);
      expect(Object.keys(calls[0]![1] as object).sort()).toEqual(['cancel_token', 'display_name', 'email', 'event_id', 'quantity']);
    } finally {
      srv.server.ctx.hooks.removeAction('svc_rsvp_submitted', cb, 50);
    }
  });
});

describe('X-Svc-Nonce (docs/api.md#errors)', () => {
  it('a sign-up without the nonce header is 403 svc_invalid_nonce and stores nothing', async () => {
    const event = await createEvent(admin.api);
    const res = await signUp(srv, event.id, {}, { nonce: null });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('svc_invalid_nonce');
    expect(await attendeeRows(srv, event.id)).toHaveLength(0);
  });

  it('a forged nonce is 403 svc_invalid_nonce', async () => {
    const event = await createEvent(admin.api);
    const res = await signUp(srv, event.id, {}, { nonce: 'abc.0123456789abcdef0123456789abcdef' });
    expect(res.status).toBe(403);
  });
});

describe('checks in the contract order', () => {
  it('a draft event is 404 to the public', async () => {
    const event = await createEvent(admin.api, { status: 'draft' });
    const res = await signUp(srv, event.id);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('svc_not_found');
  });

  it('outside the sign-up window answers 409 svc_signup_closed, before the honeypot is looked at', async () => {
    const notYet = await createEvent(admin.api, { signupOpensUtc: '2098-01-01 00:00:00' });
    const over = await createEvent(admin.api, { signupClosesUtc: '2000-01-01 00:00:00' });
    const started = await createEvent(admin.api, { startsUtc: '2001-01-01 10:00:00' });
    for (const e of [notYet, over, started]) {
      const res = await signUp(srv, e.id, { svc_hp: 'bot' });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('svc_signup_closed');
    }
  });

  it('a filled honeypot svc_hp is 400 svc_spam_suspected, stores nothing and never reaches the IP filter', async () => {
    const event = await createEvent(admin.api);
    let ipFilterCalls = 0;
    const cb = (ip: string) => {
      ipFilterCalls += 1;
      return ip;
    };
    srv.server.ctx.hooks.addFilter('svc_rsvp_client_ip', cb, 50);
    try {
      const res = await signUp(srv, event.id, { svc_hp: 'http://spam.example' });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('svc_spam_suspected');
      expect(ipFilterCalls).toBe(0);
      expect(await attendeeRows(srv, event.id)).toHaveLength(0);
    } finally {
      srv.server.ctx.hooks.removeFilter('svc_rsvp_client_ip', cb, 50);
    }
  });

  it('a form sent faster than 3 s after rendering is refused (fresh token from GET /form)', async () => {
    const event = await createEvent(admin.api);
    const form = await apiClient(srv.url).get(`/events/${event.id}/form`);
    const res = await signUp(srv, event.id, { svc_ts: form.body.formToken });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('svc_spam_suspected');
    expect(await attendeeRows(srv, event.id)).toHaveLength(0);
  });

  it('a missing, forged or other-event svc_ts is refused', async () => {
    const event = await createEvent(admin.api);
    const other = await createEvent(admin.api);
    for (const svc_ts of [undefined, '1.deadbeef', agedFormToken(srv, other.id)]) {
      const res = await signUp(srv, event.id, { svc_ts });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('svc_spam_suspected');
    }
  });

  it('the minimum fill time is exactly 3 seconds (service clock)', async () => {
    const { signupService } = await import('../../server/modules/attendees/signup.service');
    const { signValue } = await import('../../server/security/nonce');
    const event = await createEvent(admin.api);
    const rendered = 1_900_000_000_000;
    const token = signValue(srv.server.ctx.secret, `signup-form|${event.id}`, String(rendered));
    const service = signupService(srv.server.ctx);
    const raw = { email: uniqueEmail(), display_name: 'Timed', quantity: 1, svc_ts: token };
    await expect(service.signup({ eventId: event.id, raw, ip: '', headers: {}, nowMs: rendered + 2_999 })).rejects.toMatchObject({
      code: 'svc_spam_suspected',
    });
    await expect(service.signup({ eventId: event.id, raw, ip: '', headers: {}, nowMs: rendered + 3_000 })).resolves.toMatchObject({ status: 'going' });
  });

  it('svc_rsvp_client_ip receives REMOTE_ADDR and its value reaches the verifier; a verifier refusal comes before validation', async () => {
    const event = await createEvent(admin.api);
    const seen: string[] = [];
    const filter = (ip: string) => {
      seen.push(ip);
      return '203.0.113.7';
    };
    srv.server.ctx.hooks.addFilter('svc_rsvp_client_ip', filter, 50);
    const checks: any[] = [];
    let refuse = true;
    srv.server.ctx.verifiers.register({ name: 'test-bot-check', verify: (c) => (checks.push(c), refuse ? { ok: false, reason: 'bot' } : { ok: true }) });
    try {
      // Invalid email too: the verifier's 400 wins because validation comes after it.
      const res = await signUp(srv, event.id, { email: 'not-an-email' }, {});
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('svc_spam_suspected');
      expect(seen).toEqual(['127.0.0.1']);
      expect(checks[0]).toMatchObject({ kind: 'signup', ip: '203.0.113.7', email: 'not-an-email' });
      expect(checks[0].headers).not.toHaveProperty('cookie');
      expect(await attendeeRows(srv, event.id)).toHaveLength(0);
    } finally {
      refuse = false;
      srv.server.ctx.hooks.removeFilter('svc_rsvp_client_ip', filter, 50);
    }
  });

  it('X-Forwarded-For is ignored: the IP filter sees the socket address', async () => {
    const event = await createEvent(admin.api);
    const seen: string[] = [];
    const filter = (ip: string) => (seen.push(ip), ip);
    srv.server.ctx.hooks.addFilter('svc_rsvp_client_ip', filter, 50);
    try {
      await signUp(srv, event.id, {}, {}).then(() => undefined);
      const n = (await apiClient(srv.url).get('/nonce')).body.nonce;
      await apiClient(srv.url).post(
        `/events/${event.id}/signup`,
        { email: uniqueEmail(), display_name: 'X', svc_ts: agedFormToken(srv, event.id) },
        { 'x-svc-nonce': n, 'x-forwarded-for': '198.51.100.1' },
      );
      expect(seen).toEqual(['127.0.0.1', '127.0.0.1']);
    } finally {
      srv.server.ctx.hooks.removeFilter('svc_rsvp_client_ip', filter, 50);
    }
  });
});

describe('throttles (contract Limits, docs/api.md#errors)', () => {
  // The windows are fixed (one row per window); the counting tests use the service's clock so
  // a minute boundary cannot fall between the 5th and the 6th attempt.
  const nowMs = Date.UTC(2030, 0, 1, 12, 0, 10);
  async function serviceSignup(eventId: number, email: string, at = nowMs) {
    const { signupService } = await import('../../server/modules/attendees/signup.service');
    const { signValue } = await import('../../server/security/nonce');
    const svc_ts = signValue(srv.server.ctx.secret, `signup-form|${eventId}`, String(at - 10_000));
    return signupService(srv.server.ctx).signup({ eventId, raw: { email, display_name: 'T', svc_ts }, ip: '127.0.0.1', headers: {}, nowMs: at });
  }
  /** Fills the current and the next window of a bucket, so a request through the route meets a full window. */
  async function fillWindows(bucket: string, windowSeconds: number, hits: number) {
    const { sql } = await import('drizzle-orm');
    const { toUtcString } = await import('../../shared/time');
    const size = windowSeconds * 1000;
    const start = Math.floor(Date.now() / size) * size;
    for (const w of [start, start + size]) {
      await srv.server.ctx.db.execute(sql`insert into svc_rate_limits (bucket, window_start_utc, hits) values (${bucket}, ${toUtcString(w)}, ${hits})`);
    }
  }

  it('per IP: 5 sign-ups a minute pass, the 6th is svc_rate_limited, the next minute passes again', async () => {
    const event = await createEvent(admin.api);
    for (let i = 0; i < 5; i++) await expect(serviceSignup(event.id, uniqueEmail())).resolves.toMatchObject({ status: 'going' });
    await expect(serviceSignup(event.id, uniqueEmail())).rejects.toMatchObject({ code: 'svc_rate_limited', data: { status: 429, retryAfter: 50 } });
    await expect(serviceSignup(event.id, uniqueEmail(), nowMs + 60_000)).resolves.toMatchObject({ status: 'going' });
    expect(await attendeeRows(srv, event.id)).toHaveLength(6);
  });

  it('per IP through the route: a full window answers 429 with Retry-After and stores nothing', async () => {
    const event = await createEvent(admin.api);
    await fillWindows('signup:ip:127.0.0.1', 60, 5);
    const res = await signUp(srv, event.id);
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('svc_rate_limited');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await attendeeRows(srv, event.id)).toHaveLength(0);
  });

  it('a sign-up refused for a malformed email does not count toward the per-IP throttle', async () => {
    const event = await createEvent(admin.api);
    for (let i = 0; i < 6; i++) {
      const { signupService } = await import('../../server/modules/attendees/signup.service');
      const { signValue } = await import('../../server/security/nonce');
      const svc_ts = signValue(srv.server.ctx.secret, `signup-form|${event.id}`, String(nowMs - 10_000));
      const typo = signupService(srv.server.ctx).signup({
        eventId: event.id,
        raw: { email: `ada${i}@example`, display_name: 'T', svc_ts },
        ip: '127.0.0.1',
        headers: {},
        nowMs,
      });
      await expect(typo).rejects.toMatchObject({ code: 'svc_invalid_param', data: { params: { email: expect.any(String) } } });
    }
    for (let i = 0; i < 5; i++) await expect(serviceSignup(event.id, uniqueEmail())).resolves.toMatchObject({ status: 'going' });
    await expect(serviceSignup(event.id, uniqueEmail())).rejects.toMatchObject({ code: 'svc_rate_limited' });
    expect(await attendeeRows(srv, event.id)).toHaveLength(5);
  });

  it('a full window refuses before validation: a malformed sign-up from a throttled IP is 429, not 400', async () => {
    const event = await createEvent(admin.api);
    await fillWindows('signup:ip:127.0.0.1', 60, 5);
    const res = await signUp(srv, event.id, { email: 'ada@example' });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('svc_rate_limited');
  });

  it('an empty IP from svc_rsvp_client_ip turns the per-IP throttle off', async () => {
    const event = await createEvent(admin.api);
    await fillWindows('signup:ip:127.0.0.1', 60, 5);
    const filter = () => '';
    srv.server.ctx.hooks.addFilter('svc_rsvp_client_ip', filter, 50);
    try {
      for (let i = 0; i < 7; i++) expect((await signUp(srv, event.id)).status).toBe(201);
    } finally {
      srv.server.ctx.hooks.removeFilter('svc_rsvp_client_ip', filter, 50);
    }
  });

  it('per email: 5 sign-ups an hour per address (case and spaces ignored), the 6th is svc_rate_limited', async () => {
    const event = await createEvent(admin.api);
    const filter = () => '';
    srv.server.ctx.hooks.addFilter('svc_rsvp_client_ip', filter, 50);
    try {
      for (let i = 0; i < 5; i++) await expect(serviceSignup(event.id, 'Same@Example.test', nowMs + i * 600_000)).resolves.toBeTruthy();
      await expect(serviceSignup(event.id, ' same@example.test', nowMs + 3_000_000)).rejects.toMatchObject({ code: 'svc_rate_limited' });
      await expect(serviceSignup(event.id, 'same@example.test', nowMs + 3_600_000)).resolves.toBeTruthy();
    } finally {
      srv.server.ctx.hooks.removeFilter('svc_rsvp_client_ip', filter, 50);
    }
  });

  it('per email through the route, with the per-IP throttle off: a full window answers 429', async () => {
    const event = await createEvent(admin.api);
    await fillWindows(`signup:email:${sha256Hex('limited@example.test')}`, 3600, 5);
    const filter = () => '';
    srv.server.ctx.hooks.addFilter('svc_rsvp_client_ip', filter, 50);
    try {
      const res = await signUp(srv, event.id, { email: 'Limited@example.test' });
      expect(res.status).toBe(429);
      expect(await attendeeRows(srv, event.id)).toHaveLength(0);
    } finally {
      srv.server.ctx.hooks.removeFilter('svc_rsvp_client_ip', filter, 50);
    }
  });

  it('the throttles live in PostgreSQL (svc_rate_limits), so every instance shares them', async () => {
    const event = await createEvent(admin.api);
    await signUp(srv, event.id, { email: 'counted@example.test' });
    const { queryRows } = await import('../../server/db/client');
    const { sql } = await import('drizzle-orm');
    const rows = await queryRows<{ bucket: string; hits: number }>(srv.server.ctx.db, sql`select bucket, hits from svc_rate_limits order by bucket`);
    expect(rows.map((r) => r.bucket)).toEqual([`signup:email:${sha256Hex('counted@example.test')}`, 'signup:ip:127.0.0.1']);
  });
});

describe('bad input: 400 svc_invalid_param naming the field, nothing stored', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['missing email', { email: undefined }, 'email'],
    ['missing display_name', { display_name: undefined }, 'display_name'],
    ['email of the wrong type', { email: 12345 }, 'email'],
    ['display_name of the wrong type', { display_name: ['a'] }, 'display_name'],
    ['quantity of the wrong type', { quantity: 'many' }, 'quantity'],
    ['oversized display_name', { display_name: 'x'.repeat(191) }, 'display_name'],
    ['oversized email', { email: `${'a'.repeat(250)}@example.test` }, 'email'],
    ['quantity 0', { quantity: 0 }, 'quantity'],
    ['quantity 10,000', { quantity: 10_000 }, 'quantity'],
    ['quantity above maxPerSignup', { quantity: 11 }, 'quantity'],
    ['fractional quantity', { quantity: 1.5 }, 'quantity'],
    ['malformed email', { email: 'ada@@example' }, 'email'],
    ['oversized custom answer', { svc_cf_note: 'x'.repeat(2001) }, 'svc_cf_note'],
  ];
  it.each(cases)('%s', async (_name, fields, param) => {
    const event = await createEvent(admin.api);
    const res = await signUp(srv, event.id, fields);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('svc_invalid_param');
    expect(Object.keys(res.body.data.params)).toContain(param);
    expect(await attendeeRows(srv, event.id)).toHaveLength(0);
  });

  it('an unknown event names the id field', async () => {
    const before = (await attendeeRows(srv)).length;
    const res = await signUp(srv, 999_999);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('svc_invalid_param');
    expect(res.body.data.params).toHaveProperty('id');
    expect(await attendeeRows(srv)).toHaveLength(before);
  });

  it('a body that is not JSON is 400', async () => {
    const event = await createEvent(admin.api);
    const n = (await apiClient(srv.url).get('/nonce')).body.nonce;
    const res = await apiClient(srv.url).post(`/events/${event.id}/signup`, '{nope', { 'x-svc-nonce': n });
    expect(res.status).toBe(400);
  });
});

describe('capacity, decided atomically', () => {
  it('a waitlisted answer carries no ticket code (not admitted); a going one carries the row’s own', async () => {
    const event = await createEvent(admin.api, { capacity: 1 });
    const going = await signUp(srv, event.id);
    const waiting = await signUp(srv, event.id);
    const rows = await attendeeRows(srv, event.id);
    expect(going.body).toEqual({
      id: rows[0].id,
      status: 'going',
      ticketCode: rows[0].ticket_code,
      calendarUid: expect.stringMatching(/^attendee-\d+-/),
      ticketPdfToken: expect.stringMatching(/^\d+\.[0-9a-f]{32}$/),
      walletAvailable: false,
    });
    expect(waiting.body).toEqual({ id: rows[1].id, status: 'waitlist' });
  });

  it('going while seats remain, then waitlist when the event allows it', async () => {
    const event = await createEvent(admin.api, { capacity: 3 });
    expect((await signUp(srv, event.id, { quantity: 2 })).body.status).toBe('going');
    expect((await signUp(srv, event.id, { quantity: 2 })).body.status).toBe('waitlist');
    expect((await signUp(srv, event.id, { quantity: 1 })).body.status).toBe('going');
    expect((await signUp(srv, event.id, { quantity: 1 })).body.status).toBe('waitlist');
  });

  it('full without waitlist is 409 svc_event_full and stores nothing', async () => {
    const event = await createEvent(admin.api, { capacity: 1, waitlist: false });
    expect((await signUp(srv, event.id)).status).toBe(201);
    const res = await signUp(srv, event.id);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('svc_event_full');
    expect(await attendeeRows(srv, event.id)).toHaveLength(1);
  });

  it('capacity null is unlimited', async () => {
    const event = await createEvent(admin.api, { capacity: null, maxPerSignup: 1000 });
    expect((await signUp(srv, event.id, { quantity: 1000 })).body.status).toBe('going');
  });

  it('an old row with an empty status holds its seats', async () => {
    const event = await createEvent(admin.api, { capacity: 2, waitlist: false });
    const first = await signUp(srv, event.id, { quantity: 2 });
    const { sql } = await import('drizzle-orm');
    await srv.server.ctx.db.execute(sql`update svc_attendees set status = '' where id = ${first.body.id}`);
    expect((await signUp(srv, event.id)).status).toBe(409);
  });
});

describe('GET /events/{id}/form', () => {
  it('answers {html, formToken}; html is svc_rsvp_form_fields applied to ("", event id)', async () => {
    const event = await createEvent(admin.api);
    const args: unknown[][] = [];
    const cb = (html: string, id: number) => (args.push([html, id]), `${html}<label>Diet <input name="svc_cf_diet"></label>`);
    srv.server.ctx.hooks.addFilter('svc_rsvp_form_fields', cb, 50, 2);
    try {
      const res = await apiClient(srv.url).get(`/events/${event.id}/form`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ html: '<label>Diet <input name="svc_cf_diet"></label>', formToken: expect.any(String) });
      expect(args).toEqual([['', event.id]]);
    } finally {
      srv.server.ctx.hooks.removeFilter('svc_rsvp_form_fields', cb, 50);
    }
  });

  it('a non-string filter result gives empty html; a draft event is 404', async () => {
    const event = await createEvent(admin.api);
    const cb = () => 42 as unknown as string;
    srv.server.ctx.hooks.addFilter('svc_rsvp_form_fields', cb, 50);
    try {
      expect((await apiClient(srv.url).get(`/events/${event.id}/form`)).body.html).toBe('');
    } finally {
      srv.server.ctx.hooks.removeFilter('svc_rsvp_form_fields', cb, 50);
    }
    const draft = await createEvent(admin.api, { status: 'draft' });
    expect((await apiClient(srv.url).get(`/events/${draft.id}/form`)).status).toBe(404);
  });

  it('an unknown event is 404 svc_not_found, not 400', async () => {
    const res = await apiClient(srv.url).get('/events/999999/form');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('svc_not_found');
  });
});
