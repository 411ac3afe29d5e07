/**
 * Ticket categories of an event (docs/api.md#tickets): administrators define them; the public
 * sees the ones on sale. Deleting one that tickets or orders name is refused, under the event
 * row's lock so a sign-up cannot slip a ticket in between the check and the delete.
 */
import { AppError } from '../../../shared/errors';
import { priceOrder, visibleCategories, type PricedOrder, type VoucherTerms } from '../../../shared/pricing';
import { ZTicketLines, type CreateTicketCategoryInput, type TicketCategoryDto, type UpdateTicketCategoryInput } from '../../../shared/tickets';
import { voucherCodeKey } from '../../../shared/vouchers';
import { toUtcString } from '../../../shared/time';
import { ZId } from '../../api/operation';
import { invalidParams } from '../../api/route';
import type { Principal } from '../../auth/principal';
import type { AppContext } from '../../context';
import { eventsRepository } from '../events/events.repository';
import { ticketsRepository, type TicketCategoryRow, type TicketCategoryWithSold } from './tickets.repository';
import { vouchersRepository } from './vouchers.repository';
import { voucherTermsOf } from './vouchers.service';

export function toTicketCategoryDto(c: TicketCategoryWithSold): TicketCategoryDto {
  return {
    id: c.id,
    eventId: c.eventId,
    name: c.name,
    description: c.description,
    priceCents: c.priceCents,
    quota: c.quota,
    saleStartsUtc: c.saleStartsUtc,
    saleEndsUtc: c.saleEndsUtc,
    minPerOrder: c.minPerOrder,
    maxPerOrder: c.maxPerOrder,
    hidden: c.hidden,
    position: c.position,
    taxRateBp: c.taxRateBp,
    taxMode: c.taxMode,
    soldCount: c.soldCount,
    createdUtc: c.createdUtc,
    updatedUtc: c.updatedUtc,
  };
}

/** On sale at `nowUtc` (fixed-width UTC strings compare as times): the window only, not the quota. */
export function onSale(c: Pick<TicketCategoryRow, 'saleStartsUtc' | 'saleEndsUtc'>, nowUtc: string): boolean {
  return (c.saleStartsUtc === null || c.saleStartsUtc <= nowUtc) && (c.saleEndsUtc === null || nowUtc < c.saleEndsUtc);
}

/** The public may buy it without a voucher: listed and in its sale window. */
export function publiclyOnSale(c: TicketCategoryRow, nowUtc: string): boolean {
  return !c.hidden && onSale(c, nowUtc);
}

type Coherence = Pick<TicketCategoryRow, 'saleStartsUtc' | 'saleEndsUtc' | 'minPerOrder' | 'maxPerOrder'>;

function assertCoherent(c: Coherence): void {
  const params: Record<string, string> = {};
  if (c.saleStartsUtc !== null && c.saleEndsUtc !== null && c.saleEndsUtc <= c.saleStartsUtc) params.saleEndsUtc = 'must be after saleStartsUtc';
  if (c.maxPerOrder !== null && c.maxPerOrder < c.minPerOrder) params.maxPerOrder = 'must not be below minPerOrder';
  if (Object.keys(params).length > 0) throw new AppError('svc_invalid_param', `Invalid parameter(s): ${Object.keys(params).join(', ')}`, { params });
}

const isAdmin = (principal: Principal | null) => principal?.role === 'administrator';

