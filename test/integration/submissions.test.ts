/**
 * Public event submission, extended edition (docs/api.md#event-submission; contract Limits:
 * "Event submission per IP: 3 per 10 minutes; shares the sign-up IP filter"). A proposal is a
 * draft marked submitted, invisible to the public until an administrator publishes it; the
 * submitter is mailed on receipt, publish and reject. Jobs are off: mail is read from the outbox.
 */
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { submissionsOperations } from '../../server/modules/submissions/submissions.operations';
import { submissionsService, SUBMISSION_FORM_PURPOSE } from '../../server/modules/submissions/submissions.service';
import { createNonce, PUBLIC_FORM_NONCE_ACTION, signValue } from '../../server/security/nonce';
import { toUtcString } from '../../shared/time';
import type { AnyOperation } from '../../server/api/operation';
import { apiClient } from '../helpers/http';
import { storedMails } from '../helpers/mail';
import { agedFormToken, createEvent, resetThrottles, uniqueEmail } from '../helpers/registration';
import { agedSubmissionToken, proposal, submissionRows, submitProposal } from '../helpers/submissions';
import { useTestServer } from '../helpers/test-server';

const { server: srv, admin, db, hooks } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off' } });
const anonymous = () => apiClient(srv.url);
const cleanups: Array<() => void> = [];

beforeEach(() => resetThrottles(srv));
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** Registers a `svc_rsvp_client_ip` filter for this test only. */
function ipFilter(filter: (ip: string) => string): void {
  hooks().addFilter('svc_rsvp_client_ip', filter, 50);
  cleanups.push(() => hooks().removeFilter('svc_rsvp_client_ip', filter, 50));
}

/** Fills the current and the next window of a bucket, so a request through the route meets a full window. */
async function fillWindows(bucket: string, windowSeconds: number, hits: number): Promise<void> {
  const size = windowSeconds * 1000;
  const start = Math.floor(Date.now() / size) * size;
  for (const w of [start, start + size]) {
    await db().execute(sql`insert into svc_rate_limits (bucket, window_start_utc, hits) values (${bucket}, ${toUtcString(w)}, ${hits})`);
  }
}

/** A proposal through the service's screen and submit, on the service's clock (fixed throttle windows cannot split a test). */
async function submitAt(nowMs: number, fields: Record<string, unknown> = {}, remoteIp = '127.0.0.1') {
  const service = submissionsService(srv.server.ctx);
  const raw = proposal(srv, { svc_ts: agedSubmissionToken(srv, 10_000, nowMs), startsUtc: toUtcString(nowMs + 86_400_000), endsUtc: '', ...fields });
  await service.screenSubmission({ nonce: createNonce(srv.server.ctx.secret, PUBLIC_FORM_NONCE_ACTION, nowMs).nonce, remoteIp, raw, headers: {}, nowMs });
  const { ZEventSubmissionInput } = await import('../../shared/submissions');
  return service.submit(ZEventSubmissionInput.parse(raw), nowMs);
}

async function submitted(fields: Record<string, unknown> = {}) {
  const body = proposal(srv, fields);
  const res = await submitProposal(srv, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id as number, email: body.submitterEmail as string, body };
}

