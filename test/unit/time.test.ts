import { describe, expect, it } from 'vitest';
import { isUtcString, parseUtcDate, parseUtcString, toUtcString, utcMs } from '../../shared/time';

describe('UTC Y-m-d H:i:s parsing (the contract time format)', () => {
  it('accepts real times and round-trips them', () => {
    for (const t of ['2026-11-21 06:25:20', '2024-02-29 23:59:59', '2026-12-31 00:00:00']) {
      expect(toUtcString(parseUtcString(t)!)).toBe(t);
      expect(isUtcString(t), t).toBe(true);
      expect(utcMs(t)).toBe(parseUtcString(t)!.getTime());
    }
    expect(utcMs('2030-06-01 18:00:00')).toBe(Date.UTC(2030, 5, 1, 18));
  });

  it('refuses times that do not exist or are not in the exact format', () => {
    for (const t of [
      '2026-02-29 00:00:00',
      '2026-04-31 10:00:00',
      '2026-13-01 00:00:00',
      '2026-00-10 00:00:00',
      '2026-04-30 24:00:00',
      '2026-01-01 00:60:00',
      '2026-01-01 00:00:60',
      '2026-1-01 00:00:00',
      '2026-01-01T00:00:00',
      '2026-01-01 00:00:00Z',
      '0999-01-01 00:00:00',
      '',
    ]) {
      expect(parseUtcString(t), t).toBeNull();
      expect(isUtcString(t), t).toBe(false);
      expect(utcMs(t), t).toBeNaN();
    }
  });

  it('parses days the same way', () => {
    expect(parseUtcDate('2024-02-29')?.toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(parseUtcDate('2026-02-29')).toBeNull();
  });
});
