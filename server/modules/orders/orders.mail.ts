/** One email for a paid order, with every ticket's QR code and its own cancel link (docs/api.md#payments). */
import { venueMail } from '../events/venue-lines';
import { formatWhen } from '../../../shared/time-format';
import type { MailMessage } from '../../mail/mailer';
import type { AttendeeRecord } from '../attendees/attendees.repository';
import type { EventRow } from '../events/events.repository';
import type { OrderRow } from './payments.repository';
import { ticketQrPng } from '../../mail/ticket-qr';
import { calendarLinkLines } from '../../mail/calendar-links';
import { ticketPdfAttachment } from '../attendees/ticket-pdf.service';
import { RECEIPT_FILE, receiptAttachment } from './receipt-files';
import { translator } from '../../i18n/translate';
import type { Locale } from '../../../shared/i18n/locales';

/** `Thu 3 Dec, 18:30–21:00 GMT (London)`: the event's zone, the format the pages show (shared/time-format.ts). */
function formatStart(event: EventRow, locale: Locale): string {
  return formatWhen({ startUtc: event.startsUtc, endUtc: event.endsUtc, zone: event.timezone, locale }).place;
}

/** Money as the reader writes it (`£12.50`, `12,50 €`); English keeps the `en-GB` form mails have always had. */
/** One formatter per language and currency: making an `Intl.NumberFormat` costs far more than using one. */
const amountFormats = new Map<string, Intl.NumberFormat>();

export function formatAmount(amountCents: number, currency: string, locale: Locale = 'en'): string {
  try {
    const key = `${locale}|${currency}`;
    let format = amountFormats.get(key);
    if (!format) {
      format = new Intl.NumberFormat(locale === 'en' ? 'en-GB' : locale, { style: 'currency', currency });
      amountFormats.set(key, format);
    }
    return format.format(amountCents / 100);
  } catch {
    return `${(amountCents / 100).toFixed(2)} ${currency}`;
  }
}

/** `ticket-1.png`, `ticket-2.png`…: one QR per ticket, in the order the tickets are listed. */
export const ticketAttachmentName = (n: number) => `ticket-${n}.png`;
/** `ticket-1.pdf`, `ticket-2.pdf`…: each ticket to print or keep, rendered when the mail is sent (docs/api.md#pdf-ticket). */
export const ticketPdfAttachmentName = (n: number) => `ticket-${n}.pdf`;

/** What the order's mail says it cost (server/modules/orders/ticket-price.service.ts); absent for a shop's order. */
export interface OrderMailPrice {
  /** The price's lines: tickets, code, net, tax, total and seller. */
  lines: string[];
  /** Category names by id: each ticket's heading names its category. */
  categoryNames: ReadonlyMap<number, string>;
}

/** The order's one mail, in the order's stored language (`locale`; see server/mail/language.ts). */
export async function buildOrderMail(
  publicUrl: string,
  order: OrderRow,
  eventsById: Map<number, EventRow>,
  tickets: AttendeeRecord[],
  locale: Locale,
  price: OrderMailPrice | null = null,
  opts: { receipt: boolean } = { receipt: false },
): Promise<MailMessage> {
  const tr = translator(locale);
  const count = tickets.length;
  const titles = [...new Set(tickets.map((t) => eventsById.get(t.eventId)?.title ?? ''))];
  const subject = tr('mail.order.subject', { count, titles: titles.join(', ') });
  // the order number is an identifier, not a quantity: never grouped (`#1234`, not `#1,234`)
  const text: string[] = [tr('mail.hello', { name: order.name }), '', tr('mail.order.thanks', { orderId: String(order.id), count }), ''];
  if (price && price.lines.length > 0) text.push(...price.lines, '');
  if (order.amountCents > 0) {
    text.push(tr('receipt.paid', { amount: formatAmount(order.amountCents, order.currency, locale) }), '');
  }
  const attachments: NonNullable<MailMessage['attachments']> = [];
  const links: NonNullable<MailMessage['links']> = [];
  for (const [i, ticket] of tickets.entries()) {
    const event = eventsById.get(ticket.eventId)!;
    const n = i + 1;
    const cancelUrl = `${publicUrl}/cancel/${ticket.cancelToken}`;
    const category = ticket.ticketCategoryId === null ? undefined : price?.categoryNames.get(ticket.ticketCategoryId);
    // each ticket's entry carries its own cancel link, as its calendar file would
    const calendar =
      ticket.status === 'going'
        ? calendarLinkLines(tr, {
            title: event.title,
            startUtc: event.startsUtc,
            endUtc: event.endsUtc,
            location: event.venue,
            details: tr('ics.signup.description', { url: cancelUrl }),
          })
        : null;
    if (calendar) links.push(...calendar.links);
    const place = venueMail(tr, event);
    links.push(...place.links);
    text.push(
      category === undefined
        ? tr('mail.order.ticketOf', { n, count, title: event.title })
        : tr('mail.order.ticketOfCategory', { n, count, title: event.title, category }),
      tr('mail.when', { when: formatStart(event, locale) }),
      ...place.lines,
      tr('mail.order.ticketCode', { code: ticket.ticketCode, file: ticketAttachmentName(n) }),
      tr('mail.order.cancel', { url: cancelUrl }),
      ...(calendar?.lines ?? []),
      '',
    );
    const qr = ticketQrPng(ticket.ticketCode);
    attachments.push({ filename: ticketAttachmentName(n), contentType: 'image/png', content: qr });
  }
  // the PDFs after the QR images: every ticket's files keep the places they always had
  for (const [i, ticket] of tickets.entries()) attachments.push(ticketPdfAttachment(ticketPdfAttachmentName(i + 1), ticket.id));
  text.push(tr('mail.order.showQr'), tr('mail.order.pdfTickets'));
  // the receipt goes last, rendered from the receipt issued in the same transaction (docs/api.md#receipts)
  if (opts.receipt) {
    attachments.push(receiptAttachment(order.id));
    text.push('', tr('mail.order.receiptAttached', { file: RECEIPT_FILE }));
  }
  // the HTML part is this text through the shared layout (server/mail/layout.ts); the cancel links are clickable there
  return { to: order.email, subject, text: text.join('\n'), attachments, topic: `order:${order.id}`, linkOrigin: publicUrl, links, language: locale };
}
