/**
 * Booking schemas shared by the server (REST + tRPC) and the PWA (docs/api.md#rest shapes, camelCase).
 * Times are UTC `Y-m-d H:i:s`; days are UTC `Y-m-d`.
 *
 * The booking domain's shared code is one folder: this file (`shared/booking`) holds its zod
 * schemas and inferred types; `slots.ts` (the slot generator) and `tz.ts` (zone arithmetic) are
 * the pure logic server and PWA both run, kept free of zod for the hot path.
 */
import { z } from '../validation';
import { ZImageDto } from '../images';
import { ZLanguage, ZQueryId, ZTimeZone, ZUtcDateTime, ZUtcDay } from '../schemas';
import { CLOCK_RE } from '../time';
import { ZResourceIds } from '../resources';
import { ZWebhookTarget } from '../events';
import { HOURS_SOURCES } from './slots';
import { meetingPatternProblem } from './meeting-links';

/** docs/api.md#errors: every status a booking row can hold. */
export const BOOKING_STATUSES = ['confirmed', 'pending_approval', 'pending_payment', 'cancelled', 'abandoned'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];
/** Statuses that keep a host busy (the slot is held). */
export const SLOT_HOLDING_STATUSES: readonly BookingStatus[] = ['confirmed', 'pending_approval', 'pending_payment'];

/** Contract "Booking type": the `_svc_bt_assignment` meta values; '' behaves as round_robin. */
export const ASSIGNMENT_MODES = ['fixed', 'round_robin', 'collective', 'weighted', 'priority'] as const;
export const LOCATION_MODES = ['in_person', 'virtual', 'phone', 'custom'] as const;

/** Contract Limits: the booking cancel token is 64 characters (base64url from the CSPRNG). */
export const CANCEL_TOKEN_RE = /^[A-Za-z0-9_-]{64}$/;

const ZClock = z.string().regex(CLOCK_RE, 'must be HH:MM');
const ZWindow = z.tuple([ZClock, ZClock]).refine(([from, to]) => from !== '24:00' && from < to, 'must end after it starts');
const ZDayWindows = z.array(ZWindow).max(24).default([]);
export const ZWeeklyWindows = z.object({
  mon: ZDayWindows,
  tue: ZDayWindows,
  wed: ZDayWindows,
  thu: ZDayWindows,
  fri: ZDayWindows,
  sat: ZDayWindows,
  sun: ZDayWindows,
});
export type WeeklyWindows = z.infer<typeof ZWeeklyWindows>;

const minutes = (max: number) => z.number().int().min(0).max(max);

/** A booking type's editable fields, without defaults (a PATCH leaves absent fields alone). */
const ZBookingTypeFields = z.object({
  title: z.string().trim().min(1).max(190),
  slug: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lowercase letters, digits and dashes')
    .max(100),
  description: z.string().max(10_000),
  status: z.enum(['draft', 'published']),
  durationMinutes: z
    .number()
    .int()
    .min(5)
    .max(24 * 60),
  /** null = the duration (docs/api.md#rest). */
  slotIntervalMinutes: z
    .number()
    .int()
    .min(5)
    .max(24 * 60)
    .nullable(),
  timezone: ZTimeZone,
  hosts: z.array(z.number().int().positive()).max(100),
  assignment: z.enum(['', ...ASSIGNMENT_MODES]),
  weeklyWindows: ZWeeklyWindows,
  daysOff: z.array(ZUtcDay).max(1000),
  minNoticeMinutes: minutes(366 * 24 * 60),
  /** 0 = no advance limit. */
  maxAdvanceDays: z.number().int().min(0).max(3660),
  bufferBeforeMinutes: minutes(24 * 60),
  bufferAfterMinutes: minutes(24 * 60),
  capacity: z.number().int().min(1).max(1000),
  priceCents: z.number().int().min(0).max(100_000_000),
  requiresApproval: z.boolean(),
  locationMode: z.enum(LOCATION_MODES),
  locationValue: z.string().max(1000),
  /**
   * A `virtual` type's meeting-link pattern, e.g. `https://meet.jit.si/{org}-{token}` ('' = the
   * host's own meeting link, if any): each booking gets its own link (docs/decisions/044-meeting-links.md).
   */
  meetingLinkPattern: z
    .string()
    .trim()
    .superRefine((v, issue) => {
      const problem = meetingPatternProblem(v);
      if (problem) issue.addIssue({ code: 'custom', message: problem });
    }),
  /** Shared resources every booking of the type needs (docs/api.md#resources; extended edition). */
  resourceIds: ZResourceIds,
  /** 'type': its windows within each host's own hours; 'hosts': the hosts' hours alone (docs/api.md#host-hours). */
  hoursSource: z.enum(HOURS_SOURCES),
});
const fields = ZBookingTypeFields.shape;

