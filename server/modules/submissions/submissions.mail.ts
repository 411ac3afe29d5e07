/** The mails a submitter gets (docs/api.md#event-submission): on receipt, on publish and on reject; the HTML part comes from the text (server/mail/layout.ts). */
import { utcMs } from '../../../shared/time';
import type { MailMessage } from '../../mail/mailer';
import type { EventRow } from '../events/events.repository';

export type SubmissionMailKind = 'received' | 'published' | 'rejected';

/** One mail per kind per proposal, however often its cause is replayed. */
export const submissionMailKey = (kind: SubmissionMailKind, eventId: number) => `event-submission:${eventId}:${kind}`;

function formatWhen(event: EventRow): string {
  const format = (utc: string) =>
    new Intl.DateTimeFormat('en-GB', { timeZone: event.timezone, dateStyle: 'full', timeStyle: 'short' }).format(new Date(utcMs(utc)));
  const ends = event.endsUtc ? ` until ${format(event.endsUtc)}` : '';
  return `${format(event.startsUtc)}${ends} (${event.timezone})`;
}

export function buildSubmissionMail(kind: SubmissionMailKind, publicUrl: string, event: EventRow, reason = ''): MailMessage {
  const details = [`Event: ${event.title}`, `When: ${formatWhen(event)}`, ...(event.venue ? [`Where: ${event.venue}`] : [])];
  const greeting = [`Hello ${event.submitterName ?? ''},`.replace(' ,', ','), ''];
  let subject: string;
  let body: string[];
  switch (kind) {
    case 'received':
      subject = `We received your event proposal: ${event.title}`;
      body = ['Thank you for proposing an event. We will review it and email you when it is decided.', '', ...details];
      break;
    case 'published':
      subject = `Your event is published: ${event.title}`;
      body = ['Good news: the event you proposed is now published.', '', ...details, '', `See it here: ${publicUrl}/events/${event.id}`];
      break;
    case 'rejected':
      subject = `Your event proposal was not accepted: ${event.title}`;
      body = ['Thank you for your proposal. We are sorry, but we will not publish this event.', ...(reason ? ['', `Reason: ${reason}`] : []), '', ...details];
      break;
  }
  return { to: event.submitterEmail ?? '', subject, text: [...greeting, ...body].join('\n'), topic: `event-submission:${event.id}`, linkOrigin: publicUrl };
}
