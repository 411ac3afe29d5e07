/**
 * Attendees in bulk on the attendee list (docs/api.md#attendees-in-bulk): "Add attendee", the bar
 * of a selection (its count, "select all that match", an action confirmed with its count, the
 * job's progress and Undo for a minute), and "Message attendees" with its count and preview first.
 */
import { createSignal, For, onCleanup, Show, type JSX } from 'solid-js';
import type { BulkAction, JobProgress } from '../../../shared/attendees-bulk';
import type { ExportFormat } from '../../../shared/attendees-bulk';
import { addAttendee, downloadSelection, jobProgress, messageEvent, POLL_MS, startBulk, UNDO_MS, type BulkSelection } from '../attendees-bulk';
import { FormError } from '../../ui/form-error';
import { errorMessage } from '../../ui/errors';
import { createSaveAction } from '../forms';
import { t } from '../../i18n/i18n';
import type { ConfirmRequest } from './confirm';
import { CheckboxField, SelectField, TextField } from './fields';
import { SidePanel } from './side-panel';

type SelectableAction = Exclude<BulkAction, 'waitlist' | 'message'>;
const ACTIONS: SelectableAction[] = ['going', 'cancel', 'resend', 'checkin'];
const actionLabel = (a: BulkAction): string =>
  ({
    going: t('admin.bulk.action.going'),
    cancel: t('admin.bulk.action.cancel'),
    waitlist: t('admin.bulk.action.waitlist'),
    resend: t('admin.bulk.action.resend'),
    checkin: t('admin.bulk.action.checkin'),
    message: t('admin.bulk.action.message'),
  })[a];

/** The selection's downloads, labelled as the whole event's are. */
const EXPORTS = [
  ['csv', 'admin.attendees.exportCsv'],
  ['xlsx', 'admin.attendees.exportExcel'],
  ['json', 'admin.attendees.exportJson'],
] as const satisfies ReadonlyArray<readonly [ExportFormat, string]>;

