/**
 * The one check of an event's questions (docs/api.md#custom-fields), run by the visitor's phone
 * before queueing and by the server's svc_rsvp_custom_fields validator: what it accepts, what it
 * stores, and the words it refuses with.
 */
import { describe, expect, it } from 'vitest';
import {
  checkCustomAnswers,
  CUSTOM_FIELD_MESSAGES,
  customAnswersMessage,
  plainText,
  suggestFieldKey,
  type CustomFieldDefinition,
} from '../../shared/custom-fields';
import { ZCustomFieldDefinition } from '../../shared/custom-fields-schema';
import { collectCustomInputs, sanitizeText } from '../../server/modules/attendees/signup.service';

const field = (over: Partial<CustomFieldDefinition> & Pick<CustomFieldDefinition, 'key' | 'type'>): CustomFieldDefinition => ({
  label: over.key,
  required: false,
  ...over,
});

const DEFINITIONS: CustomFieldDefinition[] = [
  field({ key: 'diet', type: 'text', maxLength: 10 }),
  field({ key: 'notes', type: 'textarea' }),
  field({ key: 'manager', type: 'email' }),
  field({ key: 'age', type: 'number' }),
  field({ key: 'size', type: 'select', options: ['S', 'M', 'L & XL'] }),
  field({ key: 'photos', type: 'checkbox' }),
];

describe('checkCustomAnswers', () => {
  it('stores each type in its own shape: text trimmed, a number as a number, the option as defined, a tick as a boolean', () => {
    const result = checkCustomAnswers(DEFINITIONS, {
      diet: '  vegan ',
      notes: 'line one\nline two',
      manager: 'boss@example.com',
      age: '42.5',
      size: 'L &  XL',
      photos: 'yes',
    });
    expect(result).toEqual({
      ok: true,
      answers: { diet: 'vegan', notes: 'line one line two', manager: 'boss@example.com', age: 42.5, size: 'L & XL', photos: true },
    });
  });

  it('keeps only defined keys; empty optional text is left out; an unticked box is false', () => {
    expect(checkCustomAnswers(DEFINITIONS, { other: 'x', diet: '', photos: undefined })).toEqual({ ok: true, answers: { photos: false } });
  });

  it.each([
    ['text over its maxLength', { diet: 'a'.repeat(11) }, 'diet', CUSTOM_FIELD_MESSAGES.tooLong(10)],
    ['an email without a domain dot', { manager: 'boss@example' }, 'manager', CUSTOM_FIELD_MESSAGES.email],
    ['an email with a space', { manager: 'bo ss@example.com' }, 'manager', CUSTOM_FIELD_MESSAGES.email],
    ['a number with words', { age: '12 years' }, 'age', CUSTOM_FIELD_MESSAGES.number],
    ['a number with a comma', { age: '1,5' }, 'age', CUSTOM_FIELD_MESSAGES.number],
    ['a choice not in the options', { size: 'XXL' }, 'size', CUSTOM_FIELD_MESSAGES.choice],
    ['a box posted as something else', { photos: 'maybe' }, 'photos', CUSTOM_FIELD_MESSAGES.tick],
    ['two answers for one field', { diet: ['a', 'b'] }, 'diet', CUSTOM_FIELD_MESSAGES.oneAnswer],
  ])('refuses %s, naming the field', (_what, raw, key, message) => {
    expect(checkCustomAnswers(DEFINITIONS, raw)).toEqual({ ok: false, errors: { [key]: message } });
  });

  it('a required field needs an answer: whitespace or tags alone are none, a required box must be ticked', () => {
    const required = [field({ key: 'name', type: 'text', required: true }), field({ key: 'terms', type: 'checkbox', required: true })];
    expect(checkCustomAnswers(required, { name: ' <b></b> ', terms: '' })).toEqual({
      ok: false,
      errors: { name: CUSTOM_FIELD_MESSAGES.required, terms: CUSTOM_FIELD_MESSAGES.mustTick },
    });
    expect(checkCustomAnswers(required, { name: 'Ada', terms: 'on' })).toEqual({ ok: true, answers: { name: 'Ada', terms: true } });
  });

  it('gives the phone (raw input) and the server (input after the form script) the same answer', () => {
    const raw = { diet: ' <i>veg</i>an\t', size: ' M ', age: ' 7 ', manager: 'a@b.co' };
    const server = Object.fromEntries(
      Object.entries(collectCustomInputs(Object.fromEntries(Object.entries(raw).map(([k, v]) => [`svc_cf_${k}`, v])))).map(([k, v]) => [k, v]),
    );
    expect(checkCustomAnswers(DEFINITIONS, server)).toEqual(checkCustomAnswers(DEFINITIONS, raw));
  });

  it('plainText is the sign-up handler’s sanitizing, and running it twice changes nothing', () => {
    for (const text of ['  a  b ', '<script>x</script>y', 'a<b', 'tab\there', 'ctl\u0001x', 'L & XL', '<<a>b>']) {
      expect(plainText(text)).toBe(sanitizeText(text));
      expect(plainText(plainText(text))).toBe(plainText(text));
    }
  });

  it('the refusal sentence lists the labels in the order of the form', () => {
    const defs = [field({ key: 'a', type: 'text', label: 'First' }), field({ key: 'b', type: 'text', label: 'Second' })];
    expect(customAnswersMessage(defs, { b: 'x' })).toBe('Please check your answer to “Second”.');
    expect(customAnswersMessage(defs, { b: 'x', a: 'y' })).toBe('Please check your answers to “First”, “Second”.');
  });
});

describe('ZCustomFieldDefinition', () => {
  it('a choice list needs distinct options; other types take neither options nor (checkbox, select) a maximum length', () => {
    const bad = (def: object) => ZCustomFieldDefinition.safeParse(def).error?.issues.map((i) => i.path.join('.'));
    expect(bad({ key: 'size', label: 'Size', type: 'select' })).toEqual(['options']);
    expect(bad({ key: 'size', label: 'Size', type: 'select', options: ['S', ' S'] })).toEqual(['options']);
    expect(bad({ key: 'diet', label: 'Diet', type: 'text', options: ['a'] })).toEqual(['options']);
    expect(bad({ key: 'ok', label: 'OK', type: 'checkbox', maxLength: 3 })).toEqual(['maxLength']);
    expect(bad({ key: 'Bad-Key', label: 'x', type: 'text' })).toEqual(['key']);
    expect(ZCustomFieldDefinition.parse({ key: 'size', label: 'Size', type: 'select', options: ['S', 'M'] })).toMatchObject({ required: false });
  });
});

describe('suggestFieldKey', () => {
  it('makes a key from the label that the schema accepts, avoiding taken ones', () => {
    expect(suggestFieldKey('Dietary needs?')).toBe('dietary_needs');
    expect(suggestFieldKey('Café · Crème')).toBe('cafe_creme');
    expect(suggestFieldKey('2nd choice')).toBe('nd_choice');
    expect(suggestFieldKey('Диета')).toBe('question');
    expect(suggestFieldKey('Diet', ['diet', 'diet_2'])).toBe('diet_3');
    const long = suggestFieldKey('x'.repeat(60), ['x'.repeat(40)]);
    expect(long).toMatch(/^x+_2$/);
    for (const key of [long, suggestFieldKey('a '.repeat(30))]) expect(ZCustomFieldDefinition.shape.key.safeParse(key).success).toBe(true);
  });
});
