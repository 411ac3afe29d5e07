import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import { SLOT_LIMIT, generateSlots, resolveSlotRange, type BusyBooking, type GenerateInput, type Slot, type SlotRules } from '../../shared/booking/slots';
import type { Weekday } from '../../shared/time';
import { EVERY_DAY, slotRules } from '../helpers/booking';

const MINUTE = 60_000;
const TYPE_ID = 7;
const OTHER_TYPE_ID = 99;

const NO_WINDOWS: Record<Weekday, Array<[string, string]>> = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
const rules = slotRules;

/** 2026-03-02 is a Monday. The clock sits well before it unless a test moves it. */
function slots(ruleOverrides: Partial<SlotRules>, input: Partial<Omit<GenerateInput, 'rules'>> = {}): Slot[] {
  return generateSlots({
    rules: rules(ruleOverrides),
    bookingTypeId: TYPE_ID,
    busy: [],
    fromDay: '2026-03-02',
    toDay: '2026-03-02',
    nowMs: Date.UTC(2026, 0, 1),
    requesterTz: ruleOverrides.timezone ?? 'UTC',
    ...input,
  });
}

const startsUtc = (list: Slot[]) => list.map((s) => s.start_utc);
const at = (iso: string) => Date.parse(iso);

function booking(hostUserId: number, startIso: string, endIso: string, extra: Partial<BusyBooking> = {}): BusyBooking {
  return { hostUserId, bookingTypeId: OTHER_TYPE_ID, startMs: at(startIso), endMs: at(endIso), quantity: 1, ...extra };
}

function thrown(fn: () => unknown): AppError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('generateSlots: weekly windows', () => {
  it('offers starts through each window of the weekday, and nothing on a weekday without windows', () => {
    const list = slots({ weeklyWindows: { ...NO_WINDOWS, mon: [['09:00', '11:00']] } }, { fromDay: '2026-03-02', toDay: '2026-03-03' });
    expect(startsUtc(list)).toEqual(['2026-03-02 09:00:00', '2026-03-02 09:30:00', '2026-03-02 10:00:00', '2026-03-02 10:30:00']);
  });

  it('offers every window of a day with several windows', () => {
    const list = slots({ weeklyWindows: EVERY_DAY(['09:00', '10:00'], ['14:00', '15:00']) });
    expect(startsUtc(list)).toEqual(['2026-03-02 09:00:00', '2026-03-02 09:30:00', '2026-03-02 14:00:00', '2026-03-02 14:30:00']);
  });

  it('steps by the interval and keeps a start only while start + duration fits the window', () => {
    const list = slots({ durationMinutes: 60, slotIntervalMinutes: 15, weeklyWindows: EVERY_DAY(['09:00', '10:30']) });
    expect(startsUtc(list)).toEqual(['2026-03-02 09:00:00', '2026-03-02 09:15:00', '2026-03-02 09:30:00']);
    expect(list.map((s) => s.end_utc)).toEqual(['2026-03-02 10:00:00', '2026-03-02 10:15:00', '2026-03-02 10:30:00']);
  });

  it('accepts 24:00 as the end of a window', () => {
    const list = slots({ durationMinutes: 60, slotIntervalMinutes: 60, weeklyWindows: EVERY_DAY(['22:00', '24:00']) });
    expect(startsUtc(list)).toEqual(['2026-03-02 22:00:00', '2026-03-02 23:00:00']);
    expect(list[1]!.end_utc).toBe('2026-03-03 00:00:00');
  });

  it('rejects a window time that is not HH:MM', () => {
    const error = thrown(() => slots({ weeklyWindows: EVERY_DAY(['9:00', '11:00']) }));
    expect(error.code).toBe('svc_invalid_param');
    expect(error.data.params).toHaveProperty('weeklyWindows');
  });

  it('skips the whole local day of a day off, in the type zone rather than UTC', () => {
    // Tokyo 08:00–09:00 on 3 March is 23:00–24:00 UTC on 2 March.
    const list = slots(
      { timezone: 'Asia/Tokyo', weeklyWindows: EVERY_DAY(['08:00', '09:00']), daysOff: ['2026-03-03'] },
      { fromDay: '2026-03-01', toDay: '2026-03-03', requesterTz: 'UTC' },
    );
    expect(startsUtc(list)).toEqual(['2026-03-01 23:00:00', '2026-03-01 23:30:00', '2026-03-03 23:00:00', '2026-03-03 23:30:00']);
  });
});

