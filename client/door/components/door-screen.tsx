import { createSignal, For, onCleanup, Show, type JSX } from 'solid-js';
import { isAdmitted } from '../../../shared/checkin-rules';
import type { DeviceRecord, LocalCheckin, OutboxItem } from '../db/door-db';
import { createLiveList, createLiveValue } from '../../offline/live';
import { conflictScans, recentScans, rejectedItems, undoScan, UNDO_WINDOW_MS } from '../db/scans';
import { searchWithPresence } from '../db/lookup-status';
import { readSyncState } from '../db/attendee-cache';
import { formatUtcDateTime } from '../../ui/format';
import { doorState } from '../state';
import { unlockAudio } from '../scanner/feedback';
import { createWedgeReader } from '../scanner/input';
import { CameraPanel } from './camera-panel';
import { StatusBar } from './status-bar';
import { entryTime, NAME_SEARCH_ID, VERDICT_LOOK, VerdictOverlay } from './verdict-overlay';
import { FormError } from '../../ui/form-error';
import { WalkInForm } from './walk-in-form';

const isEditable = (t: EventTarget | null) => t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));

const REASONS: Record<string, string> = {
  forbidden: 'this device may no longer check in for that event',
  unknown: 'the server does not know this ticket',
  wrong_event: 'the ticket is for another event',
  cancelled: 'the ticket is cancelled',
  waitlist: 'the attendee is on the waitlist',
  invalid: 'the scan was malformed',
  server_failed: 'the server failed to store it several times',
  svc_forbidden: 'the undo came too late (15 minutes) — ask an administrator',
  svc_not_found: 'the check-in no longer exists',
  walk_ins_not_allowed: 'this device may not register walk-ins (an administrator can allow it)',
};
const CONFLICTS: Record<string, string> = {
  cancelled_before_scan: 'was cancelled before the scan',
  cancelled: 'is cancelled (possibly after the scan)',
  waitlist: 'is on the waitlist on the server',
  deleted: 'was deleted on the server',
  again_elsewhere: 'was also let in at another door (the same ticket twice) — check who holds it',
  over_capacity: 'came in as a walk-in when the event was already full (kept, over capacity)',
};

/** The paired door: status, event choice, camera, code entry, name search, recent scans, problems. */
export function DoorScreen(props: { device: DeviceRecord }): JSX.Element {
  const door = doorState();
  const revoked = () => props.device.revokedMs !== null;
  const eventTitle = createLiveValue((id: number | null) => (id === null ? Promise.resolve(undefined) : door.db.events.get(id)), undefined, door.eventId);
  const events = createLiveList(() => door.db.events.toArray(), 'id');
  const download = createLiveValue(
    (id: number | null) => readSyncState(door.db, props.device.deviceId).then((s) => (id === null ? undefined : s.downloads[id])),
    undefined,
    door.eventId,
  );

  // keyboard-wedge scanners type the code in a fast burst and press Enter
  const wedge = createWedgeReader();
  const onKey = (e: KeyboardEvent) => {
    const code = wedge.push({ key: e.key, time: e.timeStamp, editable: isEditable(e.target) });
    if (code && !revoked()) {
      e.preventDefault();
      void door.scanCode(code, 'scan');
    }
  };
  document.addEventListener('keydown', onKey);
  onCleanup(() => document.removeEventListener('keydown', onKey));

  // what needs a person: counted in the status bar's badge, listed below
  const rejected = createLiveList(() => rejectedItems(door.db), 'clientId');
  const conflicts = createLiveList(() => conflictScans(door.db), 'clientId');
  let attention: HTMLHeadingElement | undefined;
  const openAttention = () => {
    attention?.scrollIntoView({ block: 'start' });
    attention?.focus({ preventScroll: true });
  };

  return (
    <div class="door">
      <StatusBar attention={rejected.items.length + conflicts.items.length} onAttention={openAttention} />
      <Show when={revoked()}>
        <div class="notice notice-error" role="alert">
          <p>
            <strong>This device was revoked by an administrator.</strong> It can no longer sync or check people in.
          </p>
          <p>
            {door.pending() === 0
              ? 'Every scan made here had reached the server.'
              : `${door.pending()} ${door.pending() === 1 ? 'scan was' : 'scans were'} not synced. Show this screen to an administrator before this device is reset.`}
          </p>
        </div>
      </Show>

      <p class="door-device">
        This device: <strong>{props.device.name}</strong>
      </p>
      <Show when={props.device.eventIds.length > 1}>
        <div class="field door-event-choice">
          <label for="door-event">Event</label>
          <select id="door-event" value={door.eventId() ?? ''} onChange={(e) => door.setEventId(Number(e.currentTarget.value))}>
            <For each={props.device.eventIds}>{(id) => <option value={id}>{events.items.find((e) => e.id === id)?.title ?? `Event ${id}`}</option>}</For>
          </select>
        </div>
      </Show>
      <Show when={props.device.eventIds.length === 1 && eventTitle.value()}>{(e) => <h2 class="door-event-title">{e().title}</h2>}</Show>
      <Show when={props.device.eventIds.length === 0}>
        <p class="notice">This device follows no event yet. An administrator can add events to it.</p>
      </Show>
      <Show when={!download.loading() && !download.value()?.done && door.eventId() !== null}>
        <p class="notice" role="status" aria-live="polite">
          <Show
            when={door.status().downloading}
            fallback="The attendee list for this event is not on this device yet. It downloads as soon as there is a network."
          >
            {(d) => <>Downloading attendees… {d().count.toLocaleString()} so far.</>}
          </Show>
        </p>
      </Show>

      <CameraPanel disabled={revoked()} />
      <ManualEntry disabled={revoked()} />
      <NameSearch disabled={revoked()} />
      <WalkInForm disabled={revoked()} />
      <RecentScans />
      <NeedsAttention rejected={rejected.items} conflicts={conflicts.items} headingRef={(el) => (attention = el)} />
      <DoorSettings />
      <VerdictOverlay />
    </div>
  );
}

