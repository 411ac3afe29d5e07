/**
 * A read-only value to copy (a secret, a private address): the box selects itself when focused,
 * and Copy puts it on the clipboard, or selects it where the browser refuses, saying which.
 */
import type { JSX } from 'solid-js';
import { t } from '../../i18n/i18n';

export function CopyField(props: {
  id: string;
  value: string;
  /** Said after a copy (or a selection): the caller shows it in its status line. */
  onCopied: (said: string) => void;
  /** The Copy button's words (with a hidden part naming what is copied). */
  copyLabel: JSX.Element;
  describedBy?: string;
}): JSX.Element {
  let input: HTMLInputElement | undefined;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      props.onCopied(t('admin.webhook.secret.copied'));
    } catch {
      input?.select();
      props.onCopied(t('admin.webhook.secret.selected'));
    }
  };
  return (
    <div class="copy-field">
      <input
        id={props.id}
        ref={input}
        type="text"
        class="secret-value"
        readOnly
        spellcheck={false}
        autocomplete="off"
        value={props.value}
        aria-describedby={props.describedBy}
        onFocus={(e) => e.currentTarget.select()}
      />
      <button type="button" class="button button-small" onClick={() => void copy()}>
        {props.copyLabel}
      </button>
    </div>
  );
}
