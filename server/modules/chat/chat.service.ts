/**
 * Team chat (docs/api.md#chat): a Slack-compatible incoming webhook hears about arrivals.
 *
 * A check-in never waits on the chat. Its listener adds one to the event's pending count
 * (`svc_chat_pending`) and, when that count went from 0 to 1, queues a flush job for when the next
 * message may go (10 s after the last). The flush locks the row, takes every pending check-in into
 * one message (the first one named, "… and N more"), resets the count and queues a send job with
 * the text fixed; only the send job talks to the outside, and it retries with backoff. The upsert's
 * row lock orders concurrent check-ins on any number of instances, so exactly one of them queues
 * the flush and none is lost or counted twice.
 */
import type { AppContext } from '../../context';
import { AppError } from '../../../shared/errors';
import type { ChatTestDto } from '../../../shared/chat';
import type { Db } from '../../db/client';
import { enqueueJob, OUTBOUND_RECEIVER } from '../../jobs/queue';
import { assertTargetAllowed, outboundPolicy, postOutbound, type OutboundPolicy } from '../../security/outbound';
import { checkinRepository } from '../checkin/checkin.repository';
import { requireExtended } from '../orders/payments.service';
import { chatRepository } from './chat.repository';

export const CHAT_FLUSH_JOB = 'chat.flush';
export const CHAT_SEND_JOB = 'chat.send';
export const CHAT_TEST_JOB = 'chat.test';
/** At most one message per event per this many seconds. */
export const CHAT_INTERVAL_SECONDS = 10;
/** A chat message is news for minutes, not hours: 6 attempts span about 2.5 minutes of backoff (5 s doubling). */
export const CHAT_SEND_ATTEMPTS = 6;
/** The chat's answer deadline: shorter than a webhook's, a message is small. */
const CHAT_TIMEOUT_MS = 10_000;

export const TEST_MESSAGE = 'Test message from svc: check-ins will be announced in this channel.';

/**
 * "Ada Lovelace checked in — Gala (132/200)", with " … and 7 more" when check-ins folded into it.
 * The counts are the dashboard's: seats checked in / seats going.
 */
export function chatText(m: { name: string; eventTitle: string; seatsCheckedIn: number; seatsGoing: number; more: number }): string {
  const text = `${m.name} checked in — ${m.eventTitle} (${m.seatsCheckedIn}/${m.seatsGoing})`;
  return m.more > 0 ? `${text} … and ${m.more} more` : text;
}

/** Posts `{text}`; anything but a 2xx throws (the job retries). */
async function postChat(url: string, text: string, policy: OutboundPolicy): Promise<void> {
  const res = await postOutbound(url, JSON.stringify({ text }), {}, policy, { timeoutMs: CHAT_TIMEOUT_MS });
  if (res.status < 200 || res.status > 299) throw new Error(`the chat answered HTTP ${res.status}`);
}

export function chatService(ctx: Pick<AppContext, 'db' | 'env'>, db: Db = ctx.db) {
  const repo = chatRepository(db);
  const policy = outboundPolicy(ctx.env);

  return {
    /** The listener's one small write: count the check-in and queue the flush if it is the first pending. */
    async recordCheckin(checkinId: number, eventId: number): Promise<void> {
      await db.transaction(async (tx) => {
        const txRepo = chatRepository(tx);
        const row = await txRepo.recordCheckin(eventId, checkinId, CHAT_INTERVAL_SECONDS);
        if (row?.pendingCount !== 1) return;
        await enqueueJob(tx, CHAT_FLUSH_JOB, { eventId, dueUtc: row.dueUtc }, { runAtUtc: row.dueUtc, maxAttempts: CHAT_SEND_ATTEMPTS });
      });
    },

    /**
     * Takes the pending check-ins into one message and queues its send job. `dueUtc` (when the
     * flush was due) stands in for "now" when it is later than the database clock, so a test
     * driving the runner with its own clock spaces the messages by that clock.
     */
    async flush(eventId: number, dueUtc: string): Promise<void> {
      await db.transaction(async (tx) => {
        const txRepo = chatRepository(tx);
        const claimed = await txRepo.claimPending(eventId, dueUtc);
        if (!claimed) return;
        const { event, attendee } = await txRepo.messageFacts(eventId, claimed.firstCheckinId);
        const url = event?.chatWebhookUrl || (await txRepo.defaultUrl());
        if (!event || !url) return;
        const counts = await checkinRepository(tx).counts(eventId);
        const text = chatText({
          name: attendee ? attendee.displayName || attendee.email : 'An attendee',
          eventTitle: event.title,
          seatsCheckedIn: counts.seatsCheckedIn,
          seatsGoing: counts.seatsGoing,
          more: claimed.pendingCount - 1,
        });
        // the event's chat is the job's receiver: one message at a time in the outbound lane
        await enqueueJob(tx, CHAT_SEND_JOB, { eventId, url, text, [OUTBOUND_RECEIVER]: `chat:${eventId}` }, { maxAttempts: CHAT_SEND_ATTEMPTS });
      });
    },

    /** One message to the chat; the event's last error is kept for the admin (cleared on success). */
    async send(eventId: number, url: string, text: string): Promise<void> {
      try {
        await postChat(url, text, policy);
      } catch (err) {
        await repo.setLastError(eventId, err instanceof Error ? err.message : String(err));
        throw err;
      }
      await repo.setLastError(eventId, null);
    },

    /** Admin "Send a test message": checked like a saved address, then queued (202); its state is `testStatus`. */
    async queueTest(url: string): Promise<ChatTestDto> {
      requireExtended(ctx);
      assertTargetAllowed(url, policy, 'url');
      // one attempt: the admin is waiting for the verdict, not for a retry minutes later
      const id = await enqueueJob(db, CHAT_TEST_JOB, { url }, { maxAttempts: 1 });
      if (id === null) throw new AppError('svc_internal');
      return { id, state: 'queued', error: null };
    },

    async testStatus(id: number): Promise<ChatTestDto> {
      requireExtended(ctx);
      const job = await repo.findJob(id, CHAT_TEST_JOB);
      if (!job) throw new AppError('svc_not_found', 'No such test message.');
      const state = job.state === 'done' ? 'sent' : job.state === 'failed' ? 'failed' : 'queued';
      return { id: job.id, state, error: state === 'failed' ? job.lastError : null };
    },

    async sendTest(url: string): Promise<void> {
      await postChat(url, TEST_MESSAGE, policy);
    },
  };
}
export type ChatService = ReturnType<typeof chatService>;
