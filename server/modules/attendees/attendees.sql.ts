import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, serial, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { nowUtc, utcTimestamp } from '../../db/columns';
import { events } from '../events/events.sql';

/**
 * The contract's attendee row, plus docs/api.md#errors's timestamps and the ticket code.
 * `updated_utc` changes on every write: the check-in sync (issue 5) reads changes by it.
 */
export const attendees = pgTable(
  'svc_attendees',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'restrict' }),
    email: text('email').notNull(),
    displayName: text('display_name').notNull(),
    /** The language the sign-up was made in; every later message to this person uses it (null = older rows: negotiated anew). */
    language: text('language'),
    quantity: integer('quantity').notNull(),
    /** going, waitlist, cancelled; may be '' on an old row (reads as going for capacity). */
    status: text('status').notNull().default('going'),
    /** JSON answers, NULL when none are stored. */
    customFields: text('custom_fields'),
    /** 64-character secret behind the one-click cancel link; never returned by REST. */
    cancelToken: text('cancel_token').notNull(),
    /** The QR payload (≥128 bits); never returned by REST. */
    ticketCode: text('ticket_code').notNull(),
    /** SHA-256 hex of ticket_code: door devices look scans up by it (docs/api.md#sync). */
    ticketCodeHash: text('ticket_code_hash').notNull(),
    /** The paid order this ticket came from (one row per ticket); null for free sign-ups. */
    orderId: integer('order_id'),
    /** The ticket category (docs/api.md#tickets); null = the event's implicit single category. */
    ticketCategoryId: integer('ticket_category_id'),
    /** A walk-in registered offline at a door: the device and its client id make the push idempotent. */
    deviceId: integer('device_id'),
    clientId: uuid('client_id'),
    createdUtc: utcTimestamp('created_utc').notNull().default(nowUtc),
    updatedUtc: utcTimestamp('updated_utc').notNull().default(nowUtc),
  },
  (t) => [
    index('svc_attendees_event').on(t.eventId, t.id),
    // the admin table sorted by name or email: a deep page walks the index instead of sorting the event
    index('svc_attendees_event_name').on(t.eventId, t.displayName, t.id),
    index('svc_attendees_event_email').on(t.eventId, t.email, t.id),
    index('svc_attendees_updated').on(t.updatedUtc),
    uniqueIndex('svc_attendees_cancel_token').on(t.cancelToken),
    uniqueIndex('svc_attendees_ticket_code_hash').on(t.ticketCodeHash),
    index('svc_attendees_order').on(t.orderId),
    index('svc_attendees_event_category').on(t.eventId, t.ticketCategoryId),
    uniqueIndex('svc_attendees_device_client')
      .on(t.deviceId, t.clientId)
      .where(sql`${t.clientId} is not null`),
  ],
);

/**
 * One row per attendee and event start whose reminder mail was queued (docs/api.md#event-reminders),
 * written in the transaction that queues the mail: a re-run after a crash skips them. Keyed by the
 * start, so an event moved to a new time reminds again. Its own table, not a column on the
 * attendee: the attendee's update trigger would log a sync change for every reminded row.
 */
export const attendeeReminders = pgTable(
  'svc_attendee_reminders',
  {
    attendeeId: integer('attendee_id')
      .notNull()
      .references(() => attendees.id, { onDelete: 'cascade' }),
    /** The event's start the reminder was about. */
    startsUtc: utcTimestamp('starts_utc').notNull(),
    queuedUtc: utcTimestamp('queued_utc').notNull().default(nowUtc),
  },
  (t) => [primaryKey({ columns: [t.attendeeId, t.startsUtc] })],
);
