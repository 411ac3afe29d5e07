import { and, eq, inArray, sql } from 'drizzle-orm';
import { queryRows, utcText, type Db } from '../../db/client';
import { nowUtc } from '../../db/columns';
import { jobs } from '../../jobs/jobs.sql';
import { settings } from '../../security/security.sql';
import { attendees } from '../attendees/attendees.sql';
import { checkins } from '../checkin/checkin.sql';
import { events } from '../events/events.sql';
import { CHAT_SETTING_KEY } from '../settings/settings.repository';
import { chatPending } from './chat.sql';

/** The pending state the flush job claimed: what the next message announces. */
export interface ClaimedPending {
  firstCheckinId: number | null;
  pendingCount: number;
}

export function chatRepository(db: Db) {
  return {
    /**
     * One check-in more to announce, when the event or the settings name a chat. Answers the
     * pending count after it and when the next message may go (null: nothing recorded, no chat).
     * The upsert's row lock orders concurrent check-ins: exactly one sees the count go to 1.
     */
    async recordCheckin(eventId: number, checkinId: number, intervalSeconds: number): Promise<{ pendingCount: number; dueUtc: string } | null> {
      const [row] = await queryRows<{ pendingCount: number; dueUtc: string }>(
        db,
        sql`insert into ${chatPending} as p (event_id, first_checkin_id, pending_count)
            select ${eventId}, ${checkinId}, 1
            where exists (select 1 from ${events} e where e.id = ${eventId} and e.chat_webhook_url <> '')
               or exists (select 1 from ${settings} s where s.key = ${CHAT_SETTING_KEY} and s.value <> '""'::jsonb)
            on conflict (event_id) do update set
              pending_count = p.pending_count + 1,
              first_checkin_id = coalesce(p.first_checkin_id, excluded.first_checkin_id)
            returning pending_count as "pendingCount",
              ${utcText(sql`greatest(${nowUtc}, coalesce(p.last_sent_utc + make_interval(secs => ${intervalSeconds}), ${nowUtc}))`)} as "dueUtc"`,
      );
      return row ?? null;
    },

    /** Locks the event's pending row and hands its check-ins to one message: the count starts again from 0. */
    async claimPending(eventId: number, sentUtc: string): Promise<ClaimedPending | null> {
      const [row] = await db.select().from(chatPending).where(eq(chatPending.eventId, eventId)).for('update');
      if (!row || row.pendingCount === 0) return null;
      await db
        .update(chatPending)
        .set({ firstCheckinId: null, pendingCount: 0, lastSentUtc: sql`greatest(${nowUtc}, ${sentUtc}::timestamp)` as never })
        .where(eq(chatPending.eventId, eventId));
      return { firstCheckinId: row.firstCheckinId, pendingCount: row.pendingCount };
    },

    async setLastError(eventId: number, error: string | null): Promise<void> {
      await db.update(chatPending).set({ lastError: error }).where(eq(chatPending.eventId, eventId));
    },

    /** The event's title and chat address, and the attendee a check-in was of. */
    async messageFacts(eventId: number, checkinId: number | null) {
      const [event] = await db.select({ title: events.title, chatWebhookUrl: events.chatWebhookUrl }).from(events).where(eq(events.id, eventId));
      const [who] =
        checkinId === null
          ? []
          : await db
              .select({ displayName: attendees.displayName, email: attendees.email })
              .from(checkins)
              .innerJoin(attendees, eq(attendees.id, checkins.attendeeId))
              .where(eq(checkins.id, checkinId));
      return { event: event ?? null, attendee: who ?? null };
    },

    async defaultUrl(): Promise<string> {
      const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, CHAT_SETTING_KEY));
      return typeof row?.value === 'string' ? row.value : '';
    },

    /** A test message's job, by id (only jobs of `type`). */
    async findJob(id: number, type: string) {
      const [row] = await db
        .select({ id: jobs.id, state: jobs.state, lastError: jobs.lastError })
        .from(jobs)
        .where(and(eq(jobs.id, id), inArray(jobs.type, [type])));
      return row ?? null;
    },
  };
}
export type ChatRepository = ReturnType<typeof chatRepository>;