describe('generateSlots: range, notice and advance', () => {
  it('keeps only UTC starts inside [from 00:00:00, to 23:59:59]', () => {
    const list = slots(
      { timezone: 'Asia/Tokyo', weeklyWindows: EVERY_DAY(['08:00', '09:00']) },
      { fromDay: '2026-03-02', toDay: '2026-03-02', requesterTz: 'UTC' },
    );
    // Tokyo's 2 March window is on 1 March UTC; its 3 March window is on 2 March UTC.
    expect(startsUtc(list)).toEqual(['2026-03-02 23:00:00', '2026-03-02 23:30:00']);
  });

  it('drops starts earlier than now + minimum notice and keeps one exactly at it', () => {
    const nowMs = at('2026-03-02T09:00:00Z');
    expect(startsUtc(slots({ minNoticeMinutes: 60 }, { nowMs }))).toEqual(['2026-03-02 10:00:00', '2026-03-02 10:30:00']);
    expect(startsUtc(slots({ minNoticeMinutes: 61 }, { nowMs }))).toEqual(['2026-03-02 10:30:00']);
  });

  it('drops starts later than now + maxAdvanceDays and keeps one exactly at it', () => {
    const nowMs = at('2026-03-02T09:30:00Z');
    const list = slots({ maxAdvanceDays: 2 }, { nowMs, fromDay: '2026-03-02', toDay: '2026-03-06' });
    expect(list.at(-1)!.start_utc).toBe('2026-03-04 09:30:00');
    expect(list).toHaveLength(3 + 4 + 2); // 09:30–10:30 today, all of tomorrow, 09:00–09:30 on the 4th
  });

  it('treats maxAdvanceDays 0 as no advance limit', () => {
    const list = slots({ maxAdvanceDays: 0 }, { nowMs: at('2026-03-02T00:00:00Z'), fromDay: '2027-03-01', toDay: '2027-03-01' });
    expect(startsUtc(list)).toEqual(['2027-03-01 09:00:00', '2027-03-01 09:30:00', '2027-03-01 10:00:00', '2027-03-01 10:30:00']);
  });
});

