/**
 * The PDF ticket of one attendee (docs/api.md#pdf-ticket, docs/decisions/035-pdf-ticket.md):
 * downloaded with the cancel link's token, and attached to the ticket mails, rendered when the
 * mail is sent rather than when it is queued.
 */
import { AppError } from '../../../shared/errors';
import { localeDirection } from '../../../shared/i18n/locales';
import { formatWhen } from '../../../shared/time-format';
import type { AppContext } from '../../context';
import { translator } from '../../i18n/translate';
import { recipientLanguage } from '../../mail/language';
import type { AttachmentRenderers, MailAttachment } from '../../mail/mailer';
import { safeEqual } from '../../security/crypto';
import { readSigned, signValue } from '../../security/nonce';
import { renderTicketPdf } from '../../pdf/ticket-pdf';
import { eventsRepository, type EventRow } from '../events/events.repository';
import { ticketsRepository } from '../orders/tickets.repository';
import { settingsService } from '../settings/settings.service';
import { readLogoJpeg } from '../images/images.service';
import { attendeesRepository, type AttendeeRecord } from './attendees.repository';
import { PRODUCT_NAME } from '../../../shared/organization';

export const TICKET_PDF_TYPE = 'application/pdf';
/** The mail attachment's kind, rendered by `ticketPdfRenderers` when the mail is sent. */
export const TICKET_PDF_RENDER = 'attendee.ticket_pdf';
/** The name on a ticket, pass and receipt where the organization has none (its name is the seller's: docs/decisions/050-organization-identity.md). */
export const DEFAULT_ORGANIZATION_NAME = PRODUCT_NAME;

/** What a PDF ticket needs of the server: its database, hooks (the settings' filters), public URL and secret. */
export type TicketPdfContext = Pick<AppContext, 'db' | 'hooks' | 'env' | 'secret'>;

/** The signed key's purpose; the Wallet pass of the same ticket opens with the same key (docs/decisions/038-wallet-pass.md). */
export const PDF_TOKEN_PURPOSE = 'ticket-pdf';

/**
 * The sign-up answer's key to its PDF ticket (`GET /tickets/signed/{ticketPdfToken}/ticket.pdf`):
 * the row's id, signed. The answer may not carry the cancel token (SPEC §3), so this key opens
 * the PDF only, and that PDF leaves the cancel link out: it stays in the mail.
 */
export function ticketPdfTokenOf(secret: string, attendeeId: number): string {
  return signValue(secret, PDF_TOKEN_PURPOSE, String(attendeeId));
}

export interface TicketPdfOptions {
  /** The cancel/manage link on the page (false when the PDF was opened with the sign-up answer's key). */
  manageLink: boolean;
}

/** Only a ticket that admits someone is printed: a waitlisted or cancelled row has nothing to show at the door. */
export function assertAdmits(attendee: AttendeeRecord): void {
  if (attendee.status === 'waitlist') throw new AppError('svc_ticket_waitlist');
  if (attendee.status === 'cancelled') throw new AppError('svc_ticket_cancelled');
  // an old row's empty status reads as going (SPEC §3); any other value admits nobody
  if (attendee.status !== 'going' && attendee.status !== '') throw new AppError('svc_not_found');
}

/**
 * What a kept ticket (the PDF, the Wallet pass) says, in the attendee's stored language: its
 * event, the organization, its ticket type and the time on the place's clock with its zone.
 * Refuses a waitlisted or cancelled row.
 */
export async function ticketFacts(ctx: TicketPdfContext, attendee: AttendeeRecord, knownEvent?: EventRow) {
  assertAdmits(attendee);
  const event = knownEvent ?? (await eventsRepository(ctx.db).findById(attendee.eventId));
  if (!event) throw new AppError('svc_not_found');
  const [locale, seller, categoryNames] = await Promise.all([
    recipientLanguage(ctx.db, attendee.language, event.language),
    settingsService(ctx).seller(),
    attendee.ticketCategoryId === null ? null : ticketsRepository(ctx.db).namesOf([attendee.ticketCategoryId]),
  ]);
  return {
    event,
    locale,
    tr: translator(locale),
    organization: seller.sellerName.trim() || DEFAULT_ORGANIZATION_NAME,
    category: attendee.ticketCategoryId === null ? undefined : categoryNames?.get(attendee.ticketCategoryId),
    // the place's clock and zone: a printed ticket or a pass shows text, so no phone re-zones it
    when: formatWhen({ startUtc: event.startsUtc, endUtc: event.endsUtc, zone: event.timezone, locale }).place,
  };
}

