import { createEffect, createSignal, onCleanup, Show, type JSX } from 'solid-js';
import { isAdmitted } from '../../../shared/checkin-rules';
import { loadingMessage, type DoorVerdict } from '../scan-decision';
import { undoScan, UNDO_WINDOW_MS } from '../db/scans';
import { parseUtcString } from '../../../shared/time';
import { doorState, type ShownVerdict } from '../state';
import { t, tx } from '../../i18n/i18n';
import { clock, dayClock, list, shortAgo } from '../door-format';

/** Icon and tone of each verdict, beside its word (verdictWord): never colour alone (UX "the verdict is the screen"). */
export const VERDICT_LOOK: Record<DoorVerdict, { icon: string; tone: 'ok' | 'again' | 'refused' }> = {
  ok: { icon: '✓', tone: 'ok' },
  again: { icon: '!', tone: 'again' },
  cancelled: { icon: '✕', tone: 'refused' },
  waitlist: { icon: '✕', tone: 'refused' },
  wrong_event: { icon: '✕', tone: 'refused' },
  wrong_category: { icon: '✕', tone: 'refused' },
  unknown: { icon: '?', tone: 'refused' },
  // amber, never red: the list is still downloading and the code may be in the part not here yet
  loading: { icon: '…', tone: 'again' },
};

/** The verdict's one word in the reader's language (OK, AGAIN, …). */
export function verdictWord(verdict: DoorVerdict): string {
  switch (verdict) {
    case 'ok':
      return t('door.verdict.ok');
    case 'again':
      return t('door.verdict.again');
    case 'cancelled':
      return t('door.verdict.cancelled');
    case 'waitlist':
      return t('door.verdict.waitlist');
    case 'wrong_event':
      return t('door.verdict.wrongEvent');
    case 'wrong_category':
      return t('door.verdict.wrongCategory');
    case 'unknown':
      return t('door.verdict.unknown');
    case 'loading':
      return t('door.verdict.loading');
  }
}

/** The code read, as written on the ticket: left to right whatever the page's direction. */
const codeTag = (chunks: JSX.Element[]) => <code dir="ltr">{chunks}</code>;

/** An admitting verdict (`loading` admits nobody). */
const admits = (v: DoorVerdict) => v !== 'loading' && isAdmitted(v);

const DISMISS_MS = { ok: 2500, again: 5000, refused: 5000 };

/** What to do next after a refusal the volunteer can still resolve at the door. */
function nextStep(verdict: DoorVerdict): string | null {
  if (verdict === 'unknown') return t('door.verdict.next.unknown');
  if (verdict === 'cancelled') return t('door.verdict.next.cancelled');
  return null;
}

/** The id of the name search field (door-screen.tsx), where "Try name search" leads. */
export const NAME_SEARCH_ID = 'door-search';

/** An entry time on the reader's clock: `7:29 PM` today, with the date on another day. */
export function entryTime(utc: string, nowMs = Date.now()): string {
  const at = parseUtcString(utc);
  if (!at) return utc;
  return at.toDateString() === new Date(nowMs).toDateString() ? clock().format(at) : dayClock().format(at);
}

/** How long ago, short: `just now`, `3 min ago`, `2 hr ago`, `3 days ago` (the reader's locale). */
export function entryAge(utc: string, nowMs = Date.now()): string {
  const at = parseUtcString(utc);
  if (!at) return '';
  const minutes = Math.floor((nowMs - at.getTime()) / 60_000);
  if (minutes < 1) return t('door.time.justNow');
  if (minutes < 60) return shortAgo().format(-minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? shortAgo().format(-hours, 'hour') : shortAgo().format(-Math.floor(hours / 24), 'day');
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
  const [undoRefusal, setUndoRefusal] = createSignal<'too_late' | 'impossible' | null>(null);
  const undoMessage = () => {
    const r = undoRefusal();
    return r === null ? null : r === 'too_late' ? t('door.verdict.undoTooLate') : t('door.verdict.undoImpossible');
  };
  // moved into with the keyboard or a screen reader: stays until the volunteer closes it (WCAG 2.2.1)
  const [held, setHeld] = createSignal(false);

  createEffect(() => {
    const v = door.verdict();
    setUndoRefusal(null);
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
    } else setUndoRefusal(result === 'too_late' ? 'too_late' : 'impossible');
  };

  const toNameSearch = () => {
    door.dismissVerdict();
    document.getElementById(NAME_SEARCH_ID)?.focus();
  };

  return (
    <Show when={door.verdict()}>
      {(v) => {
        const look = () => VERDICT_LOOK[v().verdict];
        const next = () => nextStep(v().verdict);
        return (
          <section
            class={`verdict verdict-${look().tone}`}
            role="alert"
            aria-label={t('door.verdict.label')}
            onClick={() => door.dismissVerdict()}
            onFocusIn={() => setHeld(true)}
          >
            <div class="verdict-icon" aria-hidden="true">
              {look().icon}
            </div>
            <p class="verdict-word">{verdictWord(v().verdict)}</p>
            <Show when={v().displayName}>
              <p class="verdict-name">
                <bdi>{v().displayName}</bdi>
              </p>
            </Show>
            <Show when={v().verdict === 'wrong_category'}>
              <p class="verdict-detail verdict-category">{t('door.verdict.wrongCategoryOf', { category: v().category ?? t('door.category.none') })}</p>
              <Show when={v().admits.length > 0}>
                <p class="verdict-detail verdict-next">{t('door.verdict.next.wrongCategory', { categories: list().format(v().admits) })}</p>
              </Show>
            </Show>
            <Show when={v().verdict !== 'wrong_category' && (v().quantity > 1 || (v().quantity === 1 && admits(v().verdict)))}>
              <p class="verdict-quantity">
                {v().category
                  ? t('door.verdict.categoryPeople', { category: v().category!, count: v().quantity })
                  : t('door.verdict.people', { count: v().quantity })}
              </p>
            </Show>
            <Show when={v().verdict === 'again' && v().last}>
              {(last) => (
                <p class="verdict-detail">
                  <span class="door-sr-only">{t('door.verdict.checkedIn')} </span>
                  <bdi>{entryTime(last().scannedUtc, v().scannedMs)}</bdi> (<bdi>{entryAge(last().scannedUtc, v().scannedMs)}</bdi>)
                  <Show when={last().device}>
                    {(device) => (
                      <>
                        {' · '}
                        <bdi>{device()}</bdi>
                      </>
                    )}
                  </Show>
                </p>
              )}
            </Show>
            <Show when={v().progress}>{(progress) => <p class="verdict-detail verdict-next">{loadingMessage(progress())}</p>}</Show>
            <Show when={next()}>
              <p class="verdict-detail verdict-next">{next()}</p>
            </Show>
            <Show when={!admits(v().verdict) && v().code}>
              {(code) => <p class="verdict-code">{tx('door.verdict.codeRead', { code: shortCode(code()), mono: codeTag })}</p>}
            </Show>
            <div class="verdict-actions" onClick={(e) => e.stopPropagation()}>
              <Show when={admits(v().verdict) && Date.now() - v().scannedMs < UNDO_WINDOW_MS}>
                <button type="button" class="button verdict-button" onClick={() => void undo(v())}>
                  {t('door.action.undo')}
                </button>
              </Show>
              <Show when={next()}>
                <button type="button" class="button verdict-button" onClick={toNameSearch}>
                  {t('door.verdict.tryNameSearch')}
                </button>
              </Show>
              <button type="button" class="button verdict-button" onClick={() => door.dismissVerdict()}>
                {t('door.verdict.nextScan')}
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
