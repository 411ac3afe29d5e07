/**
 * Priorities the contract fixes for built-in and extended-edition listeners.
 * Lower runs first; equal priorities run in registration order.
 */

/** Contract intro: "a callback has a priority (default 10)". */
export const PRIORITY_DEFAULT = 10;

// svc_rsvp_submitted
/** Contract: the free confirmation email listens at 10. */
export const PRIORITY_FREE_CONFIRMATION_EMAIL = 10;
/**
 * Contract: the extended edition listens at 10, 20, 30 and 40 without saying which
 * listener takes which slot; we order them as on check-in: record first, outside
 * integrations next, chat last.
 */
export const PRIORITY_RSVP_SUBMITTED_TIMELINE = 10;
export const PRIORITY_RSVP_SUBMITTED_MAILING_BRIDGE = 20;
export const PRIORITY_RSVP_SUBMITTED_WEBHOOKS = 30;
export const PRIORITY_RSVP_SUBMITTED_TEAM_CHAT = 40;

// svc_attendee_status_changed and svc_pro_attendee_checked_in
/** Contract: the extended timeline listens at 10 (status change and check-in). */
export const PRIORITY_TIMELINE = 10;
/** Contract: the webhook catalogue listens to svc_attendee_status_changed at 20. */
export const PRIORITY_WEBHOOK_CATALOGUE = 20;

// svc_pro_attendee_checked_in
/** Contract: the mailing bridge listens at 20 and re-emits svc_mp_checked_in. */
export const PRIORITY_CHECKIN_MAILING_BRIDGE = 20;
/** Contract: the webhook dispatcher listens to check-ins at 20. */
export const PRIORITY_CHECKIN_WEBHOOKS = 20;
/** Contract: team chat listens to check-ins at 30, after timeline and integrations. */
export const PRIORITY_CHECKIN_TEAM_CHAT = 30;

// svc_attendee_deleted
/** Contract: the extended edition wipes the timeline at 10. */
export const PRIORITY_ATTENDEE_DELETED_TIMELINE = 10;
/** Contract: the extended edition emits the `attendee.deleted` webhook at 20. */
export const PRIORITY_ATTENDEE_DELETED_WEBHOOK = 20;

// Filters: attendees
/**
 * Contract: the extended validator runs svc_rsvp_custom_fields at 10 and returns only
 * its own values; other callbacks run above 10 and merge.
 */
export const PRIORITY_EXTENDED_CUSTOM_FIELDS_VALIDATOR = 10;
/** Contract: svc_rest_attendee_response gains checkinCount/lastCheckinUtc at 10. */
export const PRIORITY_CHECKIN_SERIALIZATION = 10;

// Bookings
/** Contract: the extended edition's shared-resource conflict callback on svc_booking_slots (4 args). */
export const PRIORITY_SHARED_RESOURCE_CONFLICT = 10;
/** Contract: svc_booking_created at 10 sends the confirmation email, then schedules reminders. */
export const PRIORITY_BOOKING_EMAIL = 10;
/**
 * Contract: svc_booking_cancelled at 10 sends the email and clears reminders; a callback
 * that throws at a lower number prevents both.
 */
export const PRIORITY_BOOKING_CANCELLED_EMAIL = 10;
/** The built-in notifier sends the withheld confirmation on svc_booking_approved (default priority). */
export const PRIORITY_BOOKING_APPROVED_EMAIL = 10;
/** svc_booking_rescheduled: updated invite and reminder moved (default priority, like the other booking mails). */
export const PRIORITY_BOOKING_RESCHEDULED_EMAIL = 10;
