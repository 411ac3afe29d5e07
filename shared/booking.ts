/**
 * Booking schemas shared by the server (REST + tRPC) and the PWA (SPEC §4 shapes, camelCase).
 * Times are UTC `Y-m-d H:i:s`; days are UTC `Y-m-d`.
 */
import { z } from './validation';
import { ZTimeZone, ZUtcDateTime, ZUtcDay } from './schemas';

/** SPEC §3: every status a booking row can hold. */
export const BOOKING_STATUSES = ['confirmed', 'pending_approval', 'pending_payment', 'cancelled', 'abandoned'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];
/** Statuses that keep a host busy (the slot is held). */
export const SLOT_HOLDING_STATUSES: readonly BookingStatus[] = ['confirmed', 'pending_approval', 'pending_payment'];

/** Contract "Booking type": the `_svc_bt_assignment` meta values; '' behaves as round_robin. */
export const ASSIGNMENT_MODES = ['fixed', 'round_robin', 'collective', 'weighted', 'priority'] as const;
export const LOCATION_MODES = ['in_person', 'virtual', 'phone', 'custom'] as const;
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** Contract Limits: the booking cancel token is 64 characters (base64url from the CSPRNG). */
export const CANCEL_TOKEN_RE = /^[A-Za-z0-9_-]{64}$/;


export { ZTimeZone, ZUtcDateTime, ZUtcDay };

const CLOCK_RE = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;
const ZClock = z.string().regex(CLOCK_RE, 'must be HH:MM');
const ZWindow = z
  .tuple([ZClock, ZClock])
  .refine(([from, to]) => from !== '24:00' && from < to, 'must end after it starts');
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

/** POST /booking-types body; PATCH takes the same fields, all optional. */
export const ZBookingTypeInput = z.object({
  title: z.string().trim().min(1).max(190),
  slug: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lowercase letters, digits and dashes')
    .max(100)
    .optional(),
  description: z.string().max(10_000).default(''),
  status: z.enum(['draft', 'published']).default('draft'),
  durationMinutes: z.number().int().min(5).max(24 * 60),
  /** null = the duration (SPEC §4). */
  slotIntervalMinutes: z.number().int().min(5).max(24 * 60).nullable().default(null),
  timezone: ZTimeZone.default('UTC'),
  hosts: z.array(z.number().int().positive()).max(100).default([]),
  assignment: z.enum(['', ...ASSIGNMENT_MODES]).default(''),
  weeklyWindows: ZWeeklyWindows.default({ mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] }),
  daysOff: z.array(ZUtcDay).max(1000).default([]),
  minNoticeMinutes: minutes(366 * 24 * 60).default(0),
  /** 0 = no advance limit. */
  maxAdvanceDays: z.number().int().min(0).max(3660).default(60),
  bufferBeforeMinutes: minutes(24 * 60).default(0),
  bufferAfterMinutes: minutes(24 * 60).default(0),
  capacity: z.number().int().min(1).max(1000).default(1),
  priceCents: z.number().int().min(0).max(100_000_000).default(0),
  requiresApproval: z.boolean().default(false),
  locationMode: z.enum(LOCATION_MODES).default('in_person'),
  locationValue: z.string().max(1000).default(''),
});
export type BookingTypeInput = z.infer<typeof ZBookingTypeInput>;

// Without defaults, so a PATCH leaves absent fields alone.
export const ZBookingTypePatch = z.object({
  title: z.string().trim().min(1).max(190).optional(),
  slug: ZBookingTypeInput.shape.slug,
  description: z.string().max(10_000).optional(),
  status: z.enum(['draft', 'published']).optional(),
  durationMinutes: z.number().int().min(5).max(24 * 60).optional(),
  slotIntervalMinutes: z.number().int().min(5).max(24 * 60).nullable().optional(),
  timezone: ZTimeZone.optional(),
  hosts: z.array(z.number().int().positive()).max(100).optional(),
  assignment: z.enum(['', ...ASSIGNMENT_MODES]).optional(),
  weeklyWindows: ZWeeklyWindows.optional(),
  daysOff: z.array(ZUtcDay).max(1000).optional(),
  minNoticeMinutes: minutes(366 * 24 * 60).optional(),
  maxAdvanceDays: z.number().int().min(0).max(3660).optional(),
  bufferBeforeMinutes: minutes(24 * 60).optional(),
  bufferAfterMinutes: minutes(24 * 60).optional(),
  capacity: z.number().int().min(1).max(1000).optional(),
  priceCents: z.number().int().min(0).max(100_000_000).optional(),
  requiresApproval: z.boolean().optional(),
  locationMode: z.enum(LOCATION_MODES).optional(),
  locationValue: z.string().max(1000).optional(),
});
export type BookingTypePatch = z.infer<typeof ZBookingTypePatch>;

