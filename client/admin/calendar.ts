/** The bookings calendar's day/week arithmetic, in the viewer's local time. */
import { parseUtcString, toUtcDate } from '../../shared/time';

export type CalendarView = 'day' | 'week';

/** Local midnight of the day holding `ms`. */
export function startOfLocalDay(ms: number): number {
  const d = new Date(ms);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
}

/** Local midnight of the Monday of the week holding `ms`. */
export function startOfLocalWeek(ms: number): number {
  const d = new Date(startOfLocalDay(ms));
  const back = (d.getDay() + 6) % 7; // Monday = 0
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() - back).getTime();
}

/** Local midnights of the days shown: one for the day view, seven from Monday for the week. */
export function calendarDays(view: CalendarView, anchorMs: number): number[] {
  if (view === 'day') return [startOfLocalDay(anchorMs)];
  const monday = new Date(startOfLocalWeek(anchorMs));
  return Array.from({ length: 7 }, (_, i) => new Date(monday.getFullYear(), monday.getMonth(), monday.getDate() + i).getTime());
}

/** The anchor moved one view back or forward. */
export function shiftAnchor(view: CalendarView, anchorMs: number, step: -1 | 1): number {
  const d = new Date(startOfLocalDay(anchorMs));
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + step * (view === 'day' ? 1 : 7)).getTime();
}

/**
 * The list route's `from`/`to` (UTC days on the start, inclusive) that cover the local
 * days shown: a local day can straddle two UTC days.
 */
export function utcDayRange(days: readonly number[]): { from: string; to: string } {
  const first = days[0] ?? Date.now();
  const last = days.at(-1) ?? first;
  const endOfLast = new Date(last);
  const end = new Date(endOfLast.getFullYear(), endOfLast.getMonth(), endOfLast.getDate() + 1).getTime() - 1;
  return { from: toUtcDate(first), to: toUtcDate(end) };
}

/** Items grouped under the local day their start falls on (days not shown are dropped), each day sorted by start. */
export function groupByLocalDay<T extends { startUtc: string }>(items: readonly T[], days: readonly number[]): Map<number, T[]> {
  const groups = new Map<number, T[]>(days.map((d) => [d, []]));
  for (const item of items) {
    const start = parseUtcString(item.startUtc)?.getTime();
    if (start === undefined) continue;
    groups.get(startOfLocalDay(start))?.push(item);
  }
  for (const list of groups.values()) list.sort((a, b) => a.startUtc.localeCompare(b.startUtc));
  return groups;
}
