/**
 * The sign-up form's field logic: which inputs are extra fields, disabled ones skipped,
 * lists, the posted body, and that the server strips the `svc_cf_` prefix from what we post.
 */
import { describe, expect, it } from 'vitest';
import { buildSignupBody, collectCustomFields, collectValues, parseQuantity, stripPrefix, type FieldEntry } from '../../client/visitor/form-fields';
import { collectCustomInputs } from '../../server/modules/attendees/signup.service';

const text = (name: string, value: string, extra: Partial<FieldEntry> = {}): FieldEntry => ({ name, value, type: 'text', disabled: false, ...extra });

describe('collectCustomFields', () => {
  it('keeps only svc_cf_<key> inputs, with their names as the server reads them', () => {
    const fields = collectCustomFields([
      text('email', 'a@example.test'),
      text('display_name', 'Ada'),
      text('svc_cf_diet', 'vegan'),
      text('svc_cf_', 'no key'),
      text('svc_hp', ''),
      text('other_field', 'x'),
    ]);
    expect(fields).toEqual({ svc_cf_diet: 'vegan' });
  });

  it('skips disabled inputs (contract: the form script skips disabled inputs)', () => {
    const fields = collectCustomFields([text('svc_cf_diet', 'vegan'), text('svc_cf_company', 'ACME', { disabled: true })]);
    expect(fields).toEqual({ svc_cf_diet: 'vegan' });
  });

  it('takes ticked checkboxes and radios only; a repeated name or a [] name is a list', () => {
    const fields = collectCustomFields([
      { name: 'svc_cf_topics[]', value: 'a', type: 'checkbox', disabled: false, checked: true },
      { name: 'svc_cf_topics[]', value: 'b', type: 'checkbox', disabled: false, checked: false },
      { name: 'svc_cf_topics[]', value: 'c', type: 'checkbox', disabled: false, checked: true },
      { name: 'svc_cf_size', value: 'm', type: 'radio', disabled: false, checked: false },
      { name: 'svc_cf_size', value: 'l', type: 'radio', disabled: false, checked: true },
      { name: 'svc_cf_none[]', value: 'x', type: 'checkbox', disabled: false, checked: false },
      { name: 'svc_cf_langs', value: ['en', 'de'], type: 'select-multiple', disabled: false },
      { name: 'svc_cf_ok', value: 'yes', type: 'checkbox', disabled: false, checked: true },
    ]);
    expect(fields).toEqual({ svc_cf_topics: ['a', 'c'], svc_cf_size: 'l', svc_cf_none: [], svc_cf_langs: ['en', 'de'], svc_cf_ok: 'yes' });
  });

  it('the server removes the prefix: what the filter receives is keyed by field key', () => {
    const posted = buildSignupBody({
      email: ' ada@example.test ',
      displayName: ' Ada ',
      quantity: 2,
      custom: collectCustomFields([text('svc_cf_diet', 'vegan'), text('svc_cf_topics[]', 'a'), text('svc_cf_x', 'gone', { disabled: true })]),
      formToken: 'signed',
      honeypot: '',
    });
    expect(posted).toEqual({
      email: 'ada@example.test',
      display_name: 'Ada',
      quantity: 2,
      svc_ts: 'signed',
      svc_hp: '',
      svc_cf_diet: 'vegan',
      svc_cf_topics: ['a'],
    });
    // the exact function the sign-up route runs on the body before svc_rsvp_custom_fields
    expect(collectCustomInputs(posted)).toEqual({ diet: 'vegan', topics: ['a'] });
    expect(stripPrefix({ svc_cf_diet: 'vegan', email: 'x' })).toEqual({ diet: 'vegan' });
  });
});

describe('collectValues (drafts)', () => {
  it('keeps every enabled named control except the excluded ones and buttons', () => {
    const values = collectValues(
      [
        text('email', 'a@example.test'),
        text('svc_hp', 'bot'),
        text('svc_cf_diet', 'vegan'),
        { name: 'go', value: 'x', type: 'submit', disabled: false },
        text('', 'unnamed'),
      ],
      (name) => name !== 'svc_hp',
    );
    expect(values).toEqual({ email: 'a@example.test', svc_cf_diet: 'vegan' });
  });
});

describe('parseQuantity', () => {
  it('accepts whole numbers from 1 to the event maximum only', () => {
    expect(parseQuantity('3', 4)).toBe(3);
    expect(parseQuantity(' 4 ', 4)).toBe(4);
    expect(parseQuantity('5', 4)).toBeNull();
    expect(parseQuantity('0', 4)).toBeNull();
    expect(parseQuantity('1.5', 4)).toBeNull();
    expect(parseQuantity('', 4)).toBeNull();
  });
});
