/** A host's connected calendars (docs/api.md#host-calendars): shapes shared by the server and the admin app. */
import { z } from './validation';

export const HOST_CALENDAR_KINDS = ['caldav', 'ics'] as const;
export type HostCalendarKind = (typeof HOST_CALENDAR_KINDS)[number];

/**
 * `pending`: not read yet; `ok`: the last refresh read it; `unreachable`: the last refresh failed
 * (the busy time last read still blocks slots, docs/decisions/041-external-calendars.md).
 */
export const HOST_CALENDAR_STATUSES = ['pending', 'ok', 'unreachable'] as const;
export type HostCalendarStatus = (typeof HOST_CALENDAR_STATUSES)[number];

export const CALENDAR_URL_MAX = 2000;
export const CALENDAR_USERNAME_MAX = 200;
export const CALENDAR_PASSWORD_MAX = 500;

export const ZHostCalendarInput = z.strictObject({
  kind: z.enum(HOST_CALENDAR_KINDS),
  url: z.string().trim().min(1).max(CALENDAR_URL_MAX),
  username: z.string().min(1).max(CALENDAR_USERNAME_MAX).optional(),
  password: z.string().min(1).max(CALENDAR_PASSWORD_MAX).optional(),
  /** Bookings are written into this calendar (CalDAV only). */
  writeBack: z.boolean().optional(),
  /** IANA zone for all-day events and floating times; default: the zone of the first booking type the host hosts, else UTC. */
  timezone: z.string().min(1).max(64).optional(),
});
export type HostCalendarInput = z.infer<typeof ZHostCalendarInput>;

export const ZHostCalendarDto = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  kind: z.enum(HOST_CALENDAR_KINDS),
  url: z.string(),
  username: z.string().nullable(),
  /** The password itself is never returned. */
  hasPassword: z.boolean(),
  writeBack: z.boolean(),
  timezone: z.string(),
  status: z.enum(HOST_CALENDAR_STATUSES),
  /** Why the last refresh failed, without credentials; null after a good one. */
  lastError: z.string().nullable(),
  /** UTC `Y-m-d H:i:s` of the last attempt, good or not. */
  lastRefreshedUtc: z.string().nullable(),
  /** UTC `Y-m-d H:i:s` of the last refresh that read the calendar. */
  lastSuccessUtc: z.string().nullable(),
  /** Busy intervals kept from the last good read. */
  busyCount: z.number().int(),
  createdUtc: z.string(),
});
export type HostCalendarDto = z.infer<typeof ZHostCalendarDto>;
