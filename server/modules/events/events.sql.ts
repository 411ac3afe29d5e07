import { boolean, doublePrecision, index, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import type { CustomFieldDefinition } from '../../../shared/custom-fields';
import type { StoredImage } from '../../../shared/images';
import { nowUtc, utcTimestamp } from '../../db/columns';

export const EVENT_STATUSES = ['draft', 'published'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];
/** A publicly proposed event (docs/api.md#event-submission): a draft awaiting review, or refused. */
export const SUBMISSION_STATUSES = ['submitted', 'rejected'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];
/** How the waitlist moves up when a seat frees (docs/decisions/045-waitlist-promotion.md). */
export const WAITLIST_PROMOTIONS = ['manual', 'auto'] as const;
export type WaitlistPromotion = (typeof WAITLIST_PROMOTIONS)[number];

/** Events people sign up for (docs/api.md#rest "Event"). */
export const events = pgTable(
  'svc_events',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    startsUtc: utcTimestamp('starts_utc').notNull(),
    endsUtc: utcTimestamp('ends_utc'),
    timezone: text('timezone').notNull().default('UTC'),
    /** The event's language: the fallback for its visitors after their own choice and browser; null = the organization's default. */
    language: text('language'),
    venue: text('venue').notNull().default(''),
    /** The venue's street address, for directions and search engines ('' = none): docs/decisions/051-link-previews-and-directions.md. */
    venueAddress: text('venue_address').notNull().default(''),
    /** The venue's WGS 84 coordinates: both or neither (the service checks ranges and the pair). */
    venueLat: doublePrecision('venue_lat'),
    venueLon: doublePrecision('venue_lon'),
    /** Seats; NULL = unlimited. */
    capacity: integer('capacity'),
    maxPerSignup: integer('max_per_signup').notNull().default(10),
    signupOpensUtc: utcTimestamp('signup_opens_utc'),
    signupClosesUtc: utcTimestamp('signup_closes_utc'),
    waitlist: boolean('waitlist').notNull().default(true),
    /** `auto`: a freed seat goes to the oldest waitlisted party that fits, in the freeing transaction; `manual`: only an administrator moves people up. */
    waitlistPromotion: text('waitlist_promotion').$type<WaitlistPromotion>().notNull().default('manual'),
    status: text('status').$type<EventStatus>().notNull().default('draft'),
    priceCents: integer('price_cents').notNull().default(0),
    /** Going attendees are mailed a reminder this many minutes before the start; null = no reminder (docs/api.md#event-reminders). */
    reminderMinutesBefore: integer('reminder_minutes_before').default(1440),
    /** Extended edition: the event's own sign-up questions (docs/api.md#custom-fields). */
    fields: jsonb('fields').$type<CustomFieldDefinition[]>().notNull().default([]),
    /** The cover image (docs/api.md#images); its variants are in svc_image_variants; null = none. */
    coverImage: jsonb('cover_image').$type<StoredImage>(),
    /** Extended edition: Slack-compatible incoming webhook for arrivals; '' uses the settings default. */
    chatWebhookUrl: text('chat_webhook_url').notNull().default(''),
    /** Extended edition: set on a publicly submitted event (null: made by staff). */
    submissionStatus: text('submission_status').$type<SubmissionStatus>(),
    submitterName: text('submitter_name'),
    submitterEmail: text('submitter_email'),
    createdUtc: utcTimestamp('created_utc').notNull().default(nowUtc),
    updatedUtc: utcTimestamp('updated_utc').notNull().default(nowUtc),
  },
  (t) => [
    index('svc_events_starts').on(t.startsUtc),
    index('svc_events_updated').on(t.updatedUtc),
    index('svc_events_submission').on(t.submissionStatus, t.id),
  ],
);
