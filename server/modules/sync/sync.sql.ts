import { sql } from 'drizzle-orm';
import { bigint, bigserial, customType, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { nowUtc, utcTimestamp } from '../../db/columns';

/** PostgreSQL's 64-bit transaction id (PG13+); always read as `txid::text` in SQL. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

/**
 * The commit-ordered change log behind `sync.pull`, written only by triggers on the synced
 * tables (so no code path can forget it). Readers take rows whose transaction is older than
 * their snapshot's xmin, ordered by (txid, id): see docs/decisions/009-checkin-sync.md.
 */
export const changes = pgTable(
  'svc_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    txid: xid8('txid')
      .notNull()
      .default(sql`pg_current_xact_id()`),
    /**
     * `event`, `attendee`, or `checkins`: the check-ins one statement inserted for one event, as
     * the id range `entity_id`..`last_id` (pull answers their attendees, whose counts changed).
     * Annulled or deleted check-ins are logged as a change of their attendee.
     */
    entity: text('entity').notNull(),
    entityId: integer('entity_id').notNull(),
    lastId: integer('last_id'),
    eventId: integer('event_id').notNull(),
    /** `upsert` or `delete` (a tombstone). */
    op: text('op').notNull(),
    createdUtc: utcTimestamp('created_utc').notNull().default(nowUtc),
  },
  (t) => [
    index('svc_changes_position').on(t.txid, t.id),
    index('svc_changes_event_position').on(t.eventId, t.txid, t.id),
    index('svc_changes_created').on(t.createdUtc),
    // push tells a deleted attendee from an unknown code by its tombstone
    index('svc_changes_tombstones')
      .on(t.entityId)
      .where(sql`${t.op} = 'delete'`),
  ],
);

/** Single-row state: how far the change log was pruned (cursors below it answer `reset`). */
export const syncState = pgTable('svc_sync_state', {
  id: integer('id').primaryKey(),
  prunedTxid: xid8('pruned_txid')
    .notNull()
    .default(sql`'0'::xid8`),
  prunedId: bigint('pruned_id', { mode: 'number' }).notNull().default(0),
});