/** The attendee's ticket as an A4 PDF, in their stored language; refuses a waitlisted or cancelled row. */
export async function ticketPdf(
  ctx: TicketPdfContext,
  attendee: AttendeeRecord,
  knownEvent?: EventRow,
  options: TicketPdfOptions = { manageLink: true },
): Promise<Uint8Array> {
  // the logo of the moment it is rendered, as the name (docs/decisions/050-organization-identity.md)
  const [{ event, locale, tr, organization, category, when }, logo] = await Promise.all([ticketFacts(ctx, attendee, knownEvent), readLogoJpeg(ctx.db)]);
  const fields = [
    { label: tr('pdf.ticket.when'), value: when },
    ...(event.venue ? [{ label: tr('pdf.ticket.where'), value: event.venue }] : []),
    ...(category ? [{ label: tr('pdf.ticket.category'), value: category }] : []),
    { label: tr('pdf.ticket.name'), value: attendee.displayName },
    { label: tr('pdf.ticket.seats'), value: tr('pdf.ticket.seatsValue', { count: attendee.quantity }) },
  ];
  return renderTicketPdf({
    language: locale,
    direction: localeDirection(locale),
    documentTitle: tr('pdf.ticket.documentTitle', { title: event.title }),
    organization,
    logo,
    eventTitle: event.title,
    fields,
    code: attendee.ticketCode,
    codeLabel: tr('pdf.ticket.code'),
    note: tr('pdf.ticket.showAtDoor'),
    manage: options.manageLink
      ? { label: tr('pdf.ticket.manage'), url: `${ctx.env.publicUrl}/cancel/${attendee.cancelToken}` }
      : { label: tr('pdf.ticket.manageInMail'), url: null },
  });
}

/** The ticket behind a cancel link's token: unknown (compared in constant time) → 404; waitlisted or cancelled → 409. */
export async function ticketPdfByToken(ctx: TicketPdfContext, token: string): Promise<Uint8Array> {
  const attendee = await attendeesRepository(ctx.db).findByCancelToken(token);
  if (!attendee || !safeEqual(attendee.cancelToken, token)) throw new AppError('svc_not_found');
  return ticketPdf(ctx, attendee);
}

/** The ticket behind a sign-up answer's `ticketPdfToken`: a bad signature or a row gone → 404; waitlisted or cancelled → 409. */
export async function ticketPdfBySignedToken(ctx: TicketPdfContext, token: string): Promise<Uint8Array> {
  const id = Number(readSigned(ctx.secret, PDF_TOKEN_PURPOSE, token));
  const found = Number.isSafeInteger(id) && id > 0 ? await attendeesRepository(ctx.db).findWithEvent(id) : null;
  if (!found) throw new AppError('svc_not_found');
  return ticketPdf(ctx, found.attendee, found.event, { manageLink: false });
}

/** A mail's `ticket.pdf` (or `ticket-2.pdf`): named now, rendered when the mail is sent. */
export function ticketPdfAttachment(filename: string, attendeeId: number): MailAttachment {
  return { filename, contentType: TICKET_PDF_TYPE, render: { kind: TICKET_PDF_RENDER, id: attendeeId } };
}

/**
 * Renders a queued mail's ticket when the mail goes out. A ticket cancelled or deleted since the
 * mail was queued is left out (null): the mail goes without it rather than print a dead ticket.
 */
export function ticketPdfRenderers(ctx: TicketPdfContext): AttachmentRenderers {
  return {
    [TICKET_PDF_RENDER]: async (attendeeId) => {
      const found = await attendeesRepository(ctx.db).findWithEvent(attendeeId);
      if (!found) return null;
      try {
        return Buffer.from(await ticketPdf(ctx, found.attendee, found.event));
      } catch (err) {
        if (err instanceof AppError && err.data.status < 500) return null;
        throw err;
      }
    },
  };
}
