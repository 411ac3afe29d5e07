/**
 * Time-zone arithmetic for the slot generator, without a dependency and without Node APIs
 * (it also runs offline in the PWA).
 *
 * Intl is the only source of zone data and it is slow (about 1 µs a call), so a zone is read
 * once per range: its UTC offset is probed once a day and every change found is bisected to
 * the minute. After that, offsets and wall-clock → UTC conversions are plain arithmetic.
 */

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

/** Probe step. A zone that changes offset twice within one step would be missed; no zone does. */
const PROBE_STEP_MS = DAY_MS;

const probeFormatters = new Map<string, Intl.DateTimeFormat>();

function probeFormatter(tz: string): Intl.DateTimeFormat {
  let fmt = probeFormatters.get(tz);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    probeFormatters.set(tz, fmt);
  }
  return fmt;
}

// en-US with hourCycle h23 prints "3/29/2026, 01:00:00"; format() is about 4× faster than formatToParts().
const PROBE_RE = /^(\d{1,2})\/(\d{1,2})\/(\d{1,6}),? (\d{1,2}):(\d{2}):(\d{2})$/;

/** UTC offset of `tz` (local − UTC, in ms) at instant `ms`. Calls Intl: use sparingly. */
export function zoneOffsetAt(tz: string, ms: number): number {
  const whole = Math.floor(ms / 1000) * 1000;
  const text = probeFormatter(tz).format(whole);
  const m = PROBE_RE.exec(text);
  if (!m) throw new Error(`Unexpected Intl output for ${tz}: ${text}`);
  const wall = Date.UTC(Number(m[3]), Number(m[1]) - 1, Number(m[2]), Number(m[4]), Number(m[5]), Number(m[6]));
  return wall - whole;
}

/** A stretch of real time with one UTC offset: [startMs, endMs). */
interface OffsetSegment {
  startMs: number;
  endMs: number;
  offsetMs: number;
}

/**
 * A zone's offsets over a range of instants. Outside the probed range the first and last
 * offsets are extended, so probe a range with margin around the instants you convert.
 */
export class ZoneTimeline {
  private readonly segments: OffsetSegment[];

  constructor(
    readonly tz: string,
    fromMs: number,
    toMs: number,
  ) {
    this.segments = probeSegments(tz, fromMs, toMs);
  }

  /** True when the offset never changes over the probed range (no DST transition in it). */
  get isFixed(): boolean {
    return this.segments.length === 1;
  }

  offsetAt(ms: number): number {
    const segs = this.segments;
    for (let i = 0; i < segs.length; i++) {
      if (ms < segs[i]!.endMs) return segs[i]!.offsetMs;
    }
    return segs[segs.length - 1]!.offsetMs;
  }

  /**
   * UTC instant of a wall-clock time (given as ms since the epoch as if the wall clock were UTC).
   * Disambiguation follows Temporal's `compatible`: a wall time that occurs twice (fall-back)
   * maps to its earlier occurrence; one inside a skipped hour (spring-forward) is moved forward
   * by the gap (02:30 on a 02:00→03:00 day → 03:30), i.e. converted with the offset before it.
   */
  wallToUtc(wallMs: number): number {
    const segs = this.segments;
    for (let i = 0; i < segs.length; i++) {
      const seg = segs[i]!;
      const utc = wallMs - seg.offsetMs;
      if (utc < seg.startMs) continue;
      if (utc < seg.endMs) return utc;
      const next = segs[i + 1];
      // Past this segment with its offset, but before the next one with the next offset: a gap.
      if (next && wallMs - next.offsetMs < next.startMs) return utc;
    }
    return wallMs - segs[segs.length - 1]!.offsetMs;
  }
}

const TIMELINE_CACHE_SIZE = 64;
/** Margin probed beyond what was asked, so the next request for nearby days reuses the timeline. */
const TIMELINE_MARGIN_MS = 7 * DAY_MS;
const timelines = new Map<string, { fromMs: number; toMs: number; timeline: ZoneTimeline }>();

/**
 * A timeline of `tz` valid over [fromMs, toMs], reused across calls (zone rules do not change
 * while the process runs). The least recently used of {@link TIMELINE_CACHE_SIZE} is dropped.
 */
export function zoneTimeline(tz: string, fromMs: number, toMs: number): ZoneTimeline {
  const cached = timelines.get(tz);
  if (cached && cached.fromMs <= fromMs && toMs <= cached.toMs) {
    timelines.delete(tz);
    timelines.set(tz, cached);
    return cached.timeline;
  }
  const probedFrom = fromMs - TIMELINE_MARGIN_MS;
  const probedTo = toMs + TIMELINE_MARGIN_MS;
  const entry = { fromMs: probedFrom, toMs: probedTo, timeline: new ZoneTimeline(tz, probedFrom, probedTo) };
  timelines.delete(tz);
  timelines.set(tz, entry);
  if (timelines.size > TIMELINE_CACHE_SIZE) timelines.delete(timelines.keys().next().value!);
  return entry.timeline;
}

/** Forgets every cached timeline (benchmarks measure the cold path with it). */
export function clearZoneTimelineCache(): void {
  timelines.clear();
}

function probeSegments(tz: string, rangeFromMs: number, rangeToMs: number): OffsetSegment[] {
  if (!Number.isFinite(rangeFromMs) || !Number.isFinite(rangeToMs)) throw new RangeError('Zone range must be finite instants');
  // Whole-minute probes make the bisection land exactly on a transition (all are on whole minutes).
  const fromMs = Math.floor(rangeFromMs / MINUTE_MS) * MINUTE_MS;
  const toMs = Math.max(fromMs, Math.ceil(rangeToMs / MINUTE_MS) * MINUTE_MS);
  const segments: OffsetSegment[] = [];
  let prevMs = fromMs;
  let prevOffset = zoneOffsetAt(tz, fromMs);
  let segStart = -Infinity;
  for (let t = fromMs + PROBE_STEP_MS; ; t += PROBE_STEP_MS) {
    const at = Math.min(t, toMs);
    const offset = zoneOffsetAt(tz, at);
    if (offset !== prevOffset) {
      // Bisect (prevMs, at] to the minute: the first minute that has the new offset.
      let lo = prevMs;
      let hi = at;
      while (hi - lo > MINUTE_MS) {
        const mid = lo + Math.floor((hi - lo) / 2 / MINUTE_MS) * MINUTE_MS;
        if (zoneOffsetAt(tz, mid) === prevOffset) lo = mid;
        else hi = mid;
      }
      segments.push({ startMs: segStart, endMs: hi, offsetMs: prevOffset });
      segStart = hi;
      prevOffset = offset;
    }
    prevMs = at;
    if (at >= toMs) break;
  }
  segments.push({ startMs: segStart, endMs: Infinity, offsetMs: prevOffset });
  return segments;
}

const pad2 = (n: number) => (n < 10 ? '0' : '') + n;

/** `+05:45`, `-04:00`, `+00:00` for an offset in ms. */
export function formatOffset(offsetMs: number): string {
  const sign = offsetMs < 0 ? '-' : '+';
  const minutes = Math.round(Math.abs(offsetMs) / MINUTE_MS);
  return `${sign}${pad2(Math.floor(minutes / 60))}:${pad2(minutes % 60)}`;
}

/** `HH:MM:SS` of a time of day in ms. */
export function formatClock(msOfDay: number): string {
  const s = Math.floor(msOfDay / 1000);
  return `${pad2(Math.floor(s / 3600))}:${pad2(Math.floor(s / 60) % 60)}:${pad2(s % 60)}`;
}
