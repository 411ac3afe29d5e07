import { createSignal, Show, type JSX } from 'solid-js';
import { errorMessage } from '../../ui/errors';
import { FormError } from '../../ui/form-error';
import { submitWith } from '../../ui/forms';
import { createSaveAction } from '../forms';
import { t } from '../../i18n/i18n';

export interface ConfirmRequest {
  /** The question, naming the item ("Delete Ada Lovelace (ada@example.org)?"). */
  title: string;
  detail?: string;
  confirmLabel: string;
  /** More of the form between the detail and the buttons (a reason to send, say). */
  body?: () => JSX.Element;
  action: () => Promise<unknown>;
  onDone?: () => void;
  /** How a refusal reads (default: the server's message). */
  describeError?: (err: unknown) => string;
}

/**
 * A modal `<dialog>` for destructive actions (UX: "confirm with the item's name"): focus
 * moves into it, Escape closes it, and the server's refusal shows inside it.
 */
export function createConfirm(): { ask: (request: ConfirmRequest) => void; view: () => JSX.Element } {
  let dialog: HTMLDialogElement | undefined;
  const [request, setRequest] = createSignal<ConfirmRequest | null>(null);
  const working = createSaveAction(errorMessage);

  const close = () => {
    dialog?.close();
    setRequest(null);
  };

  const confirm = async () => {
    const current = request();
    if (!current) return;
    await working.run(async () => {
      await current.action();
      close();
      current.onDone?.();
    }, current.describeError);
  };

  return {
    ask(next) {
      working.reset();
      setRequest(next);
      dialog?.showModal();
    },
    view: () => (
      <dialog ref={dialog} class="confirm-dialog" aria-labelledby="confirm-title" onClose={() => setRequest(null)}>
        <Show when={request()}>
          {(current) => (
            <form method="dialog" onSubmit={submitWith(confirm)}>
              <h2 id="confirm-title">{current().title}</h2>
              <Show when={current().detail}>
                <p>{current().detail}</p>
              </Show>
              {current().body?.()}
              <FormError message={working.error()} />
              <div class="button-row">
                <button type="submit" class="button button-danger" aria-disabled={working.busy()}>
                  {working.busy() ? t('admin.common.working') : current().confirmLabel}
                </button>
                <button type="button" class="button button-quiet" onClick={close}>
                  {t('admin.common.keepIt')}
                </button>
              </div>
            </form>
          )}
        </Show>
      </dialog>
    ),
  };
}
