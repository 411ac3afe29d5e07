/**
 * The booking type's weekly-window editor, as a model: several windows a day, kept sorted,
 * checked for overlaps and inverted times, copied from one day to others, and converted
 * back into the docs/api.md#rest `weeklyWindows` shape. The page only renders it.
 */
import type { WeeklyWindows } from '../../shared/booking';
import { CLOCK_RE, WEEKDAYS, type Weekday } from '../../shared/time';

export type TimeWindow = [from: string, to: string];
export type WeekModel = Record<Weekday, TimeWindow[]>;

export function emptyWeek(): WeekModel {
  return { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
}

/** A copy of the server's windows (absent days become empty). */
export function weekFromWindows(windows: Partial<WeeklyWindows> | null | undefined): WeekModel {
  const week = emptyWeek();
  for (const day of WEEKDAYS) week[day] = (windows?.[day] ?? []).map(([from, to]) => [from, to] as TimeWindow);
  return week;
}

/** "HH:MM" → minutes of the day; "24:00" is 1440. NaN for anything else. */
export function clockToMinutes(clock: string): number {
  if (!CLOCK_RE.test(clock)) return Number.NaN;
  const [h, m] = clock.split(':').map(Number) as [number, number];
  return h * 60 + m;
}

export function minutesToClock(minutes: number): string {
  const clamped = Math.max(0, Math.min(1440, Math.round(minutes)));
  return `${String(Math.floor(clamped / 60)).padStart(2, '0')}:${String(clamped % 60).padStart(2, '0')}`;
}

/** A new window after the day's last one: 09:00–17:00 on an empty day, else the next free hour (to 24:00). Null when the day is full. */
export function nextWindow(windows: readonly TimeWindow[]): TimeWindow | null {
  if (windows.length === 0) return ['09:00', '17:00'];
  const lastEnd = Math.max(...windows.map(([, to]) => clockToMinutes(to)).filter((m) => !Number.isNaN(m)));
  if (!Number.isFinite(lastEnd) || lastEnd >= 1440) return null;
  return [minutesToClock(lastEnd), minutesToClock(Math.min(1440, lastEnd + 60))];
}

export function addWindow(week: WeekModel, day: Weekday): WeekModel {
  const next = nextWindow(week[day]);
  if (!next) return week;
  return { ...week, [day]: [...week[day], next] };
}

export function removeWindow(week: WeekModel, day: Weekday, index: number): WeekModel {
  return { ...week, [day]: week[day].filter((_, i) => i !== index) };
}

export function updateWindow(week: WeekModel, day: Weekday, index: number, edge: 0 | 1, clock: string): WeekModel {
  return {
    ...week,
    [day]: week[day].map((w, i) => (i === index ? ((edge === 0 ? [clock, w[1]] : [w[0], clock]) as TimeWindow) : w)),
  };
}

/** Copies one day's windows onto the target days (replacing theirs). */
export function copyDay(week: WeekModel, from: Weekday, to: readonly Weekday[]): WeekModel {
  const copy = { ...week };
  for (const day of to) if (day !== from) copy[day] = week[from].map(([a, b]) => [a, b] as TimeWindow);
  return copy;
}

/** What is wrong with a day's windows; the editor words it in the reader's language. */
export type DayProblem = { kind: 'format' } | { kind: 'order'; from: string; to: string } | { kind: 'overlap'; at: string };

/** Per day, the first problem (null when the day is fine). */
export function validateWeek(week: WeekModel): Record<Weekday, DayProblem | null> {
  const errors = {} as Record<Weekday, DayProblem | null>;
  for (const day of WEEKDAYS) errors[day] = validateDay(week[day]);
  return errors;
}

function validateDay(windows: readonly TimeWindow[]): DayProblem | null {
  const spans: Array<[number, number]> = [];
  for (const [from, to] of windows) {
    const a = clockToMinutes(from);
    const b = clockToMinutes(to);
    if (Number.isNaN(a) || Number.isNaN(b)) return { kind: 'format' };
    if (from === '24:00' || b <= a) return { kind: 'order', from, to };
    spans.push([a, b]);
  }
  spans.sort((x, y) => x[0] - y[0]);
  for (let i = 1; i < spans.length; i++) {
    if (spans[i]![0] < spans[i - 1]![1]) return { kind: 'overlap', at: minutesToClock(spans[i]![0]) };
  }
  return null;
}

export function weekIsValid(week: WeekModel): boolean {
  return Object.values(validateWeek(week)).every((e) => e === null);
}

/** The docs/api.md#rest shape, each day's windows sorted by start. */
export function windowsFromWeek(week: WeekModel): WeeklyWindows {
  const out = emptyWeek();
  for (const day of WEEKDAYS) out[day] = [...week[day]].sort((x, y) => clockToMinutes(x[0]) - clockToMinutes(y[0]));
  return out as WeeklyWindows;
}

/** Where a window sits on a day bar, in percent of 24 hours (the editor's calendar strip). */
export function windowBar([from, to]: TimeWindow): { left: number; width: number } | null {
  const a = clockToMinutes(from);
  const b = clockToMinutes(to);
  if (Number.isNaN(a) || Number.isNaN(b) || b <= a) return null;
  return { left: (a / 1440) * 100, width: ((b - a) / 1440) * 100 };
}

/** Weekly open hours, for the summary line ("37.5 h a week"). */
export function weeklyHours(week: WeekModel): number {
  let minutes = 0;
  for (const day of WEEKDAYS) {
    for (const [from, to] of week[day]) {
      const span = clockToMinutes(to) - clockToMinutes(from);
      if (span > 0) minutes += span;
    }
  }
  return minutes / 60;
}
