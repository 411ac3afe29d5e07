/**
 * Conversions between what admin forms show and what the API takes: money in cents, percentages
 * in basis points, UTC `Y-m-d H:i:s` ↔ a `datetime-local` value in the viewer's or an event's
 * zone, lists of days. Amounts are parsed as strings, never through floats ("0.29" is 29 cents).
 */
import { createSignal, type Accessor } from 'solid-js';
import { zoneOffsetAt } from '../../shared/booking/tz';
import { parseUtcString, toUtcString } from '../../shared/time';
import { t, type MessageKey } from '../i18n/i18n';
import { adminErrorMessage } from './errors';

/** 1250 → "12.50". */
export function centsToText(cents: number): string {
  return (cents / 100).toFixed(2);
}

/** "12.5" / "12,50" / "12" → cents; null when it is not an amount ≥ 0 with at most two decimals. */
export function textToCents(text: string): number | null {
  const value = text.trim().replace(',', '.');
  if (value === '') return 0;
  if (!/^\d+(\.\d{1,2})?$/.test(value)) return null;
  const [whole, fraction = ''] = value.split('.') as [string, string?];
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** 1900 → "19", 750 → "7.5", 1234 → "12.34" (basis points as the percentage typed). */
export function basisPointsToText(bp: number): string {
  const whole = Math.trunc(bp / 100);
  const fraction = String(bp % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** "19" / "7,5" / "12.34" (percent) → basis points; null when it is not a percentage ≥ 0 with at most two decimals. Empty is null. */
export function textToBasisPoints(text: string): number | null {
  const value = text.trim().replace(',', '.');
  if (!/^\d+(\.\d{1,2})?$/.test(value)) return null;
  const [whole, fraction = ''] = value.split('.') as [string, string?];
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** A whole number typed in a limit field: "" → null (no limit), "12" → 12, anything else → NaN (the caller shows the field's error). */
export function textToLimit(text: string): number | null {
  const value = text.trim();
  if (value === '') return null;
  return /^\d+$/.test(value) ? Number(value) : NaN;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** UTC `Y-m-d H:i:s` → `YYYY-MM-DDTHH:MM` in the viewer's zone (the datetime-local input's value). */
export function utcToLocalInput(utc: string | null | undefined): string {
  if (!utc) return '';
  const date = parseUtcString(utc);
  if (!date) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The datetime-local value, read in the viewer's zone → UTC `Y-m-d H:i:s`; null when empty or invalid. */
export function localInputToUtc(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match;
  const date = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0));
  return Number.isNaN(date.getTime()) ? null : toUtcString(date);
}

/** UTC `Y-m-d H:i:s` → `YYYY-MM-DDTHH:MM` on the wall clock of `zone` (an event's times are entered in its own zone). */
export function utcToZoneInput(utc: string | null | undefined, zone: string): string {
  const date = utc ? parseUtcString(utc) : null;
  if (!date) return '';
  const wall = new Date(date.getTime() + zoneOffsetAt(zone, date.getTime()));
  return `${wall.getUTCFullYear()}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}T${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}`;
}

/**
 * A datetime-local value read on the wall clock of `zone` → UTC `Y-m-d H:i:s`; null when empty
 * or invalid. The offset is taken twice: once at the wall time read as UTC, then at the instant
 * that gives, so a time near a change of offset lands on the right side of it. A wall time the
 * zone skips (spring forward) comes out one offset-change later, as a clock set by hand would.
 */
export function zoneInputToUtc(value: string, zone: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match.map(Number) as [number, number, number, number, number, number, number];
  const wall = Date.UTC(y, mo - 1, d, h, mi, Number.isNaN(s) ? 0 : s);
  const check = new Date(wall);
  if (Number.isNaN(wall) || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return null;
  const first = wall - zoneOffsetAt(zone, wall);
  return toUtcString(wall - zoneOffsetAt(zone, first));
}

/** Days off typed one per line or separated by commas → sorted unique `Y-m-d` list and the entries that are not days. */
export function parseDayList(text: string): { days: string[]; invalid: string[] } {
  const days = new Set<string>();
  const invalid: string[] = [];
  for (const entry of text.split(/[\s,;]+/)) {
    if (entry === '') continue;
    const ok =
      /^\d{4}-\d{2}-\d{2}$/.test(entry) && !Number.isNaN(Date.parse(`${entry}T00:00:00Z`)) && new Date(`${entry}T00:00:00Z`).toISOString().startsWith(entry);
    if (ok) days.add(entry);
    else invalid.push(entry);
  }
  return { days: [...days].sort(), invalid };
}

/** The browser's IANA zone (the slot preview asks for the visitor's view from here). */
export function viewerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * Options of a select whose labels come from the catalogue: each label is a getter, read when
 * drawn, so it is in the reader's language and follows a language switch.
 */
export function translatedOptions<V extends string>(entries: ReadonlyArray<readonly [value: V, key: MessageKey]>): ReadonlyArray<{ value: V; label: string }> {
  return entries.map(([value, key]) => ({
    value,
    get label() {
      return t(key);
    },
  }));
}

/** The status choice of events and booking types: drafts stay hidden from visitors. */
export const PUBLISH_STATUS_OPTIONS = translatedOptions([
  ['draft', 'admin.common.publish.draft'],
  ['published', 'admin.common.publish.published'],
]);

/** Where a form's save stands; `SaveStatus` says it in words. */
export type SaveState = 'idle' | 'saving' | 'saved' | 'failed';

/** How a refusal reads: the sentence to show, or null when the form shows it elsewhere (next to its fields). */
export type DescribeFailure = (err: unknown) => string | null;

export interface SaveAction {
  state: Accessor<SaveState>;
  /** True while a save is under way: its button is aria-disabled and a second submit does nothing. */
  busy: Accessor<boolean>;
  /** The refusal in words, or null. */
  error: Accessor<string | null>;
  /**
   * Runs `work` unless a save is under way: "saving", then "saved" when it answers, or "failed"
   * with `describe(err)` (default: the action's own) when it throws.
   */
  run: (work: () => Promise<unknown>, describe?: DescribeFailure) => Promise<void>;
  /** A refusal found before anything is sent (a field the form cannot read). */
  fail: (message: string) => void;
  /** Back to nothing said: the admin edits again after "saved", or tries again. */
  reset: () => void;
}

/**
 * The save-state every admin form and dialog shares: a busy flag, the refusal in words and the
 * "saved" confirmation, with one try/catch around the call. A form shows it with `SaveStatus`
 * (a polite status line), a dialog with `FormError` and the button's busy label.
 */
export function createSaveAction(describe: DescribeFailure = adminErrorMessage): SaveAction {
  const [state, setState] = createSignal<SaveState>('idle');
  const [error, setError] = createSignal<string | null>(null);
  const busy = () => state() === 'saving';
  return {
    state,
    busy,
    error,
    async run(work, describeThis = describe) {
      if (busy()) return;
      setState('saving');
      setError(null);
      try {
        await work();
        setState('saved');
      } catch (err) {
        setState('failed');
        setError(describeThis(err));
      }
    },
    fail(message) {
      setState('failed');
      setError(message);
    },
    reset() {
      setState('idle');
      setError(null);
    },
  };
}
