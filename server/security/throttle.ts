import { lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryRows } from '../db/client';
import { toUtcString } from '../../shared/time';
import { AppError } from '../../shared/errors';
import type { JobRunner } from '../jobs/queue';
import { rateLimits } from './security.sql';

export interface ThrottleResult {
  allowed: boolean;
  /** Seconds until the window resets (for Retry-After). */
  retryAfterSeconds: number;
}

/**
 * Counts one hit in a fixed window kept in the database, so every instance shares
 * the count. One atomic upsert: concurrent hits never lose an increment.
 */
export async function hitRateLimit(db: Db, bucket: string, limit: number, windowSeconds: number, nowMs = Date.now()): Promise<ThrottleResult> {
  const windowMs = windowSeconds * 1000;
  const windowStart = Math.floor(nowMs / windowMs) * windowMs;
  const [row] = await queryRows<{ hits: number }>(
    db,
    sql`insert into ${rateLimits} (bucket, window_start_utc, hits) values (${bucket}, ${toUtcString(windowStart)}, 1)
        on conflict (bucket, window_start_utc) do update set hits = ${rateLimits}.hits + 1
        returning hits`,
  );
  const hits = Number(row?.hits ?? 1);
  return { allowed: hits <= limit, retryAfterSeconds: Math.max(1, Math.ceil((windowStart + windowMs - nowMs) / 1000)) };
}

/** Drops windows older than a day (run from a periodic job). */
export async function pruneRateLimits(db: Db, nowMs = Date.now()): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.windowStartUtc, toUtcString(nowMs - 24 * 3600 * 1000)));
}

export interface RateLimit {
  limit: number;
  windowSeconds: number;
}

/** Counts one hit and throws svc_rate_limited (429, Retry-After) when the limit is passed. */
export async function enforceRateLimit(db: Db, bucket: string, rule: RateLimit, nowMs = Date.now()): Promise<void> {
  const result = await hitRateLimit(db, bucket, rule.limit, rule.windowSeconds, nowMs);
  if (!result.allowed) throw new AppError('svc_rate_limited', undefined, { retryAfter: result.retryAfterSeconds });
}

/** The hits counted so far in the current window of each bucket (0 for a bucket never hit). */
export async function countRateLimits(db: Db, buckets: Array<{ bucket: string; rule: RateLimit }>, nowMs = Date.now()): Promise<number[]> {
  const starts = buckets.map(({ rule }) => toUtcString(Math.floor(nowMs / (rule.windowSeconds * 1000)) * rule.windowSeconds * 1000));
  const rows = await queryRows<{ bucket: string; start: string; hits: number }>(
    db,
    sql`select bucket, to_char(window_start_utc, 'YYYY-MM-DD HH24:MI:SS') as start, hits from ${rateLimits}
        where (bucket, window_start_utc) in (select b, s::timestamp from jsonb_to_recordset(${JSON.stringify(buckets.map((b, i) => ({ b: b.bucket, s: starts[i] })))}::jsonb) as x(b text, s text))`,
  );
  return buckets.map((b, i) => Number(rows.find((r) => r.bucket === b.bucket && r.start === starts[i])?.hits ?? 0));
}

/** Seconds until the current window of `rule` ends (for Retry-After). */
export function secondsLeftInWindow(rule: RateLimit, nowMs = Date.now()): number {
  const windowMs = rule.windowSeconds * 1000;
  return Math.max(1, Math.ceil((Math.floor(nowMs / windowMs) * windowMs + windowMs - nowMs) / 1000));
}

export const PRUNE_RATE_LIMITS_JOB = 'security.prune_rate_limits';

/** Hourly: old throttle windows are dropped so the table stays small. */
export function registerThrottleJobs(runner: JobRunner, db: Db): void {
  runner.every(PRUNE_RATE_LIMITS_JOB, 3_600_000, () => pruneRateLimits(db));
}
