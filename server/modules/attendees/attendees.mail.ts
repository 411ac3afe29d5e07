/** The free edition's confirmation email: `svc_rsvp_submitted` at priority 10 (contract). */
import { venueMail } from '../events/venue-lines';
import { formatWhen } from '../../../shared/time-format';
import type { AppContext } from '../../context';
import type { Hooks } from '../../hooks';
import { PRIORITY_FREE_CONFIRMATION_EMAIL, PRIORITY_PROMOTED_TICKET_EMAIL } from '../../hooks';
import { buildIcs, calendarUid } from '../../mail/ics';
import { calendarLinkLines } from '../../mail/calendar-links';
import { queueMail, senderAddress, type AttachmentRenderers, type MailAttachment } from '../../mail/mailer';
import { CALENDAR_LENGTH_WITHOUT_END_MS, toUtcString, utcMs } from '../../../shared/time';
import type { EventRow } from '../events/events.repository';
import { attendeesRepository, type AttendeeRecord } from './attendees.repository';
import { ticketQrPng } from '../../mail/ticket-qr';
import { recipientLanguage } from '../../mail/language';
import { translator } from '../../i18n/translate';
import type { Locale } from '../../../shared/i18n/locales';
import { priceLinesOf, ticketRowPriceOf } from '../orders/ticket-price.service';
import { ticketPdfAttachment } from './ticket-pdf.service';

export const TICKET_ATTACHMENT = 'ticket.png';
/** The ticket to print or keep (docs/api.md#pdf-ticket), rendered when the mail is sent. */
export const TICKET_PDF_ATTACHMENT = 'ticket.pdf';
export const CALENDAR_ATTACHMENT = 'event.ics';
/** The confirmation's `ticket.png`, drawn by `ticketQrRenderers` when the mail is sent. */
export const TICKET_QR_RENDER = 'attendee.ticket_qr';

/**
 * The confirmation's QR code: named now, drawn when the mail goes out, as its PDF is. Laying out
 * a QR code (the eight masks scored) was the largest single cost of a sign-up's request in a
 * rush; the mail job pays it instead (docs/decisions/022-prepared-statements.md).
 */
export function ticketQrAttachment(attendeeId: number): MailAttachment {
  return { filename: TICKET_ATTACHMENT, contentType: 'image/png', render: { kind: TICKET_QR_RENDER, id: attendeeId } };
}

/**
 * Draws a queued confirmation's QR code from the row's ticket code when the mail is sent, whatever
 * the row's status since (the mail was true when queued; the door decides). A row deleted since
 * (an erased person) leaves it out.
 */
export function ticketQrRenderers(ctx: Pick<AppContext, 'db'>): AttachmentRenderers {
  return {
    [TICKET_QR_RENDER]: async (attendeeId) => {
      const attendee = await attendeesRepository(ctx.db).findById(attendeeId);
      return attendee?.ticketCode ? ticketQrPng(attendee.ticketCode) : null;
    },
  };
}

/** What the confirmation needs of the server: its public URL, sender and secret (for the calendar UID). */
export type ConfirmationMailContext = Pick<AppContext, 'secret' | 'env'>;

/** `Thu 3 Dec, 18:30–21:00 GMT (London)`: the event's zone, the format the pages show (shared/time-format.ts), in the reader's language. */
export function formatStart(event: EventRow, locale: Locale): string {
  return formatWhen({ startUtc: event.startsUtc, endUtc: event.endsUtc, zone: event.timezone, locale }).place;
}

/**
 * The attendee's calendar entry: one UID per attendee row with the site's domain (the sign-up
 * page's "Add to calendar" file carries the same one), so a later update or cancel matches it.
 */
function eventInvite(ctx: ConfirmationMailContext, event: EventRow, attendee: AttendeeRecord, cancelUrl: string, locale: Locale): string {
  const from = senderAddress(ctx.env.SVC_MAIL_FROM);
  return buildIcs({
    method: 'REQUEST',
    uid: calendarUid(ctx, 'attendee', attendee.id),
    stampUtc: toUtcString(Date.now()),
    startUtc: event.startsUtc,
    endUtc: event.endsUtc ?? toUtcString(utcMs(event.startsUtc) + CALENDAR_LENGTH_WITHOUT_END_MS),
    summary: event.title,
    description: translator(locale)('ics.signup.description', { url: cancelUrl }),
    location: event.venue || undefined,
    url: cancelUrl,
    organizer: { name: 'svc', email: from },
    attendee: { name: attendee.displayName, email: attendee.email },
    sequence: 0,
  });
}