function ManualEntry(props: { disabled: boolean }): JSX.Element {
  const door = doorState();
  const [code, setCode] = createSignal('');
  return (
    <form
      class="door-form"
      aria-label="Check in by code"
      onSubmit={(e) => {
        e.preventDefault();
        unlockAudio();
        if (props.disabled || !code().trim()) return;
        void door.scanCode(code(), 'manual');
        setCode('');
      }}
    >
      <label for="door-code">Ticket code</label>
      <div class="door-inline">
        <input
          id="door-code"
          name="code"
          autocomplete="off"
          autocapitalize="off"
          spellcheck={false}
          value={code()}
          onInput={(e) => setCode(e.currentTarget.value)}
          disabled={props.disabled}
        />
        <button type="submit" class="button door-checkin-button" disabled={props.disabled}>
          Check in
        </button>
      </div>
    </form>
  );
}

/**
 * Name search, offline. While it is in use its field sticks to the top of the screen (under the
 * status bar), so the on-screen keyboard does not cover it or the first results; each result says
 * whether that person is already in.
 */
function NameSearch(props: { disabled: boolean }): JSX.Element {
  const door = doorState();
  const [query, setQuery] = createSignal('');
  const [focused, setFocused] = createSignal(false);
  const active = () => focused() || query().trim() !== '';
  // live: a scan, an undo or a pull changes who is in while the results are on screen
  const found = createLiveValue(
    ([event, q]: [number | null, string]) => searchWithPresence(door.db, event, q),
    [],
    () => [door.eventId(), query()] as [number | null, string],
  );
  const results = () => (query().trim().length < 2 ? [] : found.value());
  let section!: HTMLElement;
  const toTop = () => requestAnimationFrame(() => section.scrollIntoView({ block: 'start' }));
  return (
    <section ref={section} class="door-form door-search" classList={{ active: active() }} aria-label="Name search">
      <div class="door-search-field">
        <label for={NAME_SEARCH_ID}>Find by name or email</label>
        <input
          id={NAME_SEARCH_ID}
          type="search"
          autocomplete="off"
          value={query()}
          onInput={(e) => setQuery(e.currentTarget.value)}
          onFocus={() => {
            setFocused(true);
            toTop();
          }}
          onBlur={() => setFocused(false)}
          aria-describedby="door-search-hint"
          disabled={props.disabled}
        />
        <p id="door-search-hint" class="muted door-hint" aria-live="polite">
          {query().trim().length < 2
            ? 'Type at least 2 letters. Works offline.'
            : results().length === 0
              ? 'Nobody found on this device.'
              : `${results().length} found`}
        </p>
      </div>
      <ul class="door-results">
        <For each={results()}>
          {({ attendee: a, isIn, inSinceUtc }) => (
            <li>
              <button
                type="button"
                class="door-result"
                disabled={props.disabled}
                onClick={() => {
                  unlockAudio();
                  void door.scanAttendee(a.id);
                }}
              >
                <span class="door-result-name">{a.displayName || '(no name)'}</span>
                <span class="door-result-presence" classList={{ in: isIn }}>
                  {isIn ? (inSinceUtc ? `In since ${entryTime(inSinceUtc)}` : 'In') : 'Not in yet'}
                  {a.quantity === 1 ? '' : ` · ${a.quantity} people`}
                  {a.status && a.status !== 'going' ? ` · ${a.status}` : ''}
                </span>
                <span class="muted door-result-email">{a.email}</span>
                <span class="door-result-action">Check in</span>
              </button>
            </li>
          )}
        </For>
      </ul>
    </section>
  );
}

