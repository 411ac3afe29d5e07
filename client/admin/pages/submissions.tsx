/** `/admin/submissions` (extended edition): filled in by issue 14. */
import type { JSX } from 'solid-js';
import { AdminFrame } from '../components/admin-frame';
import { ExtendedOnly } from '../components/extended-only';

export default function AdminSubmissionsPage(): JSX.Element {
  return (
    <AdminFrame title="Submissions" area="manage-events">
      {() => <ExtendedOnly what="Submissions">{null}</ExtendedOnly>}
    </AdminFrame>
  );
}