/** A ticket category's part of the mail: its name, and the price's lines when it is priced. */
export interface TicketMailPrice {
  categoryName: string;
  /** The seats' price and "Pay at the door: £18.00" (server/modules/orders/ticket-price.service.ts); empty for a free category. */
  lines: string[];
}

/** The ticket (or waitlist) mail, in the attendee's stored language (`locale`; see server/mail/language.ts). */
export async function buildConfirmationMail(
  ctx: ConfirmationMailContext,
  event: EventRow,
  attendee: AttendeeRecord,
  locale: Locale,
  ticket: TicketMailPrice | null = null,
) {
  const tr = translator(locale);
  const publicUrl = ctx.env.publicUrl;
  const cancelUrl = `${publicUrl}/cancel/${attendee.cancelToken}`;
  const waitlisted = attendee.status === 'waitlist';
  const title = event.title;
  const subject = waitlisted ? tr('mail.signup.subjectWaitlisted', { title }) : tr('mail.signup.subjectRegistered', { title });
  // the composer links carry what the attached event.ics carries: times, title, place, the cancel link
  const calendar = waitlisted
    ? null
    : calendarLinkLines(tr, {
        title,
        startUtc: event.startsUtc,
        endUtc: event.endsUtc,
        location: event.venue,
        details: tr('ics.signup.description', { url: cancelUrl }),
      });
  // A waitlisted attendee is not admitted: no ticket code, no QR, nothing to show at the door.
  const ticketText = calendar
    ? [
        tr('mail.signup.ticketCode', { code: attendee.ticketCode }),
        tr('mail.signup.showQr', { file: TICKET_ATTACHMENT }),
        tr('mail.signup.pdfTicket', { file: TICKET_PDF_ATTACHMENT }),
        tr('mail.signup.addToCalendar', { file: CALENDAR_ATTACHMENT }),
        ...calendar.lines,
      ]
    : [tr('mail.signup.noTicket'), tr('mail.signup.willEmail')];
  const place = venueMail(tr, event);
  const lines = [
    tr('mail.hello', { name: attendee.displayName }),
    '',
    waitlisted ? tr('mail.signup.leadWaitlisted', { title }) : tr('mail.signup.leadRegistered', { title }),
    '',
    tr('mail.when', { when: formatStart(event, locale) }),
    ...place.lines,
    tr('mail.seats', { count: attendee.quantity }),
    ...(ticket ? [tr('mail.ticketType', { name: ticket.categoryName })] : []),
    // what a waitlisted row would pay is not due: nothing is priced until it holds a seat
    ...(ticket && !waitlisted && ticket.lines.length > 0 ? ['', ...ticket.lines] : []),
    '',
    ...ticketText,
    '',
    waitlisted ? tr('mail.signup.leaveWaitlist', { url: cancelUrl }) : tr('mail.signup.cancel', { url: cancelUrl }),
  ];
  const attachments = waitlisted
    ? []
    : [
        ticketQrAttachment(attendee.id),
        {
          filename: CALENDAR_ATTACHMENT,
          contentType: 'text/calendar; charset=utf-8; method=REQUEST',
          content: eventInvite(ctx, event, attendee, cancelUrl, locale),
        },
        ticketPdfAttachment(TICKET_PDF_ATTACHMENT, attendee.id),
      ];
  // the HTML part is this text through the shared layout (server/mail/layout.ts); the cancel link is clickable there
  return {
    to: attendee.email,
    subject,
    text: lines.join('\n'),
    attachments,
    topic: `attendee:${attendee.id}`,
    linkOrigin: publicUrl,
    links: [...place.links, ...(calendar?.links ?? [])],
    language: locale,
  };
}

/**
 * A category row's name and price for its mail. Nothing was charged online for a row without an
 * order, so a priced one says what to pay at the door.
 */
export async function ticketPartOf(ctx: AppContext, attendee: AttendeeRecord, locale: Locale): Promise<TicketMailPrice | null> {
  const price = await ticketRowPriceOf(ctx.db, attendee);
  if (!price) return null;
  const categoryName = price.categoryNames.get(attendee.ticketCategoryId!)!;
  const priced = price.priced?.lines.some((l) => l.unitPriceCents > 0) ?? false;
  return { categoryName, lines: priced ? await priceLinesOf(ctx, price, { locale, onlinePayment: false }) : [] };
}

/**
 * Rows whose `svc_rsvp_submitted` runs now without the ticket mail (an admin add with notify:
 * false), per server (its hooks): two servers in one process never quiet each other's rows.
 */
const unmailed = new WeakMap<Hooks, Set<number>>();
const unmailedOf = (hooks: Hooks) => {
  let rows = unmailed.get(hooks);
  if (!rows) unmailed.set(hooks, (rows = new Set()));
  return rows;
};

