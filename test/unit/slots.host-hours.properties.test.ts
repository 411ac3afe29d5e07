/**
 * Property: the slot generator never offers a host outside their own hours (docs/decisions/040-host-hours.md),
 * checked against an independent reading of the hours: each quarter hour of an offered appointment is
 * matched against the host's windows of that local date and the days either side, each turned into
 * real time by Intl directly (not the generator's zone timeline), with the weekly windows and overrides,
 * across DST changes in both directions and zones with half-hour offsets. In "type" mode every start
 * is also one the type offers without host hours, and (in zones without DST, where no boundary can
 * fall into a gap) every such start lists exactly the hosts who work through it.
 *
 * Reproduce a failure with the seed it prints: FC_SEED=<seed> npx vitest run test/unit/slots.host-hours.properties.test.ts
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateSlots, type GenerateInput, type HostHours, type SlotRules } from '../../shared/booking/slots';
import { WEEKDAYS, type Weekday } from '../../shared/time';

const SEED = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
const RUNS = 200;
const QUARTER = 15 * 60_000;
const FIXED_ZONES = ['UTC', 'Asia/Tokyo', 'Asia/Kolkata'];
const DST_ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe'];
/** Each range holds DST changes: Europe springs forward on 29 March and Lord Howe falls back on 5 April; Europe falls back on 25 October, New York on 1 November. */
const RANGES: Array<[string, string]> = [
  ['2026-03-26', '2026-04-06'],
  ['2026-10-22', '2026-11-03'],
];

type Windows = Array<[string, string]>;
const clock = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
const windowArb: fc.Arbitrary<[string, string]> = fc
  .tuple(fc.integer({ min: 0, max: 95 }), fc.integer({ min: 1, max: 40 }))
  .map(([q, len]) => [clock(q * 15), clock(Math.min(96, q + len) * 15)]);
const dayWindowsArb: fc.Arbitrary<Windows> = fc.array(windowArb, { maxLength: 2 });
const weeklyArb = fc
  .tuple(...WEEKDAYS.map(() => dayWindowsArb))
  .map((days) => Object.fromEntries(WEEKDAYS.map((d, i) => [d, days[i]!])) as Record<Weekday, Windows>);
const zoneArb = fc.constantFrom(...FIXED_ZONES, ...DST_ZONES);

function overridesArb(range: [string, string]) {
  const first = Date.parse(`${range[0]}T00:00:00Z`) / 86_400_000;
  const day = (n: number) => new Date((first + n) * 86_400_000).toISOString().slice(0, 10);
  return fc
    .array(fc.tuple(fc.integer({ min: -1, max: 12 }), fc.integer({ min: 0, max: 3 }), fc.oneof(fc.constant([] as Windows), dayWindowsArb)), { maxLength: 3 })
    .map((list) => list.map(([start, len, windows]) => ({ from: day(start), to: day(start + len), windows })));
}

const scenarioArb = fc.constantFrom(...RANGES).chain((range) =>
  fc.record({
    range: fc.constant(range),
    typeZone: zoneArb,
    typeWeekly: weeklyArb,
    duration: fc.constantFrom(15, 30, 60, 90),
    interval: fc.constantFrom(15, 30, 60),
    hoursSource: fc.constantFrom('type' as const, 'hosts' as const),
    hosts: fc.array(fc.option(fc.record({ timezone: zoneArb, weekly: weeklyArb, overrides: overridesArb(range) }), { nil: undefined }), {
      minLength: 1,
      maxLength: 3,
    }),
  }),
);
type Scenario = fc.Arbitrary<typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never> extends fc.Arbitrary<infer T> ? T : never;

const formats = new Map<string, Intl.DateTimeFormat>();
function formatOf(zone: string): Intl.DateTimeFormat {
  let fmt = formats.get(zone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formats.set(zone, fmt);
  }
  return fmt;
}

/** The zone's wall clock at an instant, as ms since the epoch read as UTC, by Intl alone. */
const walls = new Map<string, number>();
function wallAt(zone: string, ms: number): number {
  const key = `${zone}|${ms}`;
  const known = walls.get(key);
  if (known !== undefined) return known;
  const p = Object.fromEntries(
    formatOf(zone)
      .formatToParts(ms)
      .map((part) => [part.type, part.value]),
  );
  const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute));
  walls.set(key, wall);
  return wall;
}

/**
 * The instant a wall-clock time names, by trying the zone's offsets around it: the earlier of two
 * (a repeated hour), or moved forward by the gap (a skipped hour), as the decision reads windows.
 */