export function ticketCategoriesService(ctx: AppContext) {
  const { db } = ctx;
  const repo = ticketsRepository(db);

  async function found(id: number): Promise<TicketCategoryWithSold> {
    const category = await repo.findById(id);
    if (!category) throw new AppError('svc_not_found', 'No such ticket category.');
    return category;
  }

  return {
    /** An administrator sees every category of any event; the public the listed ones on sale of a published event. */
    async list(eventId: number, principal: Principal | null): Promise<{ items: TicketCategoryDto[]; total: number }> {
      const event = await eventsRepository(db).findById(eventId);
      const admin = isAdmin(principal);
      if (!event || (event.status !== 'published' && !admin)) throw new AppError('svc_not_found', 'No such event.');
      const nowUtc = toUtcString(Date.now());
      const rows = (await repo.listOfEvent(eventId)).filter((c) => admin || publiclyOnSale(c, nowUtc));
      return { items: rows.map(toTicketCategoryDto), total: rows.length };
    },

    async create(eventId: number, input: CreateTicketCategoryInput): Promise<TicketCategoryDto> {
      if (!(await eventsRepository(db).findById(eventId))) throw new AppError('svc_not_found', 'No such event.');
      assertCoherent(input);
      const row = await repo.insert({ ...input, eventId });
      return toTicketCategoryDto({ ...row, soldCount: 0 });
    },

    async update(id: number, patch: UpdateTicketCategoryInput): Promise<TicketCategoryDto> {
      const current = await found(id);
      assertCoherent({ ...current, ...patch });
      if (!(await repo.update(id, patch))) throw new AppError('svc_not_found', 'No such ticket category.');
      return toTicketCategoryDto(await found(id));
    },

    async delete(id: number): Promise<void> {
      const category = await found(id);
      await db.transaction(async (tx) => {
        await eventsRepository(tx).lockById(category.eventId);
        const locked = ticketsRepository(tx);
        if (await locked.hasTickets(id)) throw new AppError('svc_ticket_category_in_use');
        if (!(await locked.delete(id))) throw new AppError('svc_not_found', 'No such ticket category.');
      });
    },
  };
}
export type TicketCategoriesService = ReturnType<typeof ticketCategoriesService>;

/** One line of a sign-up on an event with categories: the category as read, and how many. */
export interface TicketLine {
  category: TicketCategoryWithSold;
  quantity: number;
}

const badTickets = (message: string) => new AppError('svc_invalid_param', 'Invalid parameter(s): tickets', { params: { tickets: message } });

/** A form posts numbers as text, and `tickets` as JSON text. */
function readTicketsField(raw: Record<string, unknown>): unknown {
  const value = raw.tickets;
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw badTickets('must be a list of {categoryId, quantity}');
  }
}

/**
 * The sign-up's ticket lines (docs/api.md#tickets), checked before the lock: null for an event
 * without categories and a body without `tickets` (the sign-up runs as it always did). Otherwise
 * `tickets: [{categoryId, quantity}]`, or the contract's single-category form (`quantity` with
 * `ticket_category_id`; without it, the one category on sale if there is exactly one). Each
 * category must belong to the event, be listed and in its sale window, and take a quantity
 * within its per-order limits; all lines together at most the event's per-sign-up limit.
 */
