/**
 * Priorities the contract fixes for the listeners svc registers. Lower runs first; equal
 * priorities run in registration order. A listener's constant is added with the listener.
 */

/** Contract intro: "a callback has a priority (default 10)". */
export const PRIORITY_DEFAULT = 10;

// svc_rsvp_submitted
/** Contract: the free confirmation email listens at 10. */
export const PRIORITY_FREE_CONFIRMATION_EMAIL = 10;
/** svc_attendee_status_changed: a waitlisted attendee moved to going gets their ticket (default priority). */
export const PRIORITY_PROMOTED_TICKET_EMAIL = 10;

// Filters: attendees
/** Contract: svc_rest_attendee_response gains checkinCount/lastCheckinUtc at 10. */
export const PRIORITY_CHECKIN_SERIALIZATION = 10;

// Bookings
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

// Extended edition: payments
/** docs/api.md#payments: svc_booking_awaiting_payment and svc_booking_payment_url answer at 10. */
export const PRIORITY_PAYMENT_PATH = 10;
/** svc_booking_paid: the confirmation mail (with invite and reminder) follows the payment, like an approval. */
export const PRIORITY_BOOKING_PAID_EMAIL = 10;

// Extended edition: integrations (docs/api.md#webhooks and after)
/** Contract: the timeline writes at 10 of status change, check-in and (wipe) delete; svc's other timeline writers follow it. */
export const PRIORITY_TIMELINE = 10;
/** Contract: the webhook dispatcher listens at 20 on status change, delete and check-in; the rest of the catalogue at 20 too. */
export const PRIORITY_WEBHOOKS = 20;
/** Contract: the mailing bridge re-emits svc_pro_attendee_checked_in as svc_mp_checked_in at 20. */
export const PRIORITY_MAILING_BRIDGE = 20;
/** Contract: the team-chat notification listens at 30 of svc_pro_attendee_checked_in. */
export const PRIORITY_TEAM_CHAT = 30;
/** Contract: the custom-field validator runs at 10 of svc_rsvp_custom_fields (and renders through svc_rsvp_form_fields). */
export const PRIORITY_CUSTOM_FIELDS = 10;
/** Contract: the shared-resource conflict callback sits at 10 of svc_booking_slots, 4 args. */
export const PRIORITY_SHARED_RESOURCES = 10;

// Host calendars (docs/api.md#host-calendars)
/** svc_booking_confirmed, _rescheduled and _cancelled queue the host calendar's write-back after the booking mails. */
export const PRIORITY_CALENDAR_WRITEBACK = 20;
