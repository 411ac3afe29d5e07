/**
 * `/admin/outbox` — every email svc queued, newest first, a page at a time: subject, recipient,
 * state and time on one line; opening a message shows its text as the server's outbox view
 * gives it (links and codes masked: docs/api.md#rest `/outbox`).
 */
import { createResource, createSignal, For, onCleanup, Show, type JSX } from 'solid-js';
import type { OutboxState } from '../../../shared/mail';
import { AdminFrame } from '../components/admin-frame';
import { AsyncView } from '../components/async-view';
import { Pager } from '../components/pager';
import { listOutbox, type OutboxItem } from '../data';
import { formatUtcDateTime, isoDateTime } from '../../ui/format';

export const OUTBOX_PER_PAGE = 25;
const FILTER_DEBOUNCE_MS = 400;

const STATE_TEXT: Record<OutboxState, string> = {
  queued: 'Queued',
  sent: 'Sent',
  saved: 'Saved as a file',
  failed: 'Failed',
  cancelled: 'Withdrawn',
};

export default function AdminOutboxPage(): JSX.Element {
  return (
    <AdminFrame title="Email outbox" area="outbox">
      {() => <Outbox />}
    </AdminFrame>
  );
}

function Outbox(): JSX.Element {
  const [page, setPage] = createSignal(1);
  const [toText, setToText] = createSignal('');
  const [to, setTo] = createSignal('');
  let debounce: ReturnType<typeof setTimeout> | undefined;
  const onTo = (value: string) => {
    setToText(value);
    clearTimeout(debounce);
    debounce = setTimeout(() => {
      setTo(value.trim());
      setPage(1);
    }, FILTER_DEBOUNCE_MS);
  };
  onCleanup(() => clearTimeout(debounce));

  const [mail, { refetch }] = createResource(
    () => ({ page: page(), to: to() }),
    (q) => listOutbox(q.page, OUTBOX_PER_PAGE, q.to || undefined),
  );

  return (
    <section aria-labelledby="outbox-list-heading">
      <div class="section-header">
        <h2 id="outbox-list-heading">Messages</h2>
        {/* aria-disabled keeps keyboard focus on the button while it works */}
        <button type="button" class="button button-quiet" onClick={() => !mail.loading && void refetch()} aria-disabled={mail.loading}>
          {mail.loading ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      <div class="toolbar" role="search" aria-label="Filter the outbox">
        <div class="field">
          <label for="outbox-to">Recipient</label>
          <input
            id="outbox-to"
            type="search"
            inputmode="email"
            autocomplete="off"
            aria-describedby="outbox-to-hint"
            value={toText()}
            onInput={(e) => onTo(e.currentTarget.value)}
          />
          <p id="outbox-to-hint" class="field-hint">
            The whole address, e.g. ada@example.com.
          </p>
        </div>
      </div>
      <p class="field-hint">Links and codes in the text are masked (••••••): only the recipient's email holds them.</p>
      <AsyncView
        resource={mail}
        retry={() => void refetch()}
        what="The outbox"
        isEmpty={(listing) => listing.items.length === 0}
        empty={<p class="status-text">{to() ? `No emails to ${to()}.` : 'No emails yet. Confirmations and reminders appear here once they are queued.'}</p>}
      >
        {(listing) => (
          <>
            <p class="status-text">
              {listing().total} email{listing().total === 1 ? '' : 's'}
            </p>
            <ul class="outbox-list">
              <For each={listing().items}>{(item) => <OutboxMessage item={item} />}</For>
            </ul>
            <Pager page={page()} perPage={OUTBOX_PER_PAGE} total={listing().total} what="emails" onPage={setPage} />
          </>
        )}
      </AsyncView>
    </section>
  );
}

function OutboxMessage(props: { item: OutboxItem }): JSX.Element {
  const when = () => props.item.sentUtc ?? props.item.createdUtc;
  return (
    <li class="outbox-item" data-outbox-id={props.item.id}>
      <details>
        <summary>
          <span class="outbox-subject">{props.item.subject}</span>
          <span class="outbox-meta">
            <span class="outbox-to">To {props.item.to}</span>
            <span class={`state state-${props.item.state}`}>{STATE_TEXT[props.item.state]}</span>
            <time datetime={isoDateTime(when())}>{formatUtcDateTime(when())}</time>
          </span>
        </summary>
        <div class="outbox-body">
          <p class="muted">
            Queued <time datetime={isoDateTime(props.item.createdUtc)}>{formatUtcDateTime(props.item.createdUtc)}</time>
            {props.item.sentUtc ? (
              <>
                {' '}
                · sent <time datetime={isoDateTime(props.item.sentUtc)}>{formatUtcDateTime(props.item.sentUtc)}</time>
              </>
            ) : (
              ' · not sent yet'
            )}
          </p>
          <Show when={props.item.attachments.length > 0}>
            <p>Attachments: {props.item.attachments.map((a) => a.filename).join(', ')}</p>
          </Show>
          {/* focusable: a long message scrolls inside its box, by keyboard too */}
          <pre class="outbox-text" tabindex="0" aria-label={`Text of “${props.item.subject}”`}>
            {props.item.text}
          </pre>
        </div>
      </details>
    </li>
  );
}
