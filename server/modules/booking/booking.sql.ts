import { bigint, boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { nowUtc, utcTimestamp } from '../../db/columns';
import type { BookingStatus, WeeklyWindows } from '../../../shared/booking';
import type { HoursSource } from '../../../shared/booking/slots';
import type { StoredImage } from '../../../shared/images';
import type { AssignmentMode, LocationMode } from '../../hooks/types';

/**
 * Booking types (the contract's `svc_booking_type` posts). `assignment` keeps the
 * `_svc_bt_assignment` meta semantics: '' behaves as round_robin.
 */
export const bookingTypes = pgTable(
  'svc_booking_types',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    slug: text('slug').notNull(),
    description: text('description').notNull().default(''),
    status: text('status').$type<'draft' | 'published'>().notNull().default('draft'),
    durationMinutes: integer('duration_minutes').notNull(),
    /** NULL = the duration (docs/api.md#rest). */
    slotIntervalMinutes: integer('slot_interval_minutes'),
    timezone: text('timezone').notNull().default('UTC'),
    hosts: jsonb('hosts').$type<number[]>().notNull().default([]),
    assignment: text('assignment').$type<AssignmentMode | ''>().notNull().default(''),
    weeklyWindows: jsonb('weekly_windows').$type<WeeklyWindows>().notNull(),
    daysOff: jsonb('days_off').$type<string[]>().notNull().default([]),
    minNoticeMinutes: integer('min_notice_minutes').notNull().default(0),
    maxAdvanceDays: integer('max_advance_days').notNull().default(60),
    bufferBeforeMinutes: integer('buffer_before_minutes').notNull().default(0),
    bufferAfterMinutes: integer('buffer_after_minutes').notNull().default(0),
    /** The cover image (docs/api.md#images); its variants are in svc_image_variants; null = none. */
    coverImage: jsonb('cover_image').$type<StoredImage>(),
    capacity: integer('capacity').notNull().default(1),
    priceCents: integer('price_cents').notNull().default(0),
    requiresApproval: boolean('requires_approval').notNull().default(false),
    locationMode: text('location_mode').$type<LocationMode>().notNull().default('in_person'),
    locationValue: text('location_value').notNull().default(''),
    /** Where offered hours come from (docs/decisions/040-host-hours.md): 'type' = its windows within each host's hours; 'hosts' = the hosts' hours alone. */
    hoursSource: text('hours_source').$type<HoursSource>().notNull().default('type'),
    /** A virtual type's meeting-link pattern ('' = the host's own link): docs/decisions/044-meeting-links.md. */
    meetingLinkPattern: text('meeting_link_pattern').notNull().default(''),
    /** Raised on every edit: part of the slot cache key. */
    version: integer('version').notNull().default(1),
    createdUtc: utcTimestamp('created_utc').notNull().default(nowUtc),
    updatedUtc: utcTimestamp('updated_utc').notNull().default(nowUtc),
  },
  (t) => [uniqueIndex('svc_booking_types_slug').on(t.slug)],
);

/**
 * The contract's `svc_bookings` table, column for column. `host_user_id` has no foreign key:
 * the contract writes an id returned by the assignment strategy unchecked.
 */
export const bookings = pgTable(
  'svc_bookings',
  {
    bookingId: serial('booking_id').primaryKey(),
    bookingTypeId: integer('booking_type_id')
      .notNull()
      .references(() => bookingTypes.id, { onDelete: 'restrict' }),
    hostUserId: integer('host_user_id').notNull(),
    customerUserId: integer('customer_user_id'),
    customerEmail: text('customer_email').notNull(),
    customerName: text('customer_name').notNull(),
    customerTz: text('customer_tz').notNull(),
    /** The language the booking was made in; every later message to the customer uses it (null = older rows). */
    language: text('language'),
    startUtc: utcTimestamp('start_utc').notNull(),
    endUtc: utcTimestamp('end_utc').notNull(),
    status: text('status').$type<BookingStatus>().notNull(),
    quantity: integer('quantity').notNull().default(1),
    paymentStatus: text('payment_status'),
    orderId: text('order_id'),
    customFields: text('custom_fields'),
    rescheduledFrom: utcTimestamp('rescheduled_from'),
    cancelToken: text('cancel_token').notNull(),
    /** Raised on every change of status or time: the invite's SEQUENCE, so each update outranks the last. */
    revision: integer('revision').notNull().default(0),
    createdUtc: utcTimestamp('created_utc').notNull().default(nowUtc),
    updatedUtc: utcTimestamp('updated_utc').notNull().default(nowUtc),
  },
  (t) => [
    uniqueIndex('svc_bookings_cancel_token').on(t.cancelToken),
    index('svc_bookings_host_start').on(t.hostUserId, t.startUtc),
    index('svc_bookings_type_start').on(t.bookingTypeId, t.startUtc),
    index('svc_bookings_status_created').on(t.status, t.createdUtc),
  ],
);

/**
 * One counter per host, raised in the same transaction as every booking write that changes
 * the host's agenda. Every instance compares it with its cached slot sets (docs/api.md#overview: cache
 * invalidation lives in PostgreSQL).
 */
export const slotEpochs = pgTable('svc_slot_epochs', {
  hostUserId: integer('host_user_id').primaryKey(),
  epoch: bigint('epoch', { mode: 'number' }).notNull().default(0),
});

/**
 * Each booking's own meeting link, made when the booking is (docs/decisions/044-meeting-links.md).
 * Beside the booking row rather than in it: `svc_bookings` keeps the contract's columns.
 */
export const bookingMeetings = pgTable('svc_booking_meetings', {
  bookingId: integer('booking_id')
    .primaryKey()
    .references(() => bookings.bookingId, { onDelete: 'cascade' }),
  url: text('url').notNull(),
});
