/**
 * Sends the visitor outbox with the real network: on start, when the browser comes back
 * online, when the page becomes visible again, when a page queues something, and when a
 * queued entry falls due (minimum fill time, throttle).
 */
import type { inferRouterInputs } from '@trpc/server';
import { createKick } from '../offline/kick';
import { onReconnect } from '../offline/reconnect';
import { ApiError, NetworkError } from '../ui/errors';
import { call, rpc, type AppRouter } from '../ui/trpc';
import type { Submission } from './db';
import { openVisitorDb } from './open-db';
import { flushOutbox, type OutboxTransport } from './outbox';
import { fetchNonce } from './nonce';

/** localStorage flag: something is queued, so the shell starts the runner on any page. */
export const PENDING_FLAG = 'svc-visitor-pending';

type Inputs = inferRouterInputs<AppRouter>;
/** A queued booking's `body`: `booking.create`'s input (the book page builds it with this type). */
export type BookingSubmissionBody = Inputs['booking']['create'];
/** A queued sign-up's `body`: `attendees.signup`'s `fields` (the event page builds it, see form-fields.ts). */
export type SignupSubmissionBody = Inputs['attendees']['signup']['fields'];

/**
 * Sends one entry over tRPC with its nonce as X-Svc-Nonce. A failure becomes `ApiError` (the
 * server answered) or `NetworkError` (it was not reached: the entry stays queued).
 */
export function sendSubmission(sub: Submission): Promise<unknown> {
  const options = { context: { nonce: sub.nonce } };
  switch (sub.kind) {
    case 'signup':
      return call(rpc().attendees.signup.mutate({ id: sub.targetId, fields: sub.body satisfies SignupSubmissionBody }, options));
    case 'booking':
      // stored JSON, built as BookingSubmissionBody by the book page; the server validates it again
      return call(rpc().booking.create.mutate(sub.body as BookingSubmissionBody, options));
    default:
      return Promise.reject(new Error(`unknown submission kind ${String((sub as { kind: unknown }).kind)}`));
  }
}

export const liveTransport: OutboxTransport = {
  send: sendSubmission,
  freshNonce: () => fetchNonce(),
  classify(error) {
    if (error instanceof NetworkError) return { kind: 'network' };
    if (error instanceof ApiError) {
      const retry = Number(error.data?.retryAfter);
      return {
        kind: 'answer',
        error: { code: error.code, message: error.message, status: error.status, params: paramsOf(error.data?.params) },
        retryAfterSeconds: Number.isFinite(retry) && retry > 0 ? retry : undefined,
      };
    }
    return { kind: 'answer', error: { code: 'svc_internal', message: 'Something went wrong. Please try again.', status: 0 } };
  },
};

function paramsOf(value: unknown): Record<string, string> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
}

let started = false;
let timer: ReturnType<typeof setTimeout> | undefined;

/** One flush; a due entry sets the timer for the next kick. Never rejects. */
async function flushRound(): Promise<void> {
  try {
    const report = await flushOutbox(await openVisitorDb(), liveTransport);
    if (report.waiting === 0) localStorage.removeItem(PENDING_FLAG);
    else localStorage.setItem(PENDING_FLAG, '1');
    clearTimeout(timer);
    if (!report.offline && report.nextDueAt !== undefined) {
      timer = setTimeout(() => void kickOutbox(), Math.max(50, report.nextDueAt - Date.now()));
    }
  } catch (error) {
    // IndexedDB refused (private mode, quota): the page shows the entry as still waiting
    console.warn('[svc] visitor outbox flush failed', error);
  }
}

/** Runs a flush now (or right after the one in progress). */
export const kickOutbox: () => Promise<void> = createKick(flushRound);

/** A flush only when something is queued (PENDING_FLAG): a visit with nothing queued never opens the database. */
function kickIfPending(): void {
  if (localStorage.getItem(PENDING_FLAG)) void kickOutbox();
}

export function startOutboxRunner(): void {
  if (started) return;
  started = true;
  onReconnect(kickIfPending);
  kickIfPending();
}