describe('POST /events/submissions', () => {
  it('answers 201 with the public-safe receipt and stores a draft marked submitted, invisible to the public', async () => {
    const body = proposal(srv, { title: 'Night market', venue: 'Old harbour' });
    const res = await submitProposal(srv, body);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      title: 'Night market',
      startsUtc: body.startsUtc,
      endsUtc: body.endsUtc,
      timezone: 'Europe/Berlin',
      venue: 'Old harbour',
      status: 'submitted',
    });
    const row = (await submissionRows(srv)).find((r) => r.id === res.body.id);
    expect(row).toMatchObject({
      status: 'draft',
      submission_status: 'submitted',
      submitter_name: 'Pat Proposer',
      submitter_email: body.submitterEmail,
      description: 'Bring something to share.',
    });

    expect((await anonymous().get(`/events/${res.body.id}`)).status).toBe(404);
    const list = await anonymous().get('/events?perPage=500');
    expect(list.body.map((e: { id: number }) => e.id)).not.toContain(res.body.id);
    // administrators see it, with its submitter
    expect((await admin.api.get(`/events/${res.body.id}`)).body.submission).toEqual({
      status: 'submitted',
      submitterName: 'Pat Proposer',
      submitterEmail: body.submitterEmail,
    });
  });

  it('mails the submitter a receipt, once', async () => {
    const { email } = await submitted({ title: 'Book swap' });
    const mails = await storedMails(db(), email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('We received your event proposal: Book swap');
    expect(mails[0]!.text).toContain('We will review it and email you');
  });

  it('accepts a form-encoded post; an empty, null or missing endsUtc is none', async () => {
    const res = await submitProposal(srv, proposal(srv, { endsUtc: '' }), { form: true });
    expect(res.status).toBe(201);
    expect(res.body.endsUtc).toBeNull();
    expect((await submitProposal(srv, proposal(srv, { endsUtc: null }))).body.endsUtc).toBeNull();
    expect((await submitProposal(srv, proposal(srv, { endsUtc: undefined }))).body.endsUtc).toBeNull();
  });

  it('bad input is 400 svc_invalid_param naming each field, and nothing is stored', async () => {
    const before = (await submissionRows(srv)).length;
    const mailsBefore = (await storedMails(db())).length;
    const res = await submitProposal(
      srv,
      proposal(srv, { title: ' ', startsUtc: 'tomorrow', timezone: 'Mars/Olympus', submitterName: '', submitterEmail: 'not-an-email', venue: 'v'.repeat(191) }),
    );
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('svc_invalid_param');
    expect(Object.keys(res.body.data.params).sort()).toEqual(['startsUtc', 'submitterEmail', 'submitterName', 'timezone', 'title', 'venue']);

    const past = await submitProposal(srv, proposal(srv, { startsUtc: '2001-01-01 10:00:00', endsUtc: '2000-12-31 10:00:00' }));
    expect(past.status).toBe(400);
    expect(past.body.data.params).toEqual({ startsUtc: 'must be in the future', endsUtc: 'must not be before startsUtc' });

    expect(await submissionRows(srv)).toHaveLength(before);
    expect(await storedMails(db())).toHaveLength(mailsBefore);
  });
});

describe('spam checks in the sign-up’s order (docs/api.md#event-submission)', () => {
  it('without the X-Svc-Nonce header, or with a forged one, it is 403 svc_invalid_nonce and nothing is stored', async () => {
    const before = (await submissionRows(srv)).length;
    for (const n of [null, 'abc.0123456789abcdef0123456789abcdef']) {
      const res = await submitProposal(srv, proposal(srv), { nonce: n });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('svc_invalid_nonce');
    }
    expect(await submissionRows(srv)).toHaveLength(before);
  });

  it('a filled honeypot svc_hp is 400 svc_spam_suspected, stores nothing and never reaches the IP filter', async () => {
    const before = (await submissionRows(srv)).length;
    const seen: string[] = [];
    ipFilter((ip) => (seen.push(ip), ip));
    const res = await submitProposal(srv, proposal(srv, { svc_hp: 'http://spam.example' }));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('svc_spam_suspected');
    expect(seen).toEqual([]);
    expect(await submissionRows(srv)).toHaveLength(before);
  });

  it('a form sent less than 3 s after GET /events/submissions/form is refused, as are a missing, forged or sign-up form token', async () => {
    const before = (await submissionRows(srv)).length;
    const form = await anonymous().get('/events/submissions/form');
    expect(form.status).toBe(200);
    expect(form.headers.get('cache-control')).toBe('no-store');
    const event = await createEvent(admin.api);
    for (const svc_ts of [form.body.formToken, undefined, '1.deadbeef', agedFormToken(srv, event.id)]) {
      const res = await submitProposal(srv, proposal(srv, { svc_ts }));
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('svc_spam_suspected');
    }
    expect(await submissionRows(srv)).toHaveLength(before);
  });

  it('the minimum fill time is exactly 3 seconds (service clock)', async () => {
    const rendered = Date.UTC(2031, 0, 1, 9, 0, 0);
    const service = submissionsService(srv.server.ctx);
    const screen = (nowMs: number) =>
      service.screenSubmission({
        nonce: createNonce(srv.server.ctx.secret, PUBLIC_FORM_NONCE_ACTION, nowMs).nonce,
        remoteIp: '',
        raw: proposal(srv, { svc_ts: signValue(srv.server.ctx.secret, SUBMISSION_FORM_PURPOSE, String(rendered)) }),
        headers: {},
        nowMs,
      });
    await expect(screen(rendered + 2_999)).rejects.toMatchObject({ code: 'svc_spam_suspected' });
    await expect(screen(rendered + 3_000)).resolves.toBeUndefined();
  });

  it('svc_rsvp_client_ip receives REMOTE_ADDR and its value reaches the bot check; a refusal comes before validation', async () => {
    const before = (await submissionRows(srv)).length;
    const seen: string[] = [];
    ipFilter((ip) => (seen.push(ip), '203.0.113.7'));
    const checks: any[] = [];
    let refuse = true;
    srv.server.ctx.verifiers.register({ name: 'submission-bot-check', verify: (c) => (checks.push(c), refuse ? { ok: false, reason: 'bot' } : { ok: true }) });
    cleanups.push(() => (refuse = false));
    // an invalid email too: the bot check's 400 wins because validation comes after it
    const res = await submitProposal(srv, proposal(srv, { submitterEmail: 'not-an-email', title: 'Free money' }), {});
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('svc_spam_suspected');
    expect(seen).toEqual(['127.0.0.1']);
    expect(checks).toHaveLength(1);
    expect(checks[0]).toMatchObject({ kind: 'submission', ip: '203.0.113.7', email: 'not-an-email', name: 'Pat Proposer', content: { title: 'Free money' } });
    expect(checks[0].headers).not.toHaveProperty('cookie');
    expect(await submissionRows(srv)).toHaveLength(before);
  });
});

