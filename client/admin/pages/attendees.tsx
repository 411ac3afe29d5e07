import { batch, createEffect, createMemo, createResource, createSignal, For, on, onCleanup, onMount, Show, type JSX } from 'solid-js';
import { ActionNoticeView, type ActionNotice } from '../components/action-notice';
import { AttendeeEditPanel } from '../components/attendee-edit-panel';
import { AttendeeTimeline } from '../components/attendee-timeline';
import { AdminFrame } from '../components/admin-frame';
import { AddAttendeeDialog, BulkBar, MessageDialog } from '../components/attendees-bulk';
import { ready } from '../components/async-view';
import { createConfirm } from '../components/confirm';
import { RowMenu, type RowMenuItem } from '../components/row-menu';
import { ATTENDEE_STATUSES, attendeeStatusLabel } from '../constants';
import {
  attendeeCheckinStats,
  deleteAttendee,
  getEventOrCached,
  listAttendees,
  onOfflineChange,
  saveAttendee,
  type AttendeeCheckinStats,
  type AdminAttendee,
} from '../data';
import { formatTimeOfDay, OfflinePanel } from '../components/offline-panel';
import { online } from '../../pwa';
import { edition } from '../edition';
import { adminErrorMessage } from '../errors';
import { attendeeExportUrl } from '../links';
import { canEdit, type AdminUser } from '../session';
import { pageOfRow, pagesForRange, visibleWindow } from '../virtual-window';
import type { AttendeeSortKey, AttendeeStatus, UpdateAttendeeInput } from '../../../shared/attendees';
import { formatCustomAnswer, type CustomFieldDefinition } from '../../../shared/custom-fields';
import { formatUtcDateTime, isoDateTime } from '../../ui/format';
import { A, searchParams, type RouteProps } from '../../router';
import { intlLocale, t, tx } from '../../i18n/i18n';

/** Rows per request (docs/api.md#rest allows 500; 250 paints the first screen sooner). */
export const ATTENDEE_PAGE_SIZE = 250;
/** Fixed row height in px (admin.css `.vrow`): the window math depends on it. */
const ROW_HEIGHT = 52;
const SEARCH_DEBOUNCE_MS = 250;
const PAGE_LOAD_DELAY_MS = 60;

interface LoadedPage {
  rows: AdminAttendee[];
  stats: Map<number, AttendeeCheckinStats> | null;
}

interface Column {
  key: AttendeeSortKey | null;
  /** Read when drawn, in the reader's language. */
  label: () => string;
  class: string;
}

const COLUMNS: Column[] = [
  { key: 'displayName', label: () => t('admin.attendees.col.name'), class: 'col-name' },
  { key: 'email', label: () => t('admin.attendees.col.email'), class: 'col-email' },
  { key: 'quantity', label: () => t('admin.attendees.col.quantity'), class: 'col-qty' },
  { key: 'status', label: () => t('admin.attendees.col.status'), class: 'col-status' },
  { key: null, label: () => t('admin.attendees.col.checkins'), class: 'col-checkins' },
  { key: null, label: () => t('admin.attendees.col.lastCheckin'), class: 'col-last' },
];
/** Shown when the event has questions (extended edition): their answers, labelled, in one line. */
const ANSWERS_COLUMN: Column = { key: null, label: () => t('admin.attendees.col.answers'), class: 'col-answers' };

/**
 * An attendee's answers as `Label: answer` pairs, in the order of the event's questions; answers
 * stored under keys the event no longer defines (another plugin's, a removed question) follow by key.
 */
export function answerPairs(definitions: readonly CustomFieldDefinition[], answers: Record<string, unknown> | null | undefined): Array<[string, string]> {
  if (!answers) return [];
  const defined = new Set(definitions.map((f) => f.key));
  const pairs: Array<[string, string]> = definitions.filter((f) => Object.hasOwn(answers, f.key)).map((f) => [f.label, formatCustomAnswer(answers[f.key])]);
  for (const [key, value] of Object.entries(answers)) if (!defined.has(key)) pairs.push([key, formatCustomAnswer(value)]);
  return pairs;
}

export default function AdminAttendeesPage(props: RouteProps): JSX.Element {
  return (
    <AdminFrame title={t('admin.attendees.title')} area="attendees">
      {(user) => <AttendeesView eventId={Number(props.params.id)} user={user} />}
    </AdminFrame>
  );
}

