/** `/admin/webhook` (extended edition): filled in by issue 14. */
import type { JSX } from 'solid-js';
import { AdminFrame } from '../components/admin-frame';
import { ExtendedOnly } from '../components/extended-only';

export default function AdminWebhookPage(): JSX.Element {
  return (
    <AdminFrame title="Webhook" area="integrations">
      {() => <ExtendedOnly what="Webhook">{null}</ExtendedOnly>}
    </AdminFrame>
  );
}
