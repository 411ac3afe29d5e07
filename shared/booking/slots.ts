/**
 * The slot generator (contract: Slot table, `svc_booking_slots`, Limits; docs/api.md#rest "Slot capacity").
 *
 * Pure and dependency-free: the caller passes the rules, the busy bookings and the clock, so
 * the server and the offline PWA compute the same list. Decisions the contract leaves open:
 *
 * - Windows are wall-clock times in `rules.timezone`. Each window is turned into a real
 *   interval [UTC(start), UTC(end)) and candidates step through it in real elapsed minutes,
 *   `start + duration ≤ end`. A boundary inside a spring-forward gap moves forward by the gap
 *   (Temporal `compatible`); a boundary in a repeated fall-back hour takes its first
 *   occurrence. So no start lies in a skipped hour, UTC starts never repeat, and in a repeated
 *   hour the host is offered both real hours (the same wall time twice, with two offsets).
 * - Range: UTC starts in [fromDay 00:00:00, toDay 23:59:59], ≥ now + minNotice and
 *   ≤ now + maxAdvanceDays × 24 h; `maxAdvanceDays` ≤ 0 means no advance limit.
 * - Buffers on both sides: every booking occupies its host from its start − its own type's
 *   buffer before to its end + its own type's buffer after, and a candidate needs
 *   [start − bufferBefore, end + bufferAfter) of its own type free of those spans. So the
 *   answer does not depend on which of two bookings came first.
 * - `label` is English (en-GB order, "Sun 29 Mar, 09:30") in the requester's zone.
 * - At most {@link MAX_SLOT_RANGE_DAYS} days after the first possible start are scanned.
 * - Host hours (docs/decisions/040-host-hours.md): a host with stored hours is offered for a start
 *   only when [start, start + duration] lies inside one of their working intervals (buffers are
 *   about other appointments, not working hours). `hoursSource` 'type' intersects the type's
 *   windows with them; 'hosts' takes candidate starts from the hosts' intervals instead (union,
 *   stepping by the interval from each interval's start; a host without hours counts as working
 *   the type's whole day). The type's days off apply in both.
 */
import { AppError } from '../errors';
import { CLOCK_RE, isValidTimeZone, parseUtcDate, toUtcDate, type Weekday } from '../time';
import { coversAscending, hostAvailability, type HostHours } from './hours';
import { DAY_MS, MINUTE_MS, formatClock, formatOffset, zoneTimeline } from './tz';

export type { HostHours, HostHoursOverride } from './hours';

/** Where a type's offered hours come from: its windows within each host's hours, or the hosts' hours alone. */
export const HOURS_SOURCES = ['type', 'hosts'] as const;
export type HoursSource = (typeof HOURS_SOURCES)[number];

export interface SlotRules {
  durationMinutes: number;
  /** The caller applies the default (= duration). */
  slotIntervalMinutes: number;
  /** IANA zone of the booking type; windows and days off are in it. */
  timezone: string;
  /** "HH:MM" pairs per weekday; "24:00" is allowed as an end. A pair with end ≤ start offers nothing. */
  weeklyWindows: Record<Weekday, Array<[string, string]>>;
  /** `Y-m-d` local dates in `timezone`. */
  daysOff: string[];
  minNoticeMinutes: number;
  /** 0 (or less) = no advance limit. */
  maxAdvanceDays: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  /** Seats per host per start. */
  capacity: number;
  hosts: number[];
  /** Default 'type'. */
  hoursSource?: HoursSource;
}

export interface BusyBooking {
  hostUserId: number;
  bookingTypeId: number;
  startMs: number;
  endMs: number;
  quantity: number;
  /** The booking's own type's buffers: it occupies [startMs − before, endMs + after). Default 0. */
  bufferBeforeMs?: number;
  bufferAfterMs?: number;
}

/** Where a booking's occupation of its host begins and ends (its own buffers included). */
export const occupiedFrom = (b: BusyBooking): number => b.startMs - (b.bufferBeforeMs ?? 0);
export const occupiedTo = (b: BusyBooking): number => b.endMs + (b.bufferAfterMs ?? 0);

