import { createResource, For, onMount, Show, type JSX } from 'solid-js';
import { edition } from '../edition';
import { describeTimelineEntry, getTimeline } from '../timeline-data';
import { parseUtcString } from '../../../shared/time';
import { AsyncView } from './async-view';
import { intlLocale, t } from '../../i18n/i18n';

/** A UTC `Y-m-d H:i:s` time in the event's zone, the zone named ("12 Mar 2025, 19:04:31 CET"). */
export function formatInZone(utc: string, timeZone: string): string {
  const date = parseUtcString(utc);
  if (!date) return utc;
  const options: Intl.DateTimeFormatOptions = {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'short',
  };
  try {
    return new Intl.DateTimeFormat(intlLocale(), { ...options, timeZone }).format(date);
  } catch {
    return new Intl.DateTimeFormat(intlLocale(), { ...options, timeZone: 'UTC' }).format(date);
  }
}

/** The attendee list's "History" button: only where the server keeps a timeline (extended edition). */
export function AttendeeHistoryButton(props: { name: string; onOpen: () => void }): JSX.Element {
  return (
    <Show when={edition() === 'extended'}>
      <button
        type="button"
        class="button button-small button-quiet"
        onClick={() => props.onOpen()}
        aria-label={t('admin.timeline.historyOf', { name: props.name })}
      >
        {t('admin.timeline.history')}
      </button>
    </Show>
  );
}

/**
 * An attendee's history (docs/api.md#timeline), newest first, each time in the event's zone:
 * signed up, status changes, check-ins (how and on which device), cancelled, paid, refunded.
 */
export function AttendeeTimeline(props: { attendeeId: number; name: string; timezone: string; onClose: () => void }): JSX.Element {
  const [timeline, { refetch }] = createResource(() => props.attendeeId, getTimeline);
  let heading: HTMLHeadingElement | undefined;
  onMount(() => heading?.focus());
  const headingId = () => `timeline-heading-${props.attendeeId}`;
  return (
    <section class="section subform attendee-timeline" aria-labelledby={headingId()} data-timeline-for={props.attendeeId}>
      <h2 id={headingId()} tabindex="-1" ref={heading}>
        {t('admin.timeline.historyOf', { name: props.name })}
      </h2>
      <AsyncView
        resource={timeline}
        retry={() => void refetch()}
        what={t('admin.timeline.history')}
        isEmpty={(page) => page.items.length === 0}
        empty={<p class="status-text">{t('admin.timeline.empty')}</p>}
      >
        {(page) => (
          <>
            <ol class="timeline-list">
              <For each={page().items}>
                {(entry) => (
                  <li data-kind={entry.kind}>
                    <time datetime={parseUtcString(entry.atUtc)?.toISOString()}>{formatInZone(entry.atUtc, props.timezone)}</time> —{' '}
                    {describeTimelineEntry(entry)}
                  </li>
                )}
              </For>
            </ol>
            <Show when={page().total > page().items.length}>
              <p class="field-hint">{t('admin.timeline.newest', { shown: page().items.length, total: page().total })}</p>
            </Show>
          </>
        )}
      </AsyncView>
      <div class="button-row">
        <button type="button" class="button button-small button-quiet" onClick={() => void refetch()}>
          {t('admin.common.refresh')}
        </button>
        <button type="button" class="button button-small" onClick={() => props.onClose()}>
          {t('admin.timeline.close')}
        </button>
      </div>
    </section>
  );
}
