/**
 * Payloads that hooks hand to plugins: the contract's resources and their fields (docs/api.md#plugins).
 *
 * Rows and config keep the contract's snake_case keys (docs/api.md#plugins), so a plugin written
 * against the contract reads `row.custom_fields` or `config.price_cents` unchanged.
 * Times are UTC `Y-m-d H:i:s` strings throughout.
 */
import type { Weekday } from '../../shared/time';

/** The sign-up payload of `svc_rsvp_submitted`: no status, custom_fields or timestamps. */
export interface RsvpSubmittedPayload {
  event_id: number;
  email: string;
  display_name: string;
  quantity: number;
  /** Secret behind the one-click cancel link: never log or forward it (contract). */
  cancel_token: string;
}

/** The attendee columns an admin PATCH may diff; status never appears in the diff. */
export type AttendeeChangeColumn = 'display_name' | 'email' | 'quantity';

export interface AttendeeFieldChange {
  from: unknown;
  to: unknown;
}

/** The diff of `svc_attendee_updated`: only columns whose value changed; `{}` when none did. */
export type AttendeeChanges = Partial<Record<AttendeeChangeColumn, AttendeeFieldChange>>;

/** The raw attendee row (second argument of `svc_rest_attendee_response`). */
export interface AttendeeRow {
  id: number;
  event_id: number;
  email: string;
  display_name: string;
  quantity: number;
  /** `going`, `waitlist`, `cancelled`; may be empty on an old row (contract). */
  status: string;
  /** Still JSON here; NULL when no answers are stored. */
  custom_fields: string | null;
  cancel_token: string;
  created_utc: string;
  updated_utc: string;
}

/**
 * A `svc_bookings` row read back with a plain select: every column arrives as a string
 * (contract). A NULL column (no customer user, no order) is passed as an empty string.
 */
export interface BookingRowStrings {
  booking_id: string;
  booking_type_id: string;
  host_user_id: string;
  customer_user_id: string;
  customer_email: string;
  customer_name: string;
  customer_tz: string;
  start_utc: string;
  end_utc: string;
  status: string;
  quantity: string;
  payment_status: string;
  order_id: string;
  /** JSON-encoded answers. */
  custom_fields: string;
  rescheduled_from: string;
  /** 64-character secret; present in `svc_booking_created` data, removed elsewhere. */
  cancel_token: string;
  created_utc: string;
  updated_utc: string;
}

/**
 * `svc_booking_created` data when the read-back failed: the contract's "empty array".
 * Typed as "every column absent" so `data.start_utc` reads as `string | undefined`
 * instead of needing a separate narrowing step.
 */
export type BookingReadBackFailed = { [Column in keyof BookingRowStrings]?: never };

/** The persisted row handed to `svc_booking_payment_url`, "redacted": no cancel token. */
export type RedactedBookingRow = Omit<BookingRowStrings, 'cancel_token'>;

/** Values of the `_svc_bt_assignment` meta; empty behaves as `round_robin` (contract). */
export type AssignmentMode = 'fixed' | 'round_robin' | 'collective' | 'weighted' | 'priority';

/** Location mode slugs; `custom` has no default label (contract). */
export type LocationMode = 'in_person' | 'virtual' | 'phone' | 'custom';

/** Slug → label, as filtered by `svc_booking_location_labels`. */
export type LocationLabels = Record<string, string>;

/** `["09:00", "17:00"]` in the booking type's timezone. */
export type TimeWindow = [from: string, to: string];

/**
 * Resolved booking-type config (third argument of `svc_booking_awaiting_payment`).
 * The known keys mirror the booking type of docs/api.md#rest in snake_case; the record stays
 * open because the contract leaves "other booking-type config keys" unshown.
 */
export interface BookingTypeConfig {
  id: number;
  /** Smallest currency unit. */
  price_cents: number;
  requires_approval: boolean;
  /** The raw meta value; `''` behaves as `round_robin`. */
  assignment: AssignmentMode | '';
  duration_minutes: number;
  slot_interval_minutes: number;
  timezone: string;
  hosts: number[];
  weekly_windows: Record<Weekday, TimeWindow[]>;
  days_off: string[];
  min_notice_minutes: number;
  max_advance_days: number;
  buffer_before_minutes: number;
  buffer_after_minutes: number;
  /** Seats per host per slot. */
  capacity: number;
  location_mode: LocationMode;
  location_value: string;
  [key: string]: unknown;
}

/** One element of the slot list (contract "Slot"): the generator's own type. */
export type { Slot } from '../../shared/booking/slots';

/**
 * The object `svc_booking_assignment_strategy` must return. `pick` answers a host user
 * id, or 0 for "nobody" (the booking service turns 0 into `svc_booking_no_host`).
 */
export interface AssignmentStrategy {
  pick(candidateHostIds: number[], bookingTypeId: number, slotUtc: string): number | Promise<number>;
}

/** A stored custom-field answer: the contract keeps scalars and arrays of strings only. */
export type CustomFieldValue = string | number | boolean | string[];

export type CustomFieldAnswers = Record<string, CustomFieldValue>;

/** Submitted `svc_cf_<key>` inputs, prefix removed, already sanitized (contract). */
export type RawCustomFieldInput = Record<string, string | string[]>;
