import { sql } from 'drizzle-orm';
import { timestamp } from 'drizzle-orm/pg-core';

/** A UTC `Y-m-d H:i:s` column: timestamp without zone, whole seconds, read back as a string. */
export const utcTimestamp = (name: string) => timestamp(name, { mode: 'string', precision: 0 });

/** `now()` in UTC, whatever the session's TimeZone is. */
// Truncated, not rounded: a rounded-up default would lie in the future for up to half a second.
export const nowUtc = sql`date_trunc('second', now() at time zone 'utc')`;
