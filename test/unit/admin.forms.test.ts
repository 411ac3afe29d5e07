import { describe, expect, it } from 'vitest';
import { centsToText, localInputToUtc, parseDayList, textToCents, utcToLocalInput } from '../../client/admin/forms';
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
