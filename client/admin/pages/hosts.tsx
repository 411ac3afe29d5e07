/** Administrators' list of hosts (docs/decisions/043-host-space.md): each links to their bookings, hours, calendars and profile. */
import { createResource, type JSX } from 'solid-js';
import { AdminFrame } from '../components/admin-frame';
import { AsyncView } from '../components/async-view';
import { DataTable } from '../components/data-table';
import { listBookingTypes, listHosts } from '../data';
import { A } from '../../router';
import { intlLocale, t } from '../../i18n/i18n';

export default function AdminHostsPage(): JSX.Element {
  return (
    <AdminFrame title={t('admin.hosts.title')} area="hosts">
      {() => {
        const [hosts, { refetch }] = createResource(listHosts);
        const [types] = createResource(listBookingTypes);
        const typeTitles = (ids: number[]) => ids.map((id) => types()?.find((type) => type.id === id)?.title ?? `#${id}`).join(', ');
        return (
          <section aria-labelledby="hosts-heading">
            <h2 id="hosts-heading">{t('admin.hosts.heading')}</h2>
            <AsyncView
              resource={hosts}
              retry={() => void refetch()}
              what={t('admin.hosts.title')}
              isEmpty={(list) => list.length === 0}
              empty={<p class="status-text">{t('admin.hosts.empty')}</p>}
            >
              {(list) => (
                <DataTable
                  labelledBy="hosts-heading"
                  columns={[t('admin.hosts.col.name'), t('admin.hosts.col.types'), t('admin.hosts.col.upcoming'), t('admin.hosts.col.pages')]}
                  rows={list()}
                >
                  {(host) => (
                    <tr>
                      <td>
                        {host.displayName || host.email}
                        <div class="muted cell-email">{host.email}</div>
                      </td>
                      <td>{typeTitles(host.bookingTypeIds)}</td>
                      <td>{host.upcomingBookings.toLocaleString(intlLocale())}</td>
                      <td>
                        <div class="row-actions">
                          <A href={`/admin/hosts/${host.userId}/bookings`}>{t('admin.hosts.bookings')}</A>
                          <A href={`/admin/hosts/${host.userId}/hours`}>{t('admin.hosts.hours')}</A>
                          <A href={`/admin/hosts/${host.userId}/calendars`}>{t('admin.hosts.calendars')}</A>
                          <A href={`/admin/hosts/${host.userId}/profile`}>{t('admin.hosts.profile')}</A>
                        </div>
                      </td>
                    </tr>
                  )}
                </DataTable>
              )}
            </AsyncView>
          </section>
        );
      }}
    </AdminFrame>
  );
}
