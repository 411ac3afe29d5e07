import { createSignal, onCleanup, onMount, Show, type JSX } from 'solid-js';
import { onFirstUse } from '../../ui/format';
import { createLiveValue } from '../../offline/live';
import { readSyncState } from '../db/attendee-cache';
import { cachedEventCounts, localCheckedInAdjustment, type EventCounts } from '../db/scans';
import { doorState } from '../state';
import { online } from '../../pwa';

const relative = onFirstUse(() => new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }));
const clock = onFirstUse(() => new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' }));

function ago(ms: number, nowMs: number): string {
  const s = Math.round((ms - nowMs) / 1000);
  if (s > -45) return 'just now';
  const m = Math.round(s / 60);
  if (m > -60) return relative().format(m, 'minute');
  const h = Math.round(m / 60);
  if (h > -48) return relative().format(h, 'hour');
  return relative().format(Math.round(h / 24), 'day');
}

/**
 * Honest state, always visible: offline as a full-width bar, last sync, unsynced scans, the
 * event's counts, a Needs-attention badge that opens that list, sync problems. Its height is
 * published as `--door-status-h`, so what sticks or scrolls below it is not hidden under it.
 */
export function StatusBar(props: { attention: number; onAttention: () => void }): JSX.Element {
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
  // while the in-memory list builds at start (db/attendee-index.ts): how many it is loading
  const stored = createLiveValue(
    (id: number | null) =>
      id === null
        ? Promise.resolve(0)
        : door.db.device.get('self').then((d) => (d ? readSyncState(door.db, d.deviceId).then((s) => s.downloads[id]?.count ?? 0) : 0)),
    0,
    door.eventId,
  );

  let bar!: HTMLDivElement;
  onMount(() => {
    const root = document.documentElement;
    const observer = new ResizeObserver(() => root.style.setProperty('--door-status-h', `${bar.offsetHeight}px`));
    observer.observe(bar);
    onCleanup(() => {
      observer.disconnect();
      root.style.removeProperty('--door-status-h');
    });
  });

  return (
    <div class="door-status" ref={bar}>
      <Show when={!online()}>
        <p class="door-offline-bar" role="status">
          <span class="network-dot offline" aria-hidden="true" />
          <span>
            <strong>Offline.</strong> Scanning still works; scans are sent when the network is back.
          </span>
        </p>
      </Show>
      <ul class="door-status-list" aria-label="Door status">
        <Show when={props.attention > 0}>
          <li>
            <button type="button" class="door-chip door-attention-badge" onClick={() => props.onAttention()}>
              <span aria-hidden="true">⚠</span> Needs attention <span class="door-badge-count">{props.attention}</span>
            </button>
          </li>
        </Show>
        <Show when={online()}>
          <li class="door-chip">
            <span class="network-dot" aria-hidden="true" />
            Online
          </li>
        </Show>
        <li class="door-chip door-counts">
          <Show when={counts()} fallback={door.attendeesReady() ? 'Counts: —' : `Loading ${stored.value().toLocaleString()} attendees…`}>
            {(c) => (
              <>
                <strong>{c().checkedIn}</strong> checked in / <strong>{c().going}</strong> going
              </>
            )}
          </Show>
        </li>
        <li class="door-chip door-sync">
          <span role="status">{door.pending() === 0 ? 'All scans synced' : `${door.pending()} not yet synced`}</span>
          <span aria-hidden="true">·</span>
          <span>
            Last sync:{' '}
            <Show when={lastSync()} fallback="never">
              {(ms) => (
                <time datetime={new Date(ms()).toISOString()} title={clock().format(ms())}>
                  {ago(ms(), now())}
                </time>
              )}
            </Show>
            <Show when={door.status().phase === 'syncing'}> (syncing…)</Show>
          </span>
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
