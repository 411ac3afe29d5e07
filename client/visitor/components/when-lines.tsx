import { Show, type JSX } from 'solid-js';
import type { When } from '../../../shared/time-format';

/** A time as two lines: the place's zone first, the visitor's clock under it when it differs (`shared/time-format.ts`). */
export function WhenLines(props: { when: When }): JSX.Element {
  return (
    <>
      {props.when.place}
      <Show when={props.when.yours}>
        <br />
        <span class="muted">{props.when.yours}</span>
      </Show>
    </>
  );
}
