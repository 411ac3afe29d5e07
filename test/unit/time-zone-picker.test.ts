/** The time-zone picker's labels and filter (client/ui/time-zones.ts): what a visitor reads and finds by typing. */
import { describe, expect, it } from 'vitest';
import { filterTimeZones, formatOffset, parseOffsetQuery, supportedTimeZones, timeZoneOption, timeZoneOptions } from '../../client/ui/time-zones';

// a winter instant: New York at UTC−5, Berlin at UTC+1
const WINTER = Date.UTC(2026, 0, 15, 12);
const SUMMER = Date.UTC(2026, 6, 15, 12);

describe('time-zone picker labels', () => {
  it('names a zone by its city and its generic name in the reader’s language, with its offset now', () => {
    const en = timeZoneOption('America/New_York', 'en-US', WINTER);
    expect(en.label).toBe('New York (Eastern Time)');
    expect(en.offset).toBe('UTC−05:00');
    const de = timeZoneOption('America/New_York', 'de', WINTER);
    expect(de.label).toBe('New York (Nordamerikanische Ostküstenzeit)');
    expect(timeZoneOption('America/New_York', 'de', SUMMER).offset).toBe('UTC−04:00');
    expect(timeZoneOption('Asia/Kolkata', 'en', WINTER).offset).toBe('UTC+05:30');
    expect(timeZoneOption('America/Argentina/Buenos_Aires', 'en', WINTER).city).toBe('Buenos Aires');
  });

  it('a zone without a city is shown by its id, and UTC reads ±00:00', () => {
    const utc = timeZoneOption('UTC', 'en', WINTER);
    expect(utc.city).toBe('UTC');
    expect(utc.offset).toBe('UTC±00:00');
    expect(formatOffset(-570)).toBe('UTC−09:30');
  });

  it('lists every zone the platform knows plus the one asked for, sorted by offset, then city', () => {
    const ids = supportedTimeZones(['Asia/Calcutta']);
    expect(ids).toContain('Asia/Calcutta');
    expect(ids).toContain('UTC');
    expect(ids.length).toBeGreaterThan(300);
    const options = timeZoneOptions(ids, 'en', WINTER);
    for (let i = 1; i < options.length; i += 1) expect(options[i]!.offsetMinutes).toBeGreaterThanOrEqual(options[i - 1]!.offsetMinutes);
  });
});

describe('time-zone picker filter', () => {
  const options = timeZoneOptions(supportedTimeZones(), 'en', WINTER);
  const german = timeZoneOptions(supportedTimeZones(), 'de', WINTER);
  const ids = (list: { id: string }[]) => list.map((o) => o.id);

  it('finds a zone by its city, ignoring case, accents and underscores', () => {
    expect(ids(filterTimeZones(options, 'new york'))).toEqual(['America/New_York']);
    expect(ids(filterTimeZones(options, 'sao paulo'))).toContain('America/Sao_Paulo');
    expect(ids(filterTimeZones(options, 'TOKYO'))).toEqual(['Asia/Tokyo']);
  });

  it('finds zones by their generic name in the reader’s language, and a city that starts with the query comes first', () => {
    expect(ids(filterTimeZones(options, 'eastern time'))).toContain('America/New_York');
    expect(ids(filterTimeZones(german, 'ostküstenzeit'))).toContain('America/New_York');
    expect(ids(filterTimeZones(options, 'lon'))[0]).toBe('Europe/London');
  });

  it('finds a zone by its IANA id', () => {
    expect(ids(filterTimeZones(options, 'Europe/Berlin'))).toEqual(['Europe/Berlin']);
    expect(ids(filterTimeZones(options, 'Asia/Tok'))[0]).toBe('Asia/Tokyo');
    // an engine listing the old id (Asia/Calcutta) still finds it by today's city
    expect(filterTimeZones(options, 'Kolkata').map((o) => o.city)).toEqual(['Kolkata']);
  });

  it('finds every zone at an offset typed as +5:30, UTC-5 or GMT+1', () => {
    expect(parseOffsetQuery('UTC-5')).toBe(-300);
    expect(parseOffsetQuery('berlin')).toBeNull();
    expect(filterTimeZones(options, '+5:30').map((o) => o.city)).toContain('Kolkata');
    expect(filterTimeZones(options, '+5:30').every((o) => o.offsetMinutes === 330)).toBe(true);
    expect(ids(filterTimeZones(options, 'UTC-5'))).toContain('America/New_York');
    expect(ids(filterTimeZones(options, 'gmt+1'))).toContain('Europe/Berlin');
  });

  it('an empty query lists everything; a query nothing matches lists nothing', () => {
    expect(filterTimeZones(options, '  ')).toHaveLength(options.length);
    expect(filterTimeZones(options, 'atlantis')).toEqual([]);
  });
});