function instantOf(zone: string, wall: number): number {
  const offsets = [-1, 0, 1].map((d) => wallAt(zone, wall + d * 86_400_000) - (wall + d * 86_400_000));
  const valid = offsets.map((o) => wall - o).filter((utc) => wallAt(zone, utc) === wall);
  if (valid.length > 0) return Math.min(...valid);
  return wall - offsets[0]!; // in a gap: with the offset before it
}

const minutesOf = (text: string) => Number(text.slice(0, 2)) * 60 + Number(text.slice(3, 5));

/** Whether the host works at this instant: some window of their local date (or the day either side) spans it in real time. */
function worksAt(hours: HostHours, ms: number): boolean {
  const localDay = Math.floor(wallAt(hours.timezone, ms) / 86_400_000);
  for (let day = localDay - 1; day <= localDay + 1; day++) {
    const date = new Date(day * 86_400_000).toISOString().slice(0, 10);
    const weekday = WEEKDAYS[(new Date(day * 86_400_000).getUTCDay() + 6) % 7]!;
    const override = [...hours.overrides].reverse().find((o) => o.from <= date && date <= o.to);
    for (const [from, to] of override ? override.windows : hours.weekly[weekday]) {
      const start = instantOf(hours.timezone, day * 86_400_000 + minutesOf(from) * 60_000);
      const end = instantOf(hours.timezone, day * 86_400_000 + minutesOf(to) * 60_000);
      if (start <= ms && ms < end) return true;
    }
  }
  return false;
}

function worksThrough(hours: HostHours, startMs: number, endMs: number): boolean {
  for (let t = startMs; t < endMs; t += QUARTER) if (!worksAt(hours, t)) return false;
  return true;
}

function inputOf(s: Scenario, withHours: boolean): GenerateInput {
  const ids = s.hosts.map((_, i) => i + 1);
  const rules: SlotRules = {
    durationMinutes: s.duration,
    slotIntervalMinutes: s.interval,
    timezone: s.typeZone,
    weeklyWindows: s.typeWeekly,
    daysOff: [],
    minNoticeMinutes: 0,
    maxAdvanceDays: 0,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
    capacity: 1,
    hosts: ids,
    hoursSource: s.hoursSource,
  };
  const hostHours = new Map<number, HostHours>();
  s.hosts.forEach((h, i) => h && hostHours.set(i + 1, h));
  return {
    rules,
    bookingTypeId: 1,
    busy: [],
    fromDay: s.range[0],
    toDay: s.range[1],
    nowMs: Date.UTC(2026, 0, 1),
    requesterTz: 'UTC',
    limit: Infinity,
    ...(withHours ? { hostHours } : {}),
  };
}

const ms = (utc: string) => Date.parse(`${utc.replace(' ', 'T')}Z`);

function check(s: Scenario): void {
  const offered = generateSlots(inputOf(s, true));
  const baseline = generateSlots(inputOf(s, false));
  const baselineStarts = new Set(baseline.map((slot) => slot.start_utc));
  for (const slot of offered) {
    const start = ms(slot.start_utc);
    const end = ms(slot.end_utc);
    for (const id of slot.hosts) {
      const hours = s.hosts[id - 1];
      if (hours) expect(worksThrough(hours, start, end), `host ${id} offered at ${slot.start_utc} outside their hours`).toBe(true);
    }
    if (s.hoursSource === 'type') expect(baselineStarts.has(slot.start_utc), `${slot.start_utc} is not one of the type's own starts`).toBe(true);
  }
  const fixed = [s.typeZone, ...s.hosts.map((h) => h?.timezone ?? 'UTC')].every((z) => FIXED_ZONES.includes(z));
  if (s.hoursSource === 'type' && fixed) {
    const byStart = new Map(offered.map((slot) => [slot.start_utc, slot.hosts]));
    for (const slot of baseline) {
      const start = ms(slot.start_utc);
      const working = s.hosts.flatMap((h, i) => (!h || worksThrough(h, start, ms(slot.end_utc)) ? [i + 1] : []));
      expect(byStart.get(slot.start_utc) ?? [], `hosts at ${slot.start_utc}`).toEqual(working);
    }
  }
}

describe('slot generator with host hours (property)', () => {
  it(`${RUNS} random types and hosts across DST changes: no host offered outside their hours; in "type" mode starts are the type's and, without DST, every working host is listed`, () => {
    const details = fc.check(
      fc.property(scenarioArb, (s) => {
        check(s as Scenario);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    console.log(`[host hours property] seed ${details.seed}: ${details.numRuns} runs`);
    if (details.failed) throw new Error(fc.defaultReportMessage(details) ?? `failed with seed ${details.seed}`);
  });
});
