import { createResource, type JSX } from 'solid-js';
import { AdminFrame } from '../components/admin-frame';
import { AsyncView } from '../components/async-view';
import { DataTable } from '../components/data-table';
import { listBookingTypes } from '../data';
import { formatMoney } from '../../ui/format';
import { A } from '../../router';
import { intlLocale, t } from '../../i18n/i18n';

export default function AdminBookingTypesPage(): JSX.Element {
  return (
    <AdminFrame title={t('admin.bookingTypes.title')} area="booking">
      {() => {
        const [types, { refetch }] = createResource(listBookingTypes);
        return (
          <section aria-labelledby="types-heading">
            <div class="section-header">
              <h2 id="types-heading">{t('admin.bookingTypes.heading')}</h2>
              {/* the hosts' own hours, calendars and profiles: one click from the types they host (the menu keeps one row) */}
              <A href="/admin/hosts">{t('admin.bookingTypes.hosts')}</A>
              <A href="/admin/booking-types/new" class="button">
                {t('admin.bookingTypes.new')}
              </A>
            </div>
            <AsyncView
              resource={types}
              retry={() => void refetch()}
              what={t('admin.bookingTypes.title')}
              isEmpty={(list) => list.length === 0}
              empty={<p class="status-text">{t('admin.bookingTypes.empty')}</p>}
            >
              {(list) => (
                <DataTable
                  labelledBy="types-heading"
                  columns={[
                    t('admin.bookingTypes.col.title'),
                    t('admin.bookingTypes.col.duration'),
                    t('admin.bookingTypes.col.status'),
                    t('admin.bookingTypes.col.hosts'),
                    t('admin.bookingTypes.col.price'),
                    t('admin.bookingTypes.col.approval'),
                  ]}
                  rows={list()}
                >
                  {(type) => (
                    <tr>
                      <td>
                        <A href={`/admin/booking-types/${type.id}`}>{type.title}</A>
                        <div class="muted">/{type.slug}</div>
                      </td>
                      <td>{t('admin.bookingTypes.minutes', { count: type.durationMinutes })}</td>
                      <td>
                        <span class={`state state-${type.status}`}>
                          {type.status === 'published' ? t('admin.bookingTypes.published') : t('admin.bookingTypes.draft')}
                        </span>
                      </td>
                      <td>{type.hosts.length.toLocaleString(intlLocale())}</td>
                      <td>{type.priceCents === 0 ? t('admin.bookingTypes.free') : formatMoney(type.priceCents, type.currency)}</td>
                      <td>{type.requiresApproval ? t('admin.bookingTypes.approvalRequired') : t('admin.bookingTypes.approvalNo')}</td>
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
