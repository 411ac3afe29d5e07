/**
 * The Apple Wallet pass of one attendee's ticket (docs/api.md#wallet-pass,
 * docs/decisions/038-wallet-pass.md): the PDF ticket's facts as an event ticket pass, its QR the
 * ticket code the door accepts, opened with the same keys as the PDF (the cancel link's token, or
 * the sign-up answer's `ticketPdfToken`).
 */
import { AppError } from '../../../shared/errors';
import { utcMs } from '../../../shared/time';
import { hmacHex, safeEqual } from '../../security/crypto';
import { readSigned } from '../../security/nonce';
import { makeWalletPass, walletAvailable, type PassField } from '../../wallet/pass';
import type { EventRow } from '../events/events.repository';
import { attendeesRepository, type AttendeeRecord } from './attendees.repository';
import { PDF_TOKEN_PURPOSE, ticketFacts, type TicketPdfContext, type TicketPdfOptions } from './ticket-pdf.service';
import { walletLogo } from '../images/images.service';

/** A ticket's serial number: stable for the row (the same pass downloaded twice is one pass), and no count of the rows behind it. */
export function ticketPassSerial(secret: string, attendeeId: number): string {
  return `ticket-${hmacHex(secret, `wallet-ticket:${attendeeId}`).slice(0, 32)}`;
}

/** The attendee's ticket as a signed `.pkpass` in their stored language; refuses a waitlisted or cancelled row, and answers 404 without a wallet setup. */
export async function ticketPass(
  ctx: TicketPdfContext,
  attendee: AttendeeRecord,
  knownEvent?: EventRow,
  options: TicketPdfOptions = { manageLink: true },
): Promise<Buffer> {
  if (!walletAvailable(ctx.env)) throw new AppError('svc_wallet_unavailable');
  const [{ event, tr, organization, category, when }, logo] = await Promise.all([ticketFacts(ctx, attendee, knownEvent), walletLogo(ctx.db)]);
  const auxiliary: PassField[] = [
    ...(category ? [{ key: 'category', label: tr('pdf.ticket.category'), value: category }] : []),
    { key: 'seats', label: tr('pdf.ticket.seats'), value: tr('pdf.ticket.seatsValue', { count: attendee.quantity }) },
  ];
  const manage = options.manageLink
    ? { key: 'manage', label: tr('pdf.ticket.manage'), value: `${ctx.env.publicUrl}/cancel/${attendee.cancelToken}` }
    : { key: 'manage', value: tr('pdf.ticket.manageInMail') };
  return makeWalletPass(ctx.env, {
    serialNumber: ticketPassSerial(ctx.secret, attendee.id),
    description: tr('pdf.ticket.documentTitle', { title: event.title }),
    organizationName: organization,
    logo,
    barcode: attendee.ticketCode,
    relevantDate: new Date(utcMs(event.startsUtc)),
    primary: [{ key: 'event', value: event.title }],
    secondary: [
      { key: 'when', label: tr('pdf.ticket.when'), value: when },
      ...(event.venue ? [{ key: 'where', label: tr('pdf.ticket.where'), value: event.venue }] : []),
    ],
    auxiliary,
    back: [
      { key: 'name', label: tr('pdf.ticket.name'), value: attendee.displayName },
      { key: 'code', label: tr('pdf.ticket.code'), value: attendee.ticketCode },
      { key: 'door', value: tr('pdf.ticket.showAtDoor') },
      manage,
    ],
  });
}

/** The pass behind a cancel link's token: unknown (compared in constant time) → 404; waitlisted or cancelled → 409. */
export async function ticketPassByToken(ctx: TicketPdfContext, token: string): Promise<Buffer> {
  if (!walletAvailable(ctx.env)) throw new AppError('svc_wallet_unavailable');
  const attendee = await attendeesRepository(ctx.db).findByCancelToken(token);
  if (!attendee || !safeEqual(attendee.cancelToken, token)) throw new AppError('svc_not_found');
  return ticketPass(ctx, attendee);
}

/** The pass behind a sign-up answer's `ticketPdfToken` (the PDF's key): a bad signature or a row gone → 404; waitlisted or cancelled → 409. */
export async function ticketPassBySignedToken(ctx: TicketPdfContext, token: string): Promise<Buffer> {
  if (!walletAvailable(ctx.env)) throw new AppError('svc_wallet_unavailable');
  const id = Number(readSigned(ctx.secret, PDF_TOKEN_PURPOSE, token));
  const found = Number.isSafeInteger(id) && id > 0 ? await attendeesRepository(ctx.db).findWithEvent(id) : null;
  if (!found) throw new AppError('svc_not_found');
  return ticketPass(ctx, found.attendee, found.event, { manageLink: false });
}
