/**
 * Priorities the contract fixes for the listeners svc registers. Lower runs first; equal
 * priorities run in registration order. A listener's constant is added with the listener.
 */

/** Contract intro: "a callback has a priority (default 10)". */
export const PRIORITY_DEFAULT = 10;

// svc_rsvp_submitted
/** Contract: the free confirmation email listens at 10. */
export const PRIORITY_FREE_CONFIRMATION_EMAIL = 10;

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
