/** A host's own working hours (docs/api.md#host-hours): shapes shared by the server and the admin app. */
import { z } from './validation';
import { ZTimeZone, ZUtcDay } from './schemas';
import { CLOCK_RE, parseUtcDate } from './time';

/** Windows a host may list for one day (a weekday or an override). */
export const HOST_HOURS_MAX_WINDOWS = 12;
/** Overrides one host may keep. */
export const HOST_HOURS_MAX_OVERRIDES = 366;
/** Longest override, in days inclusive (a vacation of a year). */
export const HOST_HOURS_MAX_OVERRIDE_DAYS = 366;

const ZClock = z.string().regex(CLOCK_RE, 'must be HH:MM');
const ZWindow = z.tuple([ZClock, ZClock]).refine(([from, to]) => from !== '24:00' && from < to, 'must end after it starts');
const ZWindows = z.array(ZWindow).max(HOST_HOURS_MAX_WINDOWS, `must have at most ${HOST_HOURS_MAX_WINDOWS} windows`);
const ZDayHours = ZWindows.default([]);

const dayNumber = (day: string) => parseUtcDate(day)!.getTime() / 86_400_000;

/** On each local date from `from` to `to` (inclusive; `to` defaults to `from`) `windows` replace the weekly hours; `[]` = unavailable. */
export const ZHostHoursOverride = z
  .object({ from: ZUtcDay, to: ZUtcDay.optional(), windows: ZWindows })
  .transform((o) => ({ from: o.from, to: o.to ?? o.from, windows: o.windows }))
  .refine((o) => o.to >= o.from, { message: 'must not end before it starts', path: ['to'] })
  .refine((o) => o.to < o.from || dayNumber(o.to) - dayNumber(o.from) < HOST_HOURS_MAX_OVERRIDE_DAYS, {
    message: `must span at most ${HOST_HOURS_MAX_OVERRIDE_DAYS} days`,
    path: ['to'],
  });

/** PUT /hosts/{userId}/hours body. */
export const ZHostHoursInput = z.object({
  timezone: ZTimeZone,
  weekly: z.object({ mon: ZDayHours, tue: ZDayHours, wed: ZDayHours, thu: ZDayHours, fri: ZDayHours, sat: ZDayHours, sun: ZDayHours }),
  overrides: z
    .array(ZHostHoursOverride)
    .max(HOST_HOURS_MAX_OVERRIDES, `must have at most ${HOST_HOURS_MAX_OVERRIDES} overrides`)
    .default([])
    .refine((list) => {
      const sorted = [...list].sort((a, b) => (a.from < b.from ? -1 : 1));
      return sorted.every((o, i) => i === 0 || o.from > sorted[i - 1]!.to);
    }, 'must not overlap (one override per date)'),
});
export type HostHoursInput = z.infer<typeof ZHostHoursInput>;

/** A host's hours; `stored` is false while the host has none (available around the clock: `weekly` is then all day). */
export const ZHostHoursDto = z.object({
  userId: z.number().int(),
  stored: z.boolean(),
  timezone: z.string(),
  weekly: z.object({
    mon: z.array(z.tuple([z.string(), z.string()])),
    tue: z.array(z.tuple([z.string(), z.string()])),
    wed: z.array(z.tuple([z.string(), z.string()])),
    thu: z.array(z.tuple([z.string(), z.string()])),
    fri: z.array(z.tuple([z.string(), z.string()])),
    sat: z.array(z.tuple([z.string(), z.string()])),
    sun: z.array(z.tuple([z.string(), z.string()])),
  }),
  overrides: z.array(z.object({ from: z.string(), to: z.string(), windows: z.array(z.tuple([z.string(), z.string()])) })),
  updatedUtc: z.string().nullable(),
});
export type HostHoursDto = z.infer<typeof ZHostHoursDto>;
