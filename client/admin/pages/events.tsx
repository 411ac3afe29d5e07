import { createResource, createSignal, Show, type JSX } from 'solid-js';
import { AdminFrame } from '../components/admin-frame';
import { AsyncView } from '../components/async-view';
import { CellLabel, DataTable } from '../components/data-table';
import { listEventsListing } from '../data';
import { formatTimeOfDay } from '../components/offline-panel';
import { canEdit, type AdminUser } from '../session';
import { formatUtcDateTime, isoDateTime } from '../../ui/format';
import { A } from '../../router';
import { t, tx } from '../../i18n/i18n';

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
      <AsyncView
        resource={events}
        retry={() => void refetch()}
        what={t('admin.overview.whatEvents')}
        isEmpty={(list) => list.length === 0}
        empty={<p class="status-text">{canEdit(props.user.role) ? t('admin.events.noneCreate') : t('admin.events.none')}</p>}
      >
        {(list) => (
          <DataTable
            labelledBy="events-heading"
            class="events-table"
            stack
            columns={[
              t('admin.events.col.event'),
              t('admin.events.col.starts'),
              t('admin.events.col.status'),
              t('admin.events.col.capacity'),
              t('admin.events.col.actions'),
            ]}
            rows={list()}
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
                  <CellLabel>{t('admin.events.col.capacity')}</CellLabel>
                  {t('admin.events.capacity', {
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
                </td>
              </tr>
            )}
          </DataTable>
        )}
      </AsyncView>
    </section>
  );
}
