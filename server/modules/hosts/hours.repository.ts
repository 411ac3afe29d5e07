import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { nowUtc } from '../../db/columns';
import type { HostHoursInput } from '../../../shared/host-hours';
import { hostHours } from './hours.sql';

export type HostHoursRow = typeof hostHours.$inferSelect;

/** Queries only; the rules live in hours.service.ts. */
export const hoursRepository = {
  async find(db: Db, userId: number): Promise<HostHoursRow | null> {
    const [row] = await db.select().from(hostHours).where(eq(hostHours.userId, userId));
    return row ?? null;
  },

  /** The stored hours of those of `userIds` that have them, in one query. */
  async forHosts(db: Db, userIds: number[]): Promise<HostHoursRow[]> {
    if (userIds.length === 0) return [];
    return db.select().from(hostHours).where(inArray(hostHours.userId, userIds));
  },

  async save(db: Db, userId: number, hours: HostHoursInput): Promise<HostHoursRow> {
    const values = { userId, timezone: hours.timezone, weekly: hours.weekly, overrides: hours.overrides };
    const [row] = await db
      .insert(hostHours)
      .values(values)
      .onConflictDoUpdate({
        target: hostHours.userId,
        set: { timezone: values.timezone, weekly: values.weekly, overrides: values.overrides, updatedUtc: nowUtc },
      })
      .returning();
    return row!;
  },
};