export interface GenerateInput {
  rules: SlotRules;
  bookingTypeId: number;
  busy: BusyBooking[];
  /** UTC `Y-m-d`, inclusive. */
  fromDay: string;
  /** UTC `Y-m-d`, inclusive. */
  toDay: string;
  nowMs: number;
  requesterTz: string;
  /** Default {@link SLOT_LIMIT}; `Infinity` collects everything. */
  limit?: number;
  /** Stored hours of the hosts that have them; a host missing here works around the clock. */
  hostHours?: ReadonlyMap<number, HostHours>;
}

export interface Slot {
  /** UTC `Y-m-d H:i:s`. */
  start_utc: string;
  end_utc: string;
  /** ISO 8601 in the requester's zone with its offset, e.g. `2026-03-29T09:30:00+02:00`. */
  start: string;
  label: string;
  /** Free hosts, ascending. */
  hosts: number[];
  capacity_left: number;
}

/** Contract Limits: slots collected per generation (before `svc_booking_slots`). */
export const SLOT_LIMIT = 750;
/** docs/api.md#rest: an empty `to` is `from` + 30 days. */
export const DEFAULT_SLOT_RANGE_DAYS = 30;
/** Longest range, in days inclusive, that `resolveSlotRange` answers; a longer `to` is clipped. */
export const MAX_SLOT_RANGE_DAYS = 366;

function invalidParam(name: string, problem: string): AppError {
  return new AppError('svc_invalid_param', `${name}: ${problem}`, { status: 400, params: { [name]: problem } });
}

/**
 * Turns the raw `from`/`to` query values into an inclusive UTC day range. Empty `from` = today
 * (UTC), empty `to` = from + 30 days; a span longer than {@link MAX_SLOT_RANGE_DAYS} is clipped
 * (the generator stops at 750 slots anyway). Throws `svc_invalid_param` naming the bad field.
 */
export function resolveSlotRange(fromRaw: string | undefined, toRaw: string | undefined, nowMs: number): { fromDay: string; toDay: string } {
  const fromText = fromRaw?.trim() ?? '';
  const toText = toRaw?.trim() ?? '';

  let fromMs: number;
  if (fromText === '') {
    fromMs = Math.floor(nowMs / DAY_MS) * DAY_MS;
  } else {
    const parsed = parseUtcDate(fromText);
    if (!parsed) throw invalidParam('from', 'must be a Y-m-d day');
    fromMs = parsed.getTime();
  }

  let toMs: number;
  if (toText === '') {
    toMs = fromMs + DEFAULT_SLOT_RANGE_DAYS * DAY_MS;
  } else {
    const parsed = parseUtcDate(toText);
    if (!parsed) throw invalidParam('to', 'must be a Y-m-d day');
    toMs = parsed.getTime();
    if (toMs < fromMs) throw invalidParam('to', 'must not be before from');
  }

  toMs = Math.min(toMs, fromMs + (MAX_SLOT_RANGE_DAYS - 1) * DAY_MS);
  return { fromDay: toUtcDate(fromMs), toDay: toUtcDate(toMs) };
}

