import { createResource, For, onMount, Show, type JSX } from 'solid-js';
import { edition } from '../edition';
import { getTimeline, type TimelineEntryDto } from '../timeline-data';
import { parseUtcString } from '../../../shared/time';
import { AsyncView } from './async-view';

/** How a check-in was made, in plain words (docs/api.md#checkin "source"). */
const SOURCE_WORDS: Record<string, string> = { scan: 'QR scan', manual: 'by hand', search: 'name search', rest: 'API' };

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const statusWord = (value: unknown): string => text(value) || '(none)';

/** One entry in plain words: "Status changed from waitlist to going". */
export function describeTimelineEntry(entry: TimelineEntryDto): string {
  const d = entry.data;
  switch (entry.kind) {
    case 'submitted': {
      const seats = typeof d.quantity === 'number' ? `${d.quantity} seat${d.quantity === 1 ? '' : 's'}` : '';
      const detail = [seats, text(d.status)].filter(Boolean).join(', ');
      return detail ? `Signed up (${detail})` : 'Signed up';
    }
    case 'status_changed':
      return `Status changed from ${statusWord(d.old)} to ${statusWord(d.new)}`;
    case 'checked_in': {
      const how = [SOURCE_WORDS[text(d.source)] ?? text(d.source), text(d.device)].filter(Boolean).join(', ');
      return how ? `Checked in (${how})` : 'Checked in';
    }
    case 'cancelled':
      return 'Cancelled (seat released)';
    case 'paid':
      return typeof d.orderId === 'number' ? `Paid (order #${d.orderId})` : 'Paid';
    case 'refunded':
      return typeof d.orderId === 'number' ? `Refunded (order #${d.orderId})` : 'Refunded';
  }
}

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
    return new Intl.DateTimeFormat(undefined, { ...options, timeZone }).format(date);
  } catch {
    return new Intl.DateTimeFormat(undefined, { ...options, timeZone: 'UTC' }).format(date);
  }
}

/** The attendee list's "History" button: only where the server keeps a timeline (extended edition). */
export function AttendeeHistoryButton(props: { name: string; onOpen: () => void }): JSX.Element {
  return (
    <Show when={edition() === 'extended'}>
      <button type="button" class="button button-small button-quiet" onClick={() => props.onOpen()} aria-label={`History of ${props.name}`}>
        History
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
        History of {props.name}
      </h2>
      <AsyncView
        resource={timeline}
        retry={() => void refetch()}
        what="History"
        isEmpty={(page) => page.items.length === 0}
        empty={<p class="status-text">Nothing recorded yet.</p>}
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
              <p class="field-hint">
                The newest {page().items.length} of {page().total} entries.
              </p>
            </Show>
          </>
        )}
      </AsyncView>
      <div class="button-row">
        <button type="button" class="button button-small button-quiet" onClick={() => void refetch()}>
          Refresh
        </button>
        <button type="button" class="button button-small" onClick={() => props.onClose()}>
          Close history
        </button>
      </div>
    </section>
  );
}
