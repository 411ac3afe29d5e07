/** Calendar, zone and .ics helpers of the booking page. */
import { describe, expect, it } from 'vitest';
import { buildIcs, icsText } from '../../client/visitor/ics';
import { addMonths, dayInZone, formatAge, monthGrid, monthQueryRange } from '../../client/visitor/time';

describe('booking calendar helpers', () => {
  it('a slot falls on the day of the visitor zone, not the UTC day', () => {
    const instant = Date.UTC(2030, 0, 1, 23, 30);
    expect(dayInZone(instant, 'UTC')).toBe('2030-01-01');
    expect(dayInZone(instant, 'Europe/Berlin')).toBe('2030-01-02');
    expect(dayInZone(instant, 'America/New_York')).toBe('2030-01-01');
  });

  it('the month grid starts on Monday and pads to whole weeks', () => {
    const weeks = monthGrid(2030, 1); // 1 January 2030 is a Tuesday
    expect(weeks[0]).toEqual([null, '2030-01-01', '2030-01-02', '2030-01-03', '2030-01-04', '2030-01-05', '2030-01-06']);
    expect(weeks.flat().filter(Boolean)).toHaveLength(31);
    expect(weeks.every((w) => w.length === 7)).toBe(true);
  });

  it('the slots query covers the local month in every zone and never starts before today', () => {
    const now = Date.UTC(2029, 11, 15);
    expect(monthQueryRange(2030, 2, now)).toEqual({ from: '2030-01-31', to: '2030-03-01' });
    expect(monthQueryRange(2029, 12, now)).toEqual({ from: '2029-12-15', to: '2030-01-01' });
    expect(addMonths(2030, 12, 1)).toEqual({ year: 2031, month: 1 });
    expect(addMonths(2030, 1, -1)).toEqual({ year: 2029, month: 12 });
  });

  it('says how old a stored copy is', () => {
    const now = Date.UTC(2030, 0, 1, 12);
    expect(formatAge(now - 5 * 60_000, now)).toMatch(/5/);
    expect(formatAge(now - 3 * 3_600_000, now)).toMatch(/3/);
  });
});

describe('add to calendar (.ics)', () => {
  it('builds one VEVENT in UTC with escaped text and CRLF lines', () => {
    const ics = buildIcs({
      uid: 'booking-5@example.test',
      startUtc: '2030-01-02 10:00:00',
      endUtc: '2030-01-02 11:00:00',
      title: 'Consultation; with, commas',
      location: 'In person',
      stampUtc: '2030-01-01 09:00:00',
    });
    expect(ics).toContain('\r\nDTSTART:20300102T100000Z\r\n');
    expect(ics).toContain('\r\nDTEND:20300102T110000Z\r\n');
    expect(ics).toContain('SUMMARY:Consultation\\; with\\, commas');
    expect(ics.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(icsText('a\nb\\c')).toBe('a\\nb\\\\c');
    const long = buildIcs({
      uid: 'u',
      startUtc: '2030-01-02 10:00:00',
      endUtc: '2030-01-02 11:00:00',
      title: 'x'.repeat(200),
      stampUtc: '2030-01-01 09:00:00',
    });
    expect(long.split('\r\n').every((line) => new TextEncoder().encode(line).length <= 75)).toBe(true);
  });
});