/** Date#getUTCDay order, so `WEEKDAY_BY_INDEX[(day + 4) % 7]` is the weekday of epoch day `day`. */
const WEEKDAY_BY_INDEX: readonly Weekday[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

function parseClockMinutes(text: string, allowEndOfDay: boolean): number | null {
  if (!CLOCK_RE.test(text)) return null;
  const hours = Number(text.slice(0, 2));
  if (hours === 24) return allowEndOfDay ? 24 * 60 : null;
  return hours * 60 + Number(text.slice(3, 5));
}

interface CompiledRules {
  durationMs: number;
  stepMs: number;
  bufferBeforeMs: number;
  bufferAfterMs: number;
  /** Windows as [startMinute, endMinute) per weekday index (0 = Sunday), sorted by start. */
  windows: Array<Array<[number, number]>>;
  /** Days off as epoch day numbers of the local date. */
  daysOff: Set<number>;
  hosts: number[];
  capacity: number;
}

const knownZones = new Set<string>();

/** isValidTimeZone builds an Intl formatter (~75 µs); a zone once known stays known. */
function isKnownZone(tz: string): boolean {
  if (knownZones.has(tz)) return true;
  if (!isValidTimeZone(tz)) return false;
  knownZones.add(tz);
  return true;
}

const nonNegative = (value: number) => (Number.isFinite(value) && value > 0 ? value : 0);

function compileRules(rules: SlotRules): CompiledRules {
  if (!isKnownZone(rules.timezone)) throw invalidParam('timezone', 'must be an IANA time zone');
  if (!(Number.isFinite(rules.durationMinutes) && rules.durationMinutes > 0)) {
    throw invalidParam('durationMinutes', 'must be a positive number of minutes');
  }
  if (!(Number.isFinite(rules.slotIntervalMinutes) && rules.slotIntervalMinutes > 0)) {
    throw invalidParam('slotIntervalMinutes', 'must be a positive number of minutes');
  }

  const windows = WEEKDAY_BY_INDEX.map((weekday) => {
    const compiled: Array<[number, number]> = [];
    for (const [startText, endText] of rules.weeklyWindows[weekday] ?? []) {
      const start = parseClockMinutes(startText, false);
      const end = parseClockMinutes(endText, true);
      if (start === null || end === null) throw invalidParam('weeklyWindows', `${weekday} has a time that is not HH:MM`);
      if (end > start) compiled.push([start, end]);
    }
    return compiled.sort((a, b) => a[0] - b[0]);
  });

  const daysOff = new Set<number>();
  for (const text of rules.daysOff) {
    const day = parseUtcDate(text);
    if (!day) throw invalidParam('daysOff', `${text} is not a Y-m-d day`);
    daysOff.add(day.getTime() / DAY_MS);
  }

  return {
    durationMs: rules.durationMinutes * MINUTE_MS,
    stepMs: rules.slotIntervalMinutes * MINUTE_MS,
    bufferBeforeMs: nonNegative(rules.bufferBeforeMinutes) * MINUTE_MS,
    bufferAfterMs: nonNegative(rules.bufferAfterMinutes) * MINUTE_MS,
    windows,
    daysOff,
    hosts: [...new Set(rules.hosts)].sort((a, b) => a - b),
    capacity: nonNegative(rules.capacity),
  };
}

/**
 * One host's bookings, swept in step with the ascending candidates: `pending` are sorted by
 * the start of their occupation and enter `active` once it begins before the candidate's
 * blocked span ends; `active` drops those whose occupation ended before the span begins. Each
 * booking is added and dropped once.
 */
class HostAgenda {
  private readonly pending: BusyBooking[] = [];
  private next = 0;
  private readonly active: BusyBooking[] = [];

  constructor(readonly hostUserId: number) {}

  add(booking: BusyBooking): void {
    this.pending.push(booking);
  }

  seal(): void {
    const pending = this.pending;
    // Callers usually pass rows ordered by start already; sorting them again is the costliest step.
    for (let i = 1; i < pending.length; i++) {
      if (occupiedFrom(pending[i]!) < occupiedFrom(pending[i - 1]!)) {
        pending.sort((a, b) => occupiedFrom(a) - occupiedFrom(b));
        return;
      }
    }
  }

  /**
   * Seats this host has left at `startMs`, given the blocked span [fromMs, toMs) (buffers
   * included). Bookings of the same type at the same start take seats instead of blocking.
   * Candidates must come in ascending order.
   */
  seatsLeft(startMs: number, fromMs: number, toMs: number, bookingTypeId: number, capacity: number): number {
    const pending = this.pending;
    const active = this.active;
    while (this.next < pending.length && occupiedFrom(pending[this.next]!) < toMs) active.push(pending[this.next++]!);

    let taken = 0;
    let blocked = false;
    for (let i = 0; i < active.length;) {
      const booking = active[i]!;
      if (occupiedTo(booking) <= fromMs) {
        active[i] = active[active.length - 1]!;
        active.pop();
        continue;
      }
      if (booking.bookingTypeId === bookingTypeId && booking.startMs === startMs) taken += booking.quantity;
      else blocked = true;
      i++;
    }
    return blocked ? 0 : capacity - taken;
  }
}

function indexBusy(hosts: number[], busy: BusyBooking[]): HostAgenda[] {
  const agendas = hosts.map((id) => new HostAgenda(id));
  const byHost = new Map(agendas.map((agenda) => [agenda.hostUserId, agenda]));
  for (const booking of busy) byHost.get(booking.hostUserId)?.add(booking);
  for (const agenda of agendas) agenda.seal();
  return agendas;
}

const dayLabelFormat = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });

/**
 * Offers the bookable starts of one booking type, ascending by UTC start, at most `limit`.
 * Throws `svc_invalid_param` for malformed rules, days or zones.
 */
export function generateSlots(input: GenerateInput): Slot[] {
  const { rules, bookingTypeId, nowMs } = input;
  const limit = input.limit ?? SLOT_LIMIT;
  const plan = compileRules(rules);
  const fromDate = parseUtcDate(input.fromDay);
  if (!fromDate) throw invalidParam('from', 'must be a Y-m-d day');
  const toDate = parseUtcDate(input.toDay);
  if (!toDate) throw invalidParam('to', 'must be a Y-m-d day');
  if (!isKnownZone(input.requesterTz)) throw invalidParam('tz', 'must be an IANA time zone');

  if (!Number.isFinite(nowMs)) throw invalidParam('nowMs', 'must be a finite instant');

  const earliest = Math.max(fromDate.getTime(), nowMs + nonNegative(rules.minNoticeMinutes) * MINUTE_MS);
  let latest = toDate.getTime() + DAY_MS - 1;
  if (rules.maxAdvanceDays > 0) latest = Math.min(latest, nowMs + rules.maxAdvanceDays * DAY_MS);
  // Same cap as resolveSlotRange, for callers that skip it: the work grows with the days scanned.
  latest = Math.min(latest, earliest + MAX_SLOT_RANGE_DAYS * DAY_MS);
  if (!(limit > 0) || earliest > latest || plan.hosts.length === 0 || plan.capacity === 0) return [];

  // Margin: local days straddle UTC days by up to 14 h, and a window may end at 24:00.
  const zone = zoneTimeline(rules.timezone, earliest - 2 * DAY_MS, latest + 2 * DAY_MS);
  const viewer = zoneTimeline(input.requesterTz, earliest, latest);
  const agendas = indexBusy(plan.hosts, input.busy);
  const { durationMs, stepMs, bufferBeforeMs, bufferAfterMs, capacity } = plan;

  const utcDays = new Map<number, string>();
  // toUtcString builds a Date per call; the date part only changes once a day.
  const formatUtc = (ms: number): string => {
    const day = Math.floor(ms / DAY_MS);
    let date = utcDays.get(day);
    if (date === undefined) {
      date = toUtcDate(day * DAY_MS);
      utcDays.set(day, date);
    }
    return `${date} ${formatClock(ms - day * DAY_MS)}`;
  };
  const localDays = new Map<number, { date: string; label: string }>();
  const offsetTexts = new Map<number, string>();
  const slots: Slot[] = [];
  const dayStarts: number[] = [];
  let lastStart = -Infinity;

  // Each host's working intervals over the scanned range; null = around the clock.
  const availability: Array<{ intervals: number[]; cursor: { at: number } } | null> = agendas.map((agenda) => {
    const hours = input.hostHours?.get(agenda.hostUserId);
    return hours ? { intervals: hostAvailability(hours, earliest, latest + durationMs), cursor: { at: 0 } } : null;
  });
  const hasHours = availability.some((a) => a !== null);

  /** Offers `start` (ascending) when a host is free and working then; true once `limit` slots are collected. */
  const offer = (start: number): boolean => {
    if (start <= lastStart) return false;
    lastStart = start;

    const blockedFrom = start - bufferBeforeMs;
    const blockedTo = start + durationMs + bufferAfterMs;
    let freeHosts: number[] | null = null;
    let seats = 0;
    for (let h = 0; h < agendas.length; h++) {
      const agenda = agendas[h]!;
      const works = availability[h];
      if (works && !coversAscending(works.intervals, works.cursor, start, start + durationMs)) continue;
      const left = agenda.seatsLeft(start, blockedFrom, blockedTo, bookingTypeId, capacity);
      if (left > 0) {
        freeHosts ??= [];
        freeHosts.push(agenda.hostUserId);
        seats += left;
      }
    }
    if (!freeHosts) return false;

    const offset = viewer.offsetAt(start);
    const local = start + offset;
    const localDay = Math.floor(local / DAY_MS);
    let dayText = localDays.get(localDay);
    if (!dayText) {
      const wall = localDay * DAY_MS;
      dayText = { date: toUtcDate(wall), label: dayLabelFormat.format(wall) };
      localDays.set(localDay, dayText);
    }
    let offsetText = offsetTexts.get(offset);
    if (offsetText === undefined) {
      offsetText = formatOffset(offset);
      offsetTexts.set(offset, offsetText);
    }
    const clock = formatClock(local - localDay * DAY_MS);

    slots.push({
      start_utc: formatUtc(start),
      end_utc: formatUtc(start + durationMs),
      start: `${dayText.date}T${clock}${offsetText}`,
      label: `${dayText.label}, ${clock.slice(0, 5)}`,
      hosts: freeHosts,
      capacity_left: seats,
    });
    return slots.length >= limit;
  };

  /** Starts from `windowStart` by the interval that fit before `windowEnd`, within [earliest, latest]. */
  const stepThrough = (windowStart: number, windowEnd: number, into: number[]): boolean => {
    let ordered = true;
    let start = windowStart;
    if (start < earliest) start += Math.ceil((earliest - start) / stepMs) * stepMs;
    for (; start + durationMs <= windowEnd && start <= latest; start += stepMs) {
      if (into.length > 0 && start <= into[into.length - 1]!) ordered = false;
      into.push(start);
    }
    return ordered;
  };

  if (rules.hoursSource === 'hosts' && hasHours) {
    // a host without stored hours works the type's windows here (with none at all, this is the type's own list)
    const typeHours: HostHours = { timezone: rules.timezone, weekly: rules.weeklyWindows, overrides: [] };
    let typeIntervals: number[] | null = null;
    for (let h = 0; h < availability.length; h++) {
      if (!availability[h]) {
        typeIntervals ??= hostAvailability(typeHours, earliest, latest + durationMs);
        availability[h] = { intervals: typeIntervals, cursor: { at: 0 } };
      }
    }
    // One ascending stream of starts per distinct set of intervals, merged lazily: the work stops with the limit.
    const streams = [...new Set(availability.map((a) => a!.intervals))].map((intervals) => ({ intervals, at: -2, start: -Infinity }));
    const advance = (stream: (typeof streams)[number]): void => {
      const { intervals } = stream;
      let start = stream.start + stepMs;
      while (stream.at < 0 || start + durationMs > intervals[stream.at + 1]!) {
        stream.at += 2;
        if (stream.at >= intervals.length) {
          stream.start = Infinity;
          return;
        }
        start = intervals[stream.at]!;
        if (start < earliest) start += Math.ceil((earliest - start) / stepMs) * stepMs;
      }
      stream.start = start <= latest ? start : Infinity;
    };
    for (const stream of streams) advance(stream);
    for (;;) {
      let start = Infinity;
      for (const stream of streams) if (stream.start < start) start = stream.start;
      if (start === Infinity) return slots;
      for (const stream of streams) while (stream.start === start) advance(stream);
      if (plan.daysOff.has(Math.floor((start + zone.offsetAt(start)) / DAY_MS))) continue;
      if (offer(start)) return slots;
    }
  }

  const firstDay = Math.floor((earliest + zone.offsetAt(earliest)) / DAY_MS) - 1;
  const lastDay = Math.floor((latest + zone.offsetAt(latest)) / DAY_MS);
  for (let day = firstDay; day <= lastDay; day++) {
    const windows = plan.windows[(((day + 4) % 7) + 7) % 7]!;
    if (windows.length === 0 || plan.daysOff.has(day)) continue;

    const wallMidnight = day * DAY_MS;
    dayStarts.length = 0;
    let ordered = true;
    for (const [startMinute, endMinute] of windows) {
      if (!stepThrough(zone.wallToUtc(wallMidnight + startMinute * MINUTE_MS), zone.wallToUtc(wallMidnight + endMinute * MINUTE_MS), dayStarts))
        ordered = false;
    }
    // Overlapping windows of one day interleave their starts.
    if (!ordered) dayStarts.sort((a, b) => a - b);
    for (const start of dayStarts) if (offer(start)) return slots;
  }
  return slots;
}
