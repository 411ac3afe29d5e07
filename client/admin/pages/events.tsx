import { createResource, createSignal, For, Show, type JSX } from 'solid-js';
import { AdminFrame } from '../components/admin-frame';
import { AsyncView } from '../components/async-view';
import { CellLabel, DataTable } from '../components/data-table';
import { ActionNoticeView, type ActionNotice } from '../components/action-notice';
import { duplicateEvent, listEventsListing } from '../data';
import { adminErrorMessage } from '../errors';
import { formatTimeOfDay } from '../components/offline-panel';
import { canEdit, type AdminUser } from '../session';
import { formatUtcDateTime, isoDateTime } from '../../ui/format';
import { A, navigate } from '../../router';
import { t, tx } from '../../i18n/i18n';
import { eventIsOver, type EventDto } from '../../../shared/events';
import { toUtcString } from '../../../shared/time';

/** Which events the list shows: all, those not over yet, those over, or the drafts. */
const SHOWS = ['all', 'upcoming', 'past', 'draft'] as const;
type ShowFilter = (typeof SHOWS)[number];
const SHOW_LABELS: Record<ShowFilter, () => string> = {
  all: () => t('admin.events.show.all'),
  upcoming: () => t('admin.events.show.upcoming'),
  past: () => t('admin.events.show.past'),
  draft: () => t('admin.events.show.draft'),
};

/**
 * The list holds every event the user may see (all pages are fetched, and offline the kept
 * ones), so it is filtered here as the user types, the same online and offline.
 */
function shown(list: EventDto[], show: ShowFilter, search: string, nowUtc: string): EventDto[] {
  const words = search.trim().toLocaleLowerCase();
  return list.filter(
    (e) =>
      (show === 'all' ||
        (show === 'draft' && e.status === 'draft') ||
        (show === 'upcoming' && !eventIsOver(e, nowUtc)) ||
        (show === 'past' && eventIsOver(e, nowUtc))) &&
      (words === '' || e.title.toLocaleLowerCase().includes(words)),
  );
}

export default function AdminEventsPage(): JSX.Element {
  return (
    <AdminFrame title={t('admin.events.title')} area="events">
      {(user) => <EventList user={user} />}
    </AdminFrame>
  );
}

function EventList(props: { user: AdminUser }): JSX.Element {
  const [offline, setOffline] = createSignal<number | null>(null);
  const [events, { refetch }] = createResource(async () => {
    const listing = await listEventsListing();
    const allowed = props.user.eventIds;
    const all = listing.items;
    setOffline(listing.source === 'cache' ? listing.asOfMs : null);
    return props.user.role === 'administrator' || !allowed ? all : all.filter((e) => allowed.includes(e.id));
  });
  const [search, setSearch] = createSignal('');
  const [show, setShow] = createSignal<ShowFilter>('all');
  const [notice, setNotice] = createSignal<ActionNotice | null>(null);
  const [copying, setCopying] = createSignal<number | null>(null);
  const duplicate = async (event: EventDto) => {
    setCopying(event.id);
    setNotice(null);
    try {
      const copy = await duplicateEvent(event.id);
      navigate(`/admin/events/${copy.id}/edit`);
    } catch (err) {
      setNotice({ ok: false, text: adminErrorMessage(err) });
    } finally {
      setCopying(null);
    }
  };
  return (
    <section aria-labelledby="events-heading">
      <div class="section-header">
        <h2 id="events-heading">{t('admin.events.heading')}</h2>
        <Show when={canEdit(props.user.role)}>
          <A href="/admin/events/new" class="button">
            {t('admin.events.new')}
          </A>
        </Show>
      </div>
      <Show when={offline()}>
        {(at) => (
          <p class="notice notice-offline" role="status">
            {tx('admin.events.offline', {
              at: formatTimeOfDay(at()),
              time: (chunks) => <time datetime={new Date(at()).toISOString()}>{chunks}</time>,
            })}
          </p>
        )}
      </Show>
      <ActionNoticeView notice={notice()} />
      <AsyncView
        resource={events}
        retry={() => void refetch()}
        what={t('admin.overview.whatEvents')}
        isEmpty={(list) => list.length === 0}
        empty={<p class="status-text">{canEdit(props.user.role) ? t('admin.events.noneCreate') : t('admin.events.none')}</p>}
      >
        {(list) => {
          const rows = () => shown(list(), show(), search(), toUtcString(Date.now()));
          return (
            <>
              <div class="toolbar" role="search" aria-label={t('admin.events.filter')}>
                <div class="field">
                  <label for="events-search">{t('admin.events.search')}</label>
                  <input id="events-search" type="search" autocomplete="off" value={search()} onInput={(e) => setSearch(e.currentTarget.value)} />
                </div>
                <div class="field">
                  <label for="events-show">{t('admin.events.showLabel')}</label>
                  <select id="events-show" onChange={(e) => setShow(e.currentTarget.value as ShowFilter)}>
                    <For each={SHOWS}>
                      {(value) => (
                        <option value={value} selected={value === show()}>
                          {SHOW_LABELS[value]()}
                        </option>
                      )}
                    </For>
                  </select>
                </div>
              </div>
              <Show when={rows().length === 0}>
                <p class="status-text" role="status">
                  {t('admin.events.noMatch')}
                </p>
              </Show>
              <Show when={rows().length > 0}>
                <EventTable rows={rows()} user={props.user} copying={copying()} onDuplicate={(e) => void duplicate(e)} />
              </Show>
            </>
          );
        }}
      </AsyncView>
    </section>
  );
}