/** GET /booking-types/{id}/slots query: raw `from`/`to` (may be empty), `tz` (default the type's). */
export const ZSlotsQuery = z.object({
  from: z.string().max(20).optional(),
  to: z.string().max(20).optional(),
  tz: ZTimeZone.optional(),
});

const ZCustomFieldValue = z.union([z.string().max(2000), z.number(), z.boolean(), z.array(z.string().max(2000)).max(50)]);

/** POST /bookings body (SPEC §4). */
export const ZCreateBookingInput = z.object({
  bookingTypeId: z.coerce.number().int().positive().max(2_147_483_647),
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
  bookingTypeId: z.coerce.number().int().positive().optional(),
  status: z.enum(BOOKING_STATUSES).optional(),
  /** UTC day, inclusive, on the start time. */
  from: ZUtcDay.optional(),
  to: ZUtcDay.optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  perPage: z.coerce.number().int().min(1).max(500).default(50),
});
export type BookingListQuery = z.infer<typeof ZBookingListQuery>;

/** PATCH /settings body. */
export const ZSettingsPatch = z.object({
  /** Three letters; lowercase or padded input is accepted and normalised (contract "Currency"). */
  currency: z
    .string()
    .refine((v) => /^[A-Za-z]{3}$/.test(v.trim()), 'must be a three-letter ISO 4217 code')
    .transform((v) => v.trim().toUpperCase())
    .optional(),
  /** Slug → label overrides of the defaults; '' hides a mode's label. */
  locationLabels: z.record(z.string().regex(/^[a-z0-9_]{1,40}$/), z.string().max(100)).optional(),
  paymentHoldHours: z.number().int().min(1).max(24 * 30).optional(),
});
export type SettingsPatch = z.infer<typeof ZSettingsPatch>;

/** SPEC §4 booking type, camelCase. */
export interface BookingTypeDto {
  id: number;
  title: string;
  slug: string;
  description: string;
  status: 'draft' | 'published';
  durationMinutes: number;
  slotIntervalMinutes: number;
  timezone: string;
  hosts: number[];
  /** The stored meta value; '' behaves as round_robin. */
  assignment: (typeof ASSIGNMENT_MODES)[number] | '';
  weeklyWindows: WeeklyWindows;
  daysOff: string[];
  minNoticeMinutes: number;
  maxAdvanceDays: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  capacity: number;
  priceCents: number;
  requiresApproval: boolean;
  locationMode: (typeof LOCATION_MODES)[number];
  locationValue: string;
  createdUtc: string;
  updatedUtc: string;
}

/** What the public sees: the same shape plus the printed currency and location label. */
export interface PublicBookingTypeDto extends BookingTypeDto {
  currency: string;
  /** From `svc_booking_location_labels`; '' when the mode has no entry. */
  locationLabel: string;
}

/** A booking as administrators see it (camelCase, no cancel token). */
export interface BookingDto {
  bookingId: number;
  bookingTypeId: number;
  hostUserId: number;
  customerUserId: number | null;
  customerEmail: string;
  customerName: string;
  customerTz: string;
  startUtc: string;
  endUtc: string;
  status: BookingStatus;
  quantity: number;
  paymentStatus: string | null;
  orderId: string | null;
  customFields: Record<string, unknown> | null;
  rescheduledFrom: string | null;
  createdUtc: string;
  updatedUtc: string;
}

/** SPEC §4 answer of POST /bookings: never the cancel token. */
export interface BookingCreatedDto {
  bookingId: number;
  status: BookingStatus;
  startUtc: string;
  endUtc: string;
  hostUserId: number;
  paymentUrl?: string;
}

/** The holder's view (manage page): what the booking is, no secrets. */
export interface BookingHolderDto extends BookingDto {
  bookingTypeTitle: string;
  hostName: string;
  durationMinutes: number;
  location: string;
  locationMode: string;
  priceCents: number;
  currency: string;
  canCancel: boolean;
  canReschedule: boolean;
}
