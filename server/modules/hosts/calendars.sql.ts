import { boolean, index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { users } from '../../auth/auth.sql';
import { nowUtc, utcTimestamp } from '../../db/columns';
import type { HostCalendarKind, HostCalendarStatus } from '../../../shared/host-calendars';

/**
 * A host's connected calendars (docs/api.md#host-calendars). The password is sealed with
 * AES-256-GCM under a key derived from the server secret (server/security/crypto.ts); the
 * ctag, sync token and ETag let an unchanged calendar cost one request per refresh.
 */
export const hostCalendars = pgTable(
  'svc_host_calendars',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<HostCalendarKind>().notNull(),
    url: text('url').notNull(),
    username: text('username'),
    passwordSealed: text('password_sealed'),
    writeBack: boolean('write_back').notNull().default(false),
    timezone: text('timezone').notNull().default('UTC'),
    status: text('status').$type<HostCalendarStatus>().notNull().default('pending'),
    lastError: text('last_error'),
    lastRefreshedUtc: utcTimestamp('last_refreshed_utc'),
    lastSuccessUtc: utcTimestamp('last_success_utc'),
    /** CalDAV: the calendar collection found from `url` (the collection itself, or the first calendar of a principal). */
    collectionUrl: text('collection_url'),
    ctag: text('ctag'),
    syncToken: text('sync_token'),
    /** ICS: the ETag of the last file read, sent back as If-None-Match. */
    etag: text('etag'),
    createdUtc: utcTimestamp('created_utc').notNull().default(nowUtc),
  },
  (t) => [index('svc_host_calendars_user').on(t.userId)],
);

/** The busy time each calendar showed at its last good read, over the refresh horizon. */
export const hostBusy = pgTable(
  'svc_host_busy',
  {
    calendarId: integer('calendar_id')
      .notNull()
      .references(() => hostCalendars.id, { onDelete: 'cascade' }),
    hostUserId: integer('host_user_id').notNull(),
    startUtc: utcTimestamp('start_utc').notNull(),
    endUtc: utcTimestamp('end_utc').notNull(),
  },
  (t) => [index('svc_host_busy_host_start').on(t.hostUserId, t.startUtc), index('svc_host_busy_calendar').on(t.calendarId)],
);
