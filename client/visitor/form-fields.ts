/**
 * The sign-up form's field logic, kept free of the DOM so it can be tested as plain data:
 * which inputs count as extra fields, how their values are gathered, and the body posted.
 *
 * Contract (`svc_rsvp_custom_fields`): extra inputs are named `svc_cf_<key>`, disabled inputs
 * are skipped, and "the form script" removes the prefix. In svc that script is the server's
 * sign-up handler (`collectCustomInputs`): it reads only `svc_cf_`-named keys and strips the
 * prefix itself, so the PWA posts the names as they are — stripping them here would make
 * every answer "an input not so named", which never reaches the filter.
 */

import { CUSTOM_FIELD_INPUT_PREFIX, CUSTOM_FIELDS_HTML_MARK } from '../../shared/custom-fields';

export const CUSTOM_FIELD_PREFIX = CUSTOM_FIELD_INPUT_PREFIX;
export const HONEYPOT_FIELD = 'svc_hp';
export const FORM_TOKEN_FIELD = 'svc_ts';

/** One form control as the browser sees it. */
export interface FieldEntry {
  name: string;
  /** For a `<select multiple>`: the selected options' values. */
  value: string | string[];
  type: string;
  disabled: boolean;
  /** Checkboxes and radios: whether it is ticked. */
  checked?: boolean;
}

export type FieldValues = Record<string, string | string[]>;

/** `svc_cf_x[]` → `svc_cf_x` (a PHP-style array name posts as one JSON array). */
function baseName(name: string): { name: string; list: boolean } {
  return name.endsWith('[]') ? { name: name.slice(0, -2), list: true } : { name, list: false };
}

function addValue(out: FieldValues, name: string, value: string | string[], list: boolean): void {
  const incoming = Array.isArray(value) ? value : [value];
  const existing = out[name];
  if (existing === undefined) {
    out[name] = list || Array.isArray(value) ? [...incoming] : (incoming[0] ?? '');
    return;
  }
  // a repeated name (checkbox group) becomes a list
  out[name] = [...(Array.isArray(existing) ? existing : [existing]), ...incoming];
}

/** Every enabled, named control's value (ticked boxes only); used for drafts. */
export function collectValues(entries: readonly FieldEntry[], include: (name: string) => boolean = () => true): FieldValues {
  const out: FieldValues = {};
  for (const entry of entries) {
    if (!entry.name || entry.disabled) continue;
    const { name, list } = baseName(entry.name);
    if (!include(name)) continue;
    if ((entry.type === 'checkbox' || entry.type === 'radio') && !entry.checked) {
      // an unticked checkbox list still exists as an empty list
      if (list && out[name] === undefined) out[name] = [];
      continue;
    }
    if (['submit', 'button', 'reset', 'file', 'image'].includes(entry.type)) continue;
    addValue(out, name, entry.value, list);
  }
  return out;
}

/** The extra fields to post: `svc_cf_`-named, enabled inputs, names kept as the server expects. */
export function collectCustomFields(entries: readonly FieldEntry[]): FieldValues {
  return collectValues(entries, (name) => name.startsWith(CUSTOM_FIELD_PREFIX) && name.length > CUSTOM_FIELD_PREFIX.length);
}

/** The answers keyed by field key (prefix removed), as the `svc_rsvp_custom_fields` filter receives them. */
export function stripPrefix(fields: FieldValues): FieldValues {
  const out: FieldValues = {};
  for (const [name, value] of Object.entries(fields)) {
    if (name.startsWith(CUSTOM_FIELD_PREFIX)) out[name.slice(CUSTOM_FIELD_PREFIX.length)] = value;
  }
  return out;
}

export interface SignupInput {
  email: string;
  displayName: string;
  quantity: number;
  custom: FieldValues;
  formToken: string;
  honeypot: string;
  /** An event with ticket categories: the tickets per category (docs/api.md#tickets). */
  tickets?: Array<{ categoryId: number; quantity: number }>;
  /** The promo code as typed ('' = none). */
  voucher?: string;
}

