/**
 * The visitor outbox: every sign-up and booking is stored first, then sent — at once when
 * the network is there, otherwise when it returns (`online`, the page becoming visible, app
 * start). The outcome (the server's answer or its error) is written back to the entry, so
 * the page that queued it — or the same page after a reload — shows what happened.
 */
import { parseUtcString } from '../../shared/time';
import type { Submission, SubmissionError, VisitorDb } from './db';

/** A claim older than this belongs to a tab that died mid-send; another may take it over. */
export const STALE_CLAIM_MS = 60_000;
/** A nonce that expires sooner than this is replaced before sending. */
const NONCE_MARGIN_MS = 5 * 60_000;
/** Retry-After used when a throttle answer carries none. */
const DEFAULT_RETRY_MS = 60_000;

export type NewSubmission = Pick<Submission, 'kind' | 'targetId' | 'body' | 'nonce' | 'nonceExpiresUtc' | 'notBefore'> & {
  queuedOffline?: boolean;
};

/** What sending needs from the outside world (the real network in the app, fakes in tests). */
export interface OutboxTransport {
  send(submission: Submission): Promise<unknown>;
  freshNonce(): Promise<{ nonce: string; expiresUtc: string }>;
  /** Classifies a thrown error: the network was not reached, or the server answered. */
  classify(error: unknown): { kind: 'network' } | { kind: 'answer'; error: SubmissionError; retryAfterSeconds?: number };
  now?(): number;
}

export interface FlushReport {
  sent: number;
  failed: number;
  /** Left queued: offline, throttled or not yet due. */
  waiting: number;
  /** The earliest `notBefore` still ahead, to schedule the next attempt. */
  nextDueAt?: number;
  offline: boolean;
}

export async function enqueue(db: VisitorDb, input: NewSubmission, now = Date.now()): Promise<number> {
  const id = await db.outbox.add({
    ...input,
    queuedOffline: input.queuedOffline ?? false,
    createdAt: now,
    state: 'queued',
    attempts: 0,
  });
  return id as number;
}

function nonceUsable(sub: Submission, now: number): boolean {
  if (!sub.nonce) return false;
  const expires = sub.nonceExpiresUtc ? parseUtcString(sub.nonceExpiresUtc) : null;
  return expires === null || expires.getTime() - now > NONCE_MARGIN_MS;
}

/** Takes the next due entry for this caller (atomically, so two tabs never send one entry twice). */
export async function claimNext(db: VisitorDb, now: number): Promise<Submission | undefined> {
  return db.transaction('rw', db.outbox, async () => {
    const candidates = await db.outbox.where('state').anyOf('queued', 'sending').sortBy('id');
    const due = candidates.find((s) => (s.state === 'queued' ? s.notBefore <= now : (s.claimedAt ?? 0) < now - STALE_CLAIM_MS));
    if (!due) return undefined;
    await db.outbox.update(due.id!, { state: 'sending', claimedAt: now, attempts: due.attempts + 1 });
    return { ...due, state: 'sending', claimedAt: now, attempts: due.attempts + 1 };
  });
}

/** Sends every due entry in order; stops at the first network failure (the rest would fail too). */
export async function flushOutbox(db: VisitorDb, transport: OutboxTransport): Promise<FlushReport> {
  const now = () => transport.now?.() ?? Date.now();
  const report: FlushReport = { sent: 0, failed: 0, waiting: 0, offline: false };
  for (;;) {
    const sub = await claimNext(db, now());
    if (!sub) break;
    const outcome = await sendOne(db, sub, transport, now);
    if (outcome === 'sent') report.sent += 1;
    else if (outcome === 'failed') report.failed += 1;
    else if (outcome === 'offline') {
      report.offline = true;
      break;
    }
  }
  const left = await db.outbox.where('state').anyOf('queued', 'sending').toArray();
  report.waiting = left.length;
  const ahead = left.filter((s) => s.state === 'queued').map((s) => s.notBefore);
  if (ahead.length > 0) report.nextDueAt = Math.min(...ahead);
  return report;
}

async function sendOne(db: VisitorDb, claimed: Submission, transport: OutboxTransport, now: () => number): Promise<'sent' | 'failed' | 'offline' | 'later'> {
  let sub = claimed;
  const id = sub.id!;
  const release = (changes: Partial<Submission> = {}) => db.outbox.update(id, { state: 'queued', claimedAt: undefined, ...changes });
  // One fresh nonce per entry at most: a second refusal is a real answer.
  let renewed = false;
  for (;;) {
    try {
      if (!nonceUsable(sub, now())) {
        const fresh = await transport.freshNonce();
        renewed = true;
        sub = { ...sub, nonce: fresh.nonce, nonceExpiresUtc: fresh.expiresUtc };
        await db.outbox.update(id, { nonce: sub.nonce, nonceExpiresUtc: sub.nonceExpiresUtc });
      }
      const result = await transport.send(sub);
      await db.outbox.update(id, { state: 'done', result, error: undefined, claimedAt: undefined, finishedAt: now() });
      return 'sent';
    } catch (error) {
      const verdict = transport.classify(error);
      if (verdict.kind === 'network') {
        await release();
        return 'offline';
      }
      if (verdict.error.code === 'svc_invalid_nonce' && !renewed) {
        sub = { ...sub, nonce: '' };
        continue;
      }
      // throttled, or the server lost its database for a moment: the same request, later; the
      // answer stays on the entry so the page can say why it waits (a throttle is not "sending")
      if (verdict.error.code === 'svc_rate_limited' || verdict.error.code === 'svc_unavailable') {
        await release({ notBefore: now() + (verdict.retryAfterSeconds ? verdict.retryAfterSeconds * 1000 : DEFAULT_RETRY_MS), error: verdict.error });
        return 'later';
      }
      await db.outbox.update(id, { state: 'failed', error: verdict.error, claimedAt: undefined, finishedAt: now() });
      return 'failed';
    }
  }
}

/** Entries not yet answered (queued or being sent). */
export function pendingCount(db: VisitorDb): Promise<number> {
  return db.outbox.where('state').anyOf('queued', 'sending').count();
}
