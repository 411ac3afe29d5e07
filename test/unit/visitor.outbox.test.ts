/** The svc-visitor outbox, drafts and cache on fake-indexeddb: queued, sent once, outcome kept. */
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VisitorDb } from '../../client/visitor/db';
import { clearDraft, draftSaver, loadDraft, saveDraft } from '../../client/visitor/drafts';
import { claimNext, enqueue, flushOutbox, pendingCount, STALE_CLAIM_MS, type OutboxTransport } from '../../client/visitor/outbox';
import { readCache, writeCache } from '../../client/visitor/cache';
import { toUtcString } from '../../shared/time';

class Offline extends Error {}
class Answer extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    readonly retryAfter?: number,
  ) {
    super(code);
  }
}

let db: VisitorDb;
let seq = 0;
const NOW = Date.UTC(2030, 0, 1, 12);
const inADay = toUtcString(NOW + 86_400_000);

beforeEach(async () => {
  seq += 1;
  db = new VisitorDb(`svc-visitor-test-${seq}`);
  await db.open();
});
afterEach(async () => {
  await db.delete();
});

/** A transport whose server answers from a script; records what was sent. */
function fakeTransport(answer: (body: Record<string, unknown>, nonce: string) => unknown, now = () => NOW) {
  const sent: Array<{ kind: string; nonce: string; body: Record<string, unknown> }> = [];
  let nonces = 0;
  const transport: OutboxTransport = {
    async send(sub) {
      sent.push({ kind: sub.kind, nonce: sub.nonce, body: sub.body });
      return answer(sub.body, sub.nonce);
    },
    async freshNonce() {
      nonces += 1;
      return { nonce: `fresh-${nonces}`, expiresUtc: inADay };
    },
    classify(error) {
      if (error instanceof Offline) return { kind: 'network' };
      const a = error as Answer;
      return { kind: 'answer', error: { code: a.code, message: `message for ${a.code}`, status: a.status }, retryAfterSeconds: a.retryAfter };
    },
    now,
  };
  return { transport, sent, nonceCount: () => nonces };
}

const booking = (extra: Record<string, unknown> = {}) => ({
  kind: 'booking' as const,
  targetId: 7,
  body: { bookingTypeId: 7, startUtc: '2030-01-02 10:00:00', ...extra },
  nonce: 'stored-nonce',
  nonceExpiresUtc: inADay,
  notBefore: 0,
});