describe('throttles (contract Limits)', () => {
  const nowMs = Date.UTC(2030, 0, 1, 12, 0, 10);

  it('per IP: 3 proposals in 10 minutes pass, the 4th is svc_rate_limited with the wait, the next window passes again', async () => {
    for (let i = 0; i < 3; i++) await expect(submitAt(nowMs + i * 1000, { submitterEmail: uniqueEmail() })).resolves.toMatchObject({ status: 'submitted' });
    await expect(submitAt(nowMs + 3000, { submitterEmail: uniqueEmail() })).rejects.toMatchObject({
      code: 'svc_rate_limited',
      data: { status: 429, retryAfter: 587 },
    });
    await expect(submitAt(nowMs + 600_000, { submitterEmail: uniqueEmail() })).resolves.toMatchObject({ status: 'submitted' });
  });

  it('per IP through the route: a full window answers 429 with Retry-After and stores nothing', async () => {
    const before = (await submissionRows(srv)).length;
    await fillWindows('submission:ip:127.0.0.1', 600, 3);
    const res = await submitProposal(srv, proposal(srv));
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('svc_rate_limited');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await submissionRows(srv)).toHaveLength(before);
  });

  it('an empty IP from svc_rsvp_client_ip turns the per-IP throttle off (honeypot and fill time still apply)', async () => {
    await fillWindows('submission:ip:127.0.0.1', 600, 3);
    ipFilter(() => '');
    for (let i = 0; i < 4; i++) expect((await submitProposal(srv, proposal(srv))).status).toBe(201);
    expect((await submitProposal(srv, proposal(srv, { svc_hp: 'x' }))).status).toBe(400);
    expect((await submitProposal(srv, proposal(srv, { svc_ts: agedSubmissionToken(srv, 1_000) }))).status).toBe(400);
  });

  it('per email: 3 proposals an hour per address (any case), also with the per-IP throttle off', async () => {
    ipFilter(() => '');
    for (let i = 0; i < 3; i++) await expect(submitAt(nowMs + i * 600_000, { submitterEmail: 'Same@Example.test' }, '')).resolves.toBeTruthy();
    await expect(submitAt(nowMs + 1_900_000, { submitterEmail: ' same@example.test' }, '')).rejects.toMatchObject({ code: 'svc_rate_limited' });
    await expect(submitAt(nowMs + 3_600_000, { submitterEmail: 'same@example.test' }, '')).resolves.toBeTruthy();
  });
});

