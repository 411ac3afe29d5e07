/** The free edition's confirmation email: `svc_rsvp_submitted` at priority 10 (contract). */
import { escapeHtml } from '../../../shared/html';
import { formatWhen } from '../../../shared/time-format';
import type { AppContext } from '../../context';
import type { Hooks } from '../../hooks';
import { PRIORITY_FREE_CONFIRMATION_EMAIL, PRIORITY_PROMOTED_TICKET_EMAIL } from '../../hooks';
import { queueMail } from '../../mail/mailer';
import type { EventRow } from '../events/events.repository';
import { attendeesRepository, type AttendeeRecord } from './attendees.repository';
import { ticketQrPng } from '../../mail/ticket-qr';

export const TICKET_ATTACHMENT = 'ticket.png';

/** `Thu 3 Dec, 18:30–21:00 GMT (London)`: the event's zone, the format the pages show (shared/time-format.ts). */
function formatStart(event: EventRow): string {
  return formatWhen({ startUtc: event.startsUtc, endUtc: event.endsUtc, zone: event.timezone }).place;
}

export async function buildConfirmationMail(publicUrl: string, event: EventRow, attendee: AttendeeRecord) {
  const cancelUrl = `${publicUrl}/cancel/${attendee.cancelToken}`;
  const waitlisted = attendee.status === 'waitlist';
  const subject = waitlisted ? `You are on the waitlist: ${event.title}` : `You are registered: ${event.title}`;
  // A waitlisted attendee is not admitted: no ticket code, no QR, nothing to show at the door.
  const ticketText = waitlisted
    ? [
        'You have no seat yet, so this email carries no ticket. If a seat frees up, the organiser can move you to the guest list.',
        'We will email you if anything changes.',
      ]
    : [`Your ticket code: ${attendee.ticketCode}`, `Show the attached QR code (${TICKET_ATTACHMENT}) at the door, or give this code.`];
  const ticketHtml = waitlisted
    ? `<p>${escapeHtml(ticketText.join(' '))}</p>`
    : `<p>Your ticket code: <code>${escapeHtml(attendee.ticketCode)}</code><br>Show the attached QR code at the door, or give this code.</p>`;
  const lines = [
    `Hello ${attendee.displayName},`,
    '',
    waitlisted ? `You are on the waitlist for ${event.title}.` : `You are registered for ${event.title}.`,
    '',
    `When: ${formatStart(event)}`,
    ...(event.venue ? [`Where: ${event.venue}`] : []),
    `Seats: ${attendee.quantity}`,
    '',
    ...ticketText,
    '',
    waitlisted ? `No longer interested? Leave the waitlist with one click: ${cancelUrl}` : `Cannot come? Cancel with one click: ${cancelUrl}`,
  ];
  const html = [
    `<p>Hello ${escapeHtml(attendee.displayName)},</p>`,
    `<p>${waitlisted ? `You are on the waitlist for <strong>${escapeHtml(event.title)}</strong>.` : `You are registered for <strong>${escapeHtml(event.title)}</strong>.`}</p>`,
    `<p>When: ${escapeHtml(formatStart(event))}<br>${event.venue ? `Where: ${escapeHtml(event.venue)}<br>` : ''}Seats: ${attendee.quantity}</p>`,
    ticketHtml,
    `<p><a href="${escapeHtml(cancelUrl)}">${waitlisted ? 'Leave the waitlist' : 'Cancel my registration'}</a></p>`,
  ].join('\n');
  const attachments = waitlisted
    ? []
    : [
        {
          filename: TICKET_ATTACHMENT,
          contentType: 'image/png',
          content: ticketQrPng(attendee.ticketCode),
        },
      ];
  return { to: attendee.email, subject, text: lines.join('\n'), html, attachments, topic: `attendee:${attendee.id}` };
}

/**
 * Reads the attendee by id, not from the payload: on paid paths the payload's cancel_token
 * may belong to another row (contract). The mail is queued; the job sends it.
 */
export function registerConfirmationMail(hooks: Hooks, ctx: AppContext): void {
  hooks.addAction(
    'svc_rsvp_submitted',
    async (attendeeId: number) => {
      const found = await attendeesRepository(ctx.db).findWithEvent(attendeeId);
      if (!found) return;
      const { attendee, event } = found;
      // A ticket of a paid order came with the order's one email, every ticket in it (docs/api.md#payments).
      if (attendee.orderId !== null) return;
      // A walk-in registered at the door without an email (stored as ''): nobody to mail.
      if (attendee.email === '') return;
      const message = await buildConfirmationMail(ctx.env.publicUrl, event, attendee);
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
      const message = await buildConfirmationMail(ctx.env.publicUrl, event, attendee);
      await queueMail(ctx.db, message, { onceKey: `attendee-promoted:${attendee.id}` });
    },
    PRIORITY_PROMOTED_TICKET_EMAIL,
    3,
  );
}
