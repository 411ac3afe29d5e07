import { createEffect, createSignal, onCleanup, type Accessor } from 'solid-js';

/**
 * True from the task after the one in which `when()` first turned true. A page draws its heading
 * and text in one task and a heavy part (the slot grid, the sign-up form) in the next, so the
 * browser paints in between and no single task blocks input for long
 * (docs/decisions/019-fast-first-paint.md).
 */
export function createLater(when: Accessor<unknown>): Accessor<boolean> {
  const [ready, setReady] = createSignal(false);
  let timer: ReturnType<typeof setTimeout> | undefined;
  createEffect(() => {
    if (ready() || timer !== undefined || !when()) return;
    timer = setTimeout(() => setReady(true), 0);
  });
  onCleanup(() => clearTimeout(timer));
  return ready;
}
