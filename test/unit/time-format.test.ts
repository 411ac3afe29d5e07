/** The one time format of pages and emails: the place's zone first, the reader's clock second. */
import { describe, expect, it } from 'vitest';
import { formatClock, formatSlotClock, formatWhen, isHandMadeEnglish, zoneAbbreviation, zoneCity } from '../../shared/time-format';

const NOW_2026 = Date.UTC(2026, 5, 1);

describe('formatWhen', () => {
  it('prints the place first with abbreviation and city, then the reader’s clock with its end', () => {
    const when = formatWhen({
      startUtc: '2026-12-03 18:30:00',
      endUtc: '2026-12-03 21:00:00',
      zone: 'Europe/London',
      viewerZone: 'America/New_York',
      nowMs: NOW_2026,
    });
    expect(when.place).toBe('Thu 3 Dec, 18:30–21:00 GMT (London)');
    expect(when.yours).toBe('13:30–16:00 EST your time');
    expect(when.text).toBe('Thu 3 Dec, 18:30–21:00 GMT (London) · 13:30–16:00 EST your time');
  });

  it('the same zone, or another zone on the same clock, adds no "your time" part', () => {
    const input = { startUtc: '2026-12-03 18:30:00', endUtc: '2026-12-03 21:00:00', zone: 'Europe/London', nowMs: NOW_2026 };
    expect(formatWhen({ ...input, viewerZone: 'Europe/London' })).toEqual({
      place: 'Thu 3 Dec, 18:30–21:00 GMT (London)',
      yours: null,
      text: 'Thu 3 Dec, 18:30–21:00 GMT (London)',
    });
    expect(formatWhen({ ...input, viewerZone: 'Europe/Lisbon' }).yours).toBeNull();
    expect(formatWhen({ ...input, viewerZone: null }).yours).toBeNull();
  });

  it('follows daylight saving time: BST in summer, and the weeks when New York has changed and London has not', () => {
    const summer = formatWhen({
      startUtc: '2026-07-02 17:30:00',
      endUtc: '2026-07-02 20:00:00',
      zone: 'Europe/London',
      viewerZone: 'America/New_York',
      nowMs: NOW_2026,
    });
    expect(summer.text).toBe('Thu 2 Jul, 18:30–21:00 BST (London) · 13:30–16:00 EDT your time');
    // 2026: New York moves on 8 March, London on 29 March — four hours apart in between
    const gap = formatWhen({ startUtc: '2026-03-12 18:30:00', zone: 'Europe/London', viewerZone: 'America/New_York', nowMs: NOW_2026 });
    expect(gap.text).toBe('Thu 12 Mar, 18:30 GMT (London) · 14:30 EDT your time');
  });

  it('an event across the clock change keeps each end’s abbreviation', () => {
    // London springs forward at 01:00 UTC on Sunday 29 March 2026
    const when = formatWhen({ startUtc: '2026-03-28 23:00:00', endUtc: '2026-03-29 02:00:00', zone: 'Europe/London', nowMs: NOW_2026 });
    expect(when.place).toBe('Sat 28 Mar, 23:00 GMT – Sun 29 Mar, 03:00 BST (London)');
  });

  it('a half-hour zone prints its offset and the reader’s day when it is another day', () => {
    const when = formatWhen({
      startUtc: '2026-12-03 19:00:00',
      endUtc: '2026-12-03 20:00:00',
      zone: 'Europe/London',
      viewerZone: 'Asia/Kolkata',
      nowMs: NOW_2026,
    });
    expect(when.yours).toBe('Fri 4 Dec, 00:30–01:30 GMT+5:30 your time');
    expect(zoneAbbreviation(Date.UTC(2026, 0, 1), 'Asia/Kolkata')).toBe('GMT+5:30');
  });

  it('an event crossing midnight names the day it ends', () => {
    const when = formatWhen({ startUtc: '2026-12-03 22:00:00', endUtc: '2026-12-04 01:30:00', zone: 'Europe/Berlin', viewerZone: 'UTC', nowMs: NOW_2026 });
    expect(when.place).toBe('Thu 3 Dec, 23:00 – Fri 4 Dec, 02:30 CET (Berlin)');
    expect(when.yours).toBe('22:00 – Fri 4 Dec, 01:30 UTC your time');
  });

  it('names the year only when it is not this year; UTC has no city', () => {
    expect(formatWhen({ startUtc: '2027-01-05 09:00:00', zone: 'UTC', nowMs: NOW_2026 }).text).toBe('Tue 5 Jan 2027, 09:00 UTC');
  });

  it('a bad zone prints in UTC and a malformed time is printed as it came, never a throw', () => {
    expect(formatWhen({ startUtc: '2026-12-03 18:30:00', zone: 'Mars/Olympus', nowMs: NOW_2026 }).text).toBe('Thu 3 Dec, 18:30 UTC');
    expect(formatWhen({ startUtc: 'soon', zone: 'UTC' }).text).toBe('soon');
  });
});

