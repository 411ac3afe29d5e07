/**
 * Waitlist promotion (docs/decisions/045-waitlist-promotion.md). Every write that frees seats on
 * an event (a visitor's cancel, an administrator's cancel, lower quantity or delete, a refund, a
 * raised capacity) calls `promoteWaitlist` in its own transaction, with the event row locked as
 * the sign-up locks it: a freed seat then goes to the waitlist before any later sign-up can take
 * it, and the promotions are counted against every seat committed before them, so the event is
 * never filled beyond its capacity.
 *
 * For an event in `auto` mode, the waitlisted parties are taken oldest first (by id: rows are
 * numbered as they are written under the event lock, so this is the order they joined); a party moves up whole, only when its quantity fits the seats left (and its ticket
 * category's quota); one that does not fit is skipped, not waited for, so the smaller parties
 * behind it move up (as pretix's waiting list assigns the next entry that is available). Each
 * promoted row becomes `going`; its ticket mail is queued in the same transaction, in the
 * person's stored language, and `svc_attendee_status_changed` (id, 'going', 'waitlist') is held
 * there as the attendee-change announcement, fired once per row after commit.
 */
import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { nowUtc } from '../../db/columns';
import { queueMail } from '../../mail/mailer';
import { recipientLanguage } from '../../mail/language';
import type { EventRow } from '../events/events.repository';
import { eventsRepository } from '../events/events.repository';
import { ticketsRepository } from '../orders/tickets.repository';
import { attendeesRepository, type AttendeeRecord } from './attendees.repository';
import { attendees } from './attendees.sql';
import { buildConfirmationMail, promotedTicketOnceKey, ticketPartOf } from './attendees.mail';
import { announceChangeNow, holdAttendeeChange } from './attendees.announce';

/** What a promoting transaction hands to its writer for after the commit. */
export interface HeldPromotion {
  attendeeIds: number[];
  /** The held announcement job (null when nobody moved up). */
  job: number | null;
}

export const NO_PROMOTION: HeldPromotion = { attendeeIds: [], job: null };

/** A waitlisted party, as the promotion reads it. */
interface Waiting {
  id: number;
  quantity: number;
  ticketCategoryId: number | null;
}

/**
 * Which waitlisted parties move up, in order: oldest first, each whole when it fits the seats
 * left (`free`, null = no capacity) and its category's seats left (`categoryFree`, a missing
 * entry = no quota); a party that does not fit is skipped (docs/decisions/045-waitlist-promotion.md).
 */
export function choosePromotions(waiting: readonly Waiting[], free: number | null, categoryFree: ReadonlyMap<number, number>): number[] {
  let left = free;
  const catLeft = new Map(categoryFree);
  const chosen: number[] = [];
  for (const party of waiting) {
    if (left !== null && left <= 0) break;
    if (left !== null && party.quantity > left) continue;
    const cat = party.ticketCategoryId === null ? undefined : catLeft.get(party.ticketCategoryId);
    if (cat !== undefined && party.quantity > cat) continue;
    chosen.push(party.id);
    if (left !== null) left -= party.quantity;
    if (cat !== undefined) catLeft.set(party.ticketCategoryId!, cat - party.quantity);
  }
  return chosen;
}

/**
 * In a transaction that holds the event row's lock (`eventsRepository(tx).lockById`) and has
 * written what frees the seats: promotes what fits when the event is in `auto` mode. `except`
 * are rows this transaction itself just put on the waitlist (an administrator's PATCH to
 * `waitlist`): they are not moved straight back.
 */
export async function promoteWaitlist(ctx: AppContext, tx: Db, event: EventRow, except: readonly number[] = []): Promise<HeldPromotion> {
  if (event.waitlistPromotion !== 'auto' || event.status !== 'published') return NO_PROMOTION;
  const free = event.capacity === null ? null : event.capacity - (await attendeesRepository(tx).seatsTaken(event.id));
  if (free !== null && free <= 0) return NO_PROMOTION;
  const waiting = await tx
    .select({ id: attendees.id, quantity: attendees.quantity, ticketCategoryId: attendees.ticketCategoryId })
    .from(attendees)
    .where(
      and(
        eq(attendees.eventId, event.id),
        eq(attendees.status, 'waitlist'),
        free === null ? undefined : sql`${attendees.quantity} <= ${free}`,
        except.length > 0 ? notInArray(attendees.id, [...except]) : undefined,
      ),
    )
    .orderBy(asc(attendees.id));
  if (waiting.length === 0) return NO_PROMOTION;
  const categoryFree = new Map<number, number>();
  if (waiting.some((w) => w.ticketCategoryId !== null)) {
    for (const c of await ticketsRepository(tx).listOfEvent(event.id)) if (c.quota !== null) categoryFree.set(c.id, c.quota - c.soldCount);
  }
  const chosen = choosePromotions(waiting, free, categoryFree);
  if (chosen.length === 0) return NO_PROMOTION;
  const promoted = await tx
    .update(attendees)
    .set({ status: 'going', updatedUtc: nowUtc })
    .where(and(inArray(attendees.id, chosen), eq(attendees.status, 'waitlist')))
    .returning();
  promoted.sort((a, b) => chosen.indexOf(a.id) - chosen.indexOf(b.id));
  for (const row of promoted) await queuePromotedTicket(ctx, tx, event, row);
  const attendeeIds = promoted.map((r) => r.id);
  if (attendeeIds.length === 0) return NO_PROMOTION;
  return { attendeeIds, job: await holdAttendeeChange(tx, { change: 'promoted', attendeeIds }) };
}

/**
 * Locks the event row (before any attendee row: the sign-up's order, so no two writers wait on
 * each other) and answers it, or null when it is gone.
 */
export function lockEvent(tx: Db, eventId: number): Promise<EventRow | null> {
  return eventsRepository(tx).lockById(eventId);
}

/** The ticket mail of a promoted row, in its stored language, in the promoting transaction (once ever per row). */
async function queuePromotedTicket(ctx: AppContext, tx: Db, event: EventRow, row: AttendeeRecord): Promise<void> {
  if (row.email === '') return;
  const inTx = { ...ctx, db: tx };
  const locale = await recipientLanguage(tx, row.language, event.language);
  const message = await buildConfirmationMail(ctx, event, row, locale, await ticketPartOf(inTx, row, locale));
  await queueMail(tx, message, { onceKey: promotedTicketOnceKey(row.id) });
}

/** After commit, in the writer: `svc_attendee_status_changed` once per promoted row, its held job dropped. */
export async function announcePromotedNow(ctx: Pick<AppContext, 'db' | 'hooks' | 'logger'>, held: HeldPromotion): Promise<void> {
  if (held.job === null) return;
  await announceChangeNow(ctx, held.job, { change: 'promoted', attendeeIds: held.attendeeIds });
}
