import { createSignal, Show, type JSX } from 'solid-js';
import { attendeeDraftErrors, attendeePatch, attendeeServerFieldErrors, type AttendeeDraft, type AttendeeFieldErrors } from '../attendee-edit';
import { ATTENDEE_STATUSES, attendeeStatusLabel } from '../constants';
import type { AdminAttendee } from '../data';
import { errorMessage } from '../../ui/errors';
import { createSaveAction } from '../forms';
import type { UpdateAttendeeInput } from '../../../shared/attendees';
import { SelectField, TextField } from './fields';
import { SidePanel } from './side-panel';
import { t } from '../../i18n/i18n';

/**
 * One attendee's details in a side panel (a modal dialog at the right; the whole screen on a
 * phone): full-width fields, each problem next to its field in plain words (aria-invalid), and
 * a refusal that is not about one field under the buttons. Escape or Cancel closes it unsaved.
 * `onSave` answers normally when saved (the panel then closes) and throws the server's refusal
 * otherwise; `onClose` follows every close.
 */
export function AttendeeEditPanel(props: { row: AdminAttendee; onSave: (patch: UpdateAttendeeInput) => Promise<void>; onClose: () => void }): JSX.Element {
  let dialog: HTMLDialogElement | undefined;
  const [draft, setDraft] = createSignal<AttendeeDraft>({
    displayName: props.row.displayName,
    email: props.row.email,
    quantity: String(props.row.quantity),
    status: props.row.status || 'going',
  });
  const [errors, setErrors] = createSignal<AttendeeFieldErrors>({});
  const saving = createSaveAction(errorMessage);
  const set = (field: keyof AttendeeDraft) => (value: string) => {
    setDraft({ ...draft(), [field]: value });
    // a corrected field loses its message at once; the others keep theirs until the next try
    if (errors()[field]) setErrors({ ...errors(), [field]: undefined });
  };

  const focusFirstProblem = () => queueMicrotask(() => dialog?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());

  const submit = async () => {
    if (saving.busy()) return;
    saving.reset();
    const problems = attendeeDraftErrors(draft(), props.row.email);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return focusFirstProblem();
    const patch = attendeePatch(props.row, draft());
    if (Object.keys(patch).length === 0) return close();
    await saving.run(
      async () => {
        await props.onSave(patch);
        close();
      },
      (err) => {
        const fields = attendeeServerFieldErrors(err);
        setErrors(fields);
        if (Object.keys(fields).length === 0) return t('admin.attendees.panel.notSaved', { reason: errorMessage(err) });
        focusFirstProblem();
        return null;
      },
    );
  };

  function close(): void {
    dialog?.close();
  }

  const id = (field: string) => `edit-attendee-${field}`;
  return (
    <SidePanel
      ref={(el) => (dialog = el)}
      titleId="edit-attendee-title"
      title={t('admin.attendees.panel.title', { name: props.row.displayName })}
      action={saving}
      submitLabel={t('admin.attendees.panel.save')}
      busyLabel={t('admin.common.saving')}
      onSubmit={submit}
      onClose={() => props.onClose()}
    >
      <TextField
        id={id('name')}
        label={t('admin.attendees.panel.displayName')}
        value={draft().displayName}
        onInput={set('displayName')}
        error={errors().displayName}
        autocomplete="off"
        autofocus
      />
      <TextField
        id={id('email')}
        label={t('admin.attendees.col.email')}
        type="email"
        value={draft().email}
        onInput={set('email')}
        error={errors().email}
        autocomplete="off"
      />
      <div class="field-row side-panel-pair">
        <TextField
          id={id('qty')}
          label={t('admin.attendees.panel.quantity')}
          type="number"
          inputmode="numeric"
          min="1"
          value={draft().quantity}
          onInput={set('quantity')}
          error={errors().quantity}
        />
        <SelectField
          id={id('status')}
          label={t('admin.attendees.col.status')}
          value={draft().status}
          options={ATTENDEE_STATUSES.map((s) => ({ value: s, label: attendeeStatusLabel(s) }))}
          onChange={set('status')}
          error={errors().status}
        />
      </div>
      <Show when={props.row.pending?.length}>
        <p class="field-hint">{t('admin.attendees.panel.pending')}</p>
      </Show>
    </SidePanel>
  );
}
