/**
 * Property: the busy instances our ical.js expansion finds in a generated calendar equal an
 * independent expansion of the same series with the `rrule` package (wall times converted with
 * Intl by this file's own code), and no slot the generator offers overlaps one of them with the
 * type's buffers (docs/api.md#host-calendars).
 *
 * Calendars: 1–4 events, each timed in a TZID zone, in UTC, floating or all-day; single, or
 * DAILY/WEEKLY with an INTERVAL and COUNT or UNTIL; EXDATEs; RECURRENCE-ID overrides that move,
 * cancel or free an instance; zones with DST changes inside the series.
 *
 * Reproduce a failure with the seed it prints: FC_SEED=<seed> npx vitest run test/unit/calendar-busy.property.test.ts
 */
import fc from 'fast-check';
import { RRule } from 'rrule';
import { describe, expect, it } from 'vitest';
import { expandBusy, type BusyInterval } from '../../server/modules/hosts/calendar-busy';
import { generateSlots } from '../../shared/booking/slots';
import { utcMs } from '../../shared/time';
import { EVERY_DAY, slotRules } from '../helpers/booking';

const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : Date.now() ^ (Math.random() * 0x7fffffff);
const RUNS = Number(process.env.FC_RUNS ?? 300);
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'Asia/Kolkata'] as const;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

type Form = 'tzid' | 'utc' | 'floating' | 'allday';
interface GenEvent {
  form: Form;
  zone: string;
  /** Wall clock of the first start, as ms with the wall fields read as UTC. */
  wallStart: number;
  /** Minutes (days for all-day). */
  length: number;
  rule: null | { freq: 'DAILY' | 'WEEKLY'; interval: number; count: number | null; untilDays: number };
  transparent: boolean;
  exdates: number[];
  overrides: Array<{ index: number; action: 'move' | 'cancel' | 'free'; shift: number }>;
}

/** Independent wall → UTC: Intl's offset at the guess, then again at the corrected instant. */
const offsetFormatters = new Map<string, Intl.DateTimeFormat>();
function offsetOf(zone: string, ms: number): number {
  let fmt = offsetFormatters.get(zone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    offsetFormatters.set(zone, fmt);
  }
  const p = Object.fromEntries(fmt.formatToParts(ms).map((x) => [x.type, x.value]));
  return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second)) - ms;
}
function wallToUtc(zone: string, wall: number): number {
  const first = wall - offsetOf(zone, wall);
  return wall - offsetOf(zone, first);
}

const two = (n: number) => String(n).padStart(2, '0');
const dateText = (wall: number) => {
  const d = new Date(wall);
  return `${d.getUTCFullYear()}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}`;
};
const dateTimeText = (wall: number) => {
  const d = new Date(wall);
  return `${dateText(wall)}T${two(d.getUTCHours())}${two(d.getUTCMinutes())}00`;
};

/** A time property in the event's form (`wall` is a wall clock, or a UTC instant for `utc`). */
function timeProp(name: string, e: GenEvent, wall: number): string {
  switch (e.form) {
    case 'allday':
      return `${name};VALUE=DATE:${dateText(wall)}`;
    case 'utc':
      return `${name}:${dateTimeText(wall)}Z`;
    case 'floating':
      return `${name}:${dateTimeText(wall)}`;
    case 'tzid':
      return `${name};TZID=${e.zone}:${dateTimeText(wall)}`;
  }
}

const lengthMs = (e: GenEvent) => (e.form === 'allday' ? e.length * DAY : e.length * MINUTE);
const shiftMs = (e: GenEvent, shift: number) => (e.form === 'allday' ? shift * DAY : shift * HOUR);
/** End of the UNTIL day, as a wall clock. */
const untilWall = (e: GenEvent) => Math.floor(e.wallStart / DAY) * DAY + e.rule!.untilDays * DAY + DAY - 1000;