describe('generateSlots: hosts, buffers and capacity', () => {
  const tenOClock = { weeklyWindows: EVERY_DAY(['10:00', '10:30']) };

  it('blocks a start when a booking ends inside the buffer before it, and frees it when it ends at the buffer edge', () => {
    const blocked = slots({ ...tenOClock, bufferBeforeMinutes: 15 }, { busy: [booking(1, '2026-03-02T09:20:00Z', '2026-03-02T09:50:00Z')] });
    const free = slots({ ...tenOClock, bufferBeforeMinutes: 15 }, { busy: [booking(1, '2026-03-02T09:15:00Z', '2026-03-02T09:45:00Z')] });
    expect(blocked).toEqual([]);
    expect(startsUtc(free)).toEqual(['2026-03-02 10:00:00']);
  });

  it('blocks a start when a booking begins inside the buffer after its end, and frees it when it begins at the buffer edge', () => {
    const blocked = slots({ ...tenOClock, bufferAfterMinutes: 15 }, { busy: [booking(1, '2026-03-02T10:40:00Z', '2026-03-02T11:00:00Z')] });
    const free = slots({ ...tenOClock, bufferAfterMinutes: 15 }, { busy: [booking(1, '2026-03-02T10:45:00Z', '2026-03-02T11:00:00Z')] });
    expect(blocked).toEqual([]);
    expect(startsUtc(free)).toEqual(['2026-03-02 10:00:00']);
  });

  it("a booking's own buffer after blocks the start right after it, whichever of the two was booked first", () => {
    const typeBufferAfter30 = { weeklyWindows: EVERY_DAY(['10:00', '11:00']), bufferAfterMinutes: 30 };
    // 10:00 booked first: 10:30 falls inside its buffer after
    const tenBooked = [booking(1, '2026-03-02T10:00:00Z', '2026-03-02T10:30:00Z', { bookingTypeId: TYPE_ID, bufferAfterMs: 30 * MINUTE })];
    expect(startsUtc(slots(typeBufferAfter30, { busy: tenBooked }))).toEqual([]);
    // 10:30 booked first: 10:00's own buffer after reaches into it
    const halfPastBooked = [booking(1, '2026-03-02T10:30:00Z', '2026-03-02T11:00:00Z', { bookingTypeId: TYPE_ID, bufferAfterMs: 30 * MINUTE })];
    expect(startsUtc(slots(typeBufferAfter30, { busy: halfPastBooked }))).toEqual([]);
  });

  it("a booking's own buffer before blocks the start right before it, whichever of the two was booked first", () => {
    const typeBufferBefore30 = { weeklyWindows: EVERY_DAY(['10:00', '11:00']), bufferBeforeMinutes: 30 };
    const halfPastBooked = [booking(1, '2026-03-02T10:30:00Z', '2026-03-02T11:00:00Z', { bookingTypeId: TYPE_ID, bufferBeforeMs: 30 * MINUTE })];
    expect(startsUtc(slots(typeBufferBefore30, { busy: halfPastBooked }))).toEqual([]);
    const tenBooked = [booking(1, '2026-03-02T10:00:00Z', '2026-03-02T10:30:00Z', { bookingTypeId: TYPE_ID, bufferBeforeMs: 30 * MINUTE })];
    expect(startsUtc(slots(typeBufferBefore30, { busy: tenBooked }))).toEqual([]);
  });

  it('two types with different buffers: each booking keeps its own, the candidate adds its own', () => {
    // another type's booking 10:00–10:30 with 15 minutes after occupies the host until 10:45
    const other = [booking(1, '2026-03-02T10:00:00Z', '2026-03-02T10:30:00Z', { bufferAfterMs: 15 * MINUTE })];
    const quarterHours = { durationMinutes: 30, slotIntervalMinutes: 15, weeklyWindows: EVERY_DAY(['10:00', '12:00']) };
    expect(startsUtc(slots(quarterHours, { busy: other }))).toEqual([
      '2026-03-02 10:45:00',
      '2026-03-02 11:00:00',
      '2026-03-02 11:15:00',
      '2026-03-02 11:30:00',
    ]);
    // and this type's own 10-minute buffer before pushes its first start to 10:55 → the 11:00 step
    expect(startsUtc(slots({ ...quarterHours, bufferBeforeMinutes: 10 }, { busy: other }))).toEqual([
      '2026-03-02 11:00:00',
      '2026-03-02 11:15:00',
      '2026-03-02 11:30:00',
    ]);
  });

  it('lets back-to-back bookings through without buffers', () => {
    const busy = [booking(1, '2026-03-02T09:30:00Z', '2026-03-02T10:00:00Z'), booking(1, '2026-03-02T10:30:00Z', '2026-03-02T11:00:00Z')];
    expect(startsUtc(slots(tenOClock, { busy }))).toEqual(['2026-03-02 10:00:00']);
  });

  it('a booking of another type blocks its host, the other hosts stay free', () => {
    const list = slots({ ...tenOClock, hosts: [1, 2] }, { busy: [booking(1, '2026-03-02T10:15:00Z', '2026-03-02T10:45:00Z')] });
    expect(list).toMatchObject([{ start_utc: '2026-03-02 10:00:00', hosts: [2], capacity_left: 1 }]);
  });

  it('omits a start where no host is free, and ignores bookings of users who are not hosts', () => {
    const busy = [booking(1, '2026-03-02T10:00:00Z', '2026-03-02T10:30:00Z'), booking(5, '2026-03-02T09:00:00Z', '2026-03-02T11:00:00Z')];
    expect(startsUtc(slots({ weeklyWindows: EVERY_DAY(['10:00', '11:00']) }, { busy }))).toEqual(['2026-03-02 10:30:00']);
  });

  it('same type at the same start keeps the host while seats remain (capacity 3, 2 booked → 1 left)', () => {
    const busy = [booking(1, '2026-03-02T10:00:00Z', '2026-03-02T10:30:00Z', { bookingTypeId: TYPE_ID, quantity: 2 })];
    expect(slots({ ...tenOClock, capacity: 3 }, { busy })).toMatchObject([{ hosts: [1], capacity_left: 1 }]);
  });

  it('same type at the same start with every seat taken makes the host not free', () => {
    const busy = [
      booking(1, '2026-03-02T10:00:00Z', '2026-03-02T10:30:00Z', { bookingTypeId: TYPE_ID, quantity: 2 }),
      booking(1, '2026-03-02T10:00:00Z', '2026-03-02T10:30:00Z', { bookingTypeId: TYPE_ID, quantity: 1 }),
    ];
    expect(slots({ ...tenOClock, capacity: 3 }, { busy })).toEqual([]);
  });

  it('same type at an overlapping but different start blocks the host', () => {
    const list = slots(
      { durationMinutes: 30, slotIntervalMinutes: 15, weeklyWindows: EVERY_DAY(['10:00', '11:00']), capacity: 3 },
      { busy: [booking(1, '2026-03-02T10:00:00Z', '2026-03-02T10:30:00Z', { bookingTypeId: TYPE_ID })] },
    );
    expect(list.map((s) => [s.start_utc, s.capacity_left])).toEqual([
      ['2026-03-02 10:00:00', 2],
      ['2026-03-02 10:30:00', 3],
    ]);
  });

  it('capacity_left sums the seats of the free hosts, hosts listed ascending', () => {
    const busy = [
      booking(2, '2026-03-02T10:00:00Z', '2026-03-02T10:30:00Z', { bookingTypeId: TYPE_ID, quantity: 1 }),
      booking(4, '2026-03-02T09:45:00Z', '2026-03-02T10:15:00Z'),
    ];
    const list = slots({ ...tenOClock, capacity: 2, hosts: [4, 3, 1, 2] }, { busy });
    expect(list).toMatchObject([{ hosts: [1, 2, 3], capacity_left: 2 + 1 + 2 }]);
  });

  it('agrees with a brute-force overlap check on many random bookings', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const hosts = [1, 2, 3];
    const base = at('2026-03-02T00:00:00Z');
    const busy: BusyBooking[] = Array.from({ length: 400 }, () => {
      const startMs = base + Math.floor(random() * 7 * 96) * 15 * MINUTE;
      return {
        hostUserId: hosts[Math.floor(random() * 3)]!,
        bookingTypeId: random() < 0.3 ? TYPE_ID : OTHER_TYPE_ID,
        startMs,
        endMs: startMs + (1 + Math.floor(random() * 8)) * 15 * MINUTE,
        quantity: 1 + Math.floor(random() * 2),
        // each booking's own type's buffers
        bufferBeforeMs: Math.floor(random() * 3) * 10 * MINUTE,
        bufferAfterMs: Math.floor(random() * 3) * 10 * MINUTE,
      };
    });
    const scheduling = {
      durationMinutes: 45,
      slotIntervalMinutes: 15,
      weeklyWindows: EVERY_DAY(['06:00', '22:00']),
      bufferBeforeMinutes: 10,
      bufferAfterMinutes: 5,
      capacity: 2,
      hosts,
    };
    const range = { fromDay: '2026-03-02', toDay: '2026-03-08', limit: Infinity };
    const candidates = slots(scheduling, range);
    const actual = slots(scheduling, { ...range, busy });

    const expected = candidates.flatMap((candidate) => {
      const start = at(`${candidate.start_utc.replace(' ', 'T')}Z`);
      const from = start - 10 * MINUTE;
      const to = start + 50 * MINUTE;
      const free: number[] = [];
      let seats = 0;
      for (const host of hosts) {
        const mine = busy.filter((b) => b.hostUserId === host && b.startMs - b.bufferBeforeMs! < to && b.endMs + b.bufferAfterMs! > from);
        const group = mine.filter((b) => b.bookingTypeId === TYPE_ID && b.startMs === start);
        if (group.length !== mine.length) continue;
        const left = 2 - group.reduce((sum, b) => sum + b.quantity, 0);
        if (left > 0) {
          free.push(host);
          seats += left;
        }
      }
      return free.length ? [{ ...candidate, hosts: free, capacity_left: seats }] : [];
    });
    expect(actual.length).toBeGreaterThan(50);
    expect(actual.length).toBeLessThan(candidates.length);
    expect(actual).toEqual(expected);
  });
});

