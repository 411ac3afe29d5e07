import { and, asc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import { nowUtc } from '../../db/columns';
import { attendees } from '../attendees/attendees.sql';
import { orders } from './payments.sql';
import { ticketCategories } from './tickets.sql';
import { signupVoucherJoin } from './vouchers.repository';
import type { VoucherKind } from '../../../shared/pricing';

export type TicketCategoryRow = typeof ticketCategories.$inferSelect;
export type NewTicketCategoryRow = typeof ticketCategories.$inferInsert;
/** A category with the seats it holds (its quota's count). */
export type TicketCategoryWithSold = TicketCategoryRow & { soldCount: number };

/**
 * Seats a category holds, as one SQL expression: going tickets (and old rows with an empty
 * status) plus the lines of unpaid orders naming it, the event's own rule per category. Both
 * parts name the event first, so they walk the (event, category) and the orders' event indexes.
 */
// aliased and qualified by hand: drizzle leaves a column in a select list unqualified, which a correlated subquery would misread
export const soldCount = sql<number>`((select coalesce(sum(a.quantity), 0) from ${attendees} a
    where a.event_id = ${ticketCategories}.event_id and a.ticket_category_id = ${ticketCategories}.id and a.status in ('going', ''))
  + (select coalesce(sum((l.value->>'quantity')::int), 0) from ${orders} o cross join lateral jsonb_array_elements(o.lines) l
    where o.event_id = ${ticketCategories}.event_id and o.status = 'pending_payment' and (l.value->>'categoryId')::int = ${ticketCategories}.id))::int`;

const withSold = { ...getTableColumns(ticketCategories), soldCount: soldCount.mapWith(Number) };

/**
 * `withSold` for a category left-joined to its event: null columns (and a null count) where the
 * event has none, so the joined category reads as null.
 */
export const joinedCategoryWithSold = {
  ...getTableColumns(ticketCategories),
  soldCount: sql<number | null>`case when ${ticketCategories.id} is null then null else ${soldCount} end`.mapWith(Number),
};

/** Queries only; rules live in ticket-categories.service.ts and the sign-up. */
export function ticketsRepository(db: Db) {
  return {
    /** An event's categories in their display order, with what each has sold. */
    listOfEvent: (eventId: number): Promise<TicketCategoryWithSold[]> =>
      db.select(withSold).from(ticketCategories).where(eq(ticketCategories.eventId, eventId)).orderBy(asc(ticketCategories.position), asc(ticketCategories.id)),
    findById: async (id: number): Promise<TicketCategoryWithSold | null> =>
      (await db.select(withSold).from(ticketCategories).where(eq(ticketCategories.id, id)))[0] ?? null,
    /** Whether the event sells through categories at all (one indexed probe). */
    eventHasCategories: async (eventId: number): Promise<boolean> =>
      (await db.select({ id: ticketCategories.id }).from(ticketCategories).where(eq(ticketCategories.eventId, eventId)).limit(1)).length > 0,
    /** Which of these events sell through categories (a page of attendees' events). */
    eventsWithCategories: async (eventIds: number[]): Promise<Set<number>> => {
      if (eventIds.length === 0) return new Set();
      const rows = await db.selectDistinct({ eventId: ticketCategories.eventId }).from(ticketCategories).where(inArray(ticketCategories.eventId, eventIds));
      return new Set(rows.map((r) => r.eventId));
    },
    /** Names of some categories by id, for a page of attendees. */
    namesOf: async (ids: number[]): Promise<Map<number, string>> => {
      if (ids.length === 0) return new Map();
      const rows = await db.select({ id: ticketCategories.id, name: ticketCategories.name }).from(ticketCategories).where(inArray(ticketCategories.id, ids));
      return new Map(rows.map((r) => [r.id, r.name]));
    },
    /** What prices tickets of some categories (name, tax), by id: a mail's price lines. */
    pricingOf: async (ids: number[]): Promise<Map<number, Pick<TicketCategoryRow, 'id' | 'name' | 'taxRateBp' | 'taxMode' | 'priceCents'>>> => {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({
          id: ticketCategories.id,
          name: ticketCategories.name,
          taxRateBp: ticketCategories.taxRateBp,
          taxMode: ticketCategories.taxMode,
          priceCents: ticketCategories.priceCents,
        })
        .from(ticketCategories)
        .where(inArray(ticketCategories.id, ids));
      return new Map(rows.map((r) => [r.id, r]));
    },
    /** Whether any attendee row (any status) or any order line ever named this category. */
    hasTickets: async (id: number): Promise<boolean> => {
      const [row] = await db
        .select({
          used: sql<boolean>`exists (select 1 from ${attendees} a where a.ticket_category_id = ${id})
            or exists (select 1 from ${orders} o cross join lateral jsonb_array_elements(o.lines) l
                       where o.event_id = ${ticketCategories}.event_id and (l.value->>'categoryId')::int = ${id})`,
        })
        .from(ticketCategories)
        .where(eq(ticketCategories.id, id));
      return Boolean(row?.used);
    },
    /** Going rows of the event with a category and no order (paid at the door, or free), each with the terms of the voucher its sign-up redeemed. */
    ticketsWithoutOrder: async (eventId: number) =>
      (
        await queryRows<{
          categoryId: number;
          quantity: number;
          voucherKind: VoucherKind | null;
          voucherValue: number | null;
          voucherCategoryIds: string | null;
        }>(
          db,
          sql`select a.ticket_category_id as "categoryId", a.quantity, sv.kind as "voucherKind", sv.value as "voucherValue", sv.category_ids::text as "voucherCategoryIds"
            from ${attendees} a
            ${signupVoucherJoin({ held: true })}
            where a.event_id = ${eventId} and a.status in ('going', '') and a.order_id is null and a.ticket_category_id is not null
            order by a.id`,
        )
      ).map((r) => ({ ...r, voucherCategoryIds: r.voucherCategoryIds === null ? null : (JSON.parse(r.voucherCategoryIds) as number[] | null) })),
    insert: async (row: NewTicketCategoryRow) => (await db.insert(ticketCategories).values(row).returning())[0]!,
    update: async (id: number, patch: Partial<NewTicketCategoryRow>) =>
      (
        await db
          .update(ticketCategories)
          .set({ ...patch, updatedUtc: nowUtc })
          .where(eq(ticketCategories.id, id))
          .returning()
      )[0] ?? null,
    delete: async (id: number) => (await db.delete(ticketCategories).where(eq(ticketCategories.id, id)).returning({ id: ticketCategories.id })).length > 0,
    /** Some categories of one event with their sold counts (the sign-up, after it locked the event row). */
    ofEventByIds: (eventId: number, ids: number[]): Promise<TicketCategoryWithSold[]> =>
      ids.length === 0
        ? Promise.resolve([])
        : db
            .select(withSold)
            .from(ticketCategories)
            .where(and(eq(ticketCategories.eventId, eventId), inArray(ticketCategories.id, ids))),
  };
}
export type TicketsRepository = ReturnType<typeof ticketsRepository>;