/**
 * Runs `fire` (the rows' `svc_rsvp_submitted`) with their confirmation mail left out: the action
 * still reaches every listener, the free edition's mail listener only stays quiet. Whoever fires
 * the announcement (the writer, or a runner after a crash) wraps it, so notify: false holds either way.
 */
export async function withoutTicketMail<T>(hooks: Hooks, attendeeIds: number[], fire: () => Promise<T>): Promise<T> {
  const rows = unmailedOf(hooks);
  for (const id of attendeeIds) rows.add(id);
  try {
    return await fire();
  } finally {
    for (const id of attendeeIds) rows.delete(id);
  }
}

/** The ticket (or waitlist) mail again, for a resend: the confirmation as it is built, in the row's stored language. */
export async function ticketMailOf(ctx: AppContext, attendee: AttendeeRecord, event: EventRow) {
  const locale = await recipientLanguage(ctx.db, attendee.language, event.language);
  return buildConfirmationMail(ctx, event, attendee, locale, await ticketPartOf(ctx, attendee, locale));
}

/**
 * An administrator's message to one attendee: their words as subject and body, framed (greeting,
 * what it is about, the link to their sign-up) in the attendee's stored language.
 */
export async function attendeeMessageMail(ctx: AppContext, attendee: AttendeeRecord, event: EventRow, message: { subject: string; body: string }) {
  const locale = await recipientLanguage(ctx.db, attendee.language, event.language);
  const tr = translator(locale);
  const url = `${ctx.env.publicUrl}/cancel/${attendee.cancelToken}`;
  const lines = [
    attendee.displayName ? tr('mail.hello', { name: attendee.displayName }) : tr('mail.helloNoName'),
    '',
    message.body,
    '',
    '--',
    tr('mail.message.about', { title: event.title, when: formatStart(event, locale) }),
    tr('mail.message.footer', { title: event.title, url }),
  ];
  return {
    to: attendee.email,
    subject: message.subject,
    text: lines.join('\n'),
    topic: `attendee:${attendee.id}`,
    linkOrigin: ctx.env.publicUrl,
    language: locale,
  };
}
/** The once key of the ticket mail a row moved off the waitlist gets (by an administrator or a promotion): one mail ever. */
export const promotedTicketOnceKey = (attendeeId: number) => `attendee-promoted:${attendeeId}`;

/**
 * Reads the attendee by id, not from the payload: on paid paths the payload's cancel_token
 * may belong to another row (contract). The mail is queued; the job sends it.
 */
export function registerConfirmationMail(hooks: Hooks, ctx: AppContext): void {
  hooks.addAction(
    'svc_rsvp_submitted',
    async (attendeeId: number) => {
      // an attendee an administrator added with notify: false (attendees.bulk.ts)
      if (unmailedOf(hooks).has(attendeeId)) return;
      const found = await attendeesRepository(ctx.db).findWithEvent(attendeeId);
      if (!found) return;
      const { attendee, event } = found;
      // A ticket of a paid order came with the order's one email, every ticket in it (docs/api.md#payments).
      if (attendee.orderId !== null) return;
      // A walk-in registered at the door without an email (stored as ''): nobody to mail.
      if (attendee.email === '') return;
      const locale = await recipientLanguage(ctx.db, attendee.language, event.language);
      const message = await buildConfirmationMail(ctx, event, attendee, locale, await ticketPartOf(ctx, attendee, locale));
      // Once ever: a replayed announcement (crash recovery) does not mail the ticket twice.
      await queueMail(ctx.db, message, { onceKey: `attendee-confirmation:${attendee.id}` });
    },
    PRIORITY_FREE_CONFIRMATION_EMAIL,
    1,
  );
  // The waitlist mail carries no ticket: moved to going, the attendee is mailed the ticket they now hold.
  hooks.addAction(
    'svc_attendee_status_changed',
    async (attendeeId: number, status: string, oldStatus: string) => {
      if (status !== 'going' || oldStatus !== 'waitlist') return;
      const found = await attendeesRepository(ctx.db).findWithEvent(attendeeId);
      if (!found) return;
      const { attendee, event } = found;
      if (attendee.status !== 'going' || attendee.email === '') return;
      const locale = await recipientLanguage(ctx.db, attendee.language, event.language);
      const message = await buildConfirmationMail(ctx, event, attendee, locale, await ticketPartOf(ctx, attendee, locale));
      await queueMail(ctx.db, message, { onceKey: promotedTicketOnceKey(attendee.id) });
    },
    PRIORITY_PROMOTED_TICKET_EMAIL,
    3,
  );
}
