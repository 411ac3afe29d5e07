/**
 * A calendar file's busy time (docs/api.md#host-calendars), pure: iCalendar text in, UTC
 * intervals out. Counted as busy: VEVENTs that are opaque (TRANSP not TRANSPARENT) and not
 * cancelled, each instance of a recurrence (RRULE, RDATE, EXDATE and RECURRENCE-ID overrides that
 * move, cancel or free one instance), and VFREEBUSY periods of type BUSY, BUSY-UNAVAILABLE and
 * BUSY-TENTATIVE. All-day events and floating times are read in the host's zone; a TZID that
 * names an IANA zone is read with the platform's zone data (a truncated VTIMEZONE cannot skew
 * it), any other TZID with its VTIMEZONE (docs/decisions/041-external-calendars.md).
 */
import ICAL from 'ical.js';
import { isValidTimeZone } from '../../../shared/time';
import { DAY_MS, zoneOffsetAt, zoneTimeline } from '../../../shared/booking/tz';

export interface BusyInterval {
  startMs: number;
  endMs: number;
}

export interface ExpandOptions {
  /** The host's IANA zone: all-day events, floating times and unknown TZIDs are read in it. */
  timezone: string;
  /** Instances ending at or before this are left out. */
  fromMs: number;
  /** Instances starting at or after this are left out. */
  toMs: number;
  /** Events whose UID this answers true for are left out (bookings svc wrote there itself: docs/decisions/042-calendar-write-back.md). */
  ignoreUid?: (uid: string) => boolean;
}

/** A recurrence never yields more instances than this (a file cannot make a refresh spin). */
const MAX_INSTANCES_PER_EVENT = 20_000;
const COUNTED_FREEBUSY = new Set(['BUSY', 'BUSY-UNAVAILABLE', 'BUSY-TENTATIVE']);

/** Thrown for text that is not an iCalendar file. */
export class NotACalendarError extends Error {
  override name = 'NotACalendarError';
}

/** The VCALENDAR components of `text` (a CalDAV resource holds one, an ICS file one or more). */
export function parseCalendars(text: string): ICAL.Component[] {
  let parsed: unknown;
  try {
    parsed = ICAL.parse(text);
  } catch {
    throw new NotACalendarError('not an iCalendar file');
  }
  const list = (Array.isArray(parsed) && typeof parsed[0] === 'string' ? [parsed] : (parsed as unknown[])) as unknown[];
  const calendars = list.map((jcal) => new ICAL.Component(jcal as ICAL.Component['jCal']));
  if (calendars.length === 0 || calendars.some((c) => c.name !== 'vcalendar')) throw new NotACalendarError('not an iCalendar file');
  return calendars;
}

/** The busy instances of one or more iCalendar texts, sorted by start (not merged). */
export function expandBusy(texts: string[], opts: ExpandOptions): BusyInterval[] {
  const out: BusyInterval[] = [];
  for (const text of texts) for (const calendar of parseCalendars(text)) expandCalendar(calendar, opts, out);
  return out.sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
}

/** Overlapping and touching intervals joined, sorted by start. */
export function mergeBusy(intervals: BusyInterval[]): BusyInterval[] {
  const sorted = [...intervals].sort((a, b) => a.startMs - b.startMs);
  const merged: BusyInterval[] = [];
  for (const next of sorted) {
    const last = merged[merged.length - 1];
    if (last && next.startMs <= last.endMs) last.endMs = Math.max(last.endMs, next.endMs);
    else merged.push({ ...next });
  }
  return merged;
}

const wallMsOf = (t: ICAL.Time) => Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);

/** Converts an iCalendar time to a UTC instant; `tzid` is the TZID parameter the time was written with. */
function instantOf(t: ICAL.Time, tzid: string | null, opts: ExpandOptions): number {
  if (t.isDate) return wallIn(opts.timezone, Date.UTC(t.year, t.month - 1, t.day), opts);
  const zone = t.zone;
  if (zone === ICAL.Timezone.utcTimezone || zone?.tzid === 'UTC') return wallMsOf(t);
  // an IANA TZID is read with the platform's zone data, even when the file has a VTIMEZONE
  if (tzid && isValidTimeZone(tzid)) return wallIn(tzid, wallMsOf(t), opts);
  if (zone && zone !== ICAL.Timezone.localTimezone && zone.component) return t.toUnixTime() * 1000;
  // floating, or a TZID nobody defined: the host's zone
  return wallIn(opts.timezone, wallMsOf(t), opts);
}

function wallIn(tz: string, wallMs: number, opts: ExpandOptions): number {
  return zoneTimeline(tz, Math.min(wallMs, opts.fromMs) - 2 * DAY_MS, Math.max(wallMs, opts.toMs) + 2 * DAY_MS).wallToUtc(wallMs);
}

const tzidOf = (component: ICAL.Component, name: string): string | null => {
  const value = component.getFirstProperty(name)?.getParameter('tzid');
  return typeof value === 'string' ? value : null;
};