/** POST /booking-types body: the fields, with the defaults a new type gets. */
export const ZBookingTypeInput = ZBookingTypeFields.extend({
  slug: fields.slug.optional(),
  description: fields.description.default(''),
  status: fields.status.default('draft'),
  slotIntervalMinutes: fields.slotIntervalMinutes.default(null),
  timezone: fields.timezone.default('UTC'),
  hosts: fields.hosts.default([]),
  assignment: fields.assignment.default(''),
  weeklyWindows: fields.weeklyWindows.default({ mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] }),
  daysOff: fields.daysOff.default([]),
  minNoticeMinutes: fields.minNoticeMinutes.default(0),
  maxAdvanceDays: fields.maxAdvanceDays.default(60),
  bufferBeforeMinutes: fields.bufferBeforeMinutes.default(0),
  bufferAfterMinutes: fields.bufferAfterMinutes.default(0),
  capacity: fields.capacity.default(1),
  priceCents: fields.priceCents.default(0),
  requiresApproval: fields.requiresApproval.default(false),
  locationMode: fields.locationMode.default('in_person'),
  locationValue: fields.locationValue.default(''),
  meetingLinkPattern: fields.meetingLinkPattern.default(''),
  resourceIds: fields.resourceIds.default([]),
  hoursSource: fields.hoursSource.default('type'),
});
export type BookingTypeInput = z.infer<typeof ZBookingTypeInput>;

/** PATCH /booking-types/{id} body: any of the fields. */
export const ZBookingTypePatch = ZBookingTypeFields.partial();
export type BookingTypePatch = z.infer<typeof ZBookingTypePatch>;

/** GET /booking-types/{id}/slots query: raw `from`/`to` (may be empty), `tz` (default the type's). */
export const ZSlotsQuery = z.object({
  from: z.string().max(20).optional(),
  to: z.string().max(20).optional(),
  tz: ZTimeZone.optional(),
});

const ZCustomFieldValue = z.union([z.string().max(2000), z.number(), z.boolean(), z.array(z.string().max(2000)).max(50)]);

/** POST /bookings body (docs/api.md#rest). */
export const ZCreateBookingInput = z.object({
  bookingTypeId: ZQueryId,
  startUtc: ZUtcDateTime,
  quantity: z.coerce.number().int().min(1).max(1000).default(1),
  customerName: z.string().trim().min(1).max(190),
  customerEmail: z.email('must be an email address').max(254),
  customerTz: ZTimeZone,
  customFields: z.record(z.string().max(100), ZCustomFieldValue).optional(),
  /** Accepted for the PWA's sake; the type's own mode is what the booking gets. */
  locationMode: z.enum(LOCATION_MODES).optional(),
});
export type CreateBookingInput = z.infer<typeof ZCreateBookingInput>;

/** POST /bookings/admin body: an administrator enters a booking (no nonce, no throttle, no payment). */
export const ZAdminCreateBookingInput = ZCreateBookingInput.extend({
  /** Optional host; must be free at the start. Without it the assignment strategy picks. */
  hostUserId: z.number().int().positive().optional(),
});
export type AdminCreateBookingInput = z.infer<typeof ZAdminCreateBookingInput>;

export const ZRescheduleInput = z.object({ startUtc: ZUtcDateTime });

/** Admin PATCH /bookings/{id}: only `{status: "cancelled"}` (contract: no admin-side move exists). */
export const ZAdminBookingPatch = z.strictObject({ status: z.literal('cancelled', { message: 'only "cancelled" is supported' }) });

