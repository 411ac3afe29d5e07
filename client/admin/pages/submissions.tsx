/**
 * `/admin/submissions` (extended edition): events proposed by visitors on `/events/submit`
 * (docs/api.md#event-submission). Each waiting proposal can be published (it goes live and the
 * submitter is mailed its link), rejected with an optional reason (it stays a draft; the
 * submitter is mailed), or opened in the event form to edit first.
 */
import { createResource, createSignal, For, Show, type JSX } from 'solid-js';
import { ActionNoticeView, type ActionNotice } from '../components/action-notice';
import { AdminFrame } from '../components/admin-frame';
import { AsyncView } from '../components/async-view';
import { createConfirm } from '../components/confirm';
import { DataTable } from '../components/data-table';
import { ExtendedOnly } from '../components/extended-only';
import { TextArea } from '../components/fields';
import { Pager } from '../components/pager';
import { adminErrorMessage } from '../errors';
import { listSubmissions, publishSubmission, rejectSubmission, type ReviewStatus, type SubmissionDto } from '../submissions-data';
import { SUBMISSION_LIMITS } from '../../../shared/submissions';
import { formatUtcDateTime, isoDateTime } from '../../ui/format';
import { A } from '../../router';

const PER_PAGE = 50;

const STATUS_LABELS: Record<ReviewStatus, string> = { submitted: 'Awaiting review', published: 'Published', rejected: 'Rejected' };
/** The colours the other lists use for the same meaning (admin.css). */
const STATUS_CLASSES: Record<ReviewStatus, string> = { submitted: 'state-pending', published: 'state-published', rejected: 'state-cancelled' };
const FILTERS: Array<{ value: ReviewStatus | ''; label: string }> = [
  { value: 'submitted', label: 'Awaiting review' },
  { value: 'published', label: 'Published' },
  { value: 'rejected', label: 'Rejected' },
  { value: '', label: 'All' },
];

export default function AdminSubmissionsPage(): JSX.Element {
  return (
    <AdminFrame title="Submissions" area="manage-events">
      {() => (
        <ExtendedOnly what="Submissions">
          <Submissions />
        </ExtendedOnly>
      )}
    </AdminFrame>
  );
}

function Submissions(): JSX.Element {
  const [status, setStatus] = createSignal<ReviewStatus | ''>('submitted');
  const [page, setPage] = createSignal(1);
  const [notice, setNotice] = createSignal<ActionNotice | null>(null);
  const [busy, setBusy] = createSignal<number | null>(null);
  const query = () => ({ status: status(), page: page() });
  const [submissions, { refetch }] = createResource(query, (q) => listSubmissions(q.status || undefined, q.page, PER_PAGE));
  // Reject: names the proposal, takes an optional reason for the submitter, shows the server's refusal inside.
  const dialog = createConfirm();
  const [reason, setReason] = createSignal('');
  const reject = {
    ask(s: SubmissionDto) {
      setReason('');
      dialog.ask({
        title: `Reject “${s.title}”?`,
        detail: `It stays a hidden draft. ${s.submitterName} is told by email.`,
        confirmLabel: 'Reject proposal',
        body: () => (
          <TextArea
            id="reject-reason"
            label="Reason (optional)"
            hint={`Sent to ${s.submitterName} in the email.`}
            value={reason()}
            onInput={(v) => setReason(v.slice(0, SUBMISSION_LIMITS.reason))}
          />
        ),
        action: () => rejectSubmission(s.id, reason().trim()),
        describeError: adminErrorMessage,
        onDone: () => {
          setNotice({ ok: true, text: `Rejected “${s.title}”. ${s.submitterName} is told by email.` });
          void refetch();
        },
      });
    },
    view: dialog.view,
  };

  const publish = async (s: SubmissionDto) => {
    if (busy() !== null) return;
    setBusy(s.id);
    setNotice(null);
    try {
      await publishSubmission(s.id);
      setNotice({ ok: true, text: `Published “${s.title}”. ${s.submitterName} is told by email.` });
      void refetch();
    } catch (err) {
      setNotice({ ok: false, text: adminErrorMessage(err) });
    } finally {
      setBusy(null);
    }
  };

  return (
    <section aria-labelledby="submissions-heading">
      <h2 id="submissions-heading">Proposed events</h2>
      <p class="muted">Visitors propose events on the public page “Propose an event”. A proposal stays a hidden draft until you publish it.</p>
      <div class="toolbar" role="search" aria-label="Filter proposals">
        <div class="field">
          <label for="submission-status">Show</label>
          <select
            id="submission-status"
            onChange={(e) => {
              setStatus(e.currentTarget.value as ReviewStatus | '');
              setPage(1);
            }}
          >
            <For each={FILTERS}>
              {(f) => (
                <option value={f.value} selected={f.value === status()}>
                  {f.label}
                </option>
              )}
            </For>
          </select>
        </div>
      </div>
      <ActionNoticeView notice={notice()} />
      <AsyncView
        resource={submissions}
        retry={() => void refetch()}
        what="Proposals"
        isEmpty={(listing) => listing.total === 0}
        empty={<p class="status-text">{status() === 'submitted' ? 'No proposals are waiting for review.' : 'No proposals here.'}</p>}
      >
        {(listing) => (
          <>
            <DataTable label="Proposed events" columns={['Event', 'When', 'Submitted by', 'Status', 'Actions']} rows={listing().items}>
              {(s) => (
                <tr data-submission-id={s.id}>
                  <td>
                    <strong>{s.title}</strong>
                    <Show when={s.venue}>
                      <div class="muted">{s.venue}</div>
                    </Show>
                  </td>
                  <td>
                    <time datetime={isoDateTime(s.startsUtc)}>{formatUtcDateTime(s.startsUtc)}</time>
                    <div class="muted">{s.timezone}</div>
                  </td>
                  <td>
                    {s.submitterName}
                    <div class="muted cell-email">{s.submitterEmail}</div>
                  </td>
                  <td>
                    <span class={`state ${STATUS_CLASSES[s.status]}`}>{STATUS_LABELS[s.status]}</span>
                  </td>
                  <td class="cell-actions">
                    <Show when={s.status === 'submitted'}>
                      <button type="button" class="button button-small" aria-disabled={busy() === s.id} onClick={() => void publish(s)}>
                        Publish<span class="visually-hidden"> {s.title}</span>
                      </button>
                      <button type="button" class="button button-small button-quiet" onClick={() => reject.ask(s)}>
                        Reject<span class="visually-hidden"> {s.title}</span>
                      </button>
                    </Show>
                    <A href={`/admin/events/${s.id}/edit`}>
                      {s.status === 'published' ? 'Edit' : 'Edit draft'}
                      <span class="visually-hidden"> {s.title}</span>
                    </A>
                  </td>
                </tr>
              )}
            </DataTable>
            <Pager page={page()} perPage={PER_PAGE} total={listing().total} what="proposals" onPage={setPage} />
          </>
        )}
      </AsyncView>
      {reject.view()}
    </section>
  );
}
