import { sql } from 'drizzle-orm';
import { integer, jsonb, pgTable, serial, text, uniqueIndex, index } from 'drizzle-orm/pg-core';
import { nowUtc, utcTimestamp } from '../db/columns';
import { ROLES, type Role } from '../../shared/users';

export { ROLES, type Role };

export const users = pgTable(
  'svc_users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    displayName: text('display_name').notNull().default(''),
    role: text('role').$type<Role>().notNull(),
    timezone: text('timezone').notNull().default('UTC'),
    /** The user's own language (a locale svc speaks, docs/decisions/027-languages.md); null = negotiated per page. */
    language: text('language'),
    passwordHash: text('password_hash'),
    /** Events a staff user is assigned to; null = every event. */
    eventIds: jsonb('event_ids').$type<number[] | null>(),
    createdUtc: utcTimestamp('created_utc').notNull().default(nowUtc),
    updatedUtc: utcTimestamp('updated_utc').notNull().default(nowUtc),
  },
  (t) => [uniqueIndex('svc_users_email_lower').on(sql`lower(${t.email})`)],
);

/** Browser sessions; only the SHA-256 of the cookie value is stored. */
export const sessions = pgTable(
  'svc_sessions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdUtc: utcTimestamp('created_utc').notNull().default(nowUtc),
    expiresUtc: utcTimestamp('expires_utc').notNull(),
    revokedUtc: utcTimestamp('revoked_utc'),
  },
  (t) => [uniqueIndex('svc_sessions_token_hash').on(t.tokenHash), index('svc_sessions_user').on(t.userId)],
);

/**
 * Bearer tokens for integrations and door devices; only the SHA-256 is stored.
 * A token acts with its own role; `eventIds` limits a staff token to those events.
 */
export const apiTokens = pgTable(
  'svc_api_tokens',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    role: text('role').$type<Role>().notNull(),
    eventIds: jsonb('event_ids').$type<number[] | null>(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdUtc: utcTimestamp('created_utc').notNull().default(nowUtc),
    lastUsedUtc: utcTimestamp('last_used_utc'),
    expiresUtc: utcTimestamp('expires_utc'),
    revokedUtc: utcTimestamp('revoked_utc'),
  },
  (t) => [uniqueIndex('svc_api_tokens_token_hash').on(t.tokenHash)],
);

/**
 * One-time links that let an invited user choose a password (also a password-reset link).
 * One live link per user: re-inviting replaces the row; accepting deletes it. Only the
 * SHA-256 of the token is stored.
 */
export const userInvites = pgTable(
  'svc_user_invites',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdUtc: utcTimestamp('created_utc').notNull().default(nowUtc),
    expiresUtc: utcTimestamp('expires_utc').notNull(),
  },
  (t) => [uniqueIndex('svc_user_invites_user').on(t.userId), uniqueIndex('svc_user_invites_token_hash').on(t.tokenHash)],
);
