import { t } from '../i18n/i18n';

/** A form's submit handler: keeps the browser from navigating and runs `action` (its promise is the action's own business). */
export function submitWith(action: () => unknown): (event: SubmitEvent) => void {
  return (event) => {
    event.preventDefault();
    void action();
  };
}

/**
 * The server's refusals in plain words, for every visitor form (docs/api.md#errors: a
 * `svc_invalid_param` answer names each bad field in `data.params` with a short reason).
 * Field names are the server's (`email`, `display_name`, `customerEmail`, `submitterEmail`…).
 */
const EMAIL_FIELDS = new Set(['email', 'customerEmail', 'submitterEmail']);
const NAME_FIELDS = new Set(['display_name', 'customerName', 'submitterName', 'name']);

/** The sentence for one refused field: what to do, with an example where one helps. */
export function plainFieldMessage(field: string, reason: string): string {
  const why = reason.trim();
  // zod's length refusals read "Too big: expected string to have <=254 characters"
  const tooLong = /too big|at most|too long/i.test(why);
  if (EMAIL_FIELDS.has(field)) return tooLong ? t('form.emailTooLong') : t('form.emailCheck');
  if (NAME_FIELDS.has(field)) return tooLong ? t('form.nameTooLong') : t('form.nameEnter');
  if (field === 'quantity') {
    const most = /at most (\d+)/.exec(why);
    return most ? t('form.seatsRange', { max: Number(most[1]) }) : t('form.seatsWhole');
  }
  // the server's reasons are English (docs/api.md#errors); the common ones are said in the reader's words
  const known: Record<string, () => string> = {
    'must be in the future': () => t('form.future'),
    'must not be before startsUtc': () => t('form.endAfterStart'),
    'must be a valid email address': () => t('form.emailCheck'),
    'must not be empty': () => t('form.notEmpty'),
    'is required': () => t('form.required'),
  };
  return known[why]?.() ?? capitalise(why);
}

/** True when the field's plain message names the field itself ("Check the email address…"). */
export function messageNamesField(field: string): boolean {
  return EMAIL_FIELDS.has(field) || NAME_FIELDS.has(field) || field === 'quantity';
}

/** A field's name as a person reads it: `svc_cf_dietary_needs` → `dietary needs`. */
export function fieldLabel(field: string): string {
  return field.replace(/^svc_cf_/, '').replace(/[_.]/g, ' ');
}

/** `data.params` → field → plain message; `fieldOf` renames server fields to the form's own keys (unknown ones kept as they are). */
export function fieldProblems(params: Record<string, unknown> | undefined, fieldOf: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [param, reason] of Object.entries(params ?? {})) {
    const key = fieldOf[param] ?? param;
    out[key] ??= plainFieldMessage(param, String(reason ?? ''));
  }
  return out;
}

/** The server's message, unless it only lists field names ("Invalid parameter(s): email"): then a sentence a person reads. */
export function plainSummary(message: string, fieldCount: number): string {
  if (fieldCount === 0) return message;
  if (/^Invalid parameter\(s\)/i.test(message) || message === 'Some fields are missing or invalid.') {
    return t('form.checkMarked', { count: fieldCount });
  }
  return message;
}

/**
 * Keeps the result where the eyes are: once the element is on screen, scrolls it into view and
 * moves focus to it (it needs `tabindex="-1"` unless it is focusable), so the outcome of a submit
 * is seen and heard. Runs after the next paint so a freshly rendered message is there.
 */
export function revealResult(target: () => HTMLElement | null | undefined): void {
  requestAnimationFrame(() => {
    const el = target();
    if (!el) return;
    const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    el.scrollIntoView({ block: 'center', behavior: reduced ? 'auto' : 'smooth' });
    el.focus({ preventScroll: true });
  });
}

function capitalise(text: string): string {
  if (!text) return text;
  const sentence = `${text[0]!.toUpperCase()}${text.slice(1)}`;
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}
