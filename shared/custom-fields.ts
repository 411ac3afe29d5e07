/**
 * An event's own sign-up questions (extended edition, docs/api.md#custom-fields): defined by
 * admins, rendered on the visitor's form (also offline), validated again by the server.
 *
 * `checkCustomAnswers` is the one check: the visitor's phone runs it before queueing a sign-up
 * and the server's `svc_rsvp_custom_fields` validator runs it on what arrived, so both refuse
 * the same answers with the same words.
 */
import type { z } from 'zod';
// type only: the schema lives apart so the visitor's form loads no zod (docs/decisions/019-fast-first-paint.md)
import type { ZCustomFieldDefinition } from './custom-fields-schema';

export const CUSTOM_FIELD_TYPES = ['text', 'textarea', 'email', 'number', 'select', 'checkbox'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** A field key: what follows `svc_cf_` in the input's name. */
export const CUSTOM_FIELD_KEY = /^[a-z][a-z0-9_]{0,39}$/;
const KEY_MAX = 40;
/** The sign-up handler refuses longer extra answers (collectCustomInputs), so no field allows more. */
export const ANSWER_MAX_LENGTH = 2000;

/** The prefix of every answer's input name (contract: the form script removes it). */
export const CUSTOM_FIELD_INPUT_PREFIX = 'svc_cf_';

/** The types whose answer is typed text, so a maximum length means something. */
export const TEXT_LIKE_TYPES: readonly CustomFieldType[] = ['text', 'textarea', 'email', 'number'];

/**
 * The attribute on the element that wraps the edition's own fields in the `svc_rsvp_form_fields`
 * HTML: the PWA renders the fields itself from the event and drops that element, keeping the
 * HTML other plugins added around it.
 */
export const CUSTOM_FIELDS_HTML_MARK = 'data-svc-custom-fields';

export type CustomFieldDefinition = z.infer<typeof ZCustomFieldDefinition>;

/** An answer as stored in custom_fields: text (also an email or a choice), a number, or a tick. */
export type CustomFieldAnswer = string | number | boolean;

/** Answers as posted: keyed by field key (prefix removed), a string or a list of strings each. */
export type RawCustomAnswers = Readonly<Record<string, string | readonly string[] | undefined>>;

export type CustomAnswersCheck =
  | { ok: true; answers: Record<string, CustomFieldAnswer> }
  /** Keyed by field key, each a plain sentence a visitor can act on. */
  | { ok: false; errors: Record<string, string> };

/** What a ticked box posts (our inputs send `yes`; the rest are what other forms send). */
const TICKED = new Set(['yes', '1', 'true', 'on']);
const UNTICKED = new Set(['', 'no', '0', 'false', 'off']);
/** Close to what a mail server accepts; the sign-up's own email is checked by the stricter zod rule. */
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const EMAIL_MAX = 254;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

export const CUSTOM_FIELD_MESSAGES = {
  required: 'An answer is required.',
  mustTick: 'Tick this box to continue.',
  oneAnswer: 'Give one answer only.',
  email: 'Enter an email address, like name@example.com.',
  number: 'Enter a number, like 12 or 2.5.',
  choice: 'Choose one of the listed options.',
  tick: 'Tick the box or leave it empty.',
  tooLong: (max: number) => `Use at most ${max} characters.`,
} as const;

/**
 * Text as the sign-up handler hands it to the filter (`collectCustomInputs` uses this function): tags removed,
 * control characters and runs of whitespace collapsed, trimmed. Running it again changes
 * nothing, so the phone (raw input) and the server (already cleaned) reach the same answer.
 */
export function plainText(value: string): string {
  return (
    value
      .replace(/<[^>]*>?/g, '')
      // eslint-disable-next-line no-control-regex -- stripping control characters is the point
      .replace(/[\u0000-\u001f\u007f]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/**
 * Checks the answers to an event's fields and gives what to store: each defined field's
 * answer (empty optional text left out, a checkbox always true or false), nothing else.
 */
export function checkCustomAnswers(definitions: readonly CustomFieldDefinition[], raw: RawCustomAnswers): CustomAnswersCheck {
  const answers: Record<string, CustomFieldAnswer> = {};
  const errors: Record<string, string> = {};
  for (const field of definitions) {
    const result = checkOne(field, Object.hasOwn(raw, field.key) ? raw[field.key] : undefined);
    if ('error' in result) errors[field.key] = result.error;
    else if (result.answer !== undefined) answers[field.key] = result.answer;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, answers };
}

function checkOne(field: CustomFieldDefinition, value: string | readonly string[] | undefined): { answer?: CustomFieldAnswer } | { error: string } {
  if (Array.isArray(value) && value.length > 1) return { error: CUSTOM_FIELD_MESSAGES.oneAnswer };
  const text = plainText((Array.isArray(value) ? value[0] : (value as string | undefined)) ?? '');

  if (field.type === 'checkbox') {
    const word = text.toLowerCase();
    if (TICKED.has(word)) return { answer: true };
    if (!UNTICKED.has(word)) return { error: CUSTOM_FIELD_MESSAGES.tick };
    return field.required ? { error: CUSTOM_FIELD_MESSAGES.mustTick } : { answer: false };
  }

  if (text === '') return field.required ? { error: CUSTOM_FIELD_MESSAGES.required } : {};
  const max = field.maxLength ?? ANSWER_MAX_LENGTH;
  if (TEXT_LIKE_TYPES.includes(field.type) && [...text].length > max) return { error: CUSTOM_FIELD_MESSAGES.tooLong(max) };
  switch (field.type) {
    case 'email':
      return EMAIL.test(text) && text.length <= EMAIL_MAX ? { answer: text } : { error: CUSTOM_FIELD_MESSAGES.email };
    case 'number': {
      const n = Number(text);
      return NUMBER.test(text) && Number.isFinite(n) ? { answer: n } : { error: CUSTOM_FIELD_MESSAGES.number };
    }
    case 'select': {
      // the option as the admin wrote it is what is stored
      const option = (field.options ?? []).find((o) => plainText(o) === text);
      return option === undefined ? { error: CUSTOM_FIELD_MESSAGES.choice } : { answer: option };
    }
    default:
      return { answer: text };
  }
}

/** The sentence above the per-field reasons: "Please check your answer to “Diet”." */
export function customAnswersMessage(definitions: readonly CustomFieldDefinition[], errors: Readonly<Record<string, string>>): string {
  const labels = definitions.filter((field) => errors[field.key] !== undefined).map((field) => `“${field.label}”`);
  return `Please check your answer${labels.length === 1 ? '' : 's'} to ${labels.join(', ')}.`;
}

/** The input name of a field: `svc_cf_<key>`. */
export function customFieldInputName(key: string): string {
  return `${CUSTOM_FIELD_INPUT_PREFIX}${key}`;
}

/**
 * A key for a new field from its label (`Dietary needs?` → `dietary_needs`), not one of
 * `taken` (a suffix `_2`, `_3`… is added), always matching CUSTOM_FIELD_KEY.
 */
export function suggestFieldKey(label: string, taken: Iterable<string> = []): string {
  const used = new Set(taken);
  const base =
    label
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^[^a-z]+/, '')
      .replace(/_+$/, '')
      .slice(0, KEY_MAX)
      .replace(/_+$/, '') || 'question';
  if (!used.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const suffix = `_${n}`;
    const candidate = `${base.slice(0, KEY_MAX - suffix.length).replace(/_+$/, '')}${suffix}`;
    if (!used.has(candidate)) return candidate;
  }
}

/** An answer as a person reads it in the admin table: a tick as yes/no, a list joined. */
export function formatCustomAnswer(value: unknown): string {
  if (value === true) return 'yes';
  if (value === false) return 'no';
  if (Array.isArray(value)) return value.map(String).join(', ');
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
