/**
 * "Run now, or once more after the current run": a kick while a run is in progress does not
 * start a second one beside it, it asks for one more round once the current one ends (any
 * number of kicks meanwhile make one more round). Every kick answers the promise of the runs
 * in progress, settled when no round is left to do. The door's sync (`syncNow`) and the
 * visitor outbox (`kickOutbox`) run this way.
 */
export function createKick(run: () => Promise<unknown>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  return function kick(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await run();
        } while (again);
      } finally {
        running = null;
      }
    })();
    return running;
  };
}
