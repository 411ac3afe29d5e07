import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { nowUtc, utcTimestamp } from '../../db/columns';
import { users } from '../../auth/auth.sql';

/**
 * Door devices (docs/api.md#auth): paired once with a short one-time code, then a Bearer token.
 * Only SHA-256 hashes of the pairing code and the token are stored.
 */
export const devices = pgTable(
  'svc_devices',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** Events the device may scan and sync. */
    eventIds: jsonb('event_ids').$type<number[]>().notNull(),
    /** Set while a pairing code is outstanding; cleared when it is used (single use). */
    pairingCodeHash: text('pairing_code_hash'),
    pairingExpiresUtc: utcTimestamp('pairing_expires_utc'),
    tokenHash: text('token_hash'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdUtc: utcTimestamp('created_utc').notNull().default(nowUtc),
    pairedUtc: utcTimestamp('paired_utc'),
    lastSeenUtc: utcTimestamp('last_seen_utc'),
    /** What the device last reported as still queued (it alone knows). */
    pendingCount: integer('pending_count'),
    pendingReportedUtc: utcTimestamp('pending_reported_utc'),
    revokedUtc: utcTimestamp('revoked_utc'),
    /** The admin lets this device register walk-ins at the door (docs/api.md#sync). */
    walkIns: boolean('walk_ins').notNull().default(false),
    /** A check-in list: the ticket categories this device admits; null = every ticket of its events. */
    categoryIds: jsonb('category_ids').$type<number[]>(),
  },
  (t) => [
    uniqueIndex('svc_devices_token_hash')
      .on(t.tokenHash)
      .where(sql`${t.tokenHash} is not null`),
    uniqueIndex('svc_devices_pairing_code_hash')
      .on(t.pairingCodeHash)
      .where(sql`${t.pairingCodeHash} is not null`),
  ],
);
