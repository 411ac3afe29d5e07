/** Queries of shared resources and the booking types that need them; no rules here (STYLE §2). */
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { SLOT_HOLDING_STATUSES } from '../../../shared/booking';
import { jsonInts, queryRows, type Db } from '../../db/client';
import { nowUtc } from '../../db/columns';
import { bookingTypes } from '../booking/booking.sql';
import { bookingTypeResources, resources } from './resources.sql';

export type ResourceRow = typeof resources.$inferSelect;
export type ResourceInsert = typeof resources.$inferInsert;
export type ResourceWithTypes = ResourceRow & { bookingTypeIds: number[] };

/** A resource a booking type needs, with what the capacity check needs of the type itself. */
export interface NeededResource {
  resourceId: number;
  capacity: number;
  durationMinutes: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  /** Seats per host per start of the type. */
  seats: number;
}

/** A slot-holding booking of some type that needs `resourceId`, with its type's buffers. */
export interface ResourceBooking {
  resourceId: number;
  bookingTypeId: number;
  hostUserId: number;
  startMs: number;
  endMs: number;
  quantity: number;
  bufferBeforeMs: number;
  bufferAfterMs: number;
}

const typeIdsOf = sql<number[]>`coalesce((select array_agg(l.booking_type_id order by l.booking_type_id)
                                          from svc_booking_type_resources l where l.resource_id = ${resources.id}), '{}')`;
const HOLDING = sql.join(
  SLOT_HOLDING_STATUSES.map((s) => sql`${s}`),
  sql`, `,
);

