import { onCleanup, onMount, type JSX } from 'solid-js';
import { FormError } from '../../ui/form-error';
import { submitWith } from '../../ui/forms';
import type { SaveAction } from '../forms';
import { t } from '../../i18n/i18n';

/**
 * A side panel: a modal dialog at the right (the whole screen on a phone), open while it is
 * shown and closed when it goes. It holds one form: the title, the fields (children), the
 * action's refusal, then the submit button (aria-disabled while saving) and Cancel. Escape or
 * Cancel closes it; `onClose` follows every close. `ref` hands the dialog to the caller, which
 * closes it once the action is done.
 */
export function SidePanel(props: {
  titleId: string;
  title: string;
  action: SaveAction;
  submitLabel: string;
  /** What the submit button says while saving (default: its label stays). */
  busyLabel?: string;
  /** Another reason the submit button is aria-disabled. */
  blocked?: boolean;
  onSubmit: () => unknown;
  onClose: () => void;
  ref?: (dialog: HTMLDialogElement) => void;
  children: JSX.Element;
}): JSX.Element {
  let dialog: HTMLDialogElement | undefined;
  onMount(() => dialog?.showModal());
  onCleanup(() => {
    if (dialog?.open) dialog.close();
  });
  return (
    <dialog
      ref={(el) => {
        dialog = el;
        props.ref?.(el);
      }}
      class="side-panel"
      aria-labelledby={props.titleId}
      onClose={() => props.onClose()}
    >
      <form class="form side-panel-form" onSubmit={submitWith(props.onSubmit)} novalidate>
        <h2 id={props.titleId} class="side-panel-title">
          {props.title}
        </h2>
        {props.children}
        <FormError message={props.action.error()} />
        <div class="button-row">
          <button type="submit" class="button" aria-disabled={props.action.busy() || props.blocked}>
            {props.action.busy() && props.busyLabel ? props.busyLabel : props.submitLabel}
          </button>
          <button type="button" class="button button-quiet" onClick={() => dialog?.close()}>
            {t('admin.attendees.panel.cancel')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
