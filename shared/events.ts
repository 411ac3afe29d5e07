/** Event schemas shared by the server (REST + tRPC) and the PWA (docs/api.md#rest "Event"). */
import { z } from 'zod';
import { ZImageDto } from './images';

import { ZLanguage, ZTimeZone as ZTimeZoneName, ZUtcDateTime } from './schemas';
import { ZCustomFieldDefinition } from './custom-fields-schema';

/** An outgoing-webhook target (team chat): http(s) only; the server checks the address again (docs/api.md#webhooks). '' = none. */
export const ZWebhookTarget = z.union([z.literal(''), z.url({ protocol: /^https?$/ }).max(2000)]);

export const ZEventStatus = z.enum(['draft', 'published']);

/**
 * How the waitlist moves up when a seat frees (docs/decisions/045-waitlist-promotion.md): `auto`
 * gives it to the oldest waitlisted party that fits and mails them, `manual` leaves it to an
 * administrator.
 */
export const ZWaitlistPromotion = z.enum(['manual', 'auto']);
export type WaitlistPromotion = z.infer<typeof ZWaitlistPromotion>;

/** The longest reminder lead: 30 days. */
export const MAX_REMINDER_MINUTES = 30 * 24 * 60;
/** A new event's reminder lead unless one is given: 24 hours. */
export const DEFAULT_REMINDER_MINUTES = 24 * 60;

/** The longest title an event may have (a copy's " (copy)" is kept inside it). */
export const EVENT_TITLE_MAX = 190;

const eventFields = {
  title: z.string().trim().min(1).max(EVENT_TITLE_MAX),
  description: z.string().max(20_000),
  startsUtc: ZUtcDateTime,
  endsUtc: ZUtcDateTime.nullable(),
  timezone: ZTimeZoneName,
  /** The language its pages and mails fall back to after the visitor's own; null = the organization's default. */
  language: ZLanguage.nullable(),
  venue: z.string().trim().max(190),
  /** The venue's street address ('' = none): directions and the page's structured data (docs/decisions/051-link-previews-and-directions.md). */
  venueAddress: z.string().trim().max(300),
  /** The venue's latitude in degrees (WGS 84); with `venueLon`, both or neither. */
  venueLat: z.number().min(-90).max(90).nullable(),
  /** The venue's longitude in degrees (WGS 84); with `venueLat`, both or neither. */
  venueLon: z.number().min(-180).max(180).nullable(),
  /** Seats; null = unlimited. */
  capacity: z.number().int().min(1).max(1_000_000).nullable(),
  maxPerSignup: z.number().int().min(1).max(1000),
  signupOpensUtc: ZUtcDateTime.nullable(),
  signupClosesUtc: ZUtcDateTime.nullable(),
  waitlist: z.boolean(),
  waitlistPromotion: ZWaitlistPromotion,
  status: ZEventStatus,
  priceCents: z.number().int().min(0).max(100_000_000),
  /** Extended edition: the event's own sign-up questions, keys unique (docs/api.md#custom-fields). */
  fields: z
    .array(ZCustomFieldDefinition)
    .max(30)
    .refine((list) => new Set(list.map((f) => f.key)).size === list.length, 'field keys must be unique'),
  /** Extended edition: Slack-compatible incoming webhook for arrivals; '' uses Settings' default. */
  chatWebhookUrl: ZWebhookTarget,
  /** Going attendees get a reminder mail this many whole minutes before the start (at most 30 days); null = none (docs/api.md#event-reminders). */
  reminderMinutes: z.number().int().min(1).max(MAX_REMINDER_MINUTES).nullable(),
};

export const ZCreateEventInput = z.object({
  ...eventFields,
  description: eventFields.description.default(''),
  endsUtc: eventFields.endsUtc.default(null),
  timezone: eventFields.timezone.default('UTC'),
  language: eventFields.language.default(null),
  venue: eventFields.venue.default(''),
  venueAddress: eventFields.venueAddress.default(''),
  venueLat: eventFields.venueLat.default(null),
  venueLon: eventFields.venueLon.default(null),
  capacity: eventFields.capacity.default(null),
  maxPerSignup: eventFields.maxPerSignup.default(10),
  signupOpensUtc: eventFields.signupOpensUtc.default(null),
  signupClosesUtc: eventFields.signupClosesUtc.default(null),
  waitlist: eventFields.waitlist.default(true),
  waitlistPromotion: eventFields.waitlistPromotion.default('manual'),
  status: eventFields.status.default('draft'),
  priceCents: eventFields.priceCents.default(0),
  fields: eventFields.fields.default([]),
  chatWebhookUrl: eventFields.chatWebhookUrl.default(''),
  reminderMinutes: eventFields.reminderMinutes.default(DEFAULT_REMINDER_MINUTES),
});
export type CreateEventInput = z.infer<typeof ZCreateEventInput>;

