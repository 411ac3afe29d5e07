import { describe, expect, it } from 'vitest';
import { generateSlots, type GenerateInput, type HostHours, type Slot, type SlotRules } from '../../shared/booking/slots';
import { hostAvailability } from '../../shared/booking/hours';
import type { Weekday } from '../../shared/time';
import { EVERY_DAY, slotRules } from '../helpers/booking';

// Per-host hours in the slot generator (docs/decisions/040-host-hours.md).
const TYPE_ID = 7;
const NO_WINDOWS: Record<Weekday, Array<[string, string]>> = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };

function hours(weekly: Record<Weekday, Array<[string, string]>>, extra: Partial<HostHours> = {}): HostHours {
  return { timezone: 'UTC', weekly, overrides: [], ...extra };
}

/** 2026-03-02 is a Monday. */
function slots(rules: Partial<SlotRules>, hostHours: Record<number, HostHours>, input: Partial<Omit<GenerateInput, 'rules'>> = {}): Slot[] {
  return generateSlots({
    rules: slotRules(rules),
    bookingTypeId: TYPE_ID,
    busy: [],
    fromDay: '2026-03-02',
    toDay: '2026-03-02',
    nowMs: Date.UTC(2026, 0, 1),
    requesterTz: 'UTC',
    hostHours: new Map(Object.entries(hostHours).map(([id, h]) => [Number(id), h])),
    ...input,
  });
}

const startsUtc = (list: Slot[]) => list.map((s) => s.start_utc);

describe('host hours: intersection with the type (hoursSource "type")', () => {
  it('a host without stored hours leaves the list exactly as the type alone makes it', () => {
    const rules = { weeklyWindows: EVERY_DAY(['09:00', '12:00']), hosts: [1, 2], bufferBeforeMinutes: 10 };
    const without = slots(rules, {}, { toDay: '2026-03-08' });
    const plain = generateSlots({
      rules: slotRules(rules),
      bookingTypeId: TYPE_ID,
      busy: [],
      fromDay: '2026-03-02',
      toDay: '2026-03-08',
      nowMs: Date.UTC(2026, 0, 1),
      requesterTz: 'UTC',
    });
    expect(without).toEqual(plain);
    expect(without).toHaveLength(42);
  });

  it("offers only starts whose whole appointment lies inside the host's hours", () => {
    const list = slots({ weeklyWindows: EVERY_DAY(['09:00', '17:00']) }, { 1: hours(EVERY_DAY(['10:00', '12:00'])) });
    expect(startsUtc(list)).toEqual(['2026-03-02 10:00:00', '2026-03-02 10:30:00', '2026-03-02 11:00:00', '2026-03-02 11:30:00']);
  });

  it('a start that would run past the end of the hours is not offered, even when the type window goes on', () => {
    const list = slots(
      { durationMinutes: 60, slotIntervalMinutes: 30, weeklyWindows: EVERY_DAY(['09:00', '17:00']) },
      { 1: hours(EVERY_DAY(['09:00', '10:30'])) },
    );
    expect(startsUtc(list)).toEqual(['2026-03-02 09:00:00', '2026-03-02 09:30:00']);
  });

  it("buffers are about other appointments, not working hours: a start at the hours' edge is offered with buffers around it", () => {
    const list = slots(
      { weeklyWindows: EVERY_DAY(['08:00', '12:00']), bufferBeforeMinutes: 15, bufferAfterMinutes: 15 },
      { 1: hours(EVERY_DAY(['09:00', '10:00'])) },
    );
    expect(startsUtc(list)).toEqual(['2026-03-02 09:00:00', '2026-03-02 09:30:00']);
  });

  it('two hosts with different hours: each start lists only the host who works then', () => {
    const list = slots(
      { weeklyWindows: EVERY_DAY(['09:00', '11:00']), hosts: [1, 2] },
      { 1: hours(EVERY_DAY(['09:00', '10:00'])), 2: hours(EVERY_DAY(['10:00', '11:00'])) },
    );
    expect(list.map((s) => [s.start_utc, s.hosts])).toEqual([
      ['2026-03-02 09:00:00', [1]],
      ['2026-03-02 09:30:00', [1]],
      ['2026-03-02 10:00:00', [2]],
      ['2026-03-02 10:30:00', [2]],
    ]);
    expect(list.every((s) => s.capacity_left === 1)).toBe(true);
  });

  it("a host in another zone works in their own zone's clock", () => {
    // 09:00–10:00 in New York on 2 March 2026 (EST, UTC−5) is 14:00–15:00 UTC
    const list = slots({ weeklyWindows: EVERY_DAY(['00:00', '24:00']) }, { 1: hours(EVERY_DAY(['09:00', '10:00']), { timezone: 'America/New_York' }) });
    expect(startsUtc(list)).toEqual(['2026-03-02 14:00:00', '2026-03-02 14:30:00']);
  });

  it("across a DST change week the host's hours keep their wall clock, so their UTC time moves by an hour", () => {
    // Berlin springs forward on Sunday 29 March 2026: 09:00 is 08:00 UTC before, 07:00 UTC after
    const list = slots(
      { weeklyWindows: EVERY_DAY(['00:00', '24:00']) },
      { 1: hours(EVERY_DAY(['09:00', '10:00']), { timezone: 'Europe/Berlin' }) },
      { fromDay: '2026-03-27', toDay: '2026-03-30' },
    );
    expect(startsUtc(list)).toEqual([
      '2026-03-27 08:00:00',
      '2026-03-27 08:30:00',
      '2026-03-28 08:00:00',
      '2026-03-28 08:30:00',
      '2026-03-29 07:00:00',
      '2026-03-29 07:30:00',
      '2026-03-30 07:00:00',
      '2026-03-30 07:30:00',
    ]);
  });
});