/** The `fields` of `attendees.signup` (docs/api.md#rest snake_case names, as the REST form posts them). */
export function buildSignupBody(input: SignupInput): Record<string, unknown> {
  return {
    email: input.email.trim(),
    display_name: input.displayName.trim(),
    quantity: input.quantity,
    [FORM_TOKEN_FIELD]: input.formToken,
    [HONEYPOT_FIELD]: input.honeypot,
    ...input.custom,
    ...(input.tickets ? { tickets: input.tickets } : {}),
    ...(input.voucher ? { voucher: input.voucher } : {}),
  };
}

/** A whole number from 1 to max, or null for anything else. */
export function parseQuantity(text: string, max: number): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  const n = Number(text);
  return n >= 1 && n <= max ? n : null;
}

/** What the seat rules need of an event (its answer as the page has it). */
export interface SeatFacts {
  maxPerSignup: number;
  /** Null when the capacity is unlimited. */
  placesLeft: number | null;
  waitlist: boolean;
}

/**
 * The most seats one sign-up may ask for: the per-sign-up limit, and without a waitlist the
 * places left too (more would only be refused as full). With a waitlist more may be asked for:
 * such a sign-up goes on the waitlist whole, and the form says so first (seatsOverflowWaitlist).
 */
export function maxSeats(event: SeatFacts): number {
  if (event.placesLeft === null || event.waitlist || event.placesLeft <= 0) return event.maxPerSignup;
  return Math.max(1, Math.min(event.maxPerSignup, event.placesLeft));
}

/** True when `quantity` seats are more than the places left and the sign-up would go on the waitlist. */
export function seatsOverflowWaitlist(quantity: number, event: SeatFacts): boolean {
  return event.waitlist && event.placesLeft !== null && event.placesLeft > 0 && quantity > event.placesLeft;
}

/** The browser side: a form's controls as FieldEntry rows. */
export function formEntries(form: HTMLFormElement): FieldEntry[] {
  const rows: FieldEntry[] = [];
  for (const el of Array.from(form.elements)) {
    if (el instanceof HTMLSelectElement) {
      const value = el.multiple ? Array.from(el.selectedOptions).map((o) => o.value) : el.value;
      rows.push({ name: el.name, value, type: el.multiple ? 'select-multiple' : 'select', disabled: el.disabled || el.matches(':disabled') });
    } else if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
      const checked = el instanceof HTMLInputElement ? el.checked : undefined;
      rows.push({ name: el.name, value: el.value, type: el.type, disabled: el.disabled || el.matches(':disabled'), checked });
    }
  }
  return rows;
}

/**
 * The `svc_rsvp_form_fields` HTML around the extended edition's own fields, which the page
 * renders itself from the event (offline too, and checked before sending): the wrapper the
 * server marks is dropped, what other plugins added before and after it is kept in place.
 */
export function splitAroundOwnFields(html: string): { before: string; after: string } {
  if (!html.includes(CUSTOM_FIELDS_HTML_MARK)) return { before: html, after: '' };
  // a template parses without running anything or loading images
  const template = document.createElement('template');
  template.innerHTML = html;
  const mark = template.content.querySelector(`[${CUSTOM_FIELDS_HTML_MARK}]`);
  if (!mark) return { before: html, after: '' };
  if (mark.parentNode !== template.content) {
    // another plugin wrapped it: keep that plugin's markup whole, without our fields
    mark.remove();
    return { before: template.innerHTML, after: '' };
  }
  const children = Array.from(template.content.childNodes);
  const at = children.indexOf(mark);
  const serialize = (nodes: Node[]) => {
    const box = document.createElement('div');
    box.append(...nodes);
    return box.innerHTML;
  };
  return { before: serialize(children.slice(0, at)), after: serialize(children.slice(at + 1)) };
}

/** Puts draft values back into a form's controls (including injected extra fields). */
export function applyValues(form: HTMLFormElement, values: FieldValues): void {
  for (const el of Array.from(form.elements)) {
    if (!(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement)) continue;
    if (!el.name) continue;
    const { name } = baseName(el.name);
    const value = values[name];
    if (value === undefined) continue;
    const list = Array.isArray(value) ? value : [value];
    if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) el.checked = list.includes(el.value);
    else if (el instanceof HTMLSelectElement && el.multiple) for (const option of Array.from(el.options)) option.selected = list.includes(option.value);
    else if (!(el instanceof HTMLInputElement && ['submit', 'button', 'file'].includes(el.type))) el.value = list[0] ?? '';
  }
}