function AttendeesView(props: { eventId: number; user: AdminUser }): JSX.Element {
  const editable = canEdit(props.user.role);
  const [event] = createResource(() => props.eventId, getEventOrCached);
  // `?search=` opens the list on one person (an order's ticket links here)
  const [searchText, setSearchText] = createSignal(searchParams().get('search') ?? '');
  const [search, setSearch] = createSignal(searchText().trim());
  const [status, setStatus] = createSignal<AttendeeStatus | ''>('');
  const [sort, setSort] = createSignal<AttendeeSortKey>('id');
  const [order, setOrder] = createSignal<'asc' | 'desc'>('asc');

  // the page cache of the current query; `version` tells rows a page arrived
  const pages = new Map<number, LoadedPage>();
  const inFlight = new Set<number>();
  let controller = new AbortController();
  const [version, setVersion] = createSignal(0);
  const [total, setTotal] = createSignal<number | null>(null);
  const [loadError, setLoadError] = createSignal<string | null>(null);
  const [asOf, setAsOf] = createSignal<number | null>(null);
  const [source, setSource] = createSignal<'server' | 'cache'>('server');

  const [scrollTop, setScrollTop] = createSignal(0);
  const [viewport, setViewport] = createSignal(520);
  let scroller: HTMLDivElement | undefined;

  const [editing, setEditing] = createSignal<AdminAttendee | null>(null);
  const [history, setHistory] = createSignal<AdminAttendee | null>(null);
  const [notice, setNotice] = createSignal<ActionNotice | null>(null);
  const confirm = createConfirm();
  // the bulk selection: rows ticked by hand, or every row the search matches
  const [selected, setSelected] = createSignal<ReadonlySet<number>>(new Set());
  const [allMatching, setAllMatching] = createSignal(false);
  const [adding, setAdding] = createSignal(false);
  const [messaging, setMessaging] = createSignal(false);
  const clearSelection = () =>
    batch(() => {
      setSelected(new Set<number>());
      setAllMatching(false);
    });
  const toggleRow = (id: number, on: boolean) => {
    const next = new Set(selected());
    if (on) next.add(id);
    else next.delete(id);
    batch(() => {
      setSelected(next);
      setAllMatching(false);
    });
  };
  const loadedIds = () => {
    version();
    return [...pages.values()].flatMap((p) => p.rows.map((r) => r.id));
  };
  const bulkQuery = () => ({ search: search() || undefined, status: status() || undefined });
  const selectionCount = () => (allMatching() ? (total() ?? 0) : selected().size);

  let debounce: ReturnType<typeof setTimeout> | undefined;
  const onSearch = (value: string) => {
    setSearchText(value);
    clearTimeout(debounce);
    debounce = setTimeout(() => setSearch(value.trim()), SEARCH_DEBOUNCE_MS);
  };
  onCleanup(() => {
    clearTimeout(debounce);
    controller.abort();
  });

  const query = createMemo(() => ({ eventId: props.eventId, search: search(), status: status(), sort: sort(), order: order() }));

  async function loadPage(page: number, generation: AbortController): Promise<void> {
    if (pages.has(page) || inFlight.has(page)) return;
    inFlight.add(page);
    const q = query();
    try {
      const listing = await listAttendees({ ...q, page, perPage: ATTENDEE_PAGE_SIZE }, generation.signal);
      if (generation.signal.aborted) return;
      pages.set(page, { rows: listing.items, stats: null });
      batch(() => {
        setTotal(listing.total);
        setAsOf(listing.asOfMs);
        setSource(listing.source);
        setLoadError(null);
        setVersion((v) => v + 1);
      });
      // the extended edition serializes the counts itself; conflicts always come from the check-in API
      const stats = await attendeeCheckinStats(
        props.eventId,
        listing.items.map((a) => a.id),
        generation.signal,
      );
      if (generation.signal.aborted) return;
      const entry = pages.get(page);
      if (entry) entry.stats = new Map(stats.map((s) => [s.attendeeId, s]));
      setVersion((v) => v + 1);
    } catch (err) {
      if (!generation.signal.aborted) setLoadError(adminErrorMessage(err));
    } finally {
      inFlight.delete(page);
    }
  }

  /** Forget every page (filters, sort, a delete) and load what is on screen again. */
  function reset(keepScroll = false): void {
    controller.abort();
    controller = new AbortController();
    pages.clear();
    inFlight.clear();
    if (!keepScroll && scroller) scroller.scrollTop = 0;
    if (!keepScroll) setScrollTop(0);
    // a new query starts from "unknown": after an empty result, a total of 0 would ask for no page at all
    if (!keepScroll) setTotal(null);
    setVersion((v) => v + 1);
    void loadVisible();
  }

  const win = createMemo(() => visibleWindow({ scrollTop: scrollTop(), viewportHeight: viewport(), rowHeight: ROW_HEIGHT, total: total() ?? 0 }));

  function loadVisible(): Promise<unknown> {
    const w = win();
    const wanted = total() === null ? [1] : pagesForRange(w.first, w.end, ATTENDEE_PAGE_SIZE);
    const generation = controller;
    return Promise.all(wanted.map((p) => loadPage(p, generation)));
  }

  createEffect(on(query, () => reset(), { defer: false }));
  createEffect(on(query, () => clearSelection(), { defer: true }));
  // back online, or the offline store changed (a sync, an edit queued, sent or reconciled): reload in place
  createEffect(on(online, () => reset(true), { defer: true }));
  onCleanup(onOfflineChange(() => reset(true)));
  // a fast drag across 50,000 rows asks only for the pages where the scroll comes to rest
  let pageTimer: ReturnType<typeof setTimeout> | undefined;
  createEffect(
    on(
      win,
      () => {
        clearTimeout(pageTimer);
        pageTimer = setTimeout(() => void loadVisible(), PAGE_LOAD_DELAY_MS);
      },
      { defer: true },
    ),
  );
  onCleanup(() => clearTimeout(pageTimer));

  onMount(() => {
    if (!scroller) return;
    const observer = new ResizeObserver(() => setViewport(scroller!.clientHeight));
    observer.observe(scroller);
    onCleanup(() => observer.disconnect());
  });

  let frame = 0;
  const onScroll = () => {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      if (scroller) setScrollTop(scroller.scrollTop);
    });
  };

  const rowAt = (index: number): { row: AdminAttendee; stats: AttendeeCheckinStats | null | undefined } | null => {
    version();
    const [page, offset] = pageOfRow(index, ATTENDEE_PAGE_SIZE);
    const entry = pages.get(page);
    const row = entry?.rows[offset];
    if (!row) return null;
    return { row, stats: entry.stats ? (entry.stats.get(row.id) ?? null) : undefined };
  };

  const indices = createMemo(() => {
    const w = win();
    return Array.from({ length: w.end - w.first }, (_, i) => w.first + i);
  });

  const toggleSort = (key: AttendeeSortKey) => {
    batch(() => {
      if (sort() === key) setOrder(order() === 'asc' ? 'desc' : 'asc');
      else {
        setSort(key);
        setOrder('asc');
      }
    });
  };

  /** Replace one row in the cache after a save (the list shows the server's answer). */
  const replaceRow = (saved: AdminAttendee) => {
    for (const entry of pages.values()) {
      const i = entry.rows.findIndex((r) => r.id === saved.id);
      if (i >= 0) entry.rows[i] = { ...entry.rows[i], ...saved };
    }
    setVersion((v) => v + 1);
  };

  /** Sends the panel's changes; a refusal is thrown back to the panel, which shows it at the field. */
  const save = async (before: AdminAttendee, patch: UpdateAttendeeInput): Promise<void> => {
    const { attendee: saved, queued } = await saveAttendee(before, patch);
    replaceRow(saved);
    setNotice({
      ok: true,
      text: queued ? t('admin.attendees.savedOffline', { name: saved.displayName }) : t('admin.attendees.saved', { name: saved.displayName }),
    });
  };

  const askDelete = (row: AdminAttendee) =>
    confirm.ask({
      title: t('admin.attendees.deleteTitle', { name: row.displayName, email: row.email }),
      detail: t('admin.attendees.deleteDetail', { count: row.quantity, status: attendeeStatusLabel(row.status) }),
      confirmLabel: t('admin.attendees.deleteConfirm'),
      action: () => deleteAttendee(row.id),
      onDone: () => {
        setNotice({ ok: true, text: t('admin.attendees.deleted', { name: row.displayName }) });
        reset(true);
      },
    });

  const questions = (): CustomFieldDefinition[] => ready(event)?.fields ?? [];
  const columns = createMemo(() => (questions().length > 0 ? [...COLUMNS, ANSWERS_COLUMN] : COLUMNS));
  const colCount = () => columns().length + (editable ? 2 : 0);

  return (
    <>
      <p class="muted">
        <Show when={ready(event)} fallback={t('admin.attendees.eventNumber', { id: props.eventId })}>
          {(ev) => (
            <>
              <A href={`/admin/events/${ev().id}`}>{ev().title}</A> · <time datetime={isoDateTime(ev().startsUtc)}>{formatUtcDateTime(ev().startsUtc)}</time>
            </>
          )}
        </Show>
      </p>
      <div class="toolbar" role="search" aria-label={t('admin.attendees.filterLabel')}>
        <div class="field">
          <label for="attendee-search">{t('admin.attendees.search')}</label>
          <input id="attendee-search" type="search" value={searchText()} onInput={(e) => onSearch(e.currentTarget.value)} autocomplete="off" />
        </div>
        <div class="field">
          <label for="attendee-status">{t('admin.attendees.col.status')}</label>
          <select id="attendee-status" onChange={(e) => setStatus(e.currentTarget.value as AttendeeStatus | '')}>
            <option value="">{t('admin.attendees.statusAll')}</option>
            <For each={ATTENDEE_STATUSES}>{(s) => <option value={s}>{attendeeStatusLabel(s)}</option>}</For>
          </select>
        </div>
        <Show when={editable && source() === 'server'}>
          <div class="toolbar-exports">
            <button type="button" class="button" onClick={() => setAdding(true)}>
              {t('admin.bulk.add.button')}
            </button>
            <button type="button" class="button button-quiet" onClick={() => setMessaging(true)}>
              {t('admin.bulk.message.button')}
            </button>
          </div>
        </Show>
        <div class="toolbar-exports" role="group" aria-label={t('admin.attendees.exportLabel')}>
          <a class="button button-quiet" href={attendeeExportUrl(props.eventId, 'csv')} download="">
            {t('admin.attendees.exportCsv')}
          </a>
          <a class="button button-quiet" href={attendeeExportUrl(props.eventId, 'xlsx')} download="">
            {t('admin.attendees.exportExcel')}
          </a>
          <a class="button button-quiet" href={attendeeExportUrl(props.eventId, 'json')} download="">
            {t('admin.attendees.exportJson')}
          </a>
        </div>
      </div>
      <OfflinePanel eventId={props.eventId} user={props.user} />
      <Show when={source() === 'cache' && asOf()}>
        {(at) => (
          <p class="notice notice-offline" role="status">
            {tx('admin.attendees.offline', {
              at: formatTimeOfDay(at()),
              time: (chunks) => <time datetime={new Date(at()).toISOString()}>{chunks}</time>,
            })}
          </p>
        )}
      </Show>
      <p class="status-text" role="status" aria-live="polite">
        {total() === null ? t('admin.attendees.loading') : t('admin.attendees.count', { count: total() })}
        {asOf() && source() === 'server' ? ` ${t('admin.attendees.asOf', { at: formatTimeOfDay(asOf()!) })}` : ''}
      </p>
      <ActionNoticeView notice={notice()} />
      <Show when={editable}>
        <BulkBar
          eventId={props.eventId}
          selectedIds={[...selected()]}
          allMatching={allMatching()}
          matchTotal={total() ?? 0}
          query={bulkQuery()}
          onSelectAll={() => setAllMatching(true)}
          onClear={clearSelection}
          onMessage={() => setMessaging(true)}
          ask={confirm.ask}
          onChanged={() => reset(true)}
        />
      </Show>
      <Show when={loadError()}>
        <div class="notice notice-error" role="alert">
          <p>{t('admin.attendees.loadFailed', { reason: loadError() })}</p>
          <button type="button" class="button" onClick={() => reset(true)}>
            {t('common.tryAgain')}
          </button>
        </div>
      </Show>
      <Show when={total() === 0}>
        <p class="status-text">{search() || status() ? t('admin.attendees.noMatch') : t('admin.attendees.none')}</p>
      </Show>
      <div
        class="vtable"
        ref={scroller}
        onScroll={onScroll}
        role="region"
        aria-label={t('admin.attendees.tableLabel')}
        tabindex="0"
        hidden={total() === 0}
        // a short list gets a short box (header, rows, border), not an empty screen under it
        style={{ height: total() ? `min(70vh, 40rem, ${(total()! + 1) * ROW_HEIGHT + 2}px)` : undefined }}
      >
        <table class="table vtable-table" classList={{ 'vtable-table-answers': questions().length > 0 }} aria-rowcount={(total() ?? 0) + 1}>
          <thead>
            <tr aria-rowindex="1">
              <Show when={editable}>
                <th scope="col" class="col-select">
                  <label class="tick">
                    <input
                      type="checkbox"
                      aria-label={t('admin.bulk.selectPage')}
                      checked={allMatching() || (loadedIds().length > 0 && loadedIds().every((id) => selected().has(id)))}
                      onChange={(e) => (e.currentTarget.checked ? setSelected(new Set(loadedIds())) : clearSelection())}
                    />
                  </label>
                </th>
              </Show>
              <For each={columns()}>
                {(col) => (
                  <th scope="col" class={col.class} aria-sort={col.key && sort() === col.key ? (order() === 'asc' ? 'ascending' : 'descending') : undefined}>
                    <Show when={col.key} fallback={col.label()}>
                      {(key) => (
                        <button type="button" class="sort-button" onClick={() => toggleSort(key())}>
                          {col.label()}
                          <span aria-hidden="true">{sort() === key() ? (order() === 'asc' ? ' ▲' : ' ▼') : ' ↕'}</span>
                        </button>
                      )}
                    </Show>
                  </th>
                )}
              </For>
              <Show when={editable}>
                <th scope="col" class="col-actions">
                  {t('admin.attendees.col.actions')}
                </th>
              </Show>
            </tr>
          </thead>
          <tbody>
            <tr class="vspacer" aria-hidden="true">
              <td colspan={colCount()} style={{ height: `${win().padTop}px` }} />
            </tr>
            <For each={indices()}>
              {(index) => {
                const item = createMemo(() => rowAt(index));
                return (
                  <Show
                    when={item()}
                    fallback={
                      <tr class="vrow" aria-rowindex={index + 2}>
                        <td colspan={colCount()} class="muted">
                          {t('common.loading')}
                        </td>
                      </tr>
                    }
                  >
                    {(current) => (
                      <AttendeeRow
                        index={index}
                        row={current().row}
                        stats={current().stats}
                        editable={editable}
                        deletable={source() === 'server'}
                        eventId={props.eventId}
                        questions={questions()}
                        onEdit={() => setEditing(current().row)}
                        onHistory={() => setHistory(current().row)}
                        onDelete={() => askDelete(current().row)}
                        selected={allMatching() || selected().has(current().row.id)}
                        onSelect={(on) => toggleRow(current().row.id, on)}
                      />
                    )}
                  </Show>
                );
              }}
            </For>
            <tr class="vspacer" aria-hidden="true">
              <td colspan={colCount()} style={{ height: `${win().padBottom}px` }} />
            </tr>
          </tbody>
        </table>
      </div>
      <Show when={editing()}>{(row) => <AttendeeEditPanel row={row()} onSave={(patch) => save(row(), patch)} onClose={() => setEditing(null)} />}</Show>
      <Show when={history()}>
        {(a) => <AttendeeTimeline attendeeId={a().id} name={a().displayName} timezone={ready(event)?.timezone ?? 'UTC'} onClose={() => setHistory(null)} />}
      </Show>
      <Show when={adding()}>
        <AddAttendeeDialog
          eventId={props.eventId}
          onAdded={(name) => {
            setNotice({ ok: true, text: t('admin.bulk.added', { name }) });
            reset(true);
          }}
          onClose={() => setAdding(false)}
        />
      </Show>
      <Show when={messaging()}>
        <MessageDialog
          eventId={props.eventId}
          selection={selectionCount() > 0 ? { count: selectionCount(), value: allMatching() ? { query: bulkQuery() } : { ids: [...selected()] } } : null}
          onSent={(count) => setNotice({ ok: true, text: t('admin.bulk.sent', { count }) })}
          onClose={() => setMessaging(false)}
        />
      </Show>
      {confirm.view()}
    </>
  );
}

