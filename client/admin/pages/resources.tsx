/** `/admin/resources` (extended edition): filled in by issue 14. */
import type { JSX } from 'solid-js';
import { AdminFrame } from '../components/admin-frame';
import { ExtendedOnly } from '../components/extended-only';

export default function AdminResourcesPage(): JSX.Element {
  return (
    <AdminFrame title="Resources" area="booking">
      {() => <ExtendedOnly what="Resources">{null}</ExtendedOnly>}
    </AdminFrame>
  );
}
