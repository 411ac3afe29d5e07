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
import { intlLocale, t, tx } from '../../i18n/i18n';

export const OUTBOX_PER_PAGE = 25;
const FILTER_DEBOUNCE_MS = 400;

const STATE_TEXT: Record<OutboxState, () => string> = {
  queued: () => t('admin.outbox.state.queued'),
  sent: () => t('admin.outbox.state.sent'),
  saved: () => t('admin.outbox.state.saved'),
  failed: () => t('admin.outbox.state.failed'),
  cancelled: () => t('admin.outbox.state.cancelled'),
};

export default function AdminOutboxPage(): JSX.Element {
  return (
    <AdminFrame title={t('admin.outbox.title')} area="outbox">
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
        <h2 id="outbox-list-heading">{t('admin.outbox.heading')}</h2>
        {/* aria-disabled keeps keyboard focus on the button while it works */}
        <button type="button" class="button button-quiet" onClick={() => !mail.loading && void refetch()} aria-disabled={mail.loading}>
          {mail.loading ? t('admin.outbox.refreshing') : t('admin.outbox.refresh')}
        </button>
      </div>
      <div class="toolbar" role="search" aria-label={t('admin.outbox.filter')}>
        <div class="field">
          <label for="outbox-to">{t('admin.outbox.recipient')}</label>
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
            {t('admin.outbox.recipientHint')}
          </p>
        </div>
      </div>
      <p class="field-hint">{t('admin.outbox.masked')}</p>
      <AsyncView
        resource={mail}
        retry={() => void refetch()}
        what={t('admin.outbox.what')}
        isEmpty={(listing) => listing.items.length === 0}
        empty={<p class="status-text">{to() ? t('admin.outbox.noneTo', { to: to() }) : t('admin.outbox.empty')}</p>}
      >
        {(listing) => (
          <>
            <p class="status-text">{t('admin.outbox.count', { count: listing().total })}</p>
            <ul class="outbox-list">
              <For each={listing().items}>{(item) => <OutboxMessage item={item} />}</For>
            </ul>
            <Pager page={page()} perPage={OUTBOX_PER_PAGE} total={listing().total} what={t('admin.outbox.pagerWhat')} onPage={setPage} />
          </>
        )}
      </AsyncView>
    </section>
  );
}

/** The attachments' names joined the reader's way ("a, b and c"). */
const listFormat = () => new Intl.ListFormat(intlLocale(), { style: 'narrow', type: 'unit' });

function OutboxMessage(props: { item: OutboxItem }): JSX.Element {
  const when = () => props.item.sentUtc ?? props.item.createdUtc;
  return (
    <li class="outbox-item" data-outbox-id={props.item.id}>
      <details>
        <summary>
          <span class="outbox-subject">{props.item.subject}</span>
          <span class="outbox-meta">
            <span class="outbox-to">{t('admin.outbox.to', { to: props.item.to })}</span>
            <span class={`state state-${props.item.state}`}>{STATE_TEXT[props.item.state]()}</span>
            <time datetime={isoDateTime(when())}>{formatUtcDateTime(when())}</time>
          </span>
        </summary>
        <div class="outbox-body">
          <p class="muted">
            {props.item.sentUtc
              ? tx('admin.outbox.queuedSent', {
                  queued: formatUtcDateTime(props.item.createdUtc),
                  sent: formatUtcDateTime(props.item.sentUtc),
                  queuedTime: (chunks) => <time datetime={isoDateTime(props.item.createdUtc)}>{chunks}</time>,
                  sentTime: (chunks) => <time datetime={isoDateTime(props.item.sentUtc)}>{chunks}</time>,
                })
              : tx('admin.outbox.queuedNotSent', {
                  queued: formatUtcDateTime(props.item.createdUtc),
                  queuedTime: (chunks) => <time datetime={isoDateTime(props.item.createdUtc)}>{chunks}</time>,
                })}
          </p>
          <Show when={props.item.attachments.length > 0}>
            <p>{t('admin.outbox.attachments', { files: listFormat().format(props.item.attachments.map((a) => a.filename)) })}</p>
          </Show>
          {/* focusable: a long message scrolls inside its box, by keyboard too */}
          <pre class="outbox-text" tabindex="0" aria-label={t('admin.outbox.textOf', { subject: props.item.subject })}>
            {props.item.text}
          </pre>
        </div>
      </details>
    </li>
  );
}
