import { createEffect, createSignal, onCleanup, Show, type JSX } from 'solid-js';
import { onFirstUse } from '../../ui/format';
import { isAdmitted } from '../../../shared/checkin-rules';
import { loadingMessage, type DoorVerdict } from '../scan-decision';
import { undoScan, UNDO_WINDOW_MS } from '../db/scans';
import { parseUtcString } from '../../../shared/time';
import { doorState, type ShownVerdict } from '../state';

/** Word, icon and tone of each verdict: never colour alone (UX "the verdict is the screen"). */
export const VERDICT_LOOK: Record<DoorVerdict, { word: string; icon: string; tone: 'ok' | 'again' | 'refused' }> = {
  ok: { word: 'OK', icon: '✓', tone: 'ok' },
  again: { word: 'AGAIN', icon: '!', tone: 'again' },
  cancelled: { word: 'CANCELLED', icon: '✕', tone: 'refused' },
  waitlist: { word: 'WAITLIST', icon: '✕', tone: 'refused' },
  wrong_event: { word: 'WRONG EVENT', icon: '✕', tone: 'refused' },
  unknown: { word: 'UNKNOWN', icon: '?', tone: 'refused' },
  // amber, never red: the list is still downloading and the code may be in the part not here yet
  loading: { word: 'STILL LOADING', icon: '…', tone: 'again' },
};

/** An admitting verdict (`loading` admits nobody). */
const admits = (v: DoorVerdict) => v !== 'loading' && isAdmitted(v);

const DISMISS_MS = { ok: 2500, again: 5000, refused: 5000 };

/** What to do next after a refusal the volunteer can still resolve at the door. */
const NEXT_STEP: Partial<Record<DoorVerdict, string>> = {
  unknown: 'This code is not on the list. Try name search.',
  cancelled: 'This ticket was cancelled. Try name search: they may have booked again.',
};

/** The id of the name search field (door-screen.tsx), where "Try name search" leads. */
export const NAME_SEARCH_ID = 'door-search';

const clock = onFirstUse(() => new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }));
const dayClock = onFirstUse(() => new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' }));
const relative = onFirstUse(() => new Intl.RelativeTimeFormat(undefined, { style: 'short', numeric: 'always' }));

/** An entry time on the device's clock: `7:29 PM` today, with the date on another day. */
export function entryTime(utc: string, nowMs = Date.now()): string {
  const at = parseUtcString(utc);
  if (!at) return utc;
  return at.toDateString() === new Date(nowMs).toDateString() ? clock().format(at) : dayClock().format(at);
}

/** How long ago, short: `just now`, `3 min ago`, `2 hr ago`, `3 days ago` (the device's locale). */
export function entryAge(utc: string, nowMs = Date.now()): string {
  const at = parseUtcString(utc);
  if (!at) return '';
  const minutes = Math.floor((nowMs - at.getTime()) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return relative().format(-minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? relative().format(-hours, 'hour') : relative().format(-Math.floor(hours / 24), 'day');
}

/** A long code cut in the middle (`NOT-A-REAL…34567890`): enough to compare with the ticket in hand. */
export function shortCode(code: string): string {
  return code.length <= 24 ? code : `${code.slice(0, 10)}…${code.slice(-8)}`;
}

/**
 * The full-screen verdict: colour, icon, word, name and quantity; for AGAIN when (the device's
 * clock, and how long ago) and at which door; for a refusal the code that was read and what to do
 * next; undo. It closes by itself unless the volunteer has moved into it (keyboard, screen reader).
 */
export function VerdictOverlay(): JSX.Element {
  const door = doorState();
  const [undoMessage, setUndoMessage] = createSignal<string | null>(null);
  // moved into with the keyboard or a screen reader: stays until the volunteer closes it (WCAG 2.2.1)
  const [held, setHeld] = createSignal(false);

  createEffect(() => {
    const v = door.verdict();
    setUndoMessage(null);
    setHeld(false);
    if (!v) return;
    createEffect(() => {
      if (held()) return;
      const timer = setTimeout(() => door.dismissVerdict(), DISMISS_MS[VERDICT_LOOK[v.verdict].tone]);
      onCleanup(() => clearTimeout(timer));
    });
  });

  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && door.verdict()) door.dismissVerdict();
  };
  document.addEventListener('keydown', onKey);
  onCleanup(() => document.removeEventListener('keydown', onKey));

  const undo = async (v: ShownVerdict) => {
    const result = await undoScan(door.db, v.clientId);
    if (result === 'dropped' || result === 'queued') {
      door.engine.requestSync('scan');
      door.dismissVerdict();
    } else setUndoMessage(result === 'too_late' ? 'Too late to undo: more than 15 minutes ago.' : 'This scan cannot be undone.');
  };

  const toNameSearch = () => {
    door.dismissVerdict();
    document.getElementById(NAME_SEARCH_ID)?.focus();
  };

  return (
    <Show when={door.verdict()}>
      {(v) => {
        const look = () => VERDICT_LOOK[v().verdict];
        const next = () => NEXT_STEP[v().verdict];
        return (
          <section
            class={`verdict verdict-${look().tone}`}
            role="alert"
            aria-label="Scan result"
            onClick={() => door.dismissVerdict()}
            onFocusIn={() => setHeld(true)}
          >
            <div class="verdict-icon" aria-hidden="true">
              {look().icon}
            </div>
            <p class="verdict-word">{look().word}</p>
            <Show when={v().displayName}>
              <p class="verdict-name">{v().displayName}</p>
            </Show>
            <Show when={v().quantity > 1 || (v().quantity === 1 && admits(v().verdict))}>
              <p class="verdict-quantity">
                {v().quantity} {v().quantity === 1 ? 'person' : 'people'}
              </p>
            </Show>
            <Show when={v().verdict === 'again' && v().last}>
              {(last) => (
                <p class="verdict-detail">
                  <span class="door-sr-only">Checked in </span>
                  {entryTime(last().scannedUtc, v().scannedMs)} ({entryAge(last().scannedUtc, v().scannedMs)}){last().device ? ` · ${last().device}` : ''}
                </p>
              )}
            </Show>
            <Show when={v().progress}>{(progress) => <p class="verdict-detail verdict-next">{loadingMessage(progress())}</p>}</Show>
            <Show when={next()}>
              <p class="verdict-detail verdict-next">{next()}</p>
            </Show>
            <Show when={!admits(v().verdict) && v().code}>
              {(code) => (
                <p class="verdict-code">
                  Code read: <code>{shortCode(code())}</code>
                </p>
              )}
            </Show>
            <div class="verdict-actions" onClick={(e) => e.stopPropagation()}>
              <Show when={admits(v().verdict) && Date.now() - v().scannedMs < UNDO_WINDOW_MS}>
                <button type="button" class="button verdict-button" onClick={() => void undo(v())}>
                  Undo
                </button>
              </Show>
              <Show when={next()}>
                <button type="button" class="button verdict-button" onClick={toNameSearch}>
                  Try name search
                </button>
              </Show>
              <button type="button" class="button verdict-button" onClick={() => door.dismissVerdict()}>
                Next scan
              </button>
            </div>
            <Show when={undoMessage()}>
              <p class="verdict-detail">{undoMessage()}</p>
            </Show>
          </section>
        );
      }}
    </Show>
  );
}
