/**
 * When to try the network again: the browser says it is back `online`, or the page becomes
 * visible again (a phone woken up, a tab brought forward — timers may not have run meanwhile).
 * Safe outside a browser (tests in Node): nothing is listened to there.
 */
export type ReconnectReason = 'online' | 'visible';

/** Calls `fn` on each `online` event and each time the page becomes visible; answers the function that stops listening. */
export function onReconnect(fn: (reason: ReconnectReason) => void): () => void {
  const onOnline = () => fn('online');
  const onVisible = () => {
    if (document.visibilityState === 'visible') fn('visible');
  };
  globalThis.addEventListener?.('online', onOnline);
  globalThis.document?.addEventListener('visibilitychange', onVisible);
  return () => {
    globalThis.removeEventListener?.('online', onOnline);
    globalThis.document?.removeEventListener('visibilitychange', onVisible);
  };
}
