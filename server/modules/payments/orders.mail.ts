/** One email for a paid order, with every ticket's QR code and its own cancel link (docs/api.md#payments). */
import { formatWhen } from '../../../shared/time-format';
import type { MailMessage } from '../../mail/mailer';
import type { AttendeeRecord } from '../attendees/attendees.repository';
import type { EventRow } from '../events/events.repository';
import type { OrderRow } from './payments.repository';
import { ticketQrPng } from '../../mail/ticket-qr';

/** `Thu 3 Dec, 18:30–21:00 GMT (London)`: the event's zone, the format the pages show (shared/time-format.ts). */
function formatStart(event: EventRow): string {
  return formatWhen({ startUtc: event.startsUtc, endUtc: event.endsUtc, zone: event.timezone }).place;
}

export function formatAmount(amountCents: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(amountCents / 100);
  } catch {
    return `${(amountCents / 100).toFixed(2)} ${currency}`;
  }
}

/** `ticket-1.png`, `ticket-2.png`…: one QR per ticket, in the order the tickets are listed. */
export const ticketAttachmentName = (n: number) => `ticket-${n}.png`;

export async function buildOrderMail(publicUrl: string, order: OrderRow, eventsById: Map<number, EventRow>, tickets: AttendeeRecord[]): Promise<MailMessage> {
  const titles = [...new Set(tickets.map((t) => eventsById.get(t.eventId)?.title ?? ''))];
  const subject = `Your ${tickets.length === 1 ? 'ticket' : `${tickets.length} tickets`}: ${titles.join(', ')}`;
  const text: string[] = [
    `Hello ${order.name},`,
    '',
    `Thank you for your order #${order.id}. Here ${tickets.length === 1 ? 'is your ticket' : `are your ${tickets.length} tickets`}.`,
    '',
  ];
  if (order.amountCents > 0) {
    text.push(`Paid: ${formatAmount(order.amountCents, order.currency)}`, '');
  }
  const attachments: NonNullable<MailMessage['attachments']> = [];
  for (const [i, ticket] of tickets.entries()) {
    const event = eventsById.get(ticket.eventId)!;
    const n = i + 1;
    const cancelUrl = `${publicUrl}/cancel/${ticket.cancelToken}`;
    text.push(
      `Ticket ${n} of ${tickets.length}: ${event.title}`,
      `When: ${formatStart(event)}`,
      ...(event.venue ? [`Where: ${event.venue}`] : []),
      `Ticket code: ${ticket.ticketCode} (QR code attached as ${ticketAttachmentName(n)})`,
      `Cannot use this ticket? Cancel it: ${cancelUrl}`,
      '',
    );
    const qr = ticketQrPng(ticket.ticketCode);
    attachments.push({ filename: ticketAttachmentName(n), contentType: 'image/png', content: qr });
  }
  text.push('Show each QR code at the door, or give its code.');
  // the HTML part is this text through the shared layout (server/mail/layout.ts); the cancel links are clickable there
  return { to: order.email, subject, text: text.join('\n'), attachments, topic: `order:${order.id}`, linkOrigin: publicUrl };
}
