/**
 * A host's own working hours as real time (docs/decisions/040-host-hours.md): weekly windows
 * and date overrides in the host's zone, turned into sorted, merged UTC intervals for a range.
 *
 * Pure and dependency-free like the generator it feeds (shared/booking/slots.ts). Wall-clock
 * boundaries convert as the type's windows do (Temporal `compatible`, through zoneTimeline), so
 * a DST change moves the hours with the host's clock.
 */
import { CLOCK_RE, parseUtcDate, type Weekday } from '../time';
import { DAY_MS, MINUTE_MS, zoneTimeline } from './tz';

/** A date override: on each local date from `from` to `to` (inclusive) `windows` replace the weekly ones; `[]` = not available. */
export interface HostHoursOverride {
  from: string;
  to: string;
  windows: Array<[string, string]>;
}

/** One host's stored hours. A host with none is available around the clock. */
export interface HostHours {
  /** IANA zone the windows and dates are in. */
  timezone: string;
  weekly: Record<Weekday, Array<[string, string]>>;
  overrides: HostHoursOverride[];
}

/** Date#getUTCDay order, so `BY_INDEX[(day + 4) % 7]` is the weekday of epoch day `day`. */
const BY_INDEX: readonly Weekday[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

function clockMinutes(text: string): number | null {
  if (!CLOCK_RE.test(text)) return null;
  return Number(text.slice(0, 2)) * 60 + Number(text.slice(3, 5));
}

/** Windows as [startMinute, endMinute) pairs; malformed or empty ones offer nothing. */
function compileWindows(windows: Array<[string, string]> | undefined): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const [from, to] of windows ?? []) {
    const start = clockMinutes(from);
    const end = clockMinutes(to);
    if (start !== null && end !== null && end > start && start < 24 * 60) out.push([start, end]);
  }
  return out;
}

const epochDay = (text: string): number | null => {
  const d = parseUtcDate(text);
  return d ? d.getTime() / DAY_MS : null;
};

/**
 * The UTC intervals [start, end) in which the host works, as a flat ascending array
 * `[s0, e0, s1, e1, …]` of disjoint, non-touching intervals, covering at least [fromMs, toMs]
 * (local days overlapping it are all included). An override that names a date wins over the
 * weekly hours; a later override wins over an earlier one for the same date.
 */
export function hostAvailability(hours: HostHours, fromMs: number, toMs: number): number[] {
  const zone = zoneTimeline(hours.timezone, fromMs - 2 * DAY_MS, toMs + 2 * DAY_MS);
  const firstDay = Math.floor((fromMs + zone.offsetAt(fromMs)) / DAY_MS) - 1;
  const lastDay = Math.floor((toMs + zone.offsetAt(toMs)) / DAY_MS) + 1;

  const weekly = BY_INDEX.map((day) => compileWindows(hours.weekly[day]));
  const overridden = new Map<number, Array<[number, number]>>();
  for (const override of hours.overrides) {
    const from = epochDay(override.from);
    const to = epochDay(override.to);
    if (from === null || to === null) continue;
    const windows = compileWindows(override.windows);
    for (let day = Math.max(from, firstDay); day <= Math.min(to, lastDay); day++) overridden.set(day, windows);
  }

  const raw: Array<[number, number]> = [];
  for (let day = firstDay; day <= lastDay; day++) {
    const windows = overridden.get(day) ?? weekly[(((day + 4) % 7) + 7) % 7]!;
    const midnight = day * DAY_MS;
    for (const [start, end] of windows) {
      const from = zone.wallToUtc(midnight + start * MINUTE_MS);
      const to = zone.wallToUtc(midnight + end * MINUTE_MS);
      if (to > from) raw.push([from, to]);
    }
  }
  raw.sort((a, b) => a[0] - b[0]);

  const merged: number[] = [];
  for (const [from, to] of raw) {
    const last = merged.length - 1;
    // touching windows (a day ending 24:00, the next starting 00:00) are one stretch of work
    if (last > 0 && from <= merged[last]!) merged[last] = Math.max(merged[last]!, to);
    else merged.push(from, to);
  }
  return merged;
}

/**
 * Whether [startMs, endMs] lies inside one of `intervals` (a {@link hostAvailability} array),
 * for ascending queries: `cursor.at` only moves forward, so a whole scan costs one pass.
 */
export function coversAscending(intervals: number[], cursor: { at: number }, startMs: number, endMs: number): boolean {
  let i = cursor.at;
  while (i < intervals.length && intervals[i + 1]! < endMs) i += 2;
  cursor.at = i;
  return i < intervals.length && intervals[i]! <= startMs;
}
