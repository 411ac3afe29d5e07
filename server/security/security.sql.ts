import { integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { utcTimestamp } from '../db/columns';

/** Fixed-window throttle counters, shared by every server instance. */
export const rateLimits = pgTable(
  'svc_rate_limits',
  {
    bucket: text('bucket').notNull(),
    windowStartUtc: utcTimestamp('window_start_utc').notNull(),
    hits: integer('hits').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.windowStartUtc] })],
);

/** Site settings and server secrets (nonce HMAC key) as JSON values. */
export const settings = pgTable('svc_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
});