describe('host hours: date overrides', () => {
  const everyDay = EVERY_DAY(['09:00', '11:00']);

  it('a day off removes that date only', () => {
    const list = slots({}, { 1: hours(everyDay, { overrides: [{ from: '2026-03-03', to: '2026-03-03', windows: [] }] }) }, { toDay: '2026-03-04' });
    expect(new Set(list.map((s) => s.start_utc.slice(0, 10)))).toEqual(new Set(['2026-03-02', '2026-03-04']));
  });

  it('a vacation removes every date of its range, ends included', () => {
    const list = slots({}, { 1: hours(everyDay, { overrides: [{ from: '2026-03-03', to: '2026-03-05', windows: [] }] }) }, { toDay: '2026-03-06' });
    expect(new Set(list.map((s) => s.start_utc.slice(0, 10)))).toEqual(new Set(['2026-03-02', '2026-03-06']));
  });

  it('special hours replace the weekly hours on their date, also on a day the host does not usually work', () => {
    const weekdays = { ...EVERY_DAY(['09:00', '11:00']), sat: [], sun: [] };
    const host = hours(weekdays, {
      overrides: [
        { from: '2026-03-02', to: '2026-03-02', windows: [['10:00', '11:00']] },
        { from: '2026-03-07', to: '2026-03-07', windows: [['09:00', '10:00']] },
      ],
    });
    const list = slots({ weeklyWindows: EVERY_DAY(['08:00', '12:00']) }, { 1: host }, { toDay: '2026-03-08' });
    const byDay = (day: string) => startsUtc(list).filter((s) => s.startsWith(day));
    expect(byDay('2026-03-02')).toEqual(['2026-03-02 10:00:00', '2026-03-02 10:30:00']);
    expect(byDay('2026-03-03')).toEqual(['2026-03-03 09:00:00', '2026-03-03 09:30:00', '2026-03-03 10:00:00', '2026-03-03 10:30:00']);
    expect(byDay('2026-03-07')).toEqual(['2026-03-07 09:00:00', '2026-03-07 09:30:00']);
    expect(byDay('2026-03-08')).toEqual([]);
  });

  it("override dates are local dates in the host's zone", () => {
    // a day off on 3 March in Tokyo (UTC+9) is 2 March 15:00 – 3 March 15:00 UTC
    const host = hours(EVERY_DAY(['00:00', '24:00']), { timezone: 'Asia/Tokyo', overrides: [{ from: '2026-03-03', to: '2026-03-03', windows: [] }] });
    const list = slots({ weeklyWindows: EVERY_DAY(['14:00', '16:00']), durationMinutes: 60, slotIntervalMinutes: 60 }, { 1: host }, { toDay: '2026-03-03' });
    expect(startsUtc(list)).toEqual(['2026-03-02 14:00:00', '2026-03-03 15:00:00']);
  });
});

