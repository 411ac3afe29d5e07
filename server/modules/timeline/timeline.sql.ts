import { index, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { nowUtc, utcTimestamp } from '../../db/columns';
import type { TimelineKind } from '../../../shared/timeline';

/** An attendee's history (docs/api.md#timeline); wiped when the attendee is deleted. No foreign key: the wipe is the listener's. */
export const timelineEntries = pgTable(
  'svc_timeline',
  {
    id: serial('id').primaryKey(),
    attendeeId: integer('attendee_id').notNull(),
    atUtc: utcTimestamp('at_utc').notNull().default(nowUtc),
    kind: text('kind').$type<TimelineKind>().notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [index('svc_timeline_attendee').on(t.attendeeId, t.id)],
);
