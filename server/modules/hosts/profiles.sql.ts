import { customType, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { users } from '../../auth/auth.sql';
import { nowUtc, utcTimestamp } from '../../db/columns';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * A host's profile beside their user row (docs/decisions/043-host-space.md): the name stays the
 * user's display name; the photo is kept here, already re-encoded small (no EXIF), so it goes
 * with the database's backups and needs no file store.
 */
export const hostProfiles = pgTable('svc_host_profiles', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  bio: text('bio').notNull().default(''),
  /** The host's own meeting room (https), used for a virtual type without a pattern; '' = none. */
  meetingUrl: text('meeting_url').notNull().default(''),
  photo: bytea('photo'),
  photoType: text('photo_type'),
  /** A hash of the stored bytes: the photo's ETag and the `v` of its address. */
  photoEtag: text('photo_etag'),
  updatedUtc: utcTimestamp('updated_utc').notNull().default(nowUtc),
});