function AttendeeRow(props: {
  index: number;
  row: AdminAttendee;
  stats: AttendeeCheckinStats | null | undefined;
  editable: boolean;
  /** Deleting needs the server: not offered from the offline cache. */
  deletable: boolean;
  eventId: number;
  /** The event's questions: with any, the row shows an Answers cell. */
  questions: readonly CustomFieldDefinition[];
  onEdit: () => void;
  onHistory: () => void;
  onDelete: () => void;
  selected: boolean;
  onSelect: (on: boolean) => void;
}): JSX.Element {
  // the extended edition's own fields (extra keys of the row) win; the stats operation fills them in the free edition
  const ownCount = () => (typeof props.row.checkinCount === 'number' ? props.row.checkinCount : undefined);
  const ownLast = () => (typeof props.row.lastCheckinUtc === 'string' || props.row.lastCheckinUtc === null ? props.row.lastCheckinUtc : undefined);
  const count = () => ownCount() ?? props.stats?.checkinCount ?? (props.stats === undefined ? null : 0);
  const last = () => (ownLast() !== undefined ? ownLast() : (props.stats?.lastCheckinUtc ?? null));
  const conflicts = () => props.stats?.conflicts ?? 0;
  const answers = createMemo(() => answerPairs(props.questions, props.row.customFields));
  const answersText = () =>
    answers()
      .map(([label, value]) => t('admin.attendees.answer', { label, value }))
      .join('\n');
  return (
    <tr class="vrow" aria-rowindex={props.index + 2} data-attendee-id={props.row.id}>
      <Show when={props.editable}>
        <td class="col-select">
          {/* the label is the tick's 44 px tap target */}
          <label class="tick">
            <input
              type="checkbox"
              aria-label={t('admin.bulk.selectRow', { name: props.row.displayName })}
              checked={props.selected}
              onChange={(e) => props.onSelect(e.currentTarget.checked)}
            />
          </label>
        </td>
      </Show>
      <td class="col-name">
        <WholeText text={props.row.displayName} />
        <Show when={props.row.pending?.length}>
          <span class="badge-pending">{t('admin.attendees.pendingSync')}</span>
        </Show>
      </td>
      <td class="col-email">
        <WholeText text={props.row.email} email />
      </td>
      <td class="col-qty">{formatCount(props.row.quantity)}</td>
      <td class="col-status">
        <span class={`state state-${props.row.status || 'going'}`}>{attendeeStatusLabel(props.row.status)}</span>
      </td>
      <td class="col-checkins">
        {count() === null ? '…' : formatCount(count()!)}
        <Show when={conflicts() > 0}>
          {' '}
          <A href={`/admin/events/${props.eventId}#conflicts-heading`} class="flag-conflict">
            {t('admin.attendees.conflict')}
          </A>
        </Show>
      </td>
      <td class="col-last">{last() ? <time datetime={isoDateTime(last())}>{formatUtcDateTime(last())}</time> : <span class="muted">—</span>}</td>
      <Show when={props.questions.length > 0}>
        {/* one line in a fixed-height row; the whole text on hover */}
        <td class="col-answers" title={answersText()}>
          <Show when={answers().length > 0} fallback={<span class="muted">—</span>}>
            <For each={answers()}>
              {([label, value], i) => (
                <>
                  {i() > 0 ? ' · ' : ''}
                  {tx('admin.attendees.answerMarked', { label, value, m: (chunks) => <span class="muted">{chunks}</span> })}
                </>
              )}
            </For>
          </Show>
        </td>
      </Show>
      <Show when={props.editable}>
        <td class="col-actions">
          <RowMenu label={t('admin.attendees.actionsFor', { name: props.row.displayName })} items={rowActions(props)} />
        </td>
      </Show>
    </tr>
  );
}