describe('generateSlots: limit and order', () => {
  it(`stops collecting at ${SLOT_LIMIT} slots, keeping the earliest`, () => {
    const dense = { durationMinutes: 15, slotIntervalMinutes: 15, weeklyWindows: EVERY_DAY(['00:00', '24:00']) };
    const range = { fromDay: '2026-03-01', toDay: '2026-03-30' };
    const capped = slots(dense, range);
    expect(capped).toHaveLength(750);
    expect(capped[0]!.start_utc).toBe('2026-03-01 00:00:00');
    expect(capped[749]!.start_utc).toBe('2026-03-08 19:15:00'); // 7 × 96 + 78 = 750
    expect(slots(dense, { ...range, limit: Infinity })).toHaveLength(30 * 96);
  });

  it('returns a zero-indexed list sorted by UTC start without duplicates, even for overlapping windows', () => {
    const list = slots({ weeklyWindows: EVERY_DAY(['10:00', '12:00'], ['09:15', '11:15']) });
    expect(Array.isArray(list)).toBe(true);
    expect(Object.keys(list)).toEqual(list.map((_, i) => String(i)));
    expect(startsUtc(list)).toEqual([
      '2026-03-02 09:15:00',
      '2026-03-02 09:45:00',
      '2026-03-02 10:00:00',
      '2026-03-02 10:15:00',
      '2026-03-02 10:30:00',
      '2026-03-02 10:45:00',
      '2026-03-02 11:00:00',
      '2026-03-02 11:30:00',
    ]);
  });
});