/** Polls a job until it is over; answers its last progress. */
async function followJob(id: number, onProgress: (p: JobProgress) => void, alive: () => boolean): Promise<JobProgress> {
  for (;;) {
    const progress = await jobProgress(id);
    onProgress(progress);
    if (progress.state === 'done' || progress.state === 'failed' || !alive()) return progress;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export function BulkBar(props: {
  eventId: number;
  /** Rows ticked by hand. */
  selectedIds: number[];
  /** Every row the search matches, chosen with "select all that match". */
  allMatching: boolean;
  matchTotal: number;
  query: { search?: string; status?: 'going' | 'waitlist' | 'cancelled' };
  onSelectAll: () => void;
  onClear: () => void;
  onMessage: () => void;
  ask: (request: ConfirmRequest) => void;
  /** A job finished: the list reloads. */
  onChanged: () => void;
}): JSX.Element {
  const [action, setAction] = createSignal<SelectableAction>('going');
  const [progress, setProgress] = createSignal<JobProgress | null>(null);
  const [undoUntil, setUndoUntil] = createSignal(0);
  const [error, setError] = createSignal<string | null>(null);
  let alive = true;
  let undoTimer: ReturnType<typeof setTimeout> | undefined;
  onCleanup(() => {
    alive = false;
    clearTimeout(undoTimer);
  });
  const count = () => (props.allMatching ? props.matchTotal : props.selectedIds.length);
  const selection = (): BulkSelection => (props.allMatching ? { query: props.query } : { ids: props.selectedIds });

  async function run(act: BulkAction, sel: BulkSelection): Promise<void> {
    setError(null);
    const started = await startBulk(props.eventId, act, sel);
    setProgress({ id: started.jobId, action: act, eventId: props.eventId, state: 'queued', total: started.count, done: 0, failed: 0, skipped: 0, undo: [] });
    void followJob(started.jobId, setProgress, () => alive)
      .then((last) => {
        props.onChanged();
        if (last.undo.length > 0) {
          setUndoUntil(Date.now() + UNDO_MS);
          clearTimeout(undoTimer);
          undoTimer = setTimeout(() => setUndoUntil(0), UNDO_MS);
        }
      })
      .catch((err: unknown) => setError(errorMessage(err)));
  }

  const apply = () =>
    props.ask({
      title: t('admin.bulk.confirmTitle', { action: actionLabel(action()), count: count() }),
      detail: t('admin.bulk.confirmDetail', { count: count() }),
      confirmLabel: actionLabel(action()),
      action: () => run(action(), selection()),
      onDone: props.onClear,
    });

  const undo = async () => {
    const last = progress();
    if (!last) return;
    setUndoUntil(0);
    try {
      for (const step of last.undo) await run(step.action, { ids: step.ids });
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  const download = async (format: ExportFormat) => {
    setError(null);
    try {
      await downloadSelection(props.eventId, selection(), format);
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  const running = () => {
    const p = progress();
    return p !== null && (p.state === 'queued' || p.state === 'running');
  };

  return (
    <div class="bulk-bar" role="region" aria-label={t('admin.bulk.label')}>
      <Show when={count() > 0}>
        <p class="bulk-count">{t('admin.bulk.selected', { count: count() })}</p>
        <Show when={!props.allMatching && props.matchTotal > props.selectedIds.length}>
          <button type="button" class="button button-quiet" onClick={() => props.onSelectAll()}>
            {t('admin.bulk.selectAll', { count: props.matchTotal })}
          </button>
        </Show>
        <SelectField
          id="bulk-action"
          label={t('admin.bulk.actionLabel')}
          value={action()}
          options={ACTIONS.map((a) => ({ value: a, label: actionLabel(a) }))}
          onChange={setAction}
        />
        <button type="button" class="button" onClick={apply} aria-disabled={running()}>
          {t('admin.bulk.apply', { count: count() })}
        </button>
        <button type="button" class="button button-quiet" onClick={() => props.onMessage()}>
          {t('admin.bulk.action.message')}
        </button>
        <div class="toolbar-exports" role="group" aria-label={t('admin.bulk.exportLabel', { count: count() })}>
          <For each={EXPORTS}>
            {([format, label]) => (
              <button type="button" class="button button-quiet" onClick={() => void download(format)}>
                {t(label)}
              </button>
            )}
          </For>
        </div>
        <button type="button" class="button button-quiet" onClick={() => props.onClear()}>
          {t('admin.bulk.clear')}
        </button>
      </Show>
      <Show when={progress()}>
        {(p) => (
          <div class="bulk-progress" role="status" aria-live="polite">
            <progress max={Math.max(1, p().total)} value={p().done + p().failed + p().skipped} />
            <span>
              {running()
                ? t('admin.bulk.progress', { done: p().done + p().failed + p().skipped, total: p().total })
                : t('admin.bulk.finished', { action: actionLabel(p().action), done: p().done, failed: p().failed, skipped: p().skipped })}
            </span>
            <Show when={undoUntil() > 0 && !running()}>
              <button type="button" class="button button-quiet" onClick={() => void undo()}>
                {t('admin.bulk.undo')}
              </button>
            </Show>
          </div>
        )}
      </Show>
      <FormError message={error()} />
    </div>
  );
}

/** "Add attendee": a comp ticket or a waitlist place, mailed or not. */
export function AddAttendeeDialog(props: { eventId: number; onAdded: (name: string) => void; onClose: () => void }): JSX.Element {
  let dialog: HTMLDialogElement | undefined;
  const [displayName, setDisplayName] = createSignal('');
  const [email, setEmail] = createSignal('');
  const [quantity, setQuantity] = createSignal('1');
  const [status, setStatus] = createSignal<'going' | 'waitlist'>('going');
  const [notify, setNotify] = createSignal(true);
  const saving = createSaveAction(errorMessage);

  const submit = () =>
    saving.run(async () => {
      const added = await addAttendee(props.eventId, {
        displayName: displayName(),
        email: email(),
        quantity: Number(quantity()),
        status: status(),
        notify: notify(),
      });
      props.onAdded(added.displayName);
      dialog?.close();
    });
  return (
    <SidePanel
      ref={(el) => (dialog = el)}
      titleId="add-attendee-title"
      title={t('admin.bulk.add.title')}
      action={saving}
      submitLabel={t('admin.bulk.add.submit')}
      busyLabel={t('admin.common.saving')}
      onSubmit={submit}
      onClose={() => props.onClose()}
    >
      <TextField id="add-attendee-name" label={t('admin.attendees.panel.displayName')} value={displayName()} onInput={setDisplayName} autofocus />
      <TextField id="add-attendee-email" label={t('admin.attendees.col.email')} type="email" value={email()} onInput={setEmail} autocomplete="off" />
      <div class="field-row side-panel-pair">
        <TextField id="add-attendee-qty" label={t('admin.attendees.panel.quantity')} type="number" min="1" value={quantity()} onInput={setQuantity} />
        <SelectField
          id="add-attendee-status"
          label={t('admin.attendees.col.status')}
          value={status()}
          options={[
            { value: 'going', label: actionLabel('going') },
            { value: 'waitlist', label: actionLabel('waitlist') },
          ]}
          onChange={setStatus}
        />
      </div>
      <CheckboxField id="add-attendee-notify" label={t('admin.bulk.add.notify')} checked={notify()} onChange={setNotify} />
    </SidePanel>
  );
}

/**
 * "Message attendees": to the going, the waitlist, all, or the rows selected; the count and the
 * mail as its first reader gets it come first (a dry run), then "Send to N".
 */
export function MessageDialog(props: {
  eventId: number;
  /** A selection on the list: the message goes to it instead of an audience. */
  selection: { count: number; value: BulkSelection } | null;
  onSent: (count: number) => void;
  onClose: () => void;
}): JSX.Element {
  let dialog: HTMLDialogElement | undefined;
  const [to, setTo] = createSignal<'going' | 'waitlist' | 'all'>('going');
  const [subject, setSubject] = createSignal('');
  const [body, setBody] = createSignal('');
  const [preview, setPreview] = createSignal<{ count: number; subject: string; text: string } | null>(null);
  const sending = createSaveAction(errorMessage);
  const edited = (set: (v: string) => void) => (v: string) => {
    set(v);
    setPreview(null);
  };

  const submit = () =>
    sending.run(async () => {
      const words = { subject: subject(), body: body() };
      const shown = preview();
      if (props.selection) {
        if (!shown) setPreview({ count: props.selection.count, ...words, text: words.body });
        else {
          await startBulk(props.eventId, 'message', props.selection.value, words);
          props.onSent(shown.count);
          dialog?.close();
        }
      } else if (!shown) {
        const dry = await messageEvent(props.eventId, { to: to(), ...words, dryRun: true });
        setPreview({ count: dry.count, ...dry.preview });
      } else {
        const sent = await messageEvent(props.eventId, { to: to(), ...words, dryRun: false });
        props.onSent(sent.count);
        dialog?.close();
      }
    });
  return (
    <SidePanel
      ref={(el) => (dialog = el)}
      titleId="message-title"
      title={t('admin.bulk.message.title')}
      action={sending}
      submitLabel={preview() ? t('admin.bulk.message.send', { count: preview()!.count }) : t('admin.bulk.message.preview')}
      blocked={preview()?.count === 0 && preview() !== null}
      onSubmit={submit}
      onClose={() => props.onClose()}
    >
      <Show
        when={props.selection}
        fallback={
          <SelectField
            id="message-to"
            label={t('admin.bulk.message.to')}
            value={to()}
            options={[
              { value: 'going', label: t('admin.bulk.message.toGoing') },
              { value: 'waitlist', label: t('admin.bulk.message.toWaitlist') },
              { value: 'all', label: t('admin.bulk.message.toAll') },
            ]}
            onChange={(v) => {
              setTo(v);
              setPreview(null);
            }}
          />
        }
      >
        {(sel) => <p>{t('admin.bulk.message.toSelection', { count: sel().count })}</p>}
      </Show>
      <TextField id="message-subject" label={t('admin.bulk.message.subject')} value={subject()} onInput={edited(setSubject)} maxlength="200" />
      <div class="field">
        <label for="message-body">{t('admin.bulk.message.body')}</label>
        <textarea id="message-body" rows="6" value={body()} onInput={(e) => edited(setBody)(e.currentTarget.value)} />
      </div>
      <Show when={preview()}>
        {(p) => (
          <section class="message-preview" aria-labelledby="message-preview-title">
            <h3 id="message-preview-title">{t('admin.bulk.message.previewTitle', { count: p().count })}</h3>
            <p>
              <strong>{p().subject}</strong>
            </p>
            <pre class="message-preview-text">{p().text}</pre>
          </section>
        )}
      </Show>
    </SidePanel>
  );
}