/** Edit, History (the extended edition keeps a timeline) and Delete (only with the server) of one row. */
function rowActions(props: { deletable: boolean; onEdit: () => void; onHistory: () => void; onDelete: () => void }): RowMenuItem[] {
  const items: RowMenuItem[] = [{ label: t('admin.attendees.edit'), onSelect: props.onEdit }];
  if (edition() === 'extended') items.push({ label: t('admin.attendees.history'), onSelect: props.onHistory });
  if (props.deletable) items.push({ label: t('admin.attendees.delete'), onSelect: props.onDelete, danger: true });
  return items;
}

/**
 * A name or an email in its cell: up to two lines, an email broken after its @ first. Cut only
 * when even two lines are too short; then the whole value shows on hover (title) and on focus,
 * the cut text being focusable for that (UX "Never cut what identifies a person").
 */
function WholeText(props: { text: string; email?: boolean }): JSX.Element {
  const [cut, setCut] = createSignal(false);
  let el: HTMLSpanElement | undefined;
  onMount(() => requestAnimationFrame(() => el && setCut(el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1)));
  const at = () => (props.email ? props.text.lastIndexOf('@') : -1);
  return (
    <span ref={el} class="cell-text" classList={{ 'cell-text-cut': cut() }} title={props.text} tabindex={cut() ? 0 : undefined}>
      <Show when={at() > 0} fallback={props.text}>
        {props.text.slice(0, at() + 1)}
        <wbr />
        {props.text.slice(at() + 1)}
      </Show>
    </span>
  );
}

/** A count grouped the reader's way. */
function formatCount(value: number): string {
  return new Intl.NumberFormat(intlLocale()).format(value);
}
