import { index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { nowUtc, utcTimestamp } from '../db/columns';

export type JobState = 'queued' | 'running' | 'done' | 'failed';

/** Durable background work, claimed with FOR UPDATE SKIP LOCKED. */
export const jobs = pgTable(
  'svc_jobs',
  {
    id: serial('id').primaryKey(),
    type: text('type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    state: text('state').$type<JobState>().notNull().default('queued'),
    runAtUtc: utcTimestamp('run_at_utc').notNull().default(nowUtc),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(8),
    /** A claimed job whose lease ran out (crashed worker) is claimable again. */
    lockedUntilUtc: utcTimestamp('locked_until_utc'),
    lastError: text('last_error'),
    /** Optional key so the same logical job is queued once (e.g. a reminder per booking). */
    dedupeKey: text('dedupe_key'),
    createdUtc: utcTimestamp('created_utc').notNull().default(nowUtc),
    finishedUtc: utcTimestamp('finished_utc'),
  },
  (t) => [
    index('svc_jobs_claim').on(t.state, t.runAtUtc),
    uniqueIndex('svc_jobs_dedupe')
      .on(t.dedupeKey)
      .where(sql`${t.dedupeKey} is not null and ${t.state} in ('queued','running')`),
  ],
);
