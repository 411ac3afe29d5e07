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
import { entryTime, NAME_SEARCH_ID, VERDICT_LOOK, verdictWord, VerdictOverlay } from './verdict-overlay';
import { FormError } from '../../ui/form-error';
import { WalkInForm } from './walk-in-form';
import { t, tx } from '../../i18n/i18n';
import { LanguageMenu } from '../../i18n/language-menu';

const isEditable = (t: EventTarget | null) => t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName));

/** Why the server refused an item, in the reader's words (written out: keys are used as literals). */
function refusalReason(reason: string | null | undefined): string {
  switch (reason) {
    case 'forbidden':
      return t('door.reason.forbidden');
    case 'unknown':
      return t('door.reason.unknown');
    case 'wrong_event':
      return t('door.reason.wrongEvent');
    case 'cancelled':
      return t('door.reason.cancelled');
    case 'waitlist':
      return t('door.reason.waitlist');
    case 'invalid':
      return t('door.reason.invalid');
    case 'server_failed':
      return t('door.reason.serverFailed');
    case 'svc_forbidden':
      return t('door.reason.undoTooLate');
    case 'svc_not_found':
      return t('door.reason.notFound');
    case 'walk_ins_not_allowed':
      return t('door.reason.walkInsNotAllowed');
    default:
      return t('door.reason.other', { code: reason ?? '' });
  }
}

/** A scan the server flagged after the door let the person in, as one sentence. */
function conflictSentence(c: LocalCheckin): JSX.Element {
  const values = { name: c.displayName || t('door.attention.someone'), time: formatUtcDateTime(c.scannedUtc), b: bold };
  switch (c.conflict) {
    case 'cancelled_before_scan':
      return tx('door.conflict.cancelledBeforeScan', values);
    case 'cancelled':
      return tx('door.conflict.cancelled', values);
    case 'waitlist':
      return tx('door.conflict.waitlist', values);
    case 'deleted':
      return tx('door.conflict.deleted', values);
    case 'again_elsewhere':
      return tx('door.conflict.againElsewhere', values);
    case 'over_capacity':
      return tx('door.conflict.overCapacity', values);
    default:
      return tx('door.conflict.other', { ...values, conflict: c.conflict ?? '' });
  }
}

/** A name or code in a sentence: bold, and isolated so a Latin name reads right inside Arabic. */
const bold = (chunks: JSX.Element[]) => (
  <strong>
    <bdi>{chunks}</bdi>
  </strong>
);

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
            <strong>{t('door.revoked.title')}</strong> {t('door.revoked.body')}
          </p>
          <p>{door.pending() === 0 ? t('door.revoked.allSynced') : t('door.revoked.unsynced', { count: door.pending() })}</p>
        </div>
      </Show>

      <div class="door-device-row">
        <p class="door-device">{tx('door.device.name', { name: props.device.name, b: bold })}</p>
        <LanguageMenu class="door-language-menu" />
      </div>
      <Show when={props.device.eventIds.length > 1}>
        <div class="field door-event-choice">
          <label for="door-event">{t('door.event.label')}</label>
          <select id="door-event" value={door.eventId() ?? ''} onChange={(e) => door.setEventId(Number(e.currentTarget.value))}>
            <For each={props.device.eventIds}>
              {(id) => <option value={id}>{events.items.find((e) => e.id === id)?.title ?? t('door.event.untitled', { id: String(id) })}</option>}
            </For>
          </select>
        </div>
      </Show>
      <Show when={props.device.eventIds.length === 1 && eventTitle.value()}>{(e) => <h2 class="door-event-title">{e().title}</h2>}</Show>
      <Show when={props.device.eventIds.length === 0}>
        <p class="notice">{t('door.event.none')}</p>
      </Show>
      <Show when={!download.loading() && !download.value()?.done && door.eventId() !== null}>
        <p class="notice" role="status" aria-live="polite">
          <Show when={door.status().downloading} fallback={t('door.download.waiting')}>
            {(d) => <>{t('door.download.progress', { count: d().count })}</>}
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
      aria-label={t('door.manual.label')}
      onSubmit={(e) => {
        e.preventDefault();
        unlockAudio();
        if (props.disabled || !code().trim()) return;
        void door.scanCode(code(), 'manual');
        setCode('');
      }}
    >
      <label for="door-code">{t('door.manual.codeLabel')}</label>
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
          {t('door.action.checkIn')}
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
    <section ref={section} class="door-form door-search" classList={{ active: active() }} aria-label={t('door.search.label')}>
      <div class="door-search-field">
        <label for={NAME_SEARCH_ID}>{t('door.search.field')}</label>
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
            ? t('door.search.hint')
            : results().length === 0
              ? t('door.search.none')
              : t('door.search.found', { count: results().length })}
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
                <bdi class="door-result-name">{a.displayName || t('door.search.noName')}</bdi>
                <span class="door-result-presence" classList={{ in: isIn }}>
                  {isIn ? (inSinceUtc ? t('door.search.inSince', { time: entryTime(inSinceUtc) }) : t('door.search.in')) : t('door.search.notIn')}
                  <Show when={a.quantity !== 1}> · {t('door.search.people', { count: a.quantity })}</Show>
                  <Show when={a.status && a.status !== 'going'}> · {attendeeStatus(a.status)}</Show>
                </span>
                <bdi class="muted door-result-email">{a.email}</bdi>
                <span class="door-result-action">{t('door.action.checkIn')}</span>
              </button>
            </li>
          )}
        </For>
      </ul>
    </section>
  );
}

