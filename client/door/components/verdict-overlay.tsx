import { createEffect, createSignal, onCleanup, Show, type JSX } from 'solid-js';
import { isAdmitted, type Verdict } from '../../../shared/checkin-rules';
import { undoScan, UNDO_WINDOW_MS } from '../db/scans';
import { formatUtcDateTime } from '../../ui/format';
import { doorState, type ShownVerdict } from '../state';

/** Word, icon and tone of each verdict: never colour alone (UX "the verdict is the screen"). */
export const VERDICT_LOOK: Record<Verdict, { word: string; icon: string; tone: 'ok' | 'again' | 'refused' }> = {
  ok: { word: 'OK', icon: '✓', tone: 'ok' },
  again: { word: 'AGAIN', icon: '!', tone: 'again' },
  cancelled: { word: 'CANCELLED', icon: '✕', tone: 'refused' },
  waitlist: { word: 'WAITLIST', icon: '✕', tone: 'refused' },
  wrong_event: { word: 'WRONG EVENT', icon: '✕', tone: 'refused' },
  unknown: { word: 'UNKNOWN', icon: '?', tone: 'refused' },
};

const DISMISS_MS = { ok: 2500, again: 5000, refused: 5000 };

/** The full-screen verdict: colour, icon, word, name and quantity; when and where for AGAIN; undo. */
export function VerdictOverlay(): JSX.Element {
  const door = doorState();
  const [undoMessage, setUndoMessage] = createSignal<string | null>(null);

  createEffect(() => {
    const v = door.verdict();
    setUndoMessage(null);
    if (!v) return;
    const timer = setTimeout(() => door.dismissVerdict(), DISMISS_MS[VERDICT_LOOK[v.verdict].tone]);
    onCleanup(() => clearTimeout(timer));
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

  return (
    <Show when={door.verdict()}>
      {(v) => {
        const look = () => VERDICT_LOOK[v().verdict];
        return (
          <section class={`verdict verdict-${look().tone}`} role="alert" aria-label="Scan result" onClick={() => door.dismissVerdict()}>
            <div class="verdict-icon" aria-hidden="true">
              {look().icon}
            </div>
            <p class="verdict-word">{look().word}</p>
            <Show when={v().displayName}>
              <p class="verdict-name">{v().displayName}</p>
            </Show>
            <Show when={v().quantity > 1 || (v().quantity === 1 && isAdmitted(v().verdict))}>
              <p class="verdict-quantity">
                {v().quantity} {v().quantity === 1 ? 'person' : 'people'}
              </p>
            </Show>
            <Show when={v().verdict === 'again' && v().last}>
              {(last) => (
                <p class="verdict-detail">
                  Checked in before: {formatUtcDateTime(last().scannedUtc)}
                  {last().device ? ` at ${last().device}` : ''}
                </p>
              )}
            </Show>
            <div class="verdict-actions" onClick={(e) => e.stopPropagation()}>
              <Show when={isAdmitted(v().verdict) && Date.now() - v().scannedMs < UNDO_WINDOW_MS}>
                <button type="button" class="button verdict-button" onClick={() => void undo(v())}>
                  Undo
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