function toIcs(events: GenEvent[]): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//svc property//EN'];
  events.forEach((e, n) => {
    const uid = `event-${n}`;
    const head = ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20260101T000000Z'];
    const body = [timeProp('DTSTART', e, e.wallStart), timeProp('DTEND', e, e.wallStart + lengthMs(e))];
    if (e.transparent) body.push('TRANSP:TRANSPARENT');
    if (e.rule) {
      let rule = `RRULE:FREQ=${e.rule.freq};INTERVAL=${e.rule.interval}`;
      if (e.rule.count !== null) rule += `;COUNT=${e.rule.count}`;
      else if (e.form === 'allday') rule += `;UNTIL=${dateText(untilWall(e))}`;
      else if (e.form === 'floating') rule += `;UNTIL=${dateTimeText(untilWall(e))}`;
      else rule += `;UNTIL=${dateTimeText(e.form === 'tzid' ? wallToUtc(e.zone, untilWall(e)) : untilWall(e))}Z`;
      body.push(rule);
      const starts = ruleWalls(e);
      for (const i of e.exdates) if (starts[i] !== undefined) body.push(timeProp('EXDATE', e, starts[i]!));
    }
    lines.push(...head, ...body, 'END:VEVENT');
    if (!e.rule) return;
    const starts = ruleWalls(e);
    for (const o of e.overrides) {
      const original = starts[o.index];
      if (original === undefined || e.exdates.includes(o.index)) continue;
      const start = o.action === 'move' ? original + shiftMs(e, o.shift) : original;
      const extra = o.action === 'cancel' ? ['STATUS:CANCELLED'] : o.action === 'free' ? ['TRANSP:TRANSPARENT'] : [];
      lines.push(
        'BEGIN:VEVENT',
        `UID:${uid}`,
        'DTSTAMP:20260101T000000Z',
        timeProp('RECURRENCE-ID', e, original),
        timeProp('DTSTART', e, start),
        timeProp('DTEND', e, start + lengthMs(e)),
        ...extra,
        'END:VEVENT',
      );
    }
  });
  lines.push('END:VCALENDAR');
  return lines.join('\r\n');
}

/** The series' starts as wall clocks, expanded by rrule (floating: the wall fields as UTC). */
function ruleWalls(e: GenEvent): number[] {
  if (!e.rule) return [e.wallStart];
  const rule = new RRule({
    freq: e.rule.freq === 'DAILY' ? RRule.DAILY : RRule.WEEKLY,
    interval: e.rule.interval,
    dtstart: new Date(e.wallStart),
    ...(e.rule.count !== null ? { count: e.rule.count } : { until: new Date(untilWall(e)) }),
  });
  return rule.all().map((d) => d.getTime());
}

/** The expected busy instances, from rrule's expansion and this file's zone conversion. */
function expected(events: GenEvent[], hostZone: string): BusyInterval[] {
  const out: BusyInterval[] = [];
  for (const e of events) {
    const zone = e.form === 'tzid' ? e.zone : hostZone;
    const instant = (wall: number) => (e.form === 'utc' ? wall : wallToUtc(zone, wall));
    ruleWalls(e).forEach((wall, i) => {
      if (e.rule && e.exdates.includes(i)) return;
      const o = e.rule ? e.overrides.find((x) => x.index === i) : undefined;
      // an override replaces its instance whole: its own TRANSP and STATUS decide, not the series'
      if (o ? o.action !== 'move' : e.transparent) return;
      const start = o ? wall + shiftMs(e, o.shift) : wall;
      const startMs = instant(start);
      const endMs = instant(start + lengthMs(e));
      if (endMs > startMs) out.push({ startMs, endMs });
    });
  }
  return out.sort((a, b) => a.startMs - b.startMs || a.endMs - b.endMs);
}