function EventTable(props: { rows: EventDto[]; user: AdminUser; copying: number | null; onDuplicate: (event: EventDto) => void }): JSX.Element {
  return (
    <DataTable
      labelledBy="events-heading"
      class="events-table"
      stack
      columns={[
        t('admin.events.col.event'),
        t('admin.events.col.starts'),
        t('admin.events.col.status'),
        t('admin.events.col.signups'),
        t('admin.events.col.actions'),
      ]}
      rows={props.rows}
    >
      {(event) => (
        <tr role="row">
          <td role="cell" class="cell-title">
            <A href={`/admin/events/${event.id}`} id={`event-title-${event.id}`}>
              {event.title}
            </A>
            <Show when={event.venue}>
              <div class="muted">{event.venue}</div>
            </Show>
          </td>
          <td role="cell" class="cell-starts">
            <CellLabel>{t('admin.events.col.starts')}</CellLabel>
            <time datetime={isoDateTime(event.startsUtc)}>{formatUtcDateTime(event.startsUtc)}</time>
          </td>
          <td role="cell" class="cell-status">
            <CellLabel>{t('admin.events.col.status')}</CellLabel>
            <span class={`state state-${event.status}`}>{event.status === 'published' ? t('admin.events.published') : t('admin.events.draft')}</span>
          </td>
          <td role="cell" class="cell-capacity">
            <CellLabel>{t('admin.events.col.signups')}</CellLabel>
            {/* offline rows come from the sync, which carries no seat count: the capacity alone */}
            {event.seatsTaken === undefined
              ? t('admin.events.capacity', {
                  capacity: event.capacity == null ? 'unlimited' : 'limited',
                  count: event.capacity,
                  waitlist: event.waitlist ? 'yes' : 'no',
                })
              : t('admin.events.signups', {
                  taken: event.seatsTaken,
                  capacity: event.capacity == null ? 'unlimited' : 'limited',
                  count: event.capacity,
                  waitlist: event.waitlist ? 'yes' : 'no',
                })}
          </td>
          <td role="cell" class="cell-actions">
            {/* buttons in size (44 px), links in kind; the event's title tells which row they act on */}
            <A href={`/admin/events/${event.id}/attendees`} class="button button-small button-quiet" aria-describedby={`event-title-${event.id}`}>
              {t('admin.events.attendees')}
            </A>
            <Show when={canEdit(props.user.role)}>
              <A href={`/admin/events/${event.id}/edit`} class="button button-small button-quiet" aria-describedby={`event-title-${event.id}`}>
                {t('admin.events.edit')}
              </A>
            </Show>
            <Show when={canEdit(props.user.role)}>
              <button
                type="button"
                class="button button-small button-quiet"
                aria-describedby={`event-title-${event.id}`}
                disabled={props.copying !== null}
                onClick={() => props.onDuplicate(event)}
              >
                {props.copying === event.id ? t('admin.events.duplicating') : t('admin.events.duplicate')}
              </button>
            </Show>
          </td>
        </tr>
      )}
    </DataTable>
  );
}
