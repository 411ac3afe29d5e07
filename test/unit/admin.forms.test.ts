import { describe, expect, it } from 'vitest';
import {
  basisPointsToText,
  centsToText,
  localInputToUtc,
  parseDayList,
  textToBasisPoints,
  textToCents,
  textToLimit,
  utcToLocalInput,
  utcToZoneInput,
  zoneInputToUtc,
} from '../../client/admin/forms';
import { calendarDays, groupByLocalDay, shiftAnchor, startOfLocalWeek, utcDayRange } from '../../client/admin/calendar';

describe('admin form conversions', () => {
  it('prices: cents to text and back, with comma decimals; nonsense is null', () => {
    expect(centsToText(1250)).toBe('12.50');
    expect(textToCents('12.5')).toBe(1250);
    expect(textToCents('12,05')).toBe(1205);
    expect(textToCents(' 40 ')).toBe(4000);
    expect(textToCents('')).toBe(0);
    expect(textToCents('-1')).toBeNull();
    expect(textToCents('1.234')).toBeNull();
    expect(textToCents('ten')).toBeNull();
  });

  it('amounts typed in major units become exact integer cents (no float error), and back', () => {
    // 0.29 * 100 and 1.15 * 100 are 28.999… and 114.999… as floats; the string is parsed instead
    expect(textToCents('0.29')).toBe(29);
    expect(textToCents('1.15')).toBe(115);
    expect(textToCents('18.00')).toBe(1800);
    expect(textToCents('1000000.99')).toBe(100_000_099);
    expect(textToCents('18.')).toBeNull();
    expect(textToCents('.5')).toBeNull();
    expect(textToCents('-5')).toBeNull();
    expect(centsToText(29)).toBe('0.29');
    expect(centsToText(100_000_099)).toBe('1000000.99');
  });

  it('percentages become exact basis points (19 → 1900, 7.5 → 750, 0.07 → 7) and read back without trailing zeros', () => {
    expect(textToBasisPoints('19')).toBe(1900);
    expect(textToBasisPoints('7,5')).toBe(750);
    expect(textToBasisPoints('0.07')).toBe(7);
    expect(textToBasisPoints('14.55')).toBe(1455);
    expect(textToBasisPoints(' 100 ')).toBe(10_000);
    for (const bad of ['', '-1', '1.234', '20 %', 'ten']) expect(textToBasisPoints(bad), bad).toBeNull();
    expect(basisPointsToText(1900)).toBe('19');
    expect(basisPointsToText(750)).toBe('7.5');
    expect(basisPointsToText(7)).toBe('0.07');
    expect(basisPointsToText(1455)).toBe('14.55');
    expect(basisPointsToText(0)).toBe('0');
  });

  it('a limit is empty (none), a whole number, or NaN for anything else', () => {
    expect(textToLimit('')).toBeNull();
    expect(textToLimit(' 40 ')).toBe(40);
    expect(textToLimit('4.5')).toBeNaN();
    expect(textToLimit('-3')).toBeNaN();
  });

  it("datetime-local values are read and shown on the event zone's wall clock, whatever the viewer's zone", () => {
    // London is UTC+1 in summer and UTC+0 in winter; New York UTC−4 / −5; Kolkata +5:30 all year
    expect(zoneInputToUtc('2030-06-01T19:30', 'Europe/London')).toBe('2030-06-01 18:30:00');
    expect(zoneInputToUtc('2030-12-01T19:30', 'Europe/London')).toBe('2030-12-01 19:30:00');
    expect(zoneInputToUtc('2030-06-01T19:30', 'America/New_York')).toBe('2030-06-01 23:30:00');
    expect(zoneInputToUtc('2030-01-01T00:15', 'Asia/Kolkata')).toBe('2029-12-31 18:45:00');
    expect(utcToZoneInput('2030-06-01 18:30:00', 'Europe/London')).toBe('2030-06-01T19:30');
    expect(utcToZoneInput('2029-12-31 18:45:00', 'Asia/Kolkata')).toBe('2030-01-01T00:15');
    expect(utcToZoneInput(null, 'Europe/London')).toBe('');
    expect(zoneInputToUtc('', 'Europe/London')).toBeNull();
    expect(zoneInputToUtc('2030-02-30T10:00', 'Europe/London')).toBeNull();
  });

  it('times beside a change of offset land on the right side of it', () => {
    // Berlin moves 02:00 → 03:00 on 31 March 2030 and 03:00 → 02:00 on 27 October 2030
    expect(zoneInputToUtc('2030-03-31T01:30', 'Europe/Berlin')).toBe('2030-03-31 00:30:00');
    expect(zoneInputToUtc('2030-03-31T03:30', 'Europe/Berlin')).toBe('2030-03-31 01:30:00');
    expect(zoneInputToUtc('2030-10-27T04:00', 'Europe/Berlin')).toBe('2030-10-27 03:00:00');
    for (const utc of ['2030-03-31 00:59:00', '2030-03-31 01:00:00', '2030-10-27 00:30:00', '2030-10-27 01:30:00']) {
      expect(utcToZoneInput(utc, 'Europe/Berlin').length, utc).toBe(16);
    }
    // every minute of a summer and a winter day round-trips
    for (const utc of ['2030-07-14 09:05:00', '2030-01-14 23:59:00']) expect(zoneInputToUtc(utcToZoneInput(utc, 'Europe/Berlin'), 'Europe/Berlin')).toBe(utc);
  });

  it('datetime-local values round-trip through UTC in the viewer zone', () => {
    const utc = '2030-06-01 18:30:00';
    const local = utcToLocalInput(utc);
    expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(localInputToUtc(local)).toBe(utc);
    expect(localInputToUtc('')).toBeNull();
    expect(utcToLocalInput(null)).toBe('');
  });

  it('days off: one per line or comma-separated, deduplicated and sorted; bad entries reported', () => {
    expect(parseDayList('2030-12-26\n2030-12-24, 2030-12-24\n\n2030-02-30 tomorrow')).toEqual({
      days: ['2030-12-24', '2030-12-26'],
      invalid: ['2030-02-30', 'tomorrow'],
    });
  });
});