/** An attendee's status other than going, in the reader's words. */
function attendeeStatus(status: string): string {
  if (status === 'cancelled') return t('door.search.status.cancelled');
  if (status === 'waitlist') return t('door.search.status.waitlist');
  return status;
}

/** Where a scan on this device stands, in the reader's words. */
function scanState(c: LocalCheckin): string {
  if (c.undo && c.undo !== 'rejected') return t('door.recent.state.undone');
  switch (c.state) {
    case 'queued':
      return t('door.recent.state.queued');
    case 'acked':
    case 'reflected':
      return t('door.recent.state.synced');
    case 'rejected':
      return t('door.recent.state.rejected');
    case 'undone':
      return t('door.recent.state.undone');
    case 'refused':
      return t('door.recent.state.refused');
    default:
      return c.state;
  }
}

function RecentScans(): JSX.Element {
  const door = doorState();
  const recent = createLiveList(() => recentScans(door.db, 15), 'clientId');
  const [now, setNow] = createSignal(Date.now());
  const tick = setInterval(() => setNow(Date.now()), 30_000);
  onCleanup(() => clearInterval(tick));
  return (
    <section class="door-section" aria-labelledby="recent-heading">
      <h2 id="recent-heading">{t('door.recent.heading')}</h2>
      <Show when={recent.error()}>
        <p class="form-error" role="alert">
          {t('door.recent.readError')}
        </p>
      </Show>
      <Show when={!recent.loading() && recent.items.length === 0}>
        <p class="muted">{t('door.recent.empty')}</p>
      </Show>
      <ul class="door-recent">
        <For each={recent.items}>
          {(c) => (
            <li class={`door-recent-item tone-${VERDICT_LOOK[c.verdict].tone}`}>
              <span class="door-recent-word">{verdictWord(c.verdict)}</span>
              <bdi class="door-recent-name">{c.displayName || '—'}</bdi>
              <span class="muted">
                {formatUtcDateTime(c.scannedUtc)} · {scanState(c)}
              </span>
              <Show when={isAdmitted(c.verdict) && c.state !== 'undone' && c.state !== 'rejected' && !c.undo && now() - c.scannedMs < UNDO_WINDOW_MS}>
                <button
                  type="button"
                  class="button button-quiet"
                  onClick={() => void undoScan(door.db, c.clientId).then(() => door.engine.requestSync('scan'))}
                  aria-label={c.displayName ? t('door.recent.undoOf', { name: c.displayName }) : t('door.recent.undoThis')}
                >
                  {t('door.action.undo')}
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
          {t('door.attention.heading')}
        </h2>
        <ul class="door-attention">
          <For each={props.rejected}>
            {(item, i) => (
              <li>
                {(() => {
                  const values = {
                    name: (item.kind === 'walk_in' ? item.item.displayName : names.value()[i()]?.displayName) || t('door.attention.unknownTicket'),
                    reason: refusalReason(item.reason),
                    b: bold,
                  };
                  if (item.kind === 'annul') return tx('door.attention.undoRefused', values);
                  if (item.kind === 'walk_in') return tx('door.attention.walkInRefused', values);
                  return tx('door.attention.scanRefused', values);
                })()}
              </li>
            )}
          </For>
          <For each={props.conflicts}>{(c) => <li>{conflictSentence(c)}</li>}</For>
        </ul>
      </section>
    </Show>
  );
}

function DoorSettings(): JSX.Element {
  const door = doorState();
  const [refused, setRefused] = createSignal(false);
  let dialog: HTMLDialogElement | undefined;
  // forgetting deletes the list and the pairing: asked first, in a modal dialog (focus moves in, Escape keeps the device)
  const askForget = () => {
    if (door.pending() > 0) {
      setRefused(true);
      return;
    }
    setRefused(false);
    dialog?.showModal();
  };
  const forget = async () => {
    dialog?.close();
    if (door.pending() > 0 || !(await door.forget())) setRefused(true);
  };
  return (
    <section class="door-section" aria-labelledby="settings-heading">
      <h2 id="settings-heading">{t('door.settings.heading')}</h2>
      <div class="door-settings">
        <button type="button" class="button button-quiet" aria-pressed={door.muted()} onClick={() => door.setMuted(!door.muted())}>
          {door.muted() ? t('door.settings.soundOff') : t('door.settings.soundOn')}
        </button>
        <button type="button" class="button button-quiet" onClick={() => void door.engine.syncNow()}>
          {t('door.settings.syncNow')}
        </button>
        <button type="button" class="button button-quiet" onClick={() => void door.engine.reset()}>
          {t('door.settings.downloadAgain')}
        </button>
        <button type="button" class="button button-quiet" aria-disabled={door.pending() > 0} aria-haspopup="dialog" onClick={askForget}>
          {t('door.settings.forget')}
        </button>
      </div>
      <FormError message={refused() ? t('door.settings.forgetRefused') : null} />
      <dialog ref={dialog} class="door-dialog" aria-labelledby="forget-title" aria-describedby="forget-detail">
        <h2 id="forget-title">{t('door.settings.forgetTitle')}</h2>
        <p id="forget-detail">{t('door.settings.forgetDetail')}</p>
        <div class="door-settings">
          <button type="button" class="button door-danger" onClick={() => void forget()}>
            {t('door.settings.forgetConfirm')}
          </button>
          <button type="button" class="button button-quiet" onClick={() => dialog?.close()}>
            {t('door.settings.forgetKeep')}
          </button>
        </div>
      </dialog>
    </section>
  );
}