describe('clock and zone parts', () => {
  it('one clock format: two-digit 24-hour hours whatever the zone', () => {
    const ms = Date.UTC(2026, 11, 3, 5, 0);
    expect(formatClock(ms, 'UTC')).toBe('05:00');
    expect(formatClock(ms, 'America/Los_Angeles')).toBe('21:00');
    expect(formatSlotClock('2026-12-03 17:05:00', 'UTC')).toBe('17:05');
  });

  it('American zones get their common abbreviation, European ones theirs', () => {
    expect(zoneAbbreviation(Date.UTC(2026, 0, 1), 'America/Los_Angeles')).toBe('PST');
    expect(zoneAbbreviation(Date.UTC(2026, 6, 1), 'Europe/Berlin')).toBe('CEST');
    expect(zoneCity('America/Argentina/Buenos_Aires')).toBe('Buenos Aires');
    expect(zoneCity('Etc/GMT+5')).toBe('');
  });
});

describe('formatWhen in the reader’s language', () => {
  const london = { startUtc: '2026-12-05 19:30:00', endUtc: '2026-12-05 22:30:00', zone: 'Europe/London', nowMs: NOW_2026 };
  /** Intl spaces ranges with thin and narrow no-break spaces; the words are what is checked. */
  const plain = (text: string) => text.replace(/\s/g, ' ');

  it('German: Intl’s day, clock and range, the place’s zone still first, and "your time" in the reader’s words', () => {
    const when = formatWhen({ ...london, viewerZone: 'America/New_York', locale: 'de', yourTime: (time) => `${time} bei Ihnen` });
    expect(plain(when.place)).toBe('Sa., 5. Dez., 19:30–22:30 Uhr GMT (London)');
    expect(plain(when.yours!)).toBe('14:30–17:30 Uhr EST bei Ihnen');
  });

  it('French across midnight names the day it ends; across the clock change each end keeps its abbreviation and the year shows', () => {
    expect(
      plain(formatWhen({ startUtc: '2026-12-05 22:00:00', endUtc: '2026-12-06 01:00:00', zone: 'Europe/London', nowMs: NOW_2026, locale: 'fr' }).text),
    ).toBe('sam. 5 déc., 22:00 – dim. 6 déc., 01:00 GMT (London)');
    expect(
      plain(formatWhen({ startUtc: '2027-03-27 23:00:00', endUtc: '2027-03-28 03:00:00', zone: 'Europe/London', nowMs: NOW_2026, locale: 'fr' }).text),
    ).toBe('sam. 27 mars 2027, 23:00 GMT – dim. 28 mars 2027, 4:00 BST (London)');
  });

  it('bare English, a 24-hour English and no locale print the form every page and mail printed before', () => {
    for (const locale of [undefined, null, 'en', 'en-GB', 'en-IE']) {
      expect(formatWhen({ ...london, viewerZone: 'America/New_York', locale }).text).toBe('Sat 5 Dec, 19:30–22:30 GMT (London) · 14:30–17:30 EST your time');
    }
  });

  it('a 12-hour English (en-US) reads its own clock, "7:30 – 10:30 PM", the place\'s zone still first', () => {
    const when = formatWhen({ ...london, viewerZone: 'America/New_York', locale: 'en-US' });
    expect(plain(when.place)).toBe('Sat, Dec 5, 7:30 – 10:30 PM GMT (London)');
    expect(plain(when.yours!)).toBe('2:30 – 5:30 PM EST your time');
    expect(isHandMadeEnglish('en-US')).toBe(false);
    expect(isHandMadeEnglish('en-GB')).toBe(true);
    expect(isHandMadeEnglish('en')).toBe(true);
  });

  it('a locale tag Intl does not know prints English rather than throwing', () => {
    expect(formatWhen({ ...london, locale: 'x-nonsense-' }).place).toBe('Sat 5 Dec, 19:30–22:30 GMT (London)');
  });
});
