import { createResource, type JSX } from 'solid-js';
import { AdminFrame } from '../components/admin-frame';
import { AsyncView } from '../components/async-view';
import { DataTable } from '../components/data-table';
import { listBookingTypes } from '../data';
import { centsToText } from '../forms';
import { A } from '../../router';

export default function AdminBookingTypesPage(): JSX.Element {
  return (
    <AdminFrame title="Booking types" area="booking">
      {() => {
        const [types, { refetch }] = createResource(listBookingTypes);
        return (
          <section aria-labelledby="types-heading">
            <div class="section-header">
              <h2 id="types-heading">All booking types</h2>
              <A href="/admin/booking-types/new" class="button">
                New booking type
              </A>
            </div>
            <AsyncView
              resource={types}
              retry={() => void refetch()}
              what="Booking types"
              isEmpty={(list) => list.length === 0}
              empty={<p class="status-text">No booking types yet. Create one with “New booking type”.</p>}
            >
              {(list) => (
                <DataTable labelledBy="types-heading" columns={['Title', 'Duration', 'Status', 'Hosts', 'Price', 'Approval']} rows={list()}>
                  {(t) => (
                    <tr>
                      <td>
                        <A href={`/admin/booking-types/${t.id}`}>{t.title}</A>
                        <div class="muted">/{t.slug}</div>
                      </td>
                      <td>{t.durationMinutes} min</td>
                      <td>
                        <span class={`state state-${t.status}`}>{t.status === 'published' ? 'Published' : 'Draft'}</span>
                      </td>
                      <td>{t.hosts.length}</td>
                      <td>{t.priceCents === 0 ? 'Free' : `${centsToText(t.priceCents)} ${t.currency}`}</td>
                      <td>{t.requiresApproval ? 'Required' : 'No'}</td>
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
