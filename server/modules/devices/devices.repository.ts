import { and, asc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { nowUtc } from '../../db/columns';
import { ticketCategories } from '../orders/tickets.sql';
import { devices } from './devices.sql';

export type DeviceRecord = typeof devices.$inferSelect;

/** Queries only; rules live in devices.service.ts. */
export function devicesRepository(db: Db) {
  return {
    insert: async (row: {
      name: string;
      eventIds: number[];
      categoryIds: number[] | null;
      pairingCodeHash: string;
      pairingExpiresUtc: string;
      createdBy: number | null;
    }) => (await db.insert(devices).values(row).returning())[0]!,
    findById: async (id: number) => (await db.select().from(devices).where(eq(devices.id, id)))[0] ?? null,
    findByTokenHash: async (tokenHash: string) => (await db.select().from(devices).where(eq(devices.tokenHash, tokenHash)))[0] ?? null,
    /**
     * The device of a token, marking it seen (at most once a minute) in the same round trip:
     * every sync request authenticates, so this is on the push path.
     */
    findByTokenHashAndTouch: async (tokenHash: string) => {
      const touch = db.$with('touched').as(
        db
          .update(devices)
          .set({ lastSeenUtc: nowUtc })
          .where(
            and(
              eq(devices.tokenHash, tokenHash),
              isNull(devices.revokedUtc),
              or(isNull(devices.lastSeenUtc), sql`${devices.lastSeenUtc} < ${nowUtc} - interval '1 minute'`),
            ),
          )
          .returning({ id: devices.id }),
      );
      return (await db.with(touch).select().from(devices).where(eq(devices.tokenHash, tokenHash)))[0] ?? null;
    },
    list: () => db.select().from(devices).orderBy(asc(devices.id)),
    /** The ticket categories of these events, in each event's order. */
    categoriesOfEvents: (eventIds: number[]) =>
      db
        .select({ id: ticketCategories.id, eventId: ticketCategories.eventId, name: ticketCategories.name, position: ticketCategories.position })
        .from(ticketCategories)
        .where(inArray(ticketCategories.eventId, eventIds))
        .orderBy(asc(ticketCategories.eventId), asc(ticketCategories.position), asc(ticketCategories.id)),
    /** The event of each of these ticket categories (missing ids are simply absent). */
    categoryEvents: (ids: number[]) =>
      ids.length === 0
        ? Promise.resolve([] as Array<{ id: number; eventId: number }>)
        : db.select({ id: ticketCategories.id, eventId: ticketCategories.eventId }).from(ticketCategories).where(inArray(ticketCategories.id, ids)),
    update: async (id: number, patch: Partial<Pick<DeviceRecord, 'name' | 'eventIds' | 'walkIns' | 'categoryIds'>>) =>
      (await db.update(devices).set(patch).where(eq(devices.id, id)).returning())[0] ?? null,
    setPairingCode: async (id: number, pairingCodeHash: string, pairingExpiresUtc: string) =>
      (
        await db
          .update(devices)
          .set({ pairingCodeHash, pairingExpiresUtc })
          .where(and(eq(devices.id, id), isNull(devices.revokedUtc)))
          .returning()
      )[0] ?? null,
    /**
     * Single use, atomically: the code is cleared in the same statement that sets the token,
     * so two devices racing with one code cannot both win.
     */
    redeemPairingCode: async (pairingCodeHash: string, tokenHash: string, nowText: string) =>
      (
        await db
          .update(devices)
          .set({ tokenHash, pairingCodeHash: null, pairingExpiresUtc: null, pairedUtc: nowUtc, lastSeenUtc: nowUtc })
          .where(and(eq(devices.pairingCodeHash, pairingCodeHash), gt(devices.pairingExpiresUtc, nowText), isNull(devices.revokedUtc)))
          .returning()
      )[0] ?? null,
    revoke: async (id: number) =>
      (
        await db
          .update(devices)
          .set({ revokedUtc: nowUtc, pairingCodeHash: null, pairingExpiresUtc: null })
          .where(and(eq(devices.id, id), isNull(devices.revokedUtc)))
          .returning()
      )[0] ?? null,
    /** Last-seen is written at most once a minute per device: one request in many pays for it. */
    /** Writes only a changed count, or the same one at most once a minute: a door reports on every sync request. */
    reportPending: (id: number, pending: number) =>
      db
        .update(devices)
        .set({ pendingCount: pending, pendingReportedUtc: nowUtc })
        .where(
          and(
            eq(devices.id, id),
            or(
              isNull(devices.pendingCount),
              sql`${devices.pendingCount} <> ${pending}`,
              isNull(devices.pendingReportedUtc),
              sql`${devices.pendingReportedUtc} < ${nowUtc} - interval '1 minute'`,
            ),
          ),
        ),
  };
}
export type DevicesRepository = ReturnType<typeof devicesRepository>;
