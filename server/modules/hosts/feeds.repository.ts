import { and, asc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { FeedScope } from '../../../shared/feeds';
import { users } from '../../auth/auth.sql';
import { bookingMeetings, bookings, bookingTypes } from '../booking/booking.sql';
import { calendarFeeds } from './feeds.sql';

export type CalendarFeedRow = typeof calendarFeeds.$inferSelect;

/** Bookings a feed lists: held seats that will take place (a pending payment is a hold, not a booking yet). */
const LISTED_STATUSES = ['confirmed', 'pending_approval'] as const;

/** Queries only; the rules live in feeds.service.ts. */
export const feedsRepository = {
  async find(db: Db, userId: number, scope: FeedScope): Promise<CalendarFeedRow | null> {
    const [row] = await db
      .select()
      .from(calendarFeeds)
      .where(and(eq(calendarFeeds.userId, userId), eq(calendarFeeds.scope, scope)));
    return row ?? null;
  },

  async findById(db: Db, id: number): Promise<CalendarFeedRow | null> {
    const [row] = await db.select().from(calendarFeeds).where(eq(calendarFeeds.id, id));
    return row ?? null;
  },

  /** A new nonce for the user's feed (made when missing): the address it had stops working. */
  async replace(db: Db, userId: number, scope: FeedScope, nonce: string): Promise<CalendarFeedRow> {
    const [row] = await db
      .insert(calendarFeeds)
      .values({ userId, scope, nonce })
      .onConflictDoUpdate({ target: [calendarFeeds.userId, calendarFeeds.scope], set: { nonce, createdUtc: sql`excluded.created_utc` } })
      .returning();
    return row!;
  },

  async remove(db: Db, userId: number, scope: FeedScope): Promise<boolean> {
    const removed = await db
      .delete(calendarFeeds)
      .where(and(eq(calendarFeeds.userId, userId), eq(calendarFeeds.scope, scope)))
      .returning({ id: calendarFeeds.id });
    return removed.length > 0;
  },

  async user(db: Db, userId: number) {
    const [row] = await db
      .select({ id: users.id, role: users.role, displayName: users.displayName, email: users.email, language: users.language })
      .from(users)
      .where(eq(users.id, userId));
    return row ?? null;
  },

  /** The bookings a feed lists, from `sinceUtc` on, with their type; at most `limit`, earliest first. */
  bookingsOf(db: Db, hostUserId: number | null, sinceUtc: string, limit: number) {
    return db
      .select({ booking: bookings, type: bookingTypes, meetingUrl: bookingMeetings.url })
      .from(bookings)
      .innerJoin(bookingTypes, eq(bookingTypes.id, bookings.bookingTypeId))
      .leftJoin(bookingMeetings, eq(bookingMeetings.bookingId, bookings.bookingId))
      .where(
        and(
          hostUserId === null ? undefined : eq(bookings.hostUserId, hostUserId),
          inArray(bookings.status, [...LISTED_STATUSES]),
          gte(bookings.endUtc, sinceUtc),
        ),
      )
      .orderBy(asc(bookings.startUtc), asc(bookings.bookingId))
      .limit(limit);
  },
};
