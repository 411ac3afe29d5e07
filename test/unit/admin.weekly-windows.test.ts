import { describe, expect, it } from 'vitest';
import {
  addWindow,
  clockToMinutes,
  copyDay,
  emptyWeek,
  nextWindow,
  removeWindow,
  updateWindow,
  validateWeek,
  weekFromWindows,
  weekIsValid,
  weeklyHours,
  windowBar,
  windowsFromWeek,
} from '../../client/admin/weekly-windows';

describe('weekly-window editor model', () => {
  it('a first window on an empty day is 09:00–17:00; the next starts where the last ended', () => {
    let week = addWindow(emptyWeek(), 'mon');
    expect(week.mon).toEqual([['09:00', '17:00']]);
    week = addWindow(week, 'mon');
    expect(week.mon).toEqual([
      ['09:00', '17:00'],
      ['17:00', '18:00'],
    ]);
    expect(week.tue).toEqual([]);
  });

  it('several windows a day round-trip to the documented weeklyWindows shape, sorted by start', () => {
    let week = weekFromWindows({ wed: [['13:00', '17:00']] });
    week = updateWindow(addWindow(week, 'wed'), 'wed', 1, 0, '08:00');
    week = updateWindow(week, 'wed', 1, 1, '12:00');
    expect(windowsFromWeek(week)).toEqual({
      mon: [],
      tue: [],
      wed: [
        ['08:00', '12:00'],
        ['13:00', '17:00'],
      ],
      thu: [],
      fri: [],
      sat: [],
      sun: [],
    });
  });

  it('a day ending at 24:00 takes no further window', () => {
    expect(nextWindow([['20:00', '24:00']])).toBeNull();
    const week = weekFromWindows({ sun: [['00:00', '24:00']] });
    expect(addWindow(week, 'sun')).toBe(week);
    expect(nextWindow([['22:30', '23:30']])).toEqual(['23:30', '24:00']);
  });

  it('flags overlapping windows, an end before the start and malformed times — per day', () => {
    const week = weekFromWindows({
      mon: [
        ['09:00', '12:00'],
        ['11:00', '14:00'],
      ],
      tue: [['17:00', '09:00']],
      wed: [['9am', '10:00']],
      thu: [
        ['09:00', '12:00'],
        ['12:00', '17:00'],
      ],
    });
    const errors = validateWeek(week);
    expect(errors.mon).toEqual({ kind: 'overlap', at: '11:00' });
    expect(errors.tue).toEqual({ kind: 'order', from: '17:00', to: '09:00' });
    expect(errors.wed).toEqual({ kind: 'format' });
    expect(errors.thu).toBeNull(); // touching windows are fine
    expect(weekIsValid(week)).toBe(false);
    expect(weekIsValid(weekFromWindows({ thu: week.thu }))).toBe(true);
  });

  it('copies a day onto other days, replacing theirs, without sharing arrays', () => {
    const week = weekFromWindows({ mon: [['09:00', '12:00']], fri: [['10:00', '11:00']] });
    const copied = copyDay(week, 'mon', ['mon', 'tue', 'wed', 'thu', 'fri']);
    expect(copied.fri).toEqual([['09:00', '12:00']]);
    expect(copied.sat).toEqual([]);
    copied.tue[0]![0] = '07:00';
    expect(copied.mon[0]![0]).toBe('09:00');
  });

  it('removes one window by index', () => {
    const week = weekFromWindows({
      mon: [
        ['09:00', '10:00'],
        ['11:00', '12:00'],
      ],
    });
    expect(removeWindow(week, 'mon', 0).mon).toEqual([['11:00', '12:00']]);
  });

  it('places windows on the day bar in percent of 24 h and sums the week', () => {
    expect(windowBar(['06:00', '18:00'])).toEqual({ left: 25, width: 50 });
    expect(windowBar(['18:00', '06:00'])).toBeNull();
    expect(clockToMinutes('24:00')).toBe(1440);
    expect(weeklyHours(weekFromWindows({ mon: [['09:00', '17:30']], tue: [['00:00', '24:00']] }))).toBe(32.5);
  });
});
