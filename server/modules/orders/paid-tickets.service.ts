/**
 * The payer's tickets on `/pay/{id}` once the order is paid (docs/api.md#payments,
 * docs/decisions/038-wallet-pass.md): the payment id, a random 32-byte token the payer got with
 * the order, opens them. It shows what the order mail shows (each ticket's QR and code) and the
 * keys the sign-up answer gives (the PDF's and Wallet pass's), never the cancel tokens: those
 * stay in the mail.
 */
import { AppError } from '../../../shared/errors';
import type { PaidTicketsDto } from '../../../shared/payments';
import type { AppContext } from '../../context';
import { calendarUid } from '../../mail/ics';
import { walletAvailable } from '../../wallet/pass';
import { ticketPdfTokenOf } from '../attendees/ticket-pdf.service';
import { eventsRepository } from '../events/events.repository';
import { paymentsRepository } from './payments.repository';
import { requireExtended } from './payments.service';
import { ticketsRepository } from './tickets.repository';

const PAYMENT_ID_RE = /^[A-Za-z0-9_-]{16,64}$/;
const NONE: PaidTicketsDto = { event: null, tickets: [] };

export function paidTicketsService(ctx: Pick<AppContext, 'db' | 'env' | 'secret'>) {
  return {
    /** Unknown payment → 404; a booking's payment, or an order not (or no longer) paid → no tickets. */
    async ofPayment(paymentId: string): Promise<PaidTicketsDto> {
      requireExtended(ctx);
      const payment = PAYMENT_ID_RE.test(paymentId) ? await paymentsRepository.findPayment(ctx.db, paymentId) : null;
      if (!payment) throw new AppError('svc_not_found', 'No such payment.');
      // a booking's manage link is in its confirmation mail; the page says it is confirmed
      if (payment.orderId === null) return NONE;
      const order = await paymentsRepository.findOrder(ctx.db, payment.orderId);
      if (!order || order.status !== 'paid') return NONE;
      const [event, rows] = await Promise.all([eventsRepository(ctx.db).findById(order.eventId), paymentsRepository.ticketsOf(ctx.db, order.id)]);
      if (!event) return NONE;
      const categoryIds = [...new Set(rows.flatMap((r) => (r.ticketCategoryId === null ? [] : [r.ticketCategoryId])))];
      const names = await ticketsRepository(ctx.db).namesOf(categoryIds);
      const wallet = walletAvailable(ctx.env);
      return {
        event: {
          id: event.id,
          title: event.title,
          startsUtc: event.startsUtc,
          endsUtc: event.endsUtc,
          timezone: event.timezone,
          venue: event.venue,
          description: event.description,
        },
        tickets: rows.map((row) => {
          const going = row.status === 'going' || row.status === '';
          return {
            attendeeId: row.id,
            status: going ? 'going' : row.status,
            displayName: row.displayName,
            quantity: row.quantity,
            ticketCategoryId: row.ticketCategoryId,
            ticketType: row.ticketCategoryId === null ? null : (names.get(row.ticketCategoryId) ?? null),
            walletAvailable: wallet,
            ...(going
              ? { ticketCode: row.ticketCode, ticketPdfToken: ticketPdfTokenOf(ctx.secret, row.id), calendarUid: calendarUid(ctx, 'attendee', row.id) }
              : {}),
          };
        }),
      };
    },
  };
}
