import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { utcTimestamp } from '../../db/columns';

/**
 * Team chat folding (docs/api.md#chat): per event, the check-ins not yet announced and when the
 * last message went out. At most one message per event per 10 s; the rest fold into the next.
 */
export const chatPending = pgTable('svc_chat_pending', {
  eventId: integer('event_id').primaryKey(),
  /** The first unannounced check-in (its attendee is named in the message). */
  firstCheckinId: integer('first_checkin_id'),
  /** Unannounced check-ins, the first included. */
  pendingCount: integer('pending_count').notNull().default(0),
  lastSentUtc: utcTimestamp('last_sent_utc'),
  lastError: text('last_error'),
});
