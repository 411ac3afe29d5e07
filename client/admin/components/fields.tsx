import { For, Show, splitProps, type JSX } from 'solid-js';
import { t } from '../../i18n/i18n';
import type { SaveAction, SaveState } from '../forms';

/** Labelled inputs for admin forms: every input has a label and, when given, a hint tied by aria-describedby. */
interface BaseProps {
  id: string;
  label: string;
  hint?: string;
  error?: string | null;
}

function describedBy(props: BaseProps): string | undefined {
  const ids = [props.hint ? `${props.id}-hint` : '', props.error ? `${props.id}-error` : ''].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

function Extras(props: BaseProps): JSX.Element {
  return (
    <>
      <Show when={props.hint}>
        <p id={`${props.id}-hint`} class="field-hint">
          {props.hint}
        </p>
      </Show>
      <Show when={props.error}>
        <p id={`${props.id}-error`} class="form-error">
          {props.error}
        </p>
      </Show>
    </>
  );
}

export function TextField(
  props: BaseProps & { value: string; onInput: (value: string) => void } & Omit<JSX.InputHTMLAttributes<HTMLInputElement>, 'onInput' | 'value' | 'id'>,
): JSX.Element {
  const [local, rest] = splitProps(props, ['id', 'label', 'hint', 'error', 'value', 'onInput']);
  return (
    <div class="field">
      <label for={local.id}>{local.label}</label>
      <input
        {...rest}
        id={local.id}
        value={local.value}
        aria-invalid={local.error ? 'true' : undefined}
        aria-describedby={describedBy(local)}
        onInput={(e) => local.onInput(e.currentTarget.value)}
      />
      <Extras {...local} />
    </div>
  );
}

export function TextArea(props: BaseProps & { value: string; onInput: (value: string) => void; rows?: number }): JSX.Element {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {/* value as a property, not children: children set only the first value, so a reset form kept the old text */}
      <textarea
        id={props.id}
        rows={props.rows ?? 3}
        value={props.value}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={describedBy(props)}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
      <Extras {...props} />
    </div>
  );
}

export function SelectField<T extends string>(
  props: BaseProps & { value: T; options: ReadonlyArray<{ value: T; label: string }>; onChange: (value: T) => void },
): JSX.Element {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <select
        id={props.id}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={describedBy(props)}
        onChange={(e) => props.onChange(e.currentTarget.value as T)}
      >
        <For each={props.options}>
          {(option) => (
            <option value={option.value} selected={option.value === props.value}>
              {option.label}
            </option>
          )}
        </For>
      </select>
      <Extras {...props} />
    </div>
  );
}

export function CheckboxField(props: BaseProps & { checked: boolean; onChange: (checked: boolean) => void }): JSX.Element {
  return (
    <div class="field field-check">
      <input
        id={props.id}
        type="checkbox"
        checked={props.checked}
        aria-describedby={describedBy(props)}
        onChange={(e) => props.onChange(e.currentTarget.checked)}
      />
      <label for={props.id}>{props.label}</label>
      <Extras {...props} />
    </div>
  );
}

/**
 * A form's submit button (aria-disabled while saving, so it keeps its focus) with any other
 * buttons of the row as children, and the save's status line under the row.
 */
export function SaveButtons(props: { action: SaveAction; label: string; children?: JSX.Element }): JSX.Element {
  return (
    <>
      <div class="button-row">
        <button type="submit" class="button" aria-disabled={props.action.busy()}>
          {props.label}
        </button>
        {props.children}
      </div>
      <SaveStatus state={props.action.state()} error={props.action.error()} />
    </>
  );
}

/** "Saved" / the server's refusal, announced politely; never colour alone (a word and a sign). */
export function SaveStatus(props: { state: SaveState; error?: string | null }): JSX.Element {
  return (
    <p class="save-status" classList={{ 'save-failed': props.state === 'failed', 'save-ok': props.state === 'saved' }} role="status">
      {props.state === 'saving'
        ? t('admin.common.saving')
        : props.state === 'saved'
          ? t('admin.common.saved')
          : props.state === 'failed'
            ? t('admin.common.notSaved', { reason: props.error ?? '' })
            : ''}
    </p>
  );
}
