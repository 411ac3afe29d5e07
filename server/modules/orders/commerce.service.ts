/**
 * The commerce bridge (docs/api.md#payments): an outside shop's order webhook, signed with
 * Standard Webhooks and `SVC_COMMERCE_SECRET`. paid → one ticket row per seat of every line, as
 * a paid order; refunded or cancelled → every row of it cancelled. Idempotent on (order id,
 * status): a repeat changes nothing and answers 200.
 */
import { AppError } from '../../../shared/errors';
import { assertCleanText } from '../../../shared/validation';
import { ZCommerceOrderInput, type CommerceOrderInput, type OrderDto, type OrderStatus } from '../../../shared/payments';
import { toUtcString } from '../../../shared/time';
import type { AppContext } from '../../context';
import { invalidParams } from '../../api/route';
import { verifyStandardWebhook } from '../../security/standard-webhooks';
import { settingsService } from '../settings/settings.service';
import { eventsRepository } from '../events/events.repository';
import type { AttendeeRecord } from '../attendees/attendees.repository';
import { ordersService, toOrderDto } from './orders.service';
import { announce, holdAnnouncement } from '../../jobs/announcements';
import { ANNOUNCE_RSVP_SUBMITTED_JOB } from './tickets.service';
import { paymentsRepository as repo, type OrderRow } from './payments.repository';
import { requireExtended } from './payments.service';

export interface CommerceResult {
  /** applied: this call changed the order; unchanged: a repeat, or a status the order has passed. */
  result: 'applied' | 'unchanged';
  order: OrderDto;
}

export function commerceService(ctx: AppContext) {
  const orders = ordersService(ctx);

  function parse(rawBody: string): CommerceOrderInput {
    let json: unknown;
    try {
      json = JSON.parse(rawBody);
    } catch {
      throw new AppError('svc_invalid_json', 'The request body is not valid JSON.');
    }
    // Signed does not mean storable: a NUL in a name answered 500 from the insert.
    assertCleanText(json);
    const parsed = ZCommerceOrderInput.safeParse(json);
    if (!parsed.success) throw invalidParams(parsed.error);
    return parsed.data;
  }

  async function answer(order: OrderRow, result: CommerceResult['result']): Promise<CommerceResult> {
    const event = await eventsRepository(ctx.db).findById(order.eventId);
    return { result, order: toOrderDto({ ...order, eventTitle: event?.title ?? '' }, null) };
  }

  return {
    async receive(rawBody: string, headers: Record<string, string>): Promise<CommerceResult> {
      requireExtended(ctx);
      const secret = ctx.env.SVC_COMMERCE_SECRET;
      if (!secret) throw new AppError('svc_not_found');
      verifyStandardWebhook(secret, rawBody, headers);
      const input = parse(rawBody);
      const externalId = String(input.id);
      // The error names the line where the shop sent it, so look before sorting.
      for (const [i, line] of input.lines.entries()) {
        if (!(await eventsRepository(ctx.db).findById(line.eventId))) {
          throw new AppError('svc_invalid_param', `Invalid parameter(s): lines.${i}.eventId`, { params: { [`lines.${i}.eventId`]: 'no such event' } });
        }
      }
      const lines = [...input.lines].sort((a, b) => a.eventId - b.eventId);
      const currency = await settingsService(ctx).currency();
      // The shop's order as we keep it (the money is the shop's: no amount here).
      const orderValues = (status: OrderStatus) => ({
        eventId: lines[0]!.eventId,
        lines,
        email: input.email,
        name: input.name,
        quantity: lines.reduce((n, l) => n + l.quantity, 0),
        amountCents: 0,
        currency,
        status,
        source: 'commerce' as const,
        externalId,
      });

      if (input.status === 'paid') {
        let issued: AttendeeRecord[] = [];
        const order = await ctx.db.transaction(async (tx) => {
          // The shop's id is unique: a concurrent repeat's insert waits for this one, then stores nothing.
          const row = await repo.insertCommerceOrder(tx, { ...orderValues('paid'), paidUtc: toUtcString(Date.now()) });
          if (!row) return { row: (await repo.findCommerceOrder(tx, externalId))!, applied: false, announcement: null };
          issued = await orders.issueTickets(tx, row);
          const announcement = await holdAnnouncement(tx, ANNOUNCE_RSVP_SUBMITTED_JOB, { attendeeIds: issued.map((r) => r.id) });
          return { row, applied: true, announcement };
        });
        if (order.announcement !== null) await announce(ctx.db, ctx.logger, order.announcement, () => orders.announceTickets(issued));
        return answer(order.row, order.applied ? 'applied' : 'unchanged');
      }

      // refunded or cancelled
      let existing = await repo.findCommerceOrder(ctx.db, externalId);
      if (!existing) {
        // A reversal before (or instead of) its payment: remembered, so a late "paid" issues nothing.
        const remembered = await repo.insertCommerceOrder(ctx.db, orderValues(input.status));
        if (remembered) return answer(remembered, 'unchanged');
        // A concurrent delivery stored the order first: this reversal applies to it.
        existing = (await repo.findCommerceOrder(ctx.db, externalId))!;
      }
      const reversed = await orders.reverse(existing.id, input.status, async () => {});
      return answer((await repo.findOrder(ctx.db, existing.id))!, reversed ? 'applied' : 'unchanged');
    },
  };
}
