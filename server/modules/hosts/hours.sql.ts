import { integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { users } from '../../auth/auth.sql';
import { nowUtc, utcTimestamp } from '../../db/columns';
import type { HostHoursInput } from '../../../shared/host-hours';

/**
 * A host's own working hours (docs/api.md#host-hours, docs/decisions/040-host-hours.md): one row
 * per host that set them; a host without a row works around the clock. Weekly windows and the
 * date overrides sit in the row as JSON, so the slot service reads every host of a type in one
 * query.
 */
export const hostHours = pgTable('svc_host_hours', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** IANA zone the windows and override dates are in. */
  timezone: text('timezone').notNull(),
  weekly: jsonb('weekly').$type<HostHoursInput['weekly']>().notNull(),
  /** `{from, to, windows}` per date range, ascending; `windows: []` = unavailable. */
  overrides: jsonb('overrides').$type<HostHoursInput['overrides']>().notNull().default([]),
  updatedUtc: utcTimestamp('updated_utc').notNull().default(nowUtc),
});
