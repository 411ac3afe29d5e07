/** `/admin/webhooks` (extended edition): filled in by issue 14. */
import type { JSX } from 'solid-js';
import { AdminFrame } from '../components/admin-frame';
import { ExtendedOnly } from '../components/extended-only';

export default function AdminWebhooksPage(): JSX.Element {
  return (
    <AdminFrame title="Webhooks" area="integrations">
      {() => <ExtendedOnly what="Webhooks">{null}</ExtendedOnly>}
    </AdminFrame>
  );
}