describe('bookings calendar', () => {
  it('a week view is seven local days from Monday; the day view one day', () => {
    const wednesday = new Date(2030, 5, 5, 15, 0).getTime(); // 5 June 2030 is a Wednesday
    const days = calendarDays('week', wednesday);
    expect(days).toHaveLength(7);
    expect(new Date(days[0]!).getDay()).toBe(1);
    expect(days[0]).toBe(startOfLocalWeek(wednesday));
    expect(calendarDays('day', wednesday)).toEqual([new Date(2030, 5, 5).getTime()]);
    expect(shiftAnchor('week', wednesday, 1)).toBe(new Date(2030, 5, 12).getTime());
    expect(shiftAnchor('day', wednesday, -1)).toBe(new Date(2030, 5, 4).getTime());
  });

  it('the list range covers every UTC day the local days touch', () => {
    const days = calendarDays('day', new Date(2030, 5, 5, 12).getTime());
    const { from, to } = utcDayRange(days);
    const startUtcDay = new Date(days[0]!).toISOString().slice(0, 10);
    const endUtcDay = new Date(new Date(2030, 5, 6).getTime() - 1).toISOString().slice(0, 10);
    expect([from, to]).toEqual([startUtcDay, endUtcDay]);
  });

  it('groups bookings under the local day of their start, sorted, dropping days not shown', () => {
    const days = calendarDays('day', new Date(2030, 5, 5, 12).getTime());
    const utcOf = (h: number) => new Date(2030, 5, 5, h).toISOString().slice(0, 19).replace('T', ' ');
    const groups = groupByLocalDay(
      [
        { id: 2, startUtc: utcOf(15) },
        { id: 1, startUtc: utcOf(9) },
        { id: 3, startUtc: new Date(2030, 5, 7, 9).toISOString().slice(0, 19).replace('T', ' ') },
      ],
      days,
    );
    expect([...groups.values()].map((list) => list.map((b) => b.id))).toEqual([[1, 2]]);
  });
});