export async function resolveTicketLines(
  db: AppContext['db'],
  event: { id: number; maxPerSignup: number },
  /** The event's categories with their counts, in display order, as the sign-up's first read answered them. */
  categories: readonly TicketCategoryWithSold[],
  raw: Record<string, unknown>,
  quantity: number,
  nowUtc: string,
): Promise<TicketLine[] | null> {
  const hasTickets = raw.tickets !== undefined && raw.tickets !== null && raw.tickets !== '';
  if (categories.length === 0) {
    if (hasTickets) throw badTickets('this event has no ticket categories');
    return null;
  }
  let requested: Array<{ categoryId: number; quantity: number }>;
  if (hasTickets) {
    const parsed = ZTicketLines.safeParse(readTicketsField(raw));
    if (!parsed.success) throw invalidParams(parsed.error, 'tickets');
    requested = parsed.data;
  } else if (raw.ticket_category_id !== undefined && raw.ticket_category_id !== '') {
    const id = ZId.safeParse(raw.ticket_category_id);
    if (!id.success)
      throw new AppError('svc_invalid_param', 'Invalid parameter(s): ticket_category_id', { params: { ticket_category_id: 'must be an integer id' } });
    requested = [{ categoryId: id.data, quantity }];
  } else {
    const buyable = categories.filter((c) => publiclyOnSale(c, nowUtc));
    if (buyable.length !== 1) throw badTickets('choose a ticket category');
    requested = [{ categoryId: buyable[0]!.id, quantity }];
  }
  const byId = new Map(categories.map((c) => [c.id, c]));
  // the code is read here only when a hidden category is asked for: it may unlock it
  const asksHidden = requested.some((r) => byId.get(r.categoryId)?.hidden === true);
  const unlocked = new Set(visibleCategories(categories, asksHidden ? await unlockingTerms(db, event.id, voucherCodeOf(raw)) : null).map((c) => c.id));
  const lines = requested.map(({ categoryId, quantity: count }) => {
    const category = byId.get(categoryId);
    if (!category) throw badTickets(`no ticket category ${categoryId} for this event`);
    if (!onSale(category, nowUtc) || !unlocked.has(category.id)) throw badTickets(`ticket category ${categoryId} is not on sale`);
    if (count < category.minPerOrder) throw badTickets(`at least ${category.minPerOrder} of ticket category ${categoryId}`);
    if (category.maxPerOrder !== null && count > category.maxPerOrder) throw badTickets(`at most ${category.maxPerOrder} of ticket category ${categoryId}`);
    return { category, quantity: count };
  });
  const total = lines.reduce((n, l) => n + l.quantity, 0);
  if (total > event.maxPerSignup) throw badTickets(`at most ${event.maxPerSignup} tickets in all`);
  return lines;
}

/** A line as decided under the event row's lock. */
export interface DecidedTicketLine extends TicketLine {
  status: 'going' | 'waitlist';
}

/**
 * Seats decided under the event row's lock, line by line in the order given: a line that fits
 * both the event's capacity (`seatsTaken` already held) and its category's quota is going; one
 * that does not goes on the waitlist when the event has one, or refuses the whole sign-up
 * (svc_event_full: nothing is stored). `lines` carry the categories as read after the lock.
 */
export function decideTicketLines(
  event: { capacity: number | null; waitlist: boolean },
  seatsTaken: number,
  lines: readonly TicketLine[],
): DecidedTicketLine[] {
  let taken = seatsTaken;
  const soldNow = new Map<number, number>();
  return lines.map((line) => {
    const sold = soldNow.get(line.category.id) ?? line.category.soldCount;
    const fitsEvent = event.capacity === null || taken + line.quantity <= event.capacity;
    const fitsQuota = line.category.quota === null || sold + line.quantity <= line.category.quota;
    if (fitsEvent && fitsQuota) {
      taken += line.quantity;
      soldNow.set(line.category.id, sold + line.quantity);
      return { ...line, status: 'going' };
    }
    if (!event.waitlist) throw new AppError('svc_event_full', fitsEvent ? `The ticket category ${line.category.name} is sold out.` : undefined);
    return { ...line, status: 'waitlist' };
  });
}

/** What an order of these lines costs, with the voucher's terms when it has one (shared/pricing.ts). */
export function orderTotalOf(lines: readonly TicketLine[], voucher: VoucherTerms | null = null): PricedOrder {
  return priceOrder({
    categories: lines.map((l) => l.category),
    lines: lines.map((l) => ({ categoryId: l.category.id, quantity: l.quantity })),
    voucher,
  });
}

/** The sign-up body's `voucher` (a promo code), trimmed; '' when none was given. */
export function voucherCodeOf(raw: Record<string, unknown>): string {
  return typeof raw.voucher === 'string' ? raw.voucher.trim() : '';
}

/**
 * The terms of the code a sign-up names, read before the lock only to open the hidden categories
 * it unlocks; whether it may be used (window, limits) is decided when it is redeemed, under the lock.
 */
async function unlockingTerms(db: AppContext['db'], eventId: number, code: string) {
  if (code === '') return null;
  const row = await vouchersRepository.findByCode(db, eventId, voucherCodeKey(code));
  return row ? voucherTermsOf(row) : null;
}
