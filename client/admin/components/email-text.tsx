import { Show, type JSX } from 'solid-js';

/**
 * An email address that may wrap after its @ (and at its hyphens), never mid-word: the cell's
 * `.cell-email` keeps a table column as wide as the longest of those parts.
 */
export function EmailText(props: { email: string }): JSX.Element {
  const at = () => props.email.lastIndexOf('@');
  return (
    <Show when={at() > 0} fallback={props.email}>
      {props.email.slice(0, at() + 1)}
      <wbr />
      {props.email.slice(at() + 1)}
    </Show>
  );
}