describe('generateSlots: time zones and DST', () => {
  const wall = (list: Slot[]) => list.map((s) => `${s.start_utc} ${s.start}`);
  const assertStrictlyIncreasing = (list: Slot[]) => {
    const utc = startsUtc(list);
    expect(new Set(utc).size).toBe(utc.length);
    expect([...utc].sort()).toEqual(utc);
  };

  it('Europe/Berlin spring-forward (2026-03-29): nothing at 02:xx, 01:00 is 00:00Z and 03:00 is 01:00Z', () => {
    const list = slots(
      { timezone: 'Europe/Berlin', weeklyWindows: { ...NO_WINDOWS, sun: [['01:00', '04:00']] } },
      { fromDay: '2026-03-29', toDay: '2026-03-29' },
    );
    expect(wall(list)).toEqual([
      '2026-03-29 00:00:00 2026-03-29T01:00:00+01:00',
      '2026-03-29 00:30:00 2026-03-29T01:30:00+01:00',
      '2026-03-29 01:00:00 2026-03-29T03:00:00+02:00',
      '2026-03-29 01:30:00 2026-03-29T03:30:00+02:00',
    ]);
  });

  it('Europe/Berlin fall-back (2026-10-25): no duplicate starts, strictly increasing UTC, both real 02:xx hours offered', () => {
    const list = slots(
      { timezone: 'Europe/Berlin', weeklyWindows: { ...NO_WINDOWS, sun: [['01:00', '04:00']] } },
      { fromDay: '2026-10-24', toDay: '2026-10-25' },
    );
    assertStrictlyIncreasing(list);
    expect(wall(list)).toEqual([
      '2026-10-24 23:00:00 2026-10-25T01:00:00+02:00',
      '2026-10-24 23:30:00 2026-10-25T01:30:00+02:00',
      '2026-10-25 00:00:00 2026-10-25T02:00:00+02:00',
      '2026-10-25 00:30:00 2026-10-25T02:30:00+02:00',
      '2026-10-25 01:00:00 2026-10-25T02:00:00+01:00',
      '2026-10-25 01:30:00 2026-10-25T02:30:00+01:00',
      '2026-10-25 02:00:00 2026-10-25T03:00:00+01:00',
      '2026-10-25 02:30:00 2026-10-25T03:30:00+01:00',
    ]);
  });

  it('a window starting inside the skipped hour begins when the hour ends', () => {
    const list = slots(
      { timezone: 'Europe/Berlin', weeklyWindows: { ...NO_WINDOWS, sun: [['02:30', '04:00']] } },
      { fromDay: '2026-03-29', toDay: '2026-03-29' },
    );
    expect(wall(list)).toEqual(['2026-03-29 01:30:00 2026-03-29T03:30:00+02:00']);
  });

  it('a window starting inside the repeated hour begins at its first occurrence', () => {
    const list = slots(
      { timezone: 'Europe/Berlin', weeklyWindows: { ...NO_WINDOWS, sun: [['02:30', '03:00']] } },
      { fromDay: '2026-10-25', toDay: '2026-10-25' },
    );
    expect(wall(list)).toEqual([
      '2026-10-25 00:30:00 2026-10-25T02:30:00+02:00',
      '2026-10-25 01:00:00 2026-10-25T02:00:00+01:00',
      '2026-10-25 01:30:00 2026-10-25T02:30:00+01:00',
    ]);
  });

  it('America/New_York spring-forward (2026-03-08): 02:xx skipped, UTC starts exact', () => {
    const list = slots(
      { timezone: 'America/New_York', durationMinutes: 60, slotIntervalMinutes: 60, weeklyWindows: { ...NO_WINDOWS, sun: [['00:00', '04:00']] } },
      { fromDay: '2026-03-08', toDay: '2026-03-08' },
    );
    expect(wall(list)).toEqual([
      '2026-03-08 05:00:00 2026-03-08T00:00:00-05:00',
      '2026-03-08 06:00:00 2026-03-08T01:00:00-05:00',
      '2026-03-08 07:00:00 2026-03-08T03:00:00-04:00',
    ]);
  });

  it('America/New_York fall-back (2026-11-01): the repeated 01:xx hour gives distinct UTC starts', () => {
    const list = slots(
      { timezone: 'America/New_York', durationMinutes: 60, slotIntervalMinutes: 60, weeklyWindows: { ...NO_WINDOWS, sun: [['00:00', '04:00']] } },
      { fromDay: '2026-11-01', toDay: '2026-11-01' },
    );
    assertStrictlyIncreasing(list);
    expect(wall(list)).toEqual([
      '2026-11-01 04:00:00 2026-11-01T00:00:00-04:00',
      '2026-11-01 05:00:00 2026-11-01T01:00:00-04:00',
      '2026-11-01 06:00:00 2026-11-01T01:00:00-05:00',
      '2026-11-01 07:00:00 2026-11-01T02:00:00-05:00',
      '2026-11-01 08:00:00 2026-11-01T03:00:00-05:00',
    ]);
  });

  it('Asia/Kolkata (+05:30) and Asia/Kathmandu (+05:45) give exact UTC starts', () => {
    const window = { weeklyWindows: EVERY_DAY(['09:00', '10:00']) };
    expect(wall(slots({ ...window, timezone: 'Asia/Kolkata' }))).toEqual([
      '2026-03-02 03:30:00 2026-03-02T09:00:00+05:30',
      '2026-03-02 04:00:00 2026-03-02T09:30:00+05:30',
    ]);
    expect(wall(slots({ ...window, timezone: 'Asia/Kathmandu' }))).toEqual([
      '2026-03-02 03:15:00 2026-03-02T09:00:00+05:45',
      '2026-03-02 03:45:00 2026-03-02T09:30:00+05:45',
    ]);
  });

  it('Australia/Adelaide (+10:30 in summer) puts 09:00 local on the previous UTC day', () => {
    const list = slots({ timezone: 'Australia/Adelaide', weeklyWindows: EVERY_DAY(['09:00', '09:30']) }, { fromDay: '2026-01-14', toDay: '2026-01-14' });
    expect(wall(list)).toEqual(['2026-01-14 22:30:00 2026-01-15T09:00:00+10:30']);
  });

  it('writes start and label in the requester zone, not the type zone', () => {
    const list = slots(
      { timezone: 'Europe/Berlin', weeklyWindows: EVERY_DAY(['10:00', '10:30']) },
      { fromDay: '2026-03-20', toDay: '2026-03-29', requesterTz: 'America/New_York' },
    );
    // New York is on EDT from 8 March, Berlin on CET until 29 March: five hours apart, then six.
    expect(list[0]).toMatchObject({ start_utc: '2026-03-20 09:00:00', start: '2026-03-20T05:00:00-04:00', label: 'Fri 20 Mar, 05:00' });
    expect(list.at(-1)).toMatchObject({ start_utc: '2026-03-29 08:00:00', start: '2026-03-29T04:00:00-04:00', label: 'Sun 29 Mar, 04:00' });
    const kathmandu = slots({ timezone: 'Europe/Berlin', weeklyWindows: EVERY_DAY(['22:00', '22:30']) }, { requesterTz: 'Asia/Kathmandu' });
    expect(kathmandu).toMatchObject([{ start: '2026-03-03T02:45:00+05:45', label: 'Tue 3 Mar, 02:45' }]);
  });

  it('rejects an unknown requester zone', () => {
    const error = thrown(() => slots({}, { requesterTz: 'Mars/Olympus' }));
    expect(error.code).toBe('svc_invalid_param');
    expect(error.data.params).toHaveProperty('tz');
  });
});

