import { createResource, For, type JSX } from 'solid-js';
import { AdminFrame } from '../../components/admin/admin-frame';
import { AsyncView } from '../../components/admin/async-view';
import { listBookingTypes } from '../../admin/data';
import { centsToText } from '../../admin/forms';
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
                <div class="table-scroll" role="region" aria-labelledby="types-heading" tabindex="0">
                  <table class="table">
                    <thead>
                      <tr>
                        <th scope="col">Title</th>
                        <th scope="col">Duration</th>
                        <th scope="col">Status</th>
                        <th scope="col">Hosts</th>
                        <th scope="col">Price</th>
                        <th scope="col">Approval</th>
                      </tr>
                    </thead>
                    <tbody>
                      <For each={list()}>
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
                            <td>{t.priceCents === 0 ? 'Free' : `${centsToText(t.priceCents)} ${t.currency ?? ''}`}</td>
                            <td>{t.requiresApproval ? 'Required' : 'No'}</td>
                          </tr>
                        )}
                      </For>
                    </tbody>
                  </table>
                </div>
              )}
            </AsyncView>
          </section>
        );
      }}
    </AdminFrame>
  );
}
