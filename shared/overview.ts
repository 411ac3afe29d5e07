/**
 * The admin overview's figures (docs/api.md#admin-overview): the upcoming events with their seats,
 * money, waitlist, check-ins and sign-ups per day, the bookings of today and this week, and the
 * outbox's counts — one answer, so the overview is one request and never the whole outbox.
 */
import { z } from 'zod';
import { ZTimeZone } from './schemas';

export const OVERVIEW_EVENTS = 8;
export const SIGNUP_DAYS = 14;

export const ZOverviewQuery = z.object({
  /** The reader's zone: "today" and "this week" (Monday first) are its days. */
  tz: ZTimeZone.optional(),
});

export const ZOverviewEvent = z.object({
  id: z.number().int(),
  title: z.string(),
  startsUtc: z.string(),
  endsUtc: z.string().nullable(),
  timezone: z.string(),
  status: z.string(),
  capacity: z.number().int().nullable(),
  /** Seats going (paid or free) and seats on the waitlist. */
  seatsGoing: z.number().int(),
  seatsWaitlisted: z.number().int(),
  /** Seats of going attendees with a check-in not annulled. */
  seatsCheckedIn: z.number().int(),
  /** Paid online, refunds taken off, in cents of `currency`; null for anyone but an administrator. */
  revenueCents: z.number().int().nullable(),
  currency: z.string(),
  /** Seats signed up per day of the event's zone, the last SIGNUP_DAYS days, oldest first (cancelled ones included: they were sign-ups). */
  signupsByDay: z.array(z.object({ day: z.string(), seats: z.number().int() })),
});

export const ZOverview = z.object({
  tz: z.string(),
  events: z.array(ZOverviewEvent),
  /** Bookings not cancelled starting today and this week (Monday to Sunday) in `tz`; null for staff. Hosts count their own. */
  bookings: z.object({ today: z.number().int(), thisWeek: z.number().int() }).nullable(),
  /** Mails waiting and mails that failed; null for anyone but an administrator. */
  outbox: z.object({ queued: z.number().int(), failed: z.number().int() }).nullable(),
});

export type OverviewEvent = z.infer<typeof ZOverviewEvent>;
export type Overview = z.infer<typeof ZOverview>;