export const resourcesRepository = {
  // Resources

  async list(db: Db, opts: { page: number; perPage: number }): Promise<{ items: ResourceWithTypes[]; total: number }> {
    const [items, [count]] = await Promise.all([
      db
        .select({ resource: resources, bookingTypeIds: typeIdsOf })
        .from(resources)
        .orderBy(asc(resources.name), asc(resources.id))
        .limit(opts.perPage)
        .offset((opts.page - 1) * opts.perPage),
      db.select({ n: sql<number>`count(*)::int` }).from(resources),
    ]);
    return { items: items.map((r) => ({ ...r.resource, bookingTypeIds: r.bookingTypeIds })), total: count!.n };
  },

  async find(db: Db, id: number): Promise<ResourceWithTypes | null> {
    const [row] = await db.select({ resource: resources, bookingTypeIds: typeIdsOf }).from(resources).where(eq(resources.id, id));
    return row ? { ...row.resource, bookingTypeIds: row.bookingTypeIds } : null;
  },

  async insert(db: Db, values: ResourceInsert): Promise<ResourceRow> {
    const [row] = await db.insert(resources).values(values).returning();
    return row!;
  },

  async update(db: Db, id: number, values: Partial<ResourceInsert>): Promise<ResourceRow | null> {
    const [row] = await db
      .update(resources)
      .set({ ...values, updatedUtc: nowUtc })
      .where(eq(resources.id, id))
      .returning();
    return row ?? null;
  },

  /** Locks the row for the rest of the transaction (a delete must not race a type taking it into use). */
  async lockOne(tx: Db, id: number): Promise<boolean> {
    const rows = await tx.select({ id: resources.id }).from(resources).where(eq(resources.id, id)).for('update');
    return rows.length > 0;
  },

  async delete(tx: Db, id: number): Promise<boolean> {
    const rows = await tx.delete(resources).where(eq(resources.id, id)).returning({ id: resources.id });
    return rows.length > 0;
  },

  /** The booking types that need a resource, by id. */
  async typesUsing(db: Db, id: number): Promise<Array<{ id: number; title: string }>> {
    return db
      .select({ id: bookingTypes.id, title: bookingTypes.title })
      .from(bookingTypeResources)
      .innerJoin(bookingTypes, eq(bookingTypes.id, bookingTypeResources.bookingTypeId))
      .where(eq(bookingTypeResources.resourceId, id))
      .orderBy(asc(bookingTypes.id));
  },

  /** The ids of `ids` that are resources. */
  async existingIds(db: Db, ids: number[]): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    const rows = await db.select({ id: resources.id }).from(resources).where(inArray(resources.id, ids));
    return new Set(rows.map((r) => r.id));
  },

  // The booking types' `resourceIds`

  /** Each type's resource ids, ascending; a type without any is absent. */
  async idsByType(db: Db, typeIds: number[]): Promise<Map<number, number[]>> {
    const map = new Map<number, number[]>();
    if (typeIds.length === 0) return map;
    const rows = await db
      .select({ typeId: bookingTypeResources.bookingTypeId, resourceId: bookingTypeResources.resourceId })
      .from(bookingTypeResources)
      .where(inArray(bookingTypeResources.bookingTypeId, typeIds))
      .orderBy(asc(bookingTypeResources.resourceId));
    for (const r of rows) map.set(r.typeId, [...(map.get(r.typeId) ?? []), r.resourceId]);
    return map;
  },

  /** Replaces a type's resources with `ids` (existing resources; a deleted one fails the foreign key). */
  async setTypeResources(tx: Db, typeId: number, ids: number[]): Promise<void> {
    await tx.delete(bookingTypeResources).where(eq(bookingTypeResources.bookingTypeId, typeId));
    if (ids.length > 0) await tx.insert(bookingTypeResources).values(ids.map((resourceId) => ({ bookingTypeId: typeId, resourceId })));
  },

  // The capacity check (server/extended/resources.ts)

  /**
   * The resources a type needs, ascending by id, with the type's duration, buffers and seats.
   * `lock`: `FOR NO KEY UPDATE` on the resource rows, in id order (no lock cycles): two
   * bookings that need one resource are decided one after the other until commit, while
   * foreign-key checks (a type taking the resource into use) are not blocked.
   */
  async neededByType(db: Db, typeId: number, opts: { lock: boolean }): Promise<NeededResource[]> {
    return queryRows<NeededResource>(
      db,
      sql`select r.id as "resourceId", r.capacity, t.duration_minutes as "durationMinutes",
                 t.buffer_before_minutes as "bufferBeforeMinutes", t.buffer_after_minutes as "bufferAfterMinutes", t.capacity as seats
          from svc_booking_type_resources l
          join svc_resources r on r.id = l.resource_id
          join svc_booking_types t on t.id = l.booking_type_id
          where l.booking_type_id = ${typeId}
          order by r.id
          ${opts.lock ? sql`for no key update of r` : sql``}`,
    );
  },

  /**
   * Slot-holding bookings of every type that needs one of `resourceIds`, whose occupation (their
   * own type's buffers included) overlaps [fromUtc, toUtc): one row per (booking, resource),
   * packed into one text value as busyForHosts does (one query for the whole slot list).
   */
  async bookingsUsing(db: Db, resourceIds: number[], fromUtc: string, toUtc: string, excludeBookingId?: number): Promise<ResourceBooking[]> {
    if (resourceIds.length === 0) return [];
    const [row] = await queryRows<{ packed: string | null }>(
      db,
      // Buffers are at most a day each: the index on (type, start) narrows a day wide, then the exact spans decide.
      sql`select string_agg(concat_ws(',', l.resource_id, b.booking_type_id, b.host_user_id, date_part('epoch', b.start_utc)::int8,
                                      date_part('epoch', b.end_utc)::int8, b.quantity,
                                      t.buffer_before_minutes, t.buffer_after_minutes), ';') as packed
          from svc_booking_type_resources l
          join svc_bookings b on b.booking_type_id = l.booking_type_id
          join svc_booking_types t on t.id = b.booking_type_id
          where l.resource_id in ${jsonInts(resourceIds)}
            and b.status in (${HOLDING})
            and b.start_utc < ${toUtc}::timestamp + interval '1 day' and b.end_utc > ${fromUtc}::timestamp - interval '1 day'
            and b.start_utc - make_interval(mins => t.buffer_before_minutes) < ${toUtc}::timestamp
            and b.end_utc + make_interval(mins => t.buffer_after_minutes) > ${fromUtc}::timestamp
            ${excludeBookingId ? sql`and b.booking_id <> ${excludeBookingId}` : sql``}`,
    );
    if (!row?.packed) return [];
    return row.packed.split(';').map((entry) => {
      const [r, t, h, s, e, q, bb, ba] = entry.split(',');
      return {
        resourceId: Number(r),
        bookingTypeId: Number(t),
        hostUserId: Number(h),
        startMs: Number(s) * 1000,
        endMs: Number(e) * 1000,
        quantity: Number(q),
        bufferBeforeMs: Number(bb) * 60_000,
        bufferAfterMs: Number(ba) * 60_000,
      };
    });
  },
};

export type ResourcesRepository = typeof resourcesRepository;