describe('resolveSlotRange', () => {
  const nowMs = at('2026-03-02T23:30:00Z');

  it('defaults an empty from to today (UTC) and an empty to to from + 30 days', () => {
    expect(resolveSlotRange(undefined, undefined, nowMs)).toEqual({ fromDay: '2026-03-02', toDay: '2026-04-01' });
    expect(resolveSlotRange('', ' ', nowMs)).toEqual({ fromDay: '2026-03-02', toDay: '2026-04-01' });
    expect(resolveSlotRange('2026-05-10', '', nowMs)).toEqual({ fromDay: '2026-05-10', toDay: '2026-06-09' });
  });

  it('keeps valid explicit days, including from = to', () => {
    expect(resolveSlotRange('2026-03-05', '2026-03-05', nowMs)).toEqual({ fromDay: '2026-03-05', toDay: '2026-03-05' });
  });

  it.each(['2026-02-30', '2026-3-05', '05/03/2026', '2026-03-05T00:00:00Z', 'tomorrow'])('rejects a malformed from (%s) naming from', (from) => {
    const error = thrown(() => resolveSlotRange(from, '2026-04-01', nowMs));
    expect(error.code).toBe('svc_invalid_param');
    expect(error.status).toBe(400);
    expect(Object.keys(error.data.params as object)).toEqual(['from']);
  });

  it('rejects a malformed to naming to', () => {
    const error = thrown(() => resolveSlotRange('2026-03-05', '2026-13-01', nowMs));
    expect(Object.keys(error.data.params as object)).toEqual(['to']);
  });

  it('rejects a to before from naming to', () => {
    const error = thrown(() => resolveSlotRange('2026-03-05', '2026-03-04', nowMs));
    expect(error.code).toBe('svc_invalid_param');
    expect(error.status).toBe(400);
    expect(Object.keys(error.data.params as object)).toEqual(['to']);
  });

  it('clips a span longer than 366 days', () => {
    expect(resolveSlotRange('2026-03-05', '2030-01-01', nowMs)).toEqual({ fromDay: '2026-03-05', toDay: '2027-03-05' });
  });
});
