/** The free edition's confirmation email: `svc_rsvp_submitted` at priority 10 (contract). */
import { escapeHtml } from '../../../shared/html';
import QRCode from 'qrcode';
import { utcMs } from '../../../shared/time';
import type { AppContext } from '../../context';
import type { Hooks } from '../../hooks';
import { PRIORITY_FREE_CONFIRMATION_EMAIL } from '../../hooks';
import { queueMail } from '../../mail/mailer';
import { eventsRepository, type EventRow } from '../events/events.repository';
import { attendeesRepository, type AttendeeRecord } from './attendees.repository';

export const TICKET_ATTACHMENT = 'ticket.png';

function formatStart(event: EventRow): string {
  const when = new Date(utcMs(event.startsUtc));
  const local = new Intl.DateTimeFormat('en-GB', { timeZone: event.timezone, dateStyle: 'full', timeStyle: 'short' }).format(when);
  return `${local} (${event.timezone})`;
}

export async function buildConfirmationMail(publicUrl: string, event: EventRow, attendee: AttendeeRecord) {
  const cancelUrl = `${publicUrl}/cancel/${attendee.cancelToken}`;
  const waitlisted = attendee.status === 'waitlist';
  const subject = waitlisted ? `You are on the waitlist: ${event.title}` : `You are registered: ${event.title}`;
  const lines = [
    `Hello ${attendee.displayName},`,
    '',
    waitlisted ? `You are on the waitlist for ${event.title}. We will let you know if a seat becomes free.` : `You are registered for ${event.title}.`,
    '',
    `When: ${formatStart(event)}`,
    ...(event.venue ? [`Where: ${event.venue}`] : []),
    `Seats: ${attendee.quantity}`,
    '',
    `Your ticket code: ${attendee.ticketCode}`,
    `Show the attached QR code (${TICKET_ATTACHMENT}) at the door, or give this code.`,
    '',
    `Cannot come? Cancel with one click: ${cancelUrl}`,
  ];
  const html = [
    `<p>Hello ${escapeHtml(attendee.displayName)},</p>`,
    `<p>${waitlisted ? `You are on the waitlist for <strong>${escapeHtml(event.title)}</strong>.` : `You are registered for <strong>${escapeHtml(event.title)}</strong>.`}</p>`,
    `<p>When: ${escapeHtml(formatStart(event))}<br>${event.venue ? `Where: ${escapeHtml(event.venue)}<br>` : ''}Seats: ${attendee.quantity}</p>`,
    `<p>Your ticket code: <code>${escapeHtml(attendee.ticketCode)}</code><br>Show the attached QR code at the door, or give this code.</p>`,
    `<p><a href="${escapeHtml(cancelUrl)}">Cancel my registration</a></p>`,
  ].join('\n');
  const qr = await QRCode.toBuffer(attendee.ticketCode, { type: 'png', errorCorrectionLevel: 'M', margin: 2, scale: 6 });
  return {
    to: attendee.email,
    subject,
    text: lines.join('\n'),
    html,
    attachments: [{ filename: TICKET_ATTACHMENT, contentType: 'image/png', content: qr }],
    topic: `attendee:${attendee.id}`,
  };
}

/**
 * Reads the attendee by id, not from the payload: on paid paths the payload's cancel_token
 * may belong to another row (contract). The mail is queued; the job sends it.
 */
export function registerConfirmationMail(hooks: Hooks, ctx: AppContext): void {
  hooks.addAction(
    'svc_rsvp_submitted',
    async (attendeeId: number) => {
      const attendee = await attendeesRepository(ctx.db).findById(attendeeId);
      // A ticket of a paid order came with the order's one email, every ticket in it (docs/api.md#payments).
      if (!attendee || attendee.orderId !== null) return;
      const event = await eventsRepository(ctx.db).findById(attendee.eventId);
      if (!event) return;
      const message = await buildConfirmationMail(ctx.env.publicUrl, event, attendee);
      // Once ever: a replayed announcement (crash recovery) does not mail the ticket twice.
      await queueMail(ctx.db, message, { onceKey: `attendee-confirmation:${attendee.id}` });
    },
    PRIORITY_FREE_CONFIRMATION_EMAIL,
    1,
  );
}