export const ZBookingListQuery = z.object({
  bookingTypeId: ZQueryId.optional(),
  status: z.enum(BOOKING_STATUSES).optional(),
  /** Day, inclusive, on the start time: a day in `tz` when given, else a UTC day. */
  from: ZUtcDay.optional(),
  to: ZUtcDay.optional(),
  /** The zone `from` and `to` are days of (the admin's zone); UTC when absent. */
  tz: ZTimeZone.optional(),
  /** Part of the customer's name or email, any case. */
  q: z.string().trim().max(200).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  perPage: z.coerce.number().int().min(1).max(500).default(50),
});
export type BookingListQuery = z.infer<typeof ZBookingListQuery>;

/** PATCH /settings body. */
/** Lengths of the seller's fields in Settings (the admin form's maxLength reads them too). */
export const SELLER_NAME_MAX = 200;
export const SELLER_ADDRESS_MAX = 1000;
export const SELLER_TAX_ID_MAX = 64;

export const ZSettingsPatch = z.object({
  /** Three letters; lowercase or padded input is accepted and normalised (contract "Currency"). */
  currency: z
    .string()
    .refine((v) => /^[A-Za-z]{3}$/.test(v.trim()), 'must be a three-letter ISO 4217 code')
    .transform((v) => v.trim().toUpperCase())
    .optional(),
  /** Slug → label overrides of the defaults; '' hides a mode's label. */
  locationLabels: z.record(z.string().regex(/^[a-z0-9_]{1,40}$/), z.string().max(100)).optional(),
  paymentHoldHours: z
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .optional(),
  /** Extended edition: the team chat's default incoming webhook for every event; '' = none (docs/api.md#chat). */
  chatWebhookUrl: ZWebhookTarget.optional(),
  /** The organization's language: pages, mails and invites fall back to it when nothing closer is known; null = English. */
  defaultLanguage: ZLanguage.nullable().optional(),
  /** The seller receipts and mails name beside net, tax and gross (docs/api.md#tickets); '' = none. */
  sellerName: z.string().trim().max(SELLER_NAME_MAX).optional(),
  /** Postal address, lines separated by newlines. */
  sellerAddress: z.string().trim().max(SELLER_ADDRESS_MAX).optional(),
  /** VAT or other tax identification number, as the tax office writes it. */
  sellerTaxId: z.string().trim().max(SELLER_TAX_ID_MAX).optional(),
  /** The organization's time zone (IANA), proposed for new events (docs/decisions/048-first-run.md). */
  defaultTimeZone: ZTimeZone.optional(),
});
export type SettingsPatch = z.infer<typeof ZSettingsPatch>;

/** docs/api.md#rest booking type, camelCase: the stored fields resolved (interval, slug set). */
export const ZBookingTypeDto = ZBookingTypeFields.extend({
  id: z.number().int(),
  slotIntervalMinutes: z.number().int(),
  /** The stored meta value; '' behaves as round_robin. */
  assignment: fields.assignment,
  /** The cover image (docs/api.md#images); null = none. */
  image: ZImageDto.nullable(),
  createdUtc: z.string(),
  updatedUtc: z.string(),
});
export type BookingTypeDto = z.infer<typeof ZBookingTypeDto>;

/** What the public booking page shows of each host of a type (docs/api.md#host-space). */
export const ZPublicHostDto = z.object({
  userId: z.number().int(),
  name: z.string(),
  bio: z.string(),
  /** `/svc/v1/hosts/{userId}/photo?v=…`, or null when the host has no photo. */
  photoUrl: z.string().nullable(),
});
export type PublicHostDto = z.infer<typeof ZPublicHostDto>;

/** What the public sees: the same shape plus the printed currency and location label. */
export const ZPublicBookingTypeDto = ZBookingTypeDto.extend({
  currency: z.string(),
  /** From `svc_booking_location_labels`; '' when the mode has no entry. */
  locationLabel: z.string(),
  /** The type's hosts as the booking page introduces them, in the type's host order. */
  hostProfiles: z.array(ZPublicHostDto),
});
export type PublicBookingTypeDto = z.infer<typeof ZPublicBookingTypeDto>;