const STATE_WORDS: Record<string, string> = {
  queued: 'not yet synced',
  acked: 'synced',
  reflected: 'synced',
  rejected: 'refused by the server',
  undone: 'undone',
  refused: 'refused',
};

function RecentScans(): JSX.Element {
  const door = doorState();
  const recent = createLiveList(() => recentScans(door.db, 15), 'clientId');
  const [now, setNow] = createSignal(Date.now());
  const tick = setInterval(() => setNow(Date.now()), 30_000);
  onCleanup(() => clearInterval(tick));
  return (
    <section class="door-section" aria-labelledby="recent-heading">
      <h2 id="recent-heading">Recent scans</h2>
      <Show when={recent.error()}>
        <p class="form-error" role="alert">
          The scans on this device could not be read.
        </p>
      </Show>
      <Show when={!recent.loading() && recent.items.length === 0}>
        <p class="muted">No scans on this device yet.</p>
      </Show>
      <ul class="door-recent">
        <For each={recent.items}>
          {(c) => (
            <li class={`door-recent-item tone-${VERDICT_LOOK[c.verdict].tone}`}>
              <span class="door-recent-word">{VERDICT_LOOK[c.verdict].word}</span>
              <span class="door-recent-name">{c.displayName || '—'}</span>
              <span class="muted">
                {formatUtcDateTime(c.scannedUtc)} · {c.undo && c.undo !== 'rejected' ? 'undone' : STATE_WORDS[c.state]}
              </span>
              <Show when={isAdmitted(c.verdict) && c.state !== 'undone' && c.state !== 'rejected' && !c.undo && now() - c.scannedMs < UNDO_WINDOW_MS}>
                <button
                  type="button"
                  class="button button-quiet"
                  onClick={() => void undoScan(door.db, c.clientId).then(() => door.engine.requestSync('scan'))}
                  aria-label={`Undo check-in of ${c.displayName || 'this scan'}`}
                >
                  Undo
                </button>
              </Show>
            </li>
          )}
        </For>
      </ul>
    </section>
  );
}

function NeedsAttention(props: { rejected: OutboxItem[]; conflicts: LocalCheckin[]; headingRef: (el: HTMLHeadingElement) => void }): JSX.Element {
  const door = doorState();
  const names = createLiveValue(
    () => door.db.checkins.bulkGet(props.rejected.map((r) => r.clientId.replace(/^annul:/, ''))),
    [],
    () => props.rejected.length,
  );
  return (
    <Show when={props.rejected.length > 0 || props.conflicts.length > 0}>
      <section class="door-section door-attention-section" aria-labelledby="attention-heading">
        <h2 id="attention-heading" ref={props.headingRef} tabindex="-1">
          Needs attention
        </h2>
        <ul class="door-attention">
          <For each={props.rejected}>
            {(item, i) => (
              <li>
                {item.kind === 'annul' ? 'Undo of ' : item.kind === 'walk_in' ? 'Walk-in ' : 'Scan of '}
                <strong>{(item.kind === 'walk_in' ? item.item.displayName : names.value()[i()]?.displayName) || 'an unknown ticket'}</strong> was refused by the
                server: {REASONS[item.reason ?? ''] ?? item.reason}. It is kept here and not sent again.
              </li>
            )}
          </For>
          <For each={props.conflicts}>
            {(c) => (
              <li>
                <strong>{c.displayName || 'An attendee'}</strong> was let in at {formatUtcDateTime(c.scannedUtc)} but {CONFLICTS[c.conflict!] ?? c.conflict}.
              </li>
            )}
          </For>
        </ul>
      </section>
    </Show>
  );
}

function DoorSettings(): JSX.Element {
  const door = doorState();
  const [message, setMessage] = createSignal<string | null>(null);
  return (
    <section class="door-section" aria-labelledby="settings-heading">
      <h2 id="settings-heading">This device</h2>
      <div class="door-settings">
        <button type="button" class="button button-quiet" aria-pressed={door.muted()} onClick={() => door.setMuted(!door.muted())}>
          {door.muted() ? 'Sound off' : 'Sound on'}
        </button>
        <button type="button" class="button button-quiet" onClick={() => void door.engine.syncNow()}>
          Sync now
        </button>
        <button type="button" class="button button-quiet" onClick={() => void door.engine.reset()}>
          Download the list again
        </button>
        <button
          type="button"
          class="button button-quiet"
          aria-disabled={door.pending() > 0}
          onClick={async () => {
            if (door.pending() > 0 || !(await door.forget())) setMessage('Not while scans are unsynced: they would be lost. Sync first.');
          }}
        >
          Forget this device
        </button>
      </div>
      <FormError message={message()} />
    </section>
  );
}
