import { describe, expect, it } from 'vitest';
import { arrivalBars, arrivalsBeforeStart, barRects, chartEndMs } from '../../client/admin/arrivals';

const at = (utc: string) => Date.parse(`${utc.replace(' ', 'T')}Z`);

describe('arrivals chart', () => {
  it('spreads the non-empty buckets over a fixed row of 5-minute bars ending at the given time', () => {
    const bars = arrivalBars(
      [
        { startUtc: '2030-06-01 17:45:00', scans: 9 }, // before the window: left out
        { startUtc: '2030-06-01 18:00:00', scans: 2 },
        { startUtc: '2030-06-01 18:10:00', scans: 5 },
      ],
      { bucketMinutes: 5, count: 4, endMs: at('2030-06-01 18:12:30') },
    );
    expect(bars).toEqual([
      { startMs: at('2030-06-01 17:55:00'), scans: 0 },
      { startMs: at('2030-06-01 18:00:00'), scans: 2 },
      { startMs: at('2030-06-01 18:05:00'), scans: 0 },
      { startMs: at('2030-06-01 18:10:00'), scans: 5 },
    ]);
  });

  it('ends at now while scans are recent, at the last scan for a past event, at now with no scans', () => {
    const now = at('2030-06-01 20:00:00');
    const window = 3 * 3600_000;
    expect(chartEndMs([{ startUtc: '2030-06-01 19:00:00', scans: 1 }], now, window)).toBe(now);
    expect(chartEndMs([{ startUtc: '2030-05-01 19:00:00', scans: 1 }], now, window)).toBe(at('2030-05-01 19:00:00'));
    expect(chartEndMs([], now, window)).toBe(now);
  });

  it('the tallest bar fills the chart height; empty bars have no height', () => {
    const rects = barRects(
      [
        { startMs: 0, scans: 0 },
        { startMs: 1, scans: 5 },
        { startMs: 2, scans: 10 },
      ],
      300,
      80,
      0,
    );
    expect(rects.map((r) => [r.x, r.height, r.y, r.width])).toEqual([
      [0, 0, 80, 100],
      [100, 40, 40, 100],
      [200, 80, 0, 100],
    ]);
    expect(barRects([{ startMs: 0, scans: 0 }], 100, 80)[0]!.height).toBe(0);
  });

  it('shows no chart before the event starts unless someone was already let in', () => {
    const start = at('2030-06-01 18:00:00');
    expect(arrivalsBeforeStart([], start, at('2030-06-01 17:00:00'))).toBe(true);
    expect(arrivalsBeforeStart([{ startUtc: '2030-06-01 17:30:00', scans: 1 }], start, at('2030-06-01 17:40:00'))).toBe(false);
    expect(arrivalsBeforeStart([], start, at('2030-06-01 18:00:00'))).toBe(false);
    // the event not loaded yet: the chart's own empty state
    expect(arrivalsBeforeStart([], null, at('2030-06-01 17:00:00'))).toBe(false);
  });
});
