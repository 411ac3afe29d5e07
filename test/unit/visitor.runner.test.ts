/**
 * The outbox's real transport (client/visitor/runner.ts) against a scripted `fetch`: entries
 * replay over tRPC with their nonce as X-Svc-Nonce, no answer keeps them queued, and the
 * server's refusal is kept as the outcome.
 */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { VisitorDb } from '../../client/visitor/db';
import { enqueue, flushOutbox } from '../../client/visitor/outbox';
import { liveTransport, type BookingSubmissionBody } from '../../client/visitor/runner';
import { toUtcString } from '../../shared/time';
import { transformer } from '../../shared/transformer';

interface Seen {
  path: string;
  method: string;
  nonce: string | null;
  body: unknown;
}

let db: VisitorDb;
let seq = 0;
const inADay = () => toUtcString(Date.now() + 86_400_000);

beforeEach(async () => {
  seq += 1;
  db = new VisitorDb(`svc-visitor-runner-test-${seq}`);
  await db.open();
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await db.delete();
});

/** Stubs `fetch` with a server that answers from `answer`; records each request. */
function fakeServer(answer: (seen: Seen) => Response | Promise<Response>): Seen[] {
  const seen: Seen[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://svc.test');
    const request: Seen = {
      path: url.pathname,
      method: init?.method ?? 'GET',
      nonce: new Headers(init?.headers).get('x-svc-nonce'),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    seen.push(request);
    return answer(request);
  });
  return seen;
}

const ok = (data: unknown) => Response.json({ result: { data: transformer.serialize(data) } });
const refusal = (svcCode: string, httpStatus: number, message: string, params: Record<string, string> | null = null) =>
  Response.json({ error: transformer.serialize({ message, code: -32009, data: { code: 'CONFLICT', httpStatus, svcCode, params } }) }, { status: httpStatus });

const bookingBody: BookingSubmissionBody = {
  bookingTypeId: 7,
  startUtc: '2030-01-02 10:00:00',
  quantity: 1,
  customerName: 'Vera',
  customerEmail: 'vera@example.test',
  customerTz: 'Europe/Berlin',
};
const booking = () => ({ kind: 'booking' as const, targetId: 7, body: bookingBody, nonce: 'stored-nonce', nonceExpiresUtc: inADay(), notBefore: 0 });

describe('visitor outbox over tRPC', () => {
  it('a booking waits while fetch fails, then goes to booking.create with its nonce and keeps the answer', async () => {
    let online = false;
    const created = { bookingId: 3, status: 'confirmed', startUtc: '2030-01-02 10:00:00', endUtc: '2030-01-02 10:30:00', hostUserId: 2 };
    const seen = fakeServer(() => {
      if (!online) throw new TypeError('Failed to fetch');
      return ok(created);
    });
    const id = await enqueue(db, { ...booking(), queuedOffline: true });

    expect(await flushOutbox(db, liveTransport)).toMatchObject({ sent: 0, offline: true, waiting: 1 });
    expect((await db.outbox.get(id))?.state).toBe('queued');

    online = true;
    expect(await flushOutbox(db, liveTransport)).toMatchObject({ sent: 1, failed: 0, waiting: 0 });
    expect(await db.outbox.get(id)).toMatchObject({ state: 'done', result: created });
    expect(seen.at(-1)).toEqual({ path: '/trpc/booking.create', method: 'POST', nonce: 'stored-nonce', body: { json: bookingBody } });
  });

  it('a sign-up goes to attendees.signup as {id, fields}', async () => {
    const seen = fakeServer(() => ok({ id: 11, status: 'going' }));
    const fields = { email: 'ada@example.test', display_name: 'Ada', quantity: 2, svc_ts: 'token', svc_hp: '', svc_cf_diet: 'vegan' };
    const id = await enqueue(db, { ...booking(), kind: 'signup', targetId: 5, body: fields });
    await flushOutbox(db, liveTransport);
    expect(await db.outbox.get(id)).toMatchObject({ state: 'done', result: { id: 11, status: 'going' } });
    expect(seen).toEqual([{ path: '/trpc/attendees.signup', method: 'POST', nonce: 'stored-nonce', body: { json: { id: 5, fields } } }]);
  });

  it("the server's refusal is the outcome, with its code, message, status and fields", async () => {
    fakeServer(() => refusal('svc_invalid_param', 400, 'Please check the highlighted fields.', { customerEmail: 'must be an email address' }));
    const id = await enqueue(db, booking());
    expect(await flushOutbox(db, liveTransport)).toMatchObject({ sent: 0, failed: 1, waiting: 0 });
    expect((await db.outbox.get(id))?.error).toEqual({
      code: 'svc_invalid_param',
      message: 'Please check the highlighted fields.',
      status: 400,
      params: { customerEmail: 'must be an email address' },
    });
  });

  it('a missing nonce is fetched from system.nonce first; a taken slot fails the entry', async () => {
    const seen = fakeServer((request) =>
      request.path === '/trpc/system.nonce'
        ? Response.json([{ result: { data: transformer.serialize({ nonce: 'fresh', expiresUtc: inADay() }) } }])
        : refusal('svc_booking_slot_unavailable', 409, 'That time is no longer available.'),
    );
    const id = await enqueue(db, { ...booking(), nonce: '', nonceExpiresUtc: '' });
    await flushOutbox(db, liveTransport);
    expect(seen.map((s) => [s.path, s.nonce])).toEqual([
      ['/trpc/system.nonce', null],
      ['/trpc/booking.create', 'fresh'],
    ]);
    expect(await db.outbox.get(id)).toMatchObject({ state: 'failed', nonce: 'fresh', error: { code: 'svc_booking_slot_unavailable', status: 409 } });
  });
});
