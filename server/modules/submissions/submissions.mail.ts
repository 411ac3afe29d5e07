/**
 * The mails a submitter gets (docs/api.md#event-submission): on receipt, on publish and on reject;
 * the HTML part comes from the text (server/mail/layout.ts). Written in the proposed event's
 * language, else the organization's (server/mail/language.ts).
 */
import { utcMs } from '../../../shared/time';
import type { Locale } from '../../../shared/i18n/locales';
import { translator } from '../../i18n/translate';
import type { MailMessage } from '../../mail/mailer';
import type { EventRow } from '../events/events.repository';

export type SubmissionMailKind = 'received' | 'published' | 'rejected';

/** One mail per kind per proposal, however often its cause is replayed. */
export const submissionMailKey = (kind: SubmissionMailKind, eventId: number) => `event-submission:${eventId}:${kind}`;

/** English keeps the `en-GB` form these mails have always had. */
function formatWhen(event: EventRow, locale: Locale): string {
  const format = (utc: string) =>
    new Intl.DateTimeFormat(locale === 'en' ? 'en-GB' : locale, { timeZone: event.timezone, dateStyle: 'full', timeStyle: 'short' }).format(
      new Date(utcMs(utc)),
    );
  const span = event.endsUtc
    ? translator(locale)('mail.submission.range', { start: format(event.startsUtc), end: format(event.endsUtc) })
    : format(event.startsUtc);
  return `${span} (${event.timezone})`;
}

export function buildSubmissionMail(kind: SubmissionMailKind, publicUrl: string, event: EventRow, locale: Locale, reason = ''): MailMessage {
  const tr = translator(locale);
  const title = event.title;
  const details = [
    tr('mail.submission.event', { title }),
    tr('mail.when', { when: formatWhen(event, locale) }),
    ...(event.venue ? [tr('mail.where', { where: event.venue })] : []),
  ];
  const greeting = [event.submitterName ? tr('mail.hello', { name: event.submitterName }) : tr('mail.helloNoName'), ''];
  let subject: string;
  let body: string[];
  switch (kind) {
    case 'received':
      subject = tr('mail.submission.subjectReceived', { title });
      body = [tr('mail.submission.bodyReceived'), '', ...details];
      break;
    case 'published':
      subject = tr('mail.submission.subjectPublished', { title });
      body = [tr('mail.submission.bodyPublished'), '', ...details, '', tr('mail.submission.seeIt', { url: `${publicUrl}/events/${event.id}` })];
      break;
    case 'rejected':
      subject = tr('mail.submission.subjectRejected', { title });
      body = [tr('mail.submission.bodyRejected'), ...(reason ? ['', tr('mail.submission.reason', { reason })] : []), '', ...details];
      break;
  }
  return {
    to: event.submitterEmail ?? '',
    subject,
    text: [...greeting, ...body].join('\n'),
    topic: `event-submission:${event.id}`,
    linkOrigin: publicUrl,
    language: locale,
  };
}
