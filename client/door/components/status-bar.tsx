import { createSignal, onCleanup, Show, type JSX } from 'solid-js';
import { createLiveValue } from '../../offline/live';
import { cachedEventCounts, localCheckedInAdjustment, type EventCounts } from '../db/scans';
import { doorState } from '../state';
import { online } from '../../pwa';

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const clock = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' });

function ago(ms: number, nowMs: number): string {
  const s = Math.round((ms - nowMs) / 1000);
  if (s > -45) return 'just now';
  const m = Math.round(s / 60);
  if (m > -60) return relative.format(m, 'minute');
  const h = Math.round(m / 60);
  if (h > -48) return relative.format(h, 'hour');
  return relative.format(Math.round(h / 24), 'day');
}

/** Honest state, always visible: network, last sync, unsynced scans, the event's counts, sync problems. */
export function StatusBar(): JSX.Element {
  const door = doorState();
  const [now, setNow] = createSignal(Date.now());
  const tick = setInterval(() => setNow(Date.now()), 15_000);
  onCleanup(() => clearInterval(tick));
  // two live queries: a scan re-runs only the cheap local one, not the counts over the whole list
  const cached = createLiveValue<EventCounts | null, number | null>(
    (id) => (id === null ? Promise.resolve(null) : cachedEventCounts(door.db, id)),
    null,
    door.eventId,
  );
  const adjust = createLiveValue((id: number | null) => (id === null ? Promise.resolve(0) : localCheckedInAdjustment(door.db, id)), 0, door.eventId);
  const counts = () => {
    const c = cached.value();
    return c ? { going: c.going, checkedIn: c.checkedIn + adjust.value() } : null;
  };
  const lastSync = () => door.status().lastSyncMs;

  return (
    <div class="door-status">
      <ul class="door-status-list" aria-label="Door status">
        <li class="door-chip" classList={{ 'door-chip-warn': !online() }}>
          <span class="network-dot" classList={{ offline: !online() }} aria-hidden="true" />
          {online() ? 'Online' : 'Offline'}
        </li>
        <li class="door-chip">
          <span role="status">{door.pending() === 0 ? 'All scans synced' : `${door.pending()} not yet synced`}</span>
        </li>
        <li class="door-chip">
          Last sync:{' '}
          <Show when={lastSync()} fallback="never">
            {(ms) => (
              <time datetime={new Date(ms()).toISOString()} title={clock.format(ms())}>
                {ago(ms(), now())}
              </time>
            )}
          </Show>
          <Show when={door.status().phase === 'syncing'}> (syncing…)</Show>
        </li>
        <li class="door-chip door-counts">
          <Show when={counts()} fallback="Counts: —">
            {(c) => (
              <>
                <strong>{c().checkedIn}</strong> checked in / <strong>{c().going}</strong> going
              </>
            )}
          </Show>
        </li>
      </ul>
      <Show when={door.status().phase === 'error' && door.status().lastError}>
        {(message) => (
          <div class="notice notice-error door-sync-error" role="alert">
            <p>Sync problem: {message()} Scans are kept on this device and sent when it works again.</p>
            <button type="button" class="button button-quiet" onClick={() => void door.engine.syncNow()}>
              Try again now
            </button>
          </div>
        )}
      </Show>
    </div>
  );
}