const BASE = Date.UTC(2026, 1, 1);
const eventArb: fc.Arbitrary<GenEvent> = fc
  .record({
    form: fc.constantFrom<Form>('tzid', 'utc', 'floating', 'allday'),
    zone: fc.constantFrom(...ZONES),
    day: fc.integer({ min: 0, max: 300 }),
    // 06:00–22:45: no start falls in a DST gap or repeated hour (those move by the zone's rule, not the series')
    hour: fc.integer({ min: 6, max: 22 }),
    quarter: fc.integer({ min: 0, max: 3 }),
    minutes: fc.integer({ min: 15, max: 180 }),
    days: fc.integer({ min: 1, max: 3 }),
    rule: fc.option(
      fc.record({
        freq: fc.constantFrom<'DAILY' | 'WEEKLY'>('DAILY', 'WEEKLY'),
        interval: fc.integer({ min: 1, max: 2 }),
        count: fc.option(fc.integer({ min: 1, max: 12 }), { nil: null }),
        untilDays: fc.integer({ min: 0, max: 60 }),
      }),
      { nil: null },
    ),
    transparent: fc.boolean().map((b) => b && Math.random() < 0.3),
    exdates: fc.uniqueArray(fc.integer({ min: 0, max: 11 }), { maxLength: 3 }),
    overrides: fc.uniqueArray(
      fc.record({
        index: fc.integer({ min: 0, max: 11 }),
        action: fc.constantFrom<'move' | 'cancel' | 'free'>('move', 'cancel', 'free'),
        shift: fc.integer({ min: -3, max: 3 }),
      }),
      { maxLength: 3, selector: (o) => o.index },
    ),
  })
  .map((r) => ({
    form: r.form,
    zone: r.zone,
    wallStart: BASE + r.day * DAY + (r.form === 'allday' ? 0 : r.hour * HOUR + r.quarter * 15 * MINUTE),
    length: r.form === 'allday' ? r.days : r.minutes,
    rule: r.rule,
    transparent: r.transparent,
    exdates: r.exdates,
    overrides: r.overrides.filter((o) => o.action !== 'move' || o.shift !== 0),
  }));

const RANGE = { fromMs: Date.UTC(2025, 11, 1), toMs: Date.UTC(2027, 6, 1) };
const iso = (list: BusyInterval[]) => list.map((b) => `${new Date(b.startMs).toISOString()}/${new Date(b.endMs).toISOString()}`);

describe('busy time of generated calendars', () => {
  it(`${RUNS} calendars: the ical.js expansion equals rrule's, and no offered slot overlaps a busy instance with the type's buffers`, () => {
    const details = fc.check(
      fc.property(
        fc.array(eventArb, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(...ZONES),
        fc.record({
          duration: fc.constantFrom(30, 45, 60, 90),
          step: fc.constantFrom(15, 30, 60),
          before: fc.constantFrom(0, 10, 30),
          after: fc.constantFrom(0, 15, 30),
          zone: fc.constantFrom(...ZONES),
        }),
        (events, hostZone, type) => {
          const want = expected(events, hostZone);
          const got = expandBusy([toIcs(events)], { timezone: hostZone, ...RANGE });
          expect(iso(got)).toEqual(iso(want));

          if (want.length === 0) return;
          const firstDay = new Date(want[0]!.startMs - DAY).toISOString().slice(0, 10);
          const lastDay = new Date(want[0]!.startMs + 20 * DAY).toISOString().slice(0, 10);
          const slots = generateSlots({
            rules: slotRules({
              timezone: type.zone,
              durationMinutes: type.duration,
              slotIntervalMinutes: type.step,
              bufferBeforeMinutes: type.before,
              bufferAfterMinutes: type.after,
              weeklyWindows: EVERY_DAY(['00:00', '24:00']),
            }),
            bookingTypeId: 7,
            busy: got.map((b) => ({ hostUserId: 1, bookingTypeId: 0, startMs: b.startMs, endMs: b.endMs, quantity: 1 })),
            fromDay: firstDay,
            toDay: lastDay,
            nowMs: RANGE.fromMs,
            requesterTz: 'UTC',
            limit: Infinity,
          });
          for (const slot of slots) {
            const from = utcMs(slot.start_utc) - type.before * MINUTE;
            const to = utcMs(slot.end_utc) + type.after * MINUTE;
            const clash = want.find((b) => b.startMs < to && b.endMs > from);
            expect(clash, `slot ${slot.start_utc} overlaps a busy instance`).toBeUndefined();
          }
        },
      ),
      { numRuns: RUNS, seed: SEED, path: process.env.FC_PATH },
    );
    console.log(`[calendar-busy properties] seed ${details.seed}: ${details.numRuns} calendars`);
    if (details.failed) {
      const cause = details.errorInstance instanceof Error ? details.errorInstance : new Error(String(details.errorInstance));
      throw new Error(`${fc.defaultReportMessage(details) ?? `failed with seed ${details.seed}`}\n\n${cause.message}`, { cause });
    }
  }, 120_000);
});
