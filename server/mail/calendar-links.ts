/**
 * A mail's "Google Calendar" and "Outlook" lines (docs/api.md#calendar-links): in the text part
 * a labelled line with the link, in the HTML part the link under its label (server/mail/layout.ts).
 */
import { calendarLinks, type CalendarLinkEvent } from '../../shared/calendar-links';
import type { ServerMessageKey } from '../i18n/translate';
import type { MailLink } from './layout';

type Translate = (key: ServerMessageKey, values?: Record<string, string>) => string;

export interface CalendarLinkLines {
  /** The two lines of the text part, Google's first. */
  lines: string[];
  /** The same lines, for the mail's `links`. */
  links: MailLink[];
}

/** The entry's two composer links as mail lines, in the reader's language. */
export function calendarLinkLines(tr: Translate, event: CalendarLinkEvent): CalendarLinkLines {
  const { google, outlook } = calendarLinks(event);
  const links: MailLink[] = [
    { line: tr('mail.calendar.google', { url: google }), label: tr('mail.calendar.googleLink'), url: google },
    { line: tr('mail.calendar.outlook', { url: outlook }), label: tr('mail.calendar.outlookLink'), url: outlook },
  ];
  return { lines: links.map((link) => link.line), links };
}