describe('host hours: the hosts\' hours alone (hoursSource "hosts")', () => {
  it("takes starts from the hosts' hours, stepping from each window's start, ignoring the type's windows", () => {
    const list = slots({ hoursSource: 'hosts', weeklyWindows: EVERY_DAY(['09:00', '11:00']) }, { 1: hours(EVERY_DAY(['13:10', '14:30'])) });
    expect(startsUtc(list)).toEqual(['2026-03-02 13:10:00', '2026-03-02 13:40:00']);
  });

  it("offers the union of the hosts' hours, each start with the hosts who work then", () => {
    const list = slots(
      { hoursSource: 'hosts', weeklyWindows: NO_WINDOWS, hosts: [1, 2] },
      { 1: hours(EVERY_DAY(['09:00', '10:00'])), 2: hours(EVERY_DAY(['09:30', '10:30'])) },
    );
    expect(list.map((s) => [s.start_utc, s.hosts])).toEqual([
      ['2026-03-02 09:00:00', [1]],
      ['2026-03-02 09:30:00', [1, 2]],
      ['2026-03-02 10:00:00', [2]],
    ]);
  });

  it("the type's days off still apply", () => {
    const list = slots({ hoursSource: 'hosts', daysOff: ['2026-03-03'] }, { 1: hours(EVERY_DAY(['13:00', '14:00'])) }, { toDay: '2026-03-04' });
    expect(new Set(list.map((s) => s.start_utc.slice(0, 10)))).toEqual(new Set(['2026-03-02', '2026-03-04']));
  });

  it("a host without stored hours works the type's windows; with no hours at all the list is the type's own", () => {
    const list = slots({ hoursSource: 'hosts', weeklyWindows: EVERY_DAY(['09:00', '10:00']), hosts: [1, 2] }, { 1: hours(EVERY_DAY(['13:00', '14:00'])) });
    expect(list.map((s) => [s.start_utc, s.hosts])).toEqual([
      ['2026-03-02 09:00:00', [2]],
      ['2026-03-02 09:30:00', [2]],
      ['2026-03-02 13:00:00', [1]],
      ['2026-03-02 13:30:00', [1]],
    ]);
    const none = slots({ hoursSource: 'hosts', weeklyWindows: EVERY_DAY(['09:00', '10:00']) }, {});
    expect(startsUtc(none)).toEqual(startsUtc(slots({ weeklyWindows: EVERY_DAY(['09:00', '10:00']) }, {})));
  });
});

describe('hostAvailability', () => {
  it('joins a window ending at 24:00 with the next day starting at 00:00, so a night shift is one stretch', () => {
    const from = Date.UTC(2026, 2, 2);
    const intervals = hostAvailability(hours({ ...NO_WINDOWS, mon: [['22:00', '24:00']], tue: [['00:00', '02:00']] }), from, from + 86_400_000);
    expect(intervals).toEqual([Date.UTC(2026, 2, 2, 22), Date.UTC(2026, 2, 3, 2)]);
  });
});
