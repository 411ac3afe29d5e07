/** Private calendar feeds of bookings (docs/api.md#calendar-feeds): shapes shared by the server and the admin app. */
import { z } from './validation';

export const FEED_SCOPES = ['host', 'all'] as const;
export type FeedScope = (typeof FEED_SCOPES)[number];

/** A feed's addresses; both null when the user has none (or revoked it). */
export const ZCalendarFeedDto = z.object({
  scope: z.enum(FEED_SCOPES),
  /** `https://…/svc/v1/feeds/{token}.ics`: for calendars that take a web address. */
  url: z.string().nullable(),
  /** The same address as `webcal://…`: a click opens the device's calendar to subscribe. */
  webcalUrl: z.string().nullable(),
  createdUtc: z.string().nullable(),
});
export type CalendarFeedDto = z.infer<typeof ZCalendarFeedDto>;