describe('visitor outbox', () => {
  it('an entry queued offline stays queued, then is sent once with the stored nonce and keeps the answer', async () => {
    let online = false;
    const { transport, sent } = fakeTransport(() => {
      if (!online) throw new Offline();
      return { bookingId: 1, status: 'confirmed' };
    });
    const id = await enqueue(db, { ...booking(), queuedOffline: true }, NOW);

    const first = await flushOutbox(db, transport);
    expect(first).toMatchObject({ sent: 0, offline: true, waiting: 1 });
    expect((await db.outbox.get(id))?.state).toBe('queued');

    online = true;
    const second = await flushOutbox(db, transport);
    expect(second).toMatchObject({ sent: 1, failed: 0, waiting: 0 });
    const entry = await db.outbox.get(id);
    expect(entry).toMatchObject({ state: 'done', result: { bookingId: 1, status: 'confirmed' }, queuedOffline: true });
    expect(entry?.claimedAt).toBeUndefined();
    expect(sent.map((s) => s.nonce)).toEqual(['stored-nonce', 'stored-nonce']);

    await flushOutbox(db, transport);
    expect(sent).toHaveLength(2); // a done entry is never sent again
  });

  it('a refusal is kept as the outcome (slot taken), not retried', async () => {
    const { transport, sent } = fakeTransport(() => {
      throw new Answer('svc_booking_slot_unavailable', 409);
    });
    const id = await enqueue(db, booking(), NOW);
    const report = await flushOutbox(db, transport);
    expect(report).toMatchObject({ sent: 0, failed: 1, waiting: 0 });
    expect((await db.outbox.get(id))?.error).toEqual({
      code: 'svc_booking_slot_unavailable',
      message: 'message for svc_booking_slot_unavailable',
      status: 409,
    });
    await flushOutbox(db, transport);
    expect(sent).toHaveLength(1);
  });

  it('an expired or missing nonce is replaced before sending; a refused nonce is renewed once', async () => {
    const { transport, sent, nonceCount } = fakeTransport(() => ({ ok: true }));
    const expired = await enqueue(db, { ...booking(), nonce: 'old', nonceExpiresUtc: toUtcString(NOW - 1000) }, NOW);
    const missing = await enqueue(db, { ...booking(), nonce: '', nonceExpiresUtc: '' }, NOW);
    await flushOutbox(db, transport);
    expect(sent.map((s) => s.nonce)).toEqual(['fresh-1', 'fresh-2']);
    expect(nonceCount()).toBe(2);
    expect((await db.outbox.get(expired))?.state).toBe('done');
    expect((await db.outbox.get(missing))?.state).toBe('done');

    const { transport: t2, sent: sent2 } = fakeTransport(() => {
      throw new Answer('svc_invalid_nonce', 403);
    });
    const id = await enqueue(db, booking(), NOW);
    await flushOutbox(db, t2);
    expect(sent2.map((s) => s.nonce)).toEqual(['stored-nonce', 'fresh-1']);
    expect((await db.outbox.get(id))?.state).toBe('failed');
  });

  it('waits for notBefore (minimum fill time) and for Retry-After when throttled', async () => {
    let now = NOW;
    let throttled = true;
    const { transport, sent } = fakeTransport(
      () => {
        if (throttled) throw new Answer('svc_rate_limited', 429, 30);
        return { id: 1, status: 'going' };
      },
      () => now,
    );
    const id = await enqueue(db, { ...booking(), kind: 'signup', notBefore: NOW + 3400 }, NOW);
    expect(await flushOutbox(db, transport)).toMatchObject({ sent: 0, waiting: 1, nextDueAt: NOW + 3400 });
    expect(sent).toHaveLength(0);

    now = NOW + 3400;
    expect(await flushOutbox(db, transport)).toMatchObject({ sent: 0, failed: 0, waiting: 1, nextDueAt: NOW + 3400 + 30_000 });
    // queued again, with the throttle's answer kept so the page can say why it waits
    expect(await db.outbox.get(id)).toMatchObject({ state: 'queued', error: { code: 'svc_rate_limited', status: 429 } });

    throttled = false;
    now = NOW + 3400 + 30_000;
    expect(await flushOutbox(db, transport)).toMatchObject({ sent: 1, waiting: 0 });
    expect(await pendingCount(db)).toBe(0);
    expect((await db.outbox.get(id))?.error).toBeUndefined();
  });

  it('a request the server could not serve for a moment (503 svc_unavailable) stays queued and is sent after Retry-After, never failed', async () => {
    let now = NOW;
    let down = true;
    const { transport, sent } = fakeTransport(
      () => {
        if (down) throw new Answer('svc_unavailable', 503, 2);
        return { id: 1, status: 'going' };
      },
      () => now,
    );
    const id = await enqueue(db, booking(), NOW);
    expect(await flushOutbox(db, transport)).toMatchObject({ sent: 0, failed: 0, waiting: 1, nextDueAt: NOW + 2000 });
    expect((await db.outbox.get(id))?.state).toBe('queued');

    down = false;
    now = NOW + 2000;
    expect(await flushOutbox(db, transport)).toMatchObject({ sent: 1, failed: 0, waiting: 0 });
    expect(sent).toHaveLength(2);
  });

  it('two flushes at once send an entry once; a claim left by a dead tab is taken over after the stale limit', async () => {
    const { transport, sent } = fakeTransport(async () => ({ ok: true }));
    await enqueue(db, booking(), NOW);
    await Promise.all([flushOutbox(db, transport), flushOutbox(db, transport)]);
    expect(sent).toHaveLength(1);

    const id = await enqueue(db, booking({ startUtc: '2030-01-03 10:00:00' }), NOW);
    expect((await claimNext(db, NOW))?.id).toBe(id); // this tab "dies" holding the claim
    expect(await claimNext(db, NOW + 1000)).toBeUndefined();
    expect((await claimNext(db, NOW + STALE_CLAIM_MS + 1))?.id).toBe(id);
  });
});

describe('drafts', () => {
  it('what was typed is stored and read back after a "reload" (a new connection)', async () => {
    await saveDraft(db, 'signup:3', { email: 'a@example.test', svc_cf_diet: 'vegan', topics: ['a', 'b'] });
    const reopened = new VisitorDb(db.name);
    expect(await loadDraft(reopened, 'signup:3')).toEqual({ email: 'a@example.test', svc_cf_diet: 'vegan', topics: ['a', 'b'] });
    reopened.close();
    await clearDraft(db, 'signup:3');
    expect(await loadDraft(db, 'signup:3')).toBeUndefined();
  });

  it('the saver writes the latest values on flush', async () => {
    const saver = draftSaver(db, 'booking:1', 10_000);
    saver.save({ name: 'A' });
    saver.save({ name: 'Ada' });
    expect(await loadDraft(db, 'booking:1')).toBeUndefined();
    await saver.flush();
    expect(await loadDraft(db, 'booking:1')).toEqual({ name: 'Ada' });
  });
});

describe('cache', () => {
  it('keeps the value with the time it was fetched', async () => {
    await writeCache(db, 'slots:1:UTC:2030-01', [{ start_utc: '2030-01-02 10:00:00' }], NOW - 60_000);
    expect(await readCache(db, 'slots:1:UTC:2030-01')).toEqual({ value: [{ start_utc: '2030-01-02 10:00:00' }], fetchedAt: NOW - 60_000 });
    expect(await readCache(db, 'nothing')).toBeUndefined();
  });
});
