/**
 * The dashboard's "scans per 5 minutes" chart as numbers: the server's non-empty buckets
 * spread over a fixed row of bars ending at the latest bucket (or now), and the SVG
 * rectangles for them.
 */
import { parseUtcString } from '../../shared/time';

export interface ArrivalBucket {
  startUtc: string;
  scans: number;
}

export interface Bar {
  startMs: number;
  scans: number;
}

/**
 * `count` consecutive bars of `bucketMinutes`, the last one holding `endMs` (the latest
 * scan's bucket when the event is over, the current time while it runs).
 */
export function arrivalBars(buckets: readonly ArrivalBucket[], opts: { bucketMinutes: number; count: number; endMs: number }): Bar[] {
  const width = opts.bucketMinutes * 60_000;
  const lastStart = Math.floor(opts.endMs / width) * width;
  const firstStart = lastStart - (opts.count - 1) * width;
  const scansAt = new Map<number, number>();
  for (const b of buckets) {
    const ms = parseUtcString(b.startUtc)?.getTime();
    if (ms !== undefined) scansAt.set(ms, (scansAt.get(ms) ?? 0) + b.scans);
  }
  const bars: Bar[] = [];
  for (let i = 0; i < opts.count; i++) {
    const startMs = firstStart + i * width;
    bars.push({ startMs, scans: scansAt.get(startMs) ?? 0 });
  }
  return bars;
}

/** Where the chart ends: now, unless the latest scan is older than the window (a past event). */
export function chartEndMs(buckets: readonly ArrivalBucket[], nowMs: number, windowMs: number): number {
  const last = buckets.at(-1);
  const lastMs = last ? parseUtcString(last.startUtc)?.getTime() : undefined;
  if (lastMs === undefined || lastMs >= nowMs - windowMs) return nowMs;
  return lastMs;
}

export interface BarRect {
  x: number;
  y: number;
  width: number;
  height: number;
  scans: number;
  startMs: number;
}

/** Rectangles in a `width`×`height` viewBox; the tallest bar fills the height, an empty bar is 0 high. */
export function barRects(bars: readonly Bar[], width: number, height: number, gap = 1): BarRect[] {
  const max = Math.max(1, ...bars.map((b) => b.scans));
  const slot = bars.length > 0 ? width / bars.length : 0;
  return bars.map((b, i) => {
    const h = (b.scans / max) * height;
    return { x: i * slot + gap / 2, y: height - h, width: Math.max(0, slot - gap), height: h, scans: b.scans, startMs: b.startMs };
  });
}

/**
 * No chart before the event starts: an empty row of bars reads like "nobody came". Scans made
 * before the start (doors open early) still get their chart.
 */
export function arrivalsBeforeStart(buckets: readonly ArrivalBucket[], startsMs: number | null, nowMs: number): boolean {
  return startsMs !== null && nowMs < startsMs && buckets.length === 0;
}