/** True when the component holds its time: opaque and not cancelled. */
function blocks(component: ICAL.Component): boolean {
  const transp = String(component.getFirstPropertyValue('transp') ?? 'OPAQUE').toUpperCase();
  const status = String(component.getFirstPropertyValue('status') ?? '').toUpperCase();
  return transp !== 'TRANSPARENT' && status !== 'CANCELLED';
}

function push(out: BusyInterval[], startMs: number, endMs: number, opts: ExpandOptions): void {
  if (!(endMs > startMs) || endMs <= opts.fromMs || startMs >= opts.toMs) return;
  out.push({ startMs, endMs });
}

function expandCalendar(calendar: ICAL.Component, opts: ExpandOptions, out: BusyInterval[]): void {
  const masters = new Map<string, ICAL.Component>();
  const overrides = new Map<string, ICAL.Component[]>();
  const vevents = calendar.getAllSubcomponents('vevent');
  for (const vevent of vevents) {
    const uid = String(vevent.getFirstPropertyValue('uid') ?? '');
    if (opts.ignoreUid?.(uid)) continue;
    if (vevent.hasProperty('recurrence-id')) overrides.set(uid, [...(overrides.get(uid) ?? []), vevent]);
    else masters.set(uid, vevent);
  }
  for (const [uid, master] of masters) expandEvent(master, overrides.get(uid) ?? [], opts, out);
  // an override whose series is not in the file (a CalDAV server may send it alone) stands by itself
  for (const [uid, list] of overrides) if (!masters.has(uid)) for (const single of list) expandEvent(single, [], opts, out);
  for (const freebusy of calendar.getAllSubcomponents('vfreebusy')) expandFreeBusy(freebusy, opts, out);
}

function expandEvent(master: ICAL.Component, overrides: ICAL.Component[], opts: ExpandOptions, out: BusyInterval[]): void {
  if (!master.hasProperty('dtstart')) return;
  alignUntil(master, opts);
  const event = new ICAL.Event(master, { strictExceptions: false, exceptions: overrides });
  const occurrence = (item: ICAL.Event, start: ICAL.Time, end: ICAL.Time) => {
    if (!blocks(item.component)) return;
    const startMs = instantOf(start, tzidOf(item.component, 'dtstart'), opts);
    const endTzid = item.component.hasProperty('dtend') ? tzidOf(item.component, 'dtend') : tzidOf(item.component, 'dtstart');
    push(out, startMs, instantOf(end, endTzid, opts), opts);
  };
  if (!event.isRecurring()) {
    occurrence(event, event.startDate, event.endDate);
    return;
  }
  const iterator = event.iterator();
  // a moved instance may land up to a long event's length before its original time: keep a margin
  const stopMs = opts.toMs + 31 * DAY_MS;
  for (let n = 0, next = iterator.next(); next && n < MAX_INSTANCES_PER_EVENT; n++, next = iterator.next()) {
    if (instantOf(next, tzidOf(master, 'dtstart'), opts) >= stopMs) break;
    const details = event.getOccurrenceDetails(next);
    occurrence(details.item, details.startDate, details.endDate);
  }
}

/**
 * ical.js compares a UTC UNTIL with the wall clock of a series it reads as floating (a TZID
 * without VTIMEZONE is one, before we place it in its zone): the UNTIL is moved to that zone's
 * wall clock, so the series ends where its zone says.
 */
function alignUntil(master: ICAL.Component, opts: ExpandOptions): void {
  const start = master.getFirstPropertyValue('dtstart');
  if (!(start instanceof ICAL.Time) || start.isDate || start.zone !== ICAL.Timezone.localTimezone) return;
  const tzid = tzidOf(master, 'dtstart');
  const wallZone = tzid && isValidTimeZone(tzid) ? tzid : opts.timezone;
  for (const prop of master.getAllProperties('rrule')) {
    const recur = prop.getFirstValue();
    if (!(recur instanceof ICAL.Recur) || !recur.until || recur.until.isDate || recur.until.zone !== ICAL.Timezone.utcTimezone) continue;
    const untilMs = recur.until.toUnixTime() * 1000;
    const wall = new Date(untilMs + zoneOffsetAt(wallZone, untilMs));
    const aligned = recur.clone();
    aligned.until = ICAL.Time.fromData({
      year: wall.getUTCFullYear(),
      month: wall.getUTCMonth() + 1,
      day: wall.getUTCDate(),
      hour: wall.getUTCHours(),
      minute: wall.getUTCMinutes(),
      second: wall.getUTCSeconds(),
      isDate: false,
    });
    prop.setValue(aligned);
  }
}

function expandFreeBusy(component: ICAL.Component, opts: ExpandOptions, out: BusyInterval[]): void {
  for (const prop of component.getAllProperties('freebusy')) {
    const type = String(prop.getParameter('fbtype') ?? 'BUSY').toUpperCase();
    if (!COUNTED_FREEBUSY.has(type)) continue;
    for (const value of prop.getValues()) {
      if (!(value instanceof ICAL.Period)) continue;
      push(out, instantOf(value.start, null, opts), instantOf(value.getEnd(), null, opts), opts);
    }
  }
}
