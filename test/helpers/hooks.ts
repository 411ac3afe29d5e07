import { afterEach } from 'vitest';
import type { Hooks } from '../../server/hooks';

/**
 * Per-test undo: what a test registers in `cleanups` (a filter, fake timers) is undone after
 * it, newest first; `filter` adds a hook filter for the current test only.
 */
export function useTestHooks(hooks: () => Hooks) {
  const cleanups: Array<() => unknown> = [];
  afterEach(() => {
    for (const undo of cleanups.splice(0).reverse()) undo();
  });
  function filter(name: string, cb: (...args: any[]) => unknown, priority = 10, accepted = 4): void {
    hooks().addFilter(name as 'svc_currency', cb as never, priority, accepted as 1);
    cleanups.push(() => hooks().removeFilter(name as 'svc_currency', cb as never, priority));
  }
  return { cleanups, filter };
}
