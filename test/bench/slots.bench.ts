/**
 * Slot generator speed: 5 hosts, 15-minute interval, 60-day range, 2,000 busy bookings.
 * Targets on a 2-core machine: median under 10 ms and p95 under 5 ms, with the contract's 750 cap
 * and without it (limit Infinity, so the cap is not what keeps it fast). Deterministic: fixed
 * seed and clock.
 *
 * Run alone: `node --import tsx test/bench/slots.bench.ts`.
 */
import { generateSlots, type BusyBooking, type GenerateInput, type HostHours, type SlotRules } from '../../shared/booking/slots';
import { clearZoneTimelineCache } from '../../shared/booking/tz';
import type { BenchResult } from './types';
import { percentile, runWhenMain, seededRandom } from './support';

const MEDIAN_TARGET_MS = 10;
const P95_TARGET_MS = 5;
const WARMUP_RUNS = 20;
const MEASURED_RUNS = 100;
const MINUTE = 60_000;
const DAY = 86_400_000;
const BOOKING_TYPE_ID = 7;
/** With host hours (docs/decisions/040-host-hours.md) the median must stay under this. */
const HOURS_MEDIAN_TARGET_MS = 2;

/** Every host with their own hours: two zones, a lunch break, a day off, a week's vacation, a special Saturday. */
function hostHoursOf(hosts: number[]): Map<number, HostHours> {
  const weekday: Array<[string, string]> = [
    ['08:30', '12:30'],
    ['13:30', '18:00'],
  ];
  const weekly = { mon: weekday, tue: weekday, wed: weekday, thu: weekday, fri: weekday, sat: [], sun: [] };
  return new Map(
    hosts.map((id, i) => [
      id,
      {
        timezone: i % 2 === 0 ? 'Europe/Berlin' : 'Europe/London',
        weekly,
        overrides: [
          { from: '2026-03-10', to: '2026-03-10', windows: [] },
          { from: `2026-04-${String(6 + i).padStart(2, '0')}`, to: `2026-04-${String(12 + i).padStart(2, '0')}`, windows: [] },
          { from: '2026-03-14', to: '2026-03-14', windows: [['10:00', '13:00']] },
        ],
      },
    ]),
  );
}

function buildScenario(limit: number | undefined, hoursSource?: 'type' | 'hosts'): GenerateInput {
  const random = seededRandom(20260302);
  const hosts = [11, 12, 13, 14, 15];
  const weekday: Array<[string, string]> = [
    ['08:00', '12:00'],
    ['13:00', '20:00'],
  ];
  const rules: SlotRules = {
    durationMinutes: 30,
    slotIntervalMinutes: 15,
    timezone: 'Europe/Berlin', // the range crosses the 2026-03-29 spring-forward
    weeklyWindows: { mon: weekday, tue: weekday, wed: weekday, thu: weekday, fri: weekday, sat: [['09:00', '14:00']], sun: [] },
    daysOff: ['2026-04-03', '2026-04-06'],
    minNoticeMinutes: 120,
    maxAdvanceDays: 90,
    bufferBeforeMinutes: 10,
    bufferAfterMinutes: 5,
    capacity: 2,
    hosts,
    ...(hoursSource ? { hoursSource } : {}),
  };

  const fromMs = Date.UTC(2026, 2, 2);
  const busy: BusyBooking[] = [];
  for (let i = 0; i < 2000; i++) {
    const day = Math.floor(random() * 62) - 1; // a few start the day before the range
    const quarter = 28 + Math.floor(random() * 48); // 07:00–19:00 UTC on the 15-minute grid
    const startMs = fromMs + day * DAY + quarter * 15 * MINUTE;
    const sameType = random() < 0.2;
    busy.push({
      hostUserId: hosts[Math.floor(random() * hosts.length)]!,
      bookingTypeId: sameType ? BOOKING_TYPE_ID : 100 + Math.floor(random() * 5),
      startMs,
      endMs: startMs + (sameType ? 30 : 15 * (1 + Math.floor(random() * 6))) * MINUTE,
      quantity: 1,
    });
  }

  return {
    rules,
    bookingTypeId: BOOKING_TYPE_ID,
    busy,
    fromDay: '2026-03-02',
    toDay: '2026-04-30', // 60 days inclusive
    nowMs: fromMs + 6 * 60 * MINUTE,
    requesterTz: 'America/New_York',
    ...(limit === undefined ? {} : { limit }),
    ...(hoursSource ? { hostHours: hostHoursOf(hosts) } : {}),
  };
}

function measure(input: GenerateInput, cold = false): { median: number; p95: number; slots: number } {
  let slots = 0;
  for (let i = 0; i < WARMUP_RUNS; i++) slots = generateSlots(input).length;
  const times: number[] = [];
  for (let i = 0; i < MEASURED_RUNS; i++) {
    if (cold) clearZoneTimelineCache();
    const started = performance.now();
    generateSlots(input);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { median: percentile(times, 50), p95: percentile(times, 95), slots };
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

export default async function run(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const [label, limit, cold] of [
    ['limit 750', undefined, false],
    ['limit Infinity', Infinity, false],
    // Every run probes both zones through Intl again: the first request for a zone and range.
    ['limit Infinity, cold zone cache', Infinity, true],
  ] as const) {
    const { median, p95, slots } = measure(buildScenario(limit), cold);
    const scenario = `slots: 5 hosts, 15-min, 60 days, 2000 busy, ${label}`;
    results.push(
      { name: `${scenario}, median`, value: round(median), unit: 'ms', target: `< ${MEDIAN_TARGET_MS} ms`, pass: median < MEDIAN_TARGET_MS },
      { name: `${scenario}, p95`, value: round(p95), unit: 'ms', target: `< ${P95_TARGET_MS} ms`, pass: p95 < P95_TARGET_MS },
    );
    if (limit === Infinity && !cold) {
      // Proves the uncapped run really produces more than the cap, so the cap is not doing the work.
      results.push({ name: `${scenario}, slots returned`, value: slots, unit: 'slots', target: '> 750', pass: slots > 750 });
    }
  }
  for (const source of ['type', 'hosts'] as const) {
    const { median } = measure(buildScenario(undefined, source));
    const scenario = `slots: 5 hosts with own hours (hoursSource ${source}), 15-min, 60 days, 2000 busy, limit 750`;
    results.push({
      name: `${scenario}, median`,
      value: round(median),
      unit: 'ms',
      target: `< ${HOURS_MEDIAN_TARGET_MS} ms`,
      pass: median < HOURS_MEDIAN_TARGET_MS,
    });
  }
  return results;
}

runWhenMain(import.meta.url, run);
