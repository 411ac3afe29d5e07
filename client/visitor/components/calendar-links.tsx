/**
 * "Add to calendar" as three ways (docs/api.md#calendar-links): the `.ics` file made on the phone
 * when the page has one, and the Google Calendar and Outlook.com composers, filled in by the same
 * builder the mails use (shared/calendar-links.ts). The composers open in a new tab; no referrer
 * goes with them (the page's own URL may hold a cancel token).
 */
import { createMemo, Show, type JSX } from 'solid-js';
import { calendarLinks, type CalendarLinkEvent } from '../../../shared/calendar-links';
import { t } from '../../i18n/i18n';

export interface CalendarFile {
  href: string;
  filename: string;
  label: string;
}

export function CalendarLinks(props: { event: CalendarLinkEvent; file?: CalendarFile | null }): JSX.Element {
  const links = createMemo(() => calendarLinks(props.event));
  return (
    <div class="v-actions calendar-links">
      <Show when={props.file}>
        {(file) => (
          <a class="button" href={file().href} download={file().filename}>
            {file().label}
          </a>
        )}
      </Show>
      <a class="button button-quiet" href={links().google} target="_blank" rel="noopener noreferrer" data-calendar="google">
        {t('calendar.google')}
      </a>
      <a class="button button-quiet" href={links().outlook} target="_blank" rel="noopener noreferrer" data-calendar="outlook">
        {t('calendar.outlook')}
      </a>
    </div>
  );
}