export const ZUpdateEventInput = z.object(eventFields).partial();
export type UpdateEventInput = z.infer<typeof ZUpdateEventInput>;

/**
 * Where sign-up stands when the answer was made (docs/api.md#rest "Event"): the window first
 * (before `signupOpensUtc`, from `signupClosesUtc` or the start), then the seats; `full_waitlist`
 * = no seat left but sign-ups join the waitlist, `full` = no seat and no waitlist.
 */
export const ZEventSignupState = z.enum(['open', 'not_yet_open', 'closed', 'full_waitlist', 'full']);
export type EventSignupState = z.infer<typeof ZEventSignupState>;

export const ZEventDto = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  startsUtc: z.string(),
  endsUtc: z.string().nullable(),
  timezone: z.string(),
  /** The event's language (docs/decisions/027-languages.md); null = the organization's default. */
  language: ZLanguage.nullable(),
  venue: z.string(),
  /** The venue's street address ('' = none). */
  venueAddress: z.string(),
  /** The venue's coordinates (WGS 84 degrees), both or neither. */
  venueLat: z.number().nullable(),
  venueLon: z.number().nullable(),
  capacity: z.number().int().nullable(),
  maxPerSignup: z.number().int(),
  signupOpensUtc: z.string().nullable(),
  signupClosesUtc: z.string().nullable(),
  waitlist: z.boolean(),
  waitlistPromotion: ZWaitlistPromotion,
  status: ZEventStatus,
  priceCents: z.number().int(),
  /** The currency `priceCents` is in (Settings, through `svc_currency`). */
  currency: z.string(),
  /** Minutes before the start that going attendees are mailed a reminder; null = none (docs/api.md#event-reminders). */
  reminderMinutes: z.number().int().nullable(),
  /** Seats still free (capacity − seats going or held by unpaid orders, never below 0); null = unlimited. */
  placesLeft: z.number().int().min(0).nullable(),
  /** Administrators only: seats going or held by unpaid orders (the list's "23 / 40"). */
  seatsTaken: z.number().int().min(0).optional(),
  signupState: ZEventSignupState,
  /** The cover image (docs/api.md#images); null = none. */
  image: ZImageDto.nullable(),
  /** Extended edition: the sign-up questions (public: the visitor's form renders and checks them, offline too). */
  fields: z.array(ZCustomFieldDefinition).optional(),
  /** Extended edition, administrators only. */
  chatWebhookUrl: z.string().optional(),
  /** Extended edition, administrators only: set on a publicly proposed event (docs/api.md#event-submission). */
  submission: z
    .object({ status: z.enum(['submitted', 'rejected']), submitterName: z.string(), submitterEmail: z.string() })
    .nullable()
    .optional(),
  createdUtc: z.string(),
  updatedUtc: z.string(),
});
export type EventDto = z.infer<typeof ZEventDto>;

export const ZEventListQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  perPage: z.coerce.number().int().min(1).max(500).default(50),
  /** Administrators only; the public always sees published events. */
  status: ZEventStatus.optional(),
  /**
   * `upcoming`: not over yet (its end, or its start when it has none, is now or later), soonest
   * first; `past`: over, the most recent first. Absent: every event by start time.
   */
  when: z.enum(['upcoming', 'past']).optional(),
  /** Words the title contains, in any case (at most 200 characters). */
  q: z.string().trim().max(200).optional(),
});
export type EventListQuery = z.infer<typeof ZEventListQuery>;

/** `GET /events/{id}/form`: extra fields HTML and the signed render time (posted back as svc_ts). */
export const ZSignupForm = z.object({ html: z.string(), formToken: z.string() });
export type SignupForm = z.infer<typeof ZSignupForm>;

/** Over: its end (or, without one, its start) has passed. Fixed-width UTC strings compare as times. */
export function eventIsOver(e: Pick<EventDto, 'startsUtc' | 'endsUtc'>, nowUtc: string): boolean {
  return (e.endsUtc ?? e.startsUtc) < nowUtc;
}
