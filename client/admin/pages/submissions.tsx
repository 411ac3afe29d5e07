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
import { t, tx } from '../../i18n/i18n';

const PER_PAGE = 50;

const STATUS_LABELS: Record<ReviewStatus, () => string> = {
  submitted: () => t('admin.submissions.status.submitted'),
  published: () => t('admin.submissions.status.published'),
  rejected: () => t('admin.submissions.status.rejected'),
};
/** The colours the other lists use for the same meaning (admin.css). */
const STATUS_CLASSES: Record<ReviewStatus, string> = { submitted: 'state-pending', published: 'state-published', rejected: 'state-cancelled' };
const FILTERS: Array<{ value: ReviewStatus | ''; label: () => string }> = [
  { value: 'submitted', label: STATUS_LABELS.submitted },
  { value: 'published', label: STATUS_LABELS.published },
  { value: 'rejected', label: STATUS_LABELS.rejected },
  { value: '', label: () => t('admin.submissions.all') },
];

export default function AdminSubmissionsPage(): JSX.Element {
  return (
    <AdminFrame title={t('admin.submissions.title')} area="manage-events">
      {() => (
        <ExtendedOnly what={t('admin.submissions.title')}>
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
        title: t('admin.submissions.rejectTitle', { title: s.title }),
        detail: t('admin.submissions.rejectDetail', { name: s.submitterName }),
        confirmLabel: t('admin.submissions.rejectConfirm'),
        body: () => (
          <TextArea
            id="reject-reason"
            label={t('admin.submissions.reason')}
            hint={t('admin.submissions.reasonHint', { name: s.submitterName })}
            value={reason()}
            onInput={(v) => setReason(v.slice(0, SUBMISSION_LIMITS.reason))}
          />
        ),
        action: () => rejectSubmission(s.id, reason().trim()),
        describeError: adminErrorMessage,
        onDone: () => {
          setNotice({ ok: true, text: t('admin.submissions.rejected', { title: s.title, name: s.submitterName }) });
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
      setNotice({ ok: true, text: t('admin.submissions.published', { title: s.title, name: s.submitterName }) });
      void refetch();
    } catch (err) {
      setNotice({ ok: false, text: adminErrorMessage(err) });
    } finally {
      setBusy(null);
    }
  };

  return (
    <section aria-labelledby="submissions-heading">
      <h2 id="submissions-heading">{t('admin.submissions.heading')}</h2>
      <p class="muted">{t('admin.submissions.intro')}</p>
      <div class="toolbar" role="search" aria-label={t('admin.submissions.filter')}>
        <div class="field">
          <label for="submission-status">{t('admin.submissions.show')}</label>
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
                  {f.label()}
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
        what={t('admin.submissions.what')}
        isEmpty={(listing) => listing.total === 0}
        empty={<p class="status-text">{status() === 'submitted' ? t('admin.submissions.noneWaiting') : t('admin.submissions.none')}</p>}
      >
        {(listing) => (
          <>
            <DataTable
              label={t('admin.submissions.heading')}
              columns={[
                t('admin.submissions.col.event'),
                t('admin.submissions.col.when'),
                t('admin.submissions.col.by'),
                t('admin.submissions.col.status'),
                t('admin.submissions.col.actions'),
              ]}
              rows={listing().items}
            >
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
                    <span class={`state ${STATUS_CLASSES[s.status]}`}>{STATUS_LABELS[s.status]()}</span>
                  </td>
                  <td class="cell-actions">
                    <Show when={s.status === 'submitted'}>
                      <button type="button" class="button button-small" aria-disabled={busy() === s.id} onClick={() => void publish(s)}>
                        {tx('admin.submissions.publish', { title: s.title, hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })}
                      </button>
                      <button type="button" class="button button-small button-quiet" onClick={() => reject.ask(s)}>
                        {tx('admin.submissions.reject', { title: s.title, hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })}
                      </button>
                    </Show>
                    <A href={`/admin/events/${s.id}/edit`}>
                      {s.status === 'published'
                        ? tx('admin.submissions.edit', { title: s.title, hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })
                        : tx('admin.submissions.editDraft', { title: s.title, hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })}
                    </A>
                  </td>
                </tr>
              )}
            </DataTable>
            <Pager page={page()} perPage={PER_PAGE} total={listing().total} what={t('admin.submissions.pagerWhat')} onPage={setPage} />
          </>
        )}
      </AsyncView>
      {reject.view()}
    </section>
  );
}