describe('review by administrators', () => {
  it('Publish makes the draft a published event, keeps who proposed it, and mails the submitter its link', async () => {
    const { id, email } = await submitted({ title: 'Street concert' });
    const res = await admin.api.post(`/events/submissions/${id}/publish`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: 'published', submitterEmail: email });

    const publicView = await anonymous().get(`/events/${id}`);
    expect(publicView.status).toBe(200);
    expect(publicView.body).toMatchObject({ title: 'Street concert', status: 'published' });
    expect(publicView.body).not.toHaveProperty('submission');
    expect(JSON.stringify(publicView.body)).not.toContain(email);
    expect((await admin.api.get(`/events/${id}`)).body.submission).toMatchObject({ status: 'submitted', submitterEmail: email });

    const [mail] = await storedMails(db(), email);
    expect(mail!.subject).toBe('Your event is published: Street concert');
    expect(mail!.text).toContain(`/events/${id}`);

    const again = await admin.api.post(`/events/submissions/${id}/publish`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('svc_conflict');
    expect((await admin.api.post(`/events/submissions/${id}/reject`, {})).status).toBe(409);
    expect(await storedMails(db(), email)).toHaveLength(2);
  });

  it('Reject keeps a draft marked rejected and mails the submitter the reason', async () => {
    const { id, email } = await submitted({ title: 'Fireworks' });
    const res = await admin.api.post(`/events/submissions/${id}/reject`, { reason: 'Fireworks are not allowed in the park.' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: 'rejected' });
    expect((await submissionRows(srv)).find((r) => r.id === id)).toMatchObject({ status: 'draft', submission_status: 'rejected' });
    expect((await anonymous().get(`/events/${id}`)).status).toBe(404);

    const [mail] = await storedMails(db(), email);
    expect(mail!.subject).toBe('Your event proposal was not accepted: Fireworks');
    expect(mail!.text).toContain('Reason: Fireworks are not allowed in the park.');

    expect((await admin.api.post(`/events/submissions/${id}/publish`)).status).toBe(409);
  });

  it('Reject without a reason mails no reason line', async () => {
    const { id, email } = await submitted();
    expect((await admin.api.post(`/events/submissions/${id}/reject`)).status).toBe(200);
    const [mail] = await storedMails(db(), email);
    expect(mail!.text).not.toContain('Reason:');
  });

  it('an event nobody proposed is 404 to Publish and Reject, and stays as it was', async () => {
    const event = await createEvent(admin.api, { status: 'draft' });
    expect((await admin.api.post(`/events/submissions/${event.id}/publish`)).status).toBe(404);
    expect((await admin.api.post(`/events/submissions/${event.id}/reject`)).status).toBe(404);
    expect((await admin.api.get(`/events/${event.id}`)).body.status).toBe('draft');
  });

  it('GET /events/submissions lists proposals only, newest first, filtered by review state, with X-Total-Count', async () => {
    const ordinary = await createEvent(admin.api, { status: 'draft' });
    const pending = await submitted({ title: 'Pending one' });
    const published = await submitted({ title: 'Published one' });
    const rejected = await submitted({ title: 'Rejected one' });
    await admin.api.post(`/events/submissions/${published.id}/publish`);
    await admin.api.post(`/events/submissions/${rejected.id}/reject`);

    const all = await admin.api.get('/events/submissions?perPage=500');
    expect(all.status).toBe(200);
    const ids = all.body.map((s: { id: number }) => s.id);
    expect(ids).not.toContain(ordinary.id);
    expect(ids.indexOf(rejected.id)).toBeLessThan(ids.indexOf(pending.id));
    expect(Number(all.headers.get('x-total-count'))).toBe(all.body.length);
    expect(all.body.find((s: { id: number }) => s.id === pending.id)).toMatchObject({
      title: 'Pending one',
      status: 'submitted',
      submitterEmail: pending.email,
    });

    for (const [status, item] of [
      ['submitted', pending],
      ['published', published],
      ['rejected', rejected],
    ] as const) {
      const page = await admin.api.get(`/events/submissions?status=${status}&perPage=500`);
      expect(page.body.every((s: { status: string }) => s.status === status)).toBe(true);
      expect(page.body.map((s: { id: number }) => s.id)).toContain(item.id);
    }
    expect((await admin.api.get('/events/submissions?status=draft')).status).toBe(400);
  });

  it('the review operations are for administrators: anonymous callers get 401, not the public event route', async () => {
    expect((await anonymous().get('/events/submissions')).status).toBe(401);
    expect((await anonymous().post('/events/submissions/1/publish')).status).toBe(401);
    expect((await anonymous().post('/events/submissions/1/reject')).status).toBe(401);
  });
});

describe('the free edition', () => {
  it('answers 404 svc_not_found from every submission operation, the public post before its nonce check', async () => {
    const ctx = { ...srv.server.ctx, env: { ...srv.server.ctx.env, SVC_EDITION: 'free' as const } };
    const c = { req: { header: (name?: string) => (name === undefined ? {} : undefined) } } as never;
    const inputs: Record<string, unknown> = {
      form: undefined,
      submit: proposal(srv),
      list: { page: 1, perPage: 50 },
      publish: { id: 1 },
      reject: { id: 1, reason: '' },
    };
    const ops = submissionsOperations as Record<string, AnyOperation>;
    expect(Object.keys(ops).sort()).toEqual(Object.keys(inputs).sort());
    for (const [name, op] of Object.entries(ops)) {
      const run = async () => {
        await op.screen?.({ c, ctx, principal: null, ip: '127.0.0.1', raw: inputs[name] });
        return op.handler({ input: inputs[name], principal: null as never, ip: '127.0.0.1', ctx, c, reply: { status: () => undefined } });
      };
      await expect(run(), name).rejects.toMatchObject({ code: 'svc_not_found' });
    }
  });
});
