import { Show, type JSX } from 'solid-js';
import { t } from '../../i18n/i18n';

/** The booking's meeting link as a term and its value inside a `<dl>`; nothing when it has none (docs/decisions/044-meeting-links.md). */
export function MeetingLinkFact(props: { url: string | null | undefined }): JSX.Element {
  return (
    <Show when={props.url}>
      {(url) => (
        <>
          <dt>{t('book.meetingLink')}</dt>
          <dd>
            <a href={url()} rel="noopener noreferrer" target="_blank">
              {url()}
            </a>
          </dd>
        </>
      )}
    </Show>
  );
}
