/** Queries of hosts' profiles; the rules live in profiles.service.ts. */
import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { nowUtc } from '../../db/columns';
import { users } from '../../auth/auth.sql';
import { bookings, bookingTypes } from '../booking/booking.sql';
import { hostProfiles } from './profiles.sql';

/** A profile as read: the user's name and the profile's fields, without the photo's bytes. */
export interface HostProfileRow {
  userId: number;
  email: string;
  displayName: string;
  role: string;
  bio: string;
  meetingUrl: string;
  photoEtag: string | null;
}

const profileColumns = {
  userId: users.id,
  email: users.email,
  displayName: users.displayName,
  role: users.role,
  bio: sql<string>`coalesce(${hostProfiles.bio}, '')`,
  meetingUrl: sql<string>`coalesce(${hostProfiles.meetingUrl}, '')`,
  photoEtag: hostProfiles.photoEtag,
};

export const profilesRepository = {
  async find(db: Db, userId: number): Promise<HostProfileRow | null> {
    const [row] = await db.select(profileColumns).from(users).leftJoin(hostProfiles, eq(hostProfiles.userId, users.id)).where(eq(users.id, userId));
    return row ?? null;
  },

  /** Profiles of these users, in no particular order; unknown ids are left out. */
  async findMany(db: Db, userIds: number[]): Promise<HostProfileRow[]> {
    if (userIds.length === 0) return [];
    return db.select(profileColumns).from(users).leftJoin(hostProfiles, eq(hostProfiles.userId, users.id)).where(inArray(users.id, userIds));
  },

  async setDisplayName(db: Db, userId: number, displayName: string): Promise<void> {
    await db.update(users).set({ displayName }).where(eq(users.id, userId));
  },

  async upsert(db: Db, userId: number, values: { bio?: string; meetingUrl?: string }): Promise<void> {
    await db
      .insert(hostProfiles)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: hostProfiles.userId, set: { ...values, updatedUtc: nowUtc } });
  },

  async setPhoto(db: Db, userId: number, photo: { bytes: Buffer; type: string; etag: string } | null): Promise<void> {
    const values = { photo: photo?.bytes ?? null, photoType: photo?.type ?? null, photoEtag: photo?.etag ?? null };
    await db
      .insert(hostProfiles)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: hostProfiles.userId, set: { ...values, updatedUtc: nowUtc } });
  },

  async photo(db: Db, userId: number): Promise<{ bytes: Buffer; type: string; etag: string } | null> {
    const [row] = await db
      .select({ bytes: hostProfiles.photo, type: hostProfiles.photoType, etag: hostProfiles.photoEtag })
      .from(hostProfiles)
      .where(eq(hostProfiles.userId, userId));
    if (!row?.bytes || !row.type || !row.etag) return null;
    return { bytes: row.bytes, type: row.type, etag: row.etag };
  },

  /** Every booking type with its hosts: the Hosts list is the union of them. */
  async typeHosts(db: Db): Promise<Array<{ id: number; hosts: number[] }>> {
    return db.select({ id: bookingTypes.id, hosts: bookingTypes.hosts }).from(bookingTypes);
  },

  /** Upcoming held bookings per host. */
  async upcomingCounts(db: Db, userIds: number[], nowUtcText: string): Promise<Map<number, number>> {
    if (userIds.length === 0) return new Map();
    const rows = await db
      .select({ hostUserId: bookings.hostUserId, n: sql<number>`count(*)::int` })
      .from(bookings)
      .where(
        and(
          inArray(bookings.hostUserId, userIds),
          gt(bookings.endUtc, nowUtcText),
          sql`${bookings.status} in ('confirmed', 'pending_approval', 'pending_payment')`,
        ),
      )
      .groupBy(bookings.hostUserId);
    return new Map(rows.map((r) => [r.hostUserId, r.n]));
  },

  /** Whether the user hosts some booking type (the role `host` aside, an administrator may host too). */
  async hostsAnyType(db: Db, userId: number): Promise<boolean> {
    const rows = await db
      .select({ id: bookingTypes.id })
      .from(bookingTypes)
      .where(sql`${bookingTypes.hosts} @> ${JSON.stringify([userId])}::jsonb`)
      .limit(1);
    return rows.length > 0;
  },
};