/** A booking as administrators see it (camelCase, no cancel token). */
export const ZBookingDto = z.object({
  bookingId: z.number().int(),
  bookingTypeId: z.number().int(),
  hostUserId: z.number().int(),
  customerUserId: z.number().int().nullable(),
  customerEmail: z.string(),
  customerName: z.string(),
  customerTz: z.string(),
  startUtc: z.string(),
  endUtc: z.string(),
  status: z.enum(BOOKING_STATUSES),
  quantity: z.number().int(),
  paymentStatus: z.string().nullable(),
  /**
   * The admin list only, and only on a flagged booking: why its payment needs a look (money that
   * confirmed nothing and was refunded: amount_mismatch, refunded_at_provider, payment_failed,
   * hold_released).
   */
  paymentAttention: z.string().optional(),
  orderId: z.string().nullable(),
  customFields: z.record(z.string(), z.unknown()).nullable(),
  rescheduledFrom: z.string().nullable(),
  createdUtc: z.string(),
  updatedUtc: z.string(),
});
export type BookingDto = z.infer<typeof ZBookingDto>;

/** docs/api.md#rest answer of POST /bookings: never the cancel token. */
export const ZBookingCreatedDto = z.object({
  bookingId: z.number().int(),
  status: z.enum(BOOKING_STATUSES),
  startUtc: z.string(),
  endUtc: z.string(),
  hostUserId: z.number().int(),
  paymentUrl: z.string().optional(),
  /** The UID of the booking's calendar entry: the page's "Add to calendar" file uses the mailed invite's. */
  calendarUid: z.string(),
  /** The booking's own meeting link (a virtual type with a pattern, or the host's link); absent when none. */
  meetingUrl: z.string().optional(),
});
export type BookingCreatedDto = z.infer<typeof ZBookingCreatedDto>;

/** The holder's view (manage page): what the booking is, no secrets. */
export const ZBookingHolderDto = ZBookingDto.extend({
  bookingTypeTitle: z.string(),
  hostName: z.string(),
  durationMinutes: z.number().int(),
  location: z.string(),
  locationMode: z.string(),
  priceCents: z.number().int(),
  currency: z.string(),
  canCancel: z.boolean(),
  canReschedule: z.boolean(),
  /** Whether the server makes Apple Wallet passes: a confirmed booking then has `GET /bookings/{token}/booking.pkpass` (docs/api.md#wallet-pass). */
  walletAvailable: z.boolean(),
  /** The booking's own meeting link (docs/decisions/044-meeting-links.md), or null when it has none. */
  meetingUrl: z.string().nullable(),
});
export type BookingHolderDto = z.infer<typeof ZBookingHolderDto>;

/** Site settings after their filters. */
export const ZSettingsDto = z.object({
  currency: z.string(),
  locationLabels: z.record(z.string(), z.string()),
  paymentHoldHours: z.number().int(),
  /** The organization's language (docs/decisions/027-languages.md): the last fallback before English. */
  defaultLanguage: ZLanguage,
  /** Extended edition only: the team chat's default address ('' = none). */
  chatWebhookUrl: z.string().optional(),
  /** The seller named on receipts and mails with their taxes ('' = not set). */
  sellerName: z.string(),
  sellerAddress: z.string(),
  sellerTaxId: z.string(),
  /** The organization's time zone; UTC until an administrator chooses one. */
  defaultTimeZone: z.string(),
  /** Whether an administrator saved the currency / the zone: until then Settings propose the browser's (docs/decisions/048-first-run.md). */
  currencyChosen: z.boolean(),
  defaultTimeZoneChosen: z.boolean(),
});
export type SettingsDto = z.infer<typeof ZSettingsDto>;

/** A slot as the slots route lists it (the generator's `Slot`). */
export const ZSlotDto = z.object({
  start_utc: z.string(),
  end_utc: z.string(),
  start: z.string(),
  label: z.string(),
  hosts: z.array(z.number().int()),
  capacity_left: z.number().int(),
});
