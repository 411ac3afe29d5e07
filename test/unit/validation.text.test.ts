/**
 * The text no input may carry (shared/validation.ts): a NUL, an unpaired UTF-16 surrogate, a
 * Unicode noncharacter — refused with the field and the reason; and what an XLSX cell leaves out.
 */
import { describe, expect, it } from 'vitest';
import { fieldWithBadText, textFault, xmlSafeText } from '../../shared/validation';

describe('textFault', () => {
  it('refuses NUL, unpaired surrogates (high or low, anywhere) and noncharacters of every plane', () => {
    expect(textFault('a\u0000b')).toBe('must not contain a NUL character');
    for (const t of ['\uD800', 'x\uDBFF', '\uDC00x', 'a\uDFFFb', '😀'.slice(0, 1)]) expect(textFault(t)).toBe('must not contain an unpaired UTF-16 surrogate');
    for (const t of ['\uFDD0', '\uFDEF', '\uFFFE', '\uFFFF', '\u{1FFFE}', '\u{2FFFF}', '\u{10FFFE}', '\u{10FFFF}'])
      expect(textFault(`a${t}b`)).toMatch(/noncharacter/);
  });

  it('accepts paired surrogates (emoji), private use, U+FFFD and the characters beside the noncharacters', () => {
    for (const t of ['Ada Lovelace', '😀👍🏽', '\uE000', '\uFFFD', '\uFDCF', '\uFDF0', '\u{1FFFD}', '\u{10FFFD}', 'tab\tand\nnewline', ''])
      expect(textFault(t)).toBeNull();
  });
});

describe('fieldWithBadText', () => {
  it('names the first bad field by its dotted path, a key without its bad character, the value itself as body', () => {
    expect(fieldWithBadText({ a: 'ok', b: { c: ['x', 'y\uFFFF'] } })).toEqual({ field: 'b.c.1', message: expect.stringMatching(/noncharacter/) });
    expect(fieldWithBadText({ labels: { 'ph\uD800one': 'Call' } })).toEqual({
      field: 'labels.phone',
      message: 'must not contain an unpaired UTF-16 surrogate',
    });
    expect(fieldWithBadText('\u0000')).toEqual({ field: 'body', message: 'must not contain a NUL character' });
    expect(fieldWithBadText({ a: 1, b: [true, null, 'fine'] })).toBeNull();
  });

  it('walks a value nested 10,000 deep without a stack overflow', () => {
    let deep: unknown = 'x\uD800';
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(fieldWithBadText(deep)?.message).toBe('must not contain an unpaired UTF-16 surrogate');
  });
});

describe('xmlSafeText', () => {
  it('leaves out C0 controls but tab, line feed and carriage return, unpaired surrogates, U+FFFE and U+FFFF; keeps the rest', () => {
    expect(xmlSafeText('a\u0000\u0001\u0008\u000B\u000C\u000E\u001Fb')).toBe('ab');
    expect(xmlSafeText('t\ta\nb\rc')).toBe('t\ta\nb\rc');
    expect(xmlSafeText('x\uD800y\uDFFFz\uFFFE\uFFFF')).toBe('xyz');
    expect(xmlSafeText('😀 \uFFFD \uFDD0 é')).toBe('😀 \uFFFD \uFDD0 é');
  });
});
