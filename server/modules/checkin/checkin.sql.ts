import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, serial, text, unique, uuid } from 'drizzle-orm/pg-core';
import { nowUtc, utcTimestamp } from '../../db/columns';
import { users } from '../../auth/auth.sql';
import { events } from '../events/events.sql';
import { devices } from '../devices/devices.sql';

/**
 * One row per admitted scan, re-scans included (contract "Check-in"; docs/api.md#errors columns).
 *
 * `attendee_id` has no foreign key on purpose: an offline scan of an attendee deleted on the
 * server meanwhile is still stored (conflict `deleted`), and deleting an attendee must not
 * erase the record of who came in. `client_id` is the device's per-scan UUID (the server
 * makes one for a REST call without it), unique per device — NULLS NOT DISTINCT, so scans
 * pushed with a staff session (no device) are just as idempotent.
 */
export const checkins = pgTable(
  'svc_checkins',
  {
    id: serial('id').primaryKey(),
    attendeeId: integer('attendee_id').notNull(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    /** When the scan happened on the device. */
    scannedUtc: utcTimestamp('scanned_utc').notNull(),
    /** When the server stored it. */
    createdUtc: utcTimestamp('created_utc').notNull().default(nowUtc),
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'restrict' }),
    /** The signed-in user for a check-in made without a device token. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    clientId: uuid('client_id').notNull(),
    source: text('source').notNull(),
    conflict: text('conflict'),
    /** The door judged it a first entry (`ok`) offline: a later such scan on another door is `again_elsewhere`. */
    firstEntry: boolean('first_entry').notNull().default(false),
    annulledUtc: utcTimestamp('annulled_utc'),
    annulledBy: integer('annulled_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    unique('svc_checkins_device_client').on(t.deviceId, t.clientId).nullsNotDistinct(),
    index('svc_checkins_attendee').on(t.attendeeId, t.id),
    index('svc_checkins_event').on(t.eventId, t.id),
    index('svc_checkins_event_conflict')
      .on(t.eventId)
      .where(sql`${t.conflict} is not null`),
  ],
);

/**
 * Refused scans (unknown code, cancelled, waitlist, wrong event, not allowed): never
 * check-in rows, never an action. Only the hash of a scanned code is kept, never the code.
 */
export const scanLog = pgTable(
  'svc_scan_log',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id'),
    attendeeId: integer('attendee_id'),
    deviceId: integer('device_id'),
    userId: integer('user_id'),
    codeHash: text('code_hash'),
    reason: text('reason').notNull(),
    verdictOnDevice: text('verdict_on_device'),
    clientId: uuid('client_id').notNull(),
    source: text('source').notNull(),
    scannedUtc: utcTimestamp('scanned_utc').notNull(),
    createdUtc: utcTimestamp('created_utc').notNull().default(nowUtc),
  },
  (t) => [unique('svc_scan_log_device_client').on(t.deviceId, t.clientId).nullsNotDistinct(), index('svc_scan_log_event').on(t.eventId, t.id)],
);
