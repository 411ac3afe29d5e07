import { z } from 'zod';
import { AppError } from './errors';

// Plain-words messages for the commonest failures; zod's defaults name types, not people's fields.
z.config({
  customError: (issue) => {
    if (issue.code === 'invalid_type' && issue.input === undefined) return 'is required';
    if (issue.code === 'invalid_type') return `must be ${issue.expected === 'int' ? 'an integer' : `a ${issue.expected}`}`;
    if (issue.code === 'too_small' && issue.origin === 'string')
      return issue.minimum === 1 ? 'must not be empty' : `must be at least ${issue.minimum} characters`;
    if (issue.code === 'too_big' && issue.origin === 'string') return `must be at most ${issue.maximum} characters`;
    if (issue.code === 'too_small' && issue.origin === 'number') return `must be at least ${issue.minimum}`;
    if (issue.code === 'too_big' && issue.origin === 'number') return `must be at most ${issue.maximum}`;
    return undefined;
  },
});

export { z };

// Text no input may carry, whatever its field: PostgreSQL refuses NUL in text and an unpaired
// surrogate in jsonb (a 500 where the login throttle's key was cast to jsonb), and XML (an XLSX
// export) refuses noncharacters and surrogates alike. With the `u` flag a character class matches
// a surrogate only when it is unpaired.
const NONCHARACTERS = `\\uFDD0-\\uFDEF\\uFFFE\\uFFFF${Array.from({ length: 16 }, (_, i) => `\\u{${(i + 1).toString(16)}FFFE}\\u{${(i + 1).toString(16)}FFFF}`).join('')}`;
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const NONCHARACTER = new RegExp(`[${NONCHARACTERS}]`, 'u');
const ANY_REFUSED = new RegExp(`[\\u0000\\uD800-\\uDFFF${NONCHARACTERS}]`, 'gu');

/** Why `text` is refused as input (the message `data.params` gives its field), or null when it is fine. */
export function textFault(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain a NUL character';
  if (LONE_SURROGATE.test(text)) return 'must not contain an unpaired UTF-16 surrogate';
  if (NONCHARACTER.test(text)) return 'must not contain a Unicode noncharacter (U+FFFE, U+FFFF, U+FDD0–U+FDEF)';
  return null;
}

/**
 * The first field (dotted path; `body` for the value itself) whose text or key `textFault`
 * refuses, with the reason, or null. Depth first in key order, with a stack of its own: a body
 * nested thousands deep (10 KB of `[`) overflowed the call stack when this recursed, a 500.
 */
export function fieldWithBadText(value: unknown, at = ''): { field: string; message: string } | null {
  const pending: Array<[unknown, string]> = [[value, at]];
  while (pending.length > 0) {
    const [v, path] = pending.pop()!;
    if (typeof v === 'string') {
      const message = textFault(v);
      if (message) return { field: path || 'body', message };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    const children: Array<[unknown, string]> = [];
    for (const [key, child] of Object.entries(v)) {
      const message = textFault(key);
      // a key is named without the characters that make it unusable in the answer
      if (message) return { field: [path, key.replace(ANY_REFUSED, '')].filter(Boolean).join('.'), message };
      children.push([child, path ? `${path}.${key}` : key]);
    }
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
  }
  return null;
}

/**
 * Refuses input with text no field may carry anywhere (`textFault`) as 400 svc_invalid_param
 * naming the field: the REST and tRPC transports check every input with it before validation,
 * and the signed webhooks check their bodies once the signature holds. Nothing is stored.
 */
export function assertCleanText(value: unknown): void {
  const bad = fieldWithBadText(value);
  if (bad) throw new AppError('svc_invalid_param', `Invalid parameter(s): ${bad.field}`, { params: { [bad.field]: bad.message } });
}

/**
 * Characters XML 1.0 forbids in a document: C0 controls but tab, line feed and carriage return,
 * unpaired surrogates, U+FFFE and U+FFFF. A spreadsheet cell holding one makes readers refuse the
 * whole file.
 */
// eslint-disable-next-line no-control-regex -- these control characters are what it removes
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\uD800-\uDFFF]/gu;

/** `text` without the characters XML 1.0 forbids. */
export function xmlSafeText(text: string): string {
  return text.replace(XML_FORBIDDEN, '');
}
