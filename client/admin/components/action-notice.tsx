import { Show, type JSX } from 'solid-js';

/** What the last action on a page came to, in plain words. */
export interface ActionNotice {
  ok: boolean;
  text: string;
}

/** The last action's outcome: announced politely when it worked, as an alert when it did not. */
export function ActionNoticeView(props: { notice: ActionNotice | null }): JSX.Element {
  return (
    <Show when={props.notice}>
      {(n) => (
        <p class={n().ok ? 'notice notice-ok' : 'notice notice-error'} role={n().ok ? 'status' : 'alert'}>
          {n().ok ? '✓ ' : '✗ '}
          {n().text}
        </p>
      )}
    </Show>
  );
}
