import { integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../../auth/auth.sql';
import { nowUtc, utcTimestamp } from '../../db/columns';
import type { FeedScope } from '../../../shared/feeds';

/**
 * Private calendar feeds (docs/api.md#calendar-feeds): one per user and scope. The address is
 * the row's id and nonce signed with the server secret, so the database alone cannot open a
 * feed; a new address replaces the nonce, and deleting the row revokes it.
 */
export const calendarFeeds = pgTable(
  'svc_calendar_feeds',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** `host`: the user's own bookings; `all`: every booking (administrators). */
    scope: text('scope').$type<FeedScope>().notNull(),
    nonce: text('nonce').notNull(),
    createdUtc: utcTimestamp('created_utc').notNull().default(nowUtc),
  },
  (t) => [uniqueIndex('svc_calendar_feeds_user_scope').on(t.userId, t.scope)],
);
