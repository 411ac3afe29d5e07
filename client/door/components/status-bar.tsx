import { createSignal, For, onCleanup, onMount, Show, type JSX } from 'solid-js';
import { createLiveValue } from '../../offline/live';
import { readSyncState } from '../db/attendee-cache';
import { cachedCategoryCounts, cachedEventCounts, localCheckedInAdjustment, localCheckedInByCategory, type EventCounts } from '../db/scans';
import { eventHasCategories } from '../categories';
import { doorState } from '../state';
import { online } from '../../pwa';
import { t, tx } from '../../i18n/i18n';
import { ago, dayClock, grouped } from '../door-format';

function sinceSync(ms: number, nowMs: number): string {
  const s = Math.round((ms - nowMs) / 1000);
  if (s > -45) return t('door.time.justNow');
  const m = Math.round(s / 60);
  if (m > -60) return ago().format(m, 'minute');
  const h = Math.round(m / 60);
  if (h > -48) return ago().format(h, 'hour');
  return ago().format(Math.round(h / 24), 'day');
}

/** A sync problem in the reader's words, from the engine's code (the engine's own text is English). */
function syncProblem(code: string | null, fallback: string): string {
  switch (code) {
    case 'network':
      return t('door.syncError.network');
    case 'svc_device_revoked':
      return t('door.syncError.revoked');
    case 'svc_unauthorized':
      return t('door.syncError.unauthorized');
    case 'svc_forbidden':
      return t('door.syncError.forbidden');
    case 'svc_rate_limited':
      return t('door.syncError.rateLimited');
    default:
      return code ? t('door.syncError.other', { code }) : fallback;
  }
}

const bold = (chunks: JSX.Element[]) => <strong>{chunks}</strong>;

/**
 * Honest state, always visible: offline as a full-width bar, last sync, unsynced scans, the
 * event's counts, a Needs-attention badge that opens that list, sync problems (online only:
 * offline, the bar says it). Compact, as it sticks: on a phone offline it stays under about
 * 120 px, so the screen below is not hidden. Its height is published as `--door-status-h`, so
 * what sticks or scrolls below it is not hidden under it.
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
  // per ticket category (decision 029), again a whole-list query and a cheap local one
  const cachedByCategory = createLiveValue((id: number | null) => (id === null ? Promise.resolve([]) : cachedCategoryCounts(door.db, id)), [], door.eventId);
  const adjustByCategory = createLiveValue(
    (id: number | null) => (id === null ? Promise.resolve(new Map<number | null, number>()) : localCheckedInByCategory(door.db, id)),
    new Map<number | null, number>(),
    door.eventId,
  );
  const categoryCounts = () => {
    const device = door.device();
    const eventId = door.eventId();
    if (!device || eventId === null || !eventHasCategories(device, eventId)) return [];
    const byId = new Map(cachedByCategory.value().map((c) => [c.categoryId, c]));
    const adjust = adjustByCategory.value();
    const row = (categoryId: number | null, name: string) => {
      const c = byId.get(categoryId) ?? { going: 0, checkedIn: 0 };
      return { categoryId, name, going: c.going, checkedIn: c.checkedIn + (adjust.get(categoryId) ?? 0) };
    };
    const named = (device.categories ?? []).filter((c) => c.eventId === eventId).map((c) => row(c.id, c.name));
    const none = row(null, t('door.category.none'));
    return none.going > 0 || none.checkedIn > 0 ? [...named, none] : named;
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
          <span>{tx('door.status.offline', { b: bold })}</span>
        </p>
      </Show>
      <ul class="door-status-list" aria-label={t('door.status.label')}>
        <Show when={props.attention > 0}>
          <li>
            <button type="button" class="door-chip door-attention-badge" onClick={() => props.onAttention()}>
              <span aria-hidden="true">⚠</span> {t('door.attention.heading')} <span class="door-badge-count">{grouped(props.attention)}</span>
            </button>
          </li>
        </Show>
        <Show when={online()}>
          <li class="door-chip">
            <span class="network-dot" aria-hidden="true" />
            {t('door.status.online')}
          </li>
        </Show>
        <li class="door-chip door-counts">
          <Show when={counts()} fallback={door.attendeesReady() ? t('door.status.noCounts') : t('door.status.loadingAttendees', { count: stored.value() })}>
            {(c) => <>{tx('door.status.counts', { checkedIn: c().checkedIn, going: c().going, b: bold })}</>}
          </Show>
        </li>
        <Show when={categoryCounts().length > 0}>
          <li class="door-chip door-category-counts">
            <ul aria-label={t('door.status.categoryCountsLabel')}>
              <For each={categoryCounts()}>
                {(c) => (
                  <li>
                    <bdi>{tx('door.status.categoryCounts', { category: c.name, checkedIn: c.checkedIn, going: c.going, b: bold })}</bdi>
                  </li>
                )}
              </For>
            </ul>
          </li>
        </Show>
        <li class="door-chip door-sync">
          <span role="status">{door.pending() === 0 ? t('door.status.allSynced') : t('door.status.unsynced', { count: door.pending() })}</span>
          <span aria-hidden="true">·</span>
          <span>
            <Show when={lastSync()} fallback={t('door.status.lastSyncNever')}>
              {/* in JSX, so the age, the clock and the words follow time and a language switch */}
              {(ms) => (
                <>
                  {tx('door.status.lastSync', {
                    ago: sinceSync(ms(), now()),
                    time: (chunks) => (
                      <time datetime={new Date(ms()).toISOString()} title={dayClock().format(ms())}>
                        {chunks}
                      </time>
                    ),
                  })}
                </>
              )}
            </Show>
            <Show when={door.status().phase === 'syncing'}> {t('door.status.syncing')}</Show>
          </span>
        </li>
      </ul>
      {/* offline, a failed sync is the offline bar's news already (scans kept, sent when back): one banner, not two */}
      <Show when={online() && door.status().phase === 'error' && door.status().lastError}>
        {(message) => (
          <div class="notice notice-error door-sync-error" role="alert">
            <p>{t('door.status.syncProblem', { message: syncProblem(door.status().lastErrorCode, message()) })}</p>
            <button type="button" class="button button-quiet" onClick={() => void door.engine.syncNow()}>
              {t('door.status.tryAgain')}
            </button>
          </div>
        )}
      </Show>
    </div>
  );
}
