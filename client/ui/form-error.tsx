import { Show, type JSX } from 'solid-js';

/** A form's or an action's failure in plain words, announced at once (role=alert); nothing when there is none. */
export function FormError(props: { message: string | null | undefined; id?: string }): JSX.Element {
  return (
    <Show when={props.message}>
      {(message) => (
        <p id={props.id} class="form-error" role="alert">
          {message()}
        </p>
      )}
    </Show>
  );
}
