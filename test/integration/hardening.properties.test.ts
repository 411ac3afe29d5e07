/**
 * Property tests of every REST operation against broken input (issue 16 item 7a): for each
 * operation with a REST binding in `domainOperations`, inputs are generated from its zod input
 * schema (with the ids and tokens of real rows mixed in, so the input reaches the handler), then
 * broken field by field — wrong types, NUL characters, unpaired UTF-16 surrogates and Unicode
 * noncharacters, huge strings, negative and huge numbers, missing required fields, extra fields,
 * malformed path segments and percent-encoding, unreadable bodies — and sent as the administrator
 * (public operations also anonymously). The signed webhooks (the commerce bridge, the local
 * payment provider's) get bodies of their own shape, broken the same way and then signed with the
 * configured secrets most of the time, so the breakage reaches what runs after the signature
 * check (Stripe-signed bodies: foundation.bad-input.signed.test.ts). Whatever arrives:
 *
 * - the answer is never 5xx;
 * - every non-2xx answer is the SPEC §3 error body `{code, message, data: {status, params?}}`
 *   with `data.status` equal to the HTTP status (429 with Retry-After);
 * - a 4xx stores nothing: a fingerprint of every `svc_*` table (row count and a digest of its
 *   rows) is the same before and after, except the tables listed below that change on a refusal
 *   by design.
 *
 * Both editions run: the extended one (payments and orders live) with more runs, the free one
 * (the extended edition's routes answer 404) with fewer. The test servers also check every answer
 * against the published OpenAPI document (test/helpers/openapi-check.ts).
 *
 * The file takes 30–60 s on the 2-core CI machine (16 runs per operation in the extended edition,
 * 5 in the free one; no operation's runs and shrinking go past SHRINK_LIMIT_MS).
 *
 * Reproduce a failure with the seed it prints: FC_SEED=<seed> (and FC_RUNS to change the runs per
 * operation) SVC_TEST_DB=pglite npx vitest run --project pglite test/integration/hardening.properties.test.ts
 */
import { request as httpRequest } from 'node:http';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { z, type ZodType } from 'zod';
import { pathParamsOf, restInputParts, type AnyOperation } from '../../server/api/operation';
import { documentedPath } from '../../server/api/openapi';
import { queryRows } from '../../server/db/client';
import { domainOperations } from '../../server/modules';
import { ERROR_CODES } from '../../shared/errors';
import { ZTimeZone, ZUtcDateTime, ZUtcDay } from '../../shared/schemas';
import { LOCAL_WEBHOOK_PURPOSE } from '../../server/modules/orders/providers/local';
import { derivedWebhookSecret, signStandardWebhook } from '../../server/security/standard-webhooks';
import { createHost, createType, fetchNonce, futureStart, submitBooking, bookingBody } from '../helpers/booking';
import { loginAs, type Session } from '../helpers/http';
import { newEventId } from '../helpers/payments';
import { agedFormToken, createEvent, resetThrottles, signUp, uniqueEmail } from '../helpers/registration';
import { useTestServer, type TestServerFixture } from '../helpers/test-server';

const SEED = process.env.FC_SEED === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FC_SEED);
console.log(`hardening properties: FC_SEED=${SEED}`);
/** Runs and shrinking of one operation stop after this (a failure still reports its best counterexample). */
const SHRINK_LIMIT_MS = 30_000;
const RUNS_OVERRIDE = process.env.FC_RUNS === undefined ? undefined : Number(process.env.FC_RUNS);

/**
 * Operations this file does not exercise, with the reason. Nothing else is skipped: a new
 * operation with a REST binding is tested as soon as it is declared.
 */
const EXCLUDED: Record<string, string> = {};

/**
 * Tables that legitimately change when a request is refused (the fingerprint leaves them out):
 * throttles count refused attempts (failed sign-ins, throttled posts) by design; this file empties
 * them before each run so that every run reaches validation.
 */
const CHANGE_ON_REFUSAL = ['svc_rate_limits'];
/** Per operation: tables its refusals write on purpose. */
const OPERATION_WRITES_ON_REFUSAL: Record<string, string[]> = {
  // decision 009: a refused scan (unknown, cancelled, waitlist, wrong event) is kept in the scan log
  'checkin.checkIn': ['svc_scan_log'],
};

interface Edition {
  name: 'extended' | 'free';
  env: Record<string, string>;
  /** Runs per operation (each run picks its caller: the administrator, or nobody for a public operation). */
  runs: number;
}
const EDITIONS: Edition[] = [
  // the commerce bridge answers only with a secret set: with one, its signature check is exercised too
  { name: 'extended', env: { SVC_EDITION: 'extended', SVC_COMMERCE_SECRET: 'whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3' }, runs: RUNS_OVERRIDE ?? 16 },
  { name: 'free', env: {}, runs: RUNS_OVERRIDE ?? 5 },
];

interface NamedOperation {
  key: string;
  op: AnyOperation;
}
const OPERATIONS: NamedOperation[] = Object.entries(domainOperations).flatMap(([domain, record]) =>
  Object.entries(record as Record<string, AnyOperation>)
    .filter(([, op]) => op.rest)
    .map(([name, op]) => ({ key: `${domain}.${name}`, op })),
);

// ---- zod 4 schema → fast-check arbitrary ----------------------------------------------------------

interface Def {
  type: string;
  [key: string]: unknown;
}
const defOf = (schema: ZodType): Def => schema._zod.def as unknown as Def;
const checksOf = (def: Def): Def[] => ((def.checks as Array<{ _zod: { def: Def } }> | undefined) ?? []).map((c) => c._zod.def);

const utcDateTime = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 19).replace('T', ' '));
/** Schemas whose values a refinement decides: generated by hand (the rest is read from the schema). */
const REFINED = new Map<ZodType, fc.Arbitrary<unknown>>([
  [ZUtcDateTime, utcDateTime],
  [ZUtcDay, utcDateTime.map((s) => s.slice(0, 10))],
  [ZTimeZone, fc.constantFrom('UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham')],
]);

function stringArbitrary(def: Def): fc.Arbitrary<string> {
  let min = 0;
  let max = 24;
  let pattern: RegExp | undefined;
  for (const check of checksOf(def)) {
    if (check.check === 'min_length') min = Number(check.minimum);
    if (check.check === 'max_length') max = Math.min(max, Number(check.maximum));
    if (check.check === 'length_equals') min = max = Number(check.length);
    if (check.check === 'string_format' && check.pattern instanceof RegExp) pattern = check.pattern;
  }
  if (def.format === 'email') return fc.stringMatching(/^[a-z0-9]{1,12}$/).map((local) => `${local}@example.test`);
  if (def.format === 'uuid' || def.format === 'guid') return fc.uuid({ version: 4 });
  if (def.pattern instanceof RegExp) pattern = def.pattern;
  max = Math.max(max, min);
  if (pattern) {
    // `^[…]+$` with a length: the length goes into the pattern (filtering for it could spin forever)
    const repeated = /^\^(\[[^\]]+\]|\\[dw])[+*]\$$/.exec(pattern.source);
    return fc.stringMatching(repeated ? new RegExp(`^${repeated[1]}{${Math.max(min, 1)},${max}}$`, pattern.flags) : pattern);
  }
  return fc.string({ minLength: min, maxLength: max, unit: 'grapheme' });
}

function numberArbitrary(def: Def): fc.Arbitrary<number> {
  let min = -1_000_000;
  let max = 1_000_000;
  let integer = false;
  for (const check of checksOf(def)) {
    if (check.check === 'number_format') integer = true;
    if (check.check === 'greater_than') min = Number(check.value) + (check.inclusive ? 0 : integer ? 1 : 1e-6);
    if (check.check === 'less_than') max = Number(check.value) - (check.inclusive ? 0 : integer ? 1 : 1e-6);
  }
  // `greater_than` may come before the integer check: round the bounds once the kind is known
  if (integer) return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/** Values the schema accepts (mostly: refinements it cannot read aside), as JSON would carry them. */
function arbitraryOf(schema: ZodType, depth = 0): fc.Arbitrary<unknown> {
  const known = REFINED.get(schema);
  if (known) return known;
  const def = defOf(schema);
  const inner = (key: string) => arbitraryOf(def[key] as ZodType, depth + 1);
  switch (def.type) {
    case 'string':
      return stringArbitrary(def);
    case 'number':
      return numberArbitrary(def);
    case 'bigint':
      return fc.integer().map(String);
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, string | number>));
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'null':
      return fc.constant(null);
    case 'date':
      return utcDateTime;
    case 'object': {
      const shape = def.shape as Record<string, ZodType>;
      const required = Object.keys(shape).filter((k) => !['optional', 'default', 'prefault'].includes(defOf(shape[k]!).type));
      const fields = Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, depth > 4 ? fc.constant(undefined) : arbitraryOf(v, depth + 1)]));
      return fc.record(fields, { requiredKeys: required });
    }
    case 'array': {
      let min = 0;
      let max = 4;
      for (const check of checksOf(def)) {
        if (check.check === 'min_length') min = Number(check.minimum);
        if (check.check === 'max_length') max = Math.min(max, Number(check.maximum));
      }
      return depth > 4 ? fc.constant([]) : fc.array(inner('element'), { minLength: min, maxLength: Math.max(min, max) });
    }
    case 'tuple':
      return fc.tuple(...(def.items as ZodType[]).map((item) => arbitraryOf(item, depth + 1)));
    case 'record':
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), inner('valueType'), { maxKeys: 4 });
    case 'union':
      return fc.oneof(...(def.options as ZodType[]).map((o) => arbitraryOf(o, depth + 1)));
    case 'intersection':
      return inner('left');
    case 'optional':
    case 'default':
    case 'prefault':
      return fc.option(inner('innerType'), { nil: undefined, freq: 4 });
    case 'nullable':
      return fc.option(inner('innerType'), { nil: null, freq: 4 });
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return inner('innerType');
    case 'lazy':
      return arbitraryOf((def.getter as () => ZodType)(), depth + 1);
    case 'pipe':
      // z.preprocess(fn, out) is a pipe from a transform: generate what the output accepts
      return defOf(def.in as ZodType).type === 'transform' ? inner('out') : inner('in');
    case 'unknown':
    case 'any':
      return fc.jsonValue({ maxDepth: 2 });
    default:
      return fc.anything({ maxDepth: 2 });
  }
}

// ---- breaking an input ----------------------------------------------------------------------------

type Part = 'params' | 'query' | 'body';
type Mutation =
  | { kind: 'drop'; part: Part; pick: number }
  | { kind: 'wrongType'; part: Part; pick: number; value: unknown }
  | { kind: 'nul'; part: Part; pick: number }
  | { kind: 'badText'; part: Part; pick: number; char: string }
  | { kind: 'huge'; part: Part; pick: number; size: number }
  | { kind: 'text'; part: Part; pick: number; value: string }
  | { kind: 'number'; part: Part; pick: number; value: number | string }
  | { kind: 'extra'; part: Part; key: string; value: unknown }
  | { kind: 'rawPath'; pick: number; raw: string }
  | { kind: 'rawQuery'; raw: string }
  | { kind: 'rawBody'; body: 'invalidJson' | 'textPlain' | 'array' | 'string' | 'null' | 'empty' | 'form' | 'multipart' | 'deep' }
  | { kind: 'nonce'; value: string | null };

const part = fc.constantFrom<Part>('params', 'query', 'body', 'body');
const junk = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 8 }),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
  fc.constantFrom([], {}, '', ' ', 'null', 'undefined', 'true', '[]', '{}', '1e999', 'NaN'),
);
const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('drop' as const), part, pick: fc.nat() }),
  fc.record({ kind: fc.constant('wrongType' as const), part, pick: fc.nat(), value: junk }),
  fc.record({ kind: fc.constant('nul' as const), part, pick: fc.nat() }),
  // an unpaired surrogate (high or low) or a noncharacter, put inside a field's text as the NUL is
  fc.record({
    kind: fc.constant('badText' as const),
    part,
    pick: fc.nat(),
    char: fc.constantFrom('\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\uFFFE', '\uFFFF', '\uFDD0', '\uFDEF', '\u{1FFFE}', '\u{10FFFF}'),
  }),
  fc.record({ kind: fc.constant('huge' as const), part, pick: fc.nat(), size: fc.constantFrom(256, 5_000, 70_000, 1_200_000) }),
  fc.record({
    kind: fc.constant('text' as const),
    part,
    pick: fc.nat(),
    value: fc.constantFrom(
      '\uD800',
      'x\uDC00',
      '\uFFFE',
      'Ada\uFFFF',
      '\uFDD0',
      '\u{10FFFF}',
      '\u202E\u0041',
      'a\r\nb',
      "' or 1=1 --",
      '%',
      '_',
      '\\',
      '💩'.repeat(100),
      '0000-01-01 00:00:00',
      '2024-02-30 00:00:00',
      '9999-12-31 23:59:59',
      '0001-01-01',
      ' ',
      '\t',
      '<script>alert(1)</script>',
      '../../etc/passwd',
    ),
  }),
  fc.record({
    kind: fc.constant('number' as const),
    part,
    pick: fc.nat(),
    value: fc.constantFrom<number | string>(
      -1,
      0,
      -0.5,
      1.5,
      2_147_483_648,
      -2_147_483_649,
      Number.MAX_SAFE_INTEGER + 2,
      1e308,
      -1e308,
      1e-7,
      '1e3',
      '0x10',
      ' 7',
      '',
      '-0',
      'Infinity',
    ),
  }),
  fc.record({
    kind: fc.constant('extra' as const),
    part,
    key: fc.constantFrom('__proto__', 'constructor', 'id', 'svc_hp', 'isAdmin', 'role', 'status', 'a'.repeat(300), 'x\u0000y'),
    value: junk,
  }),
  fc.record({
    kind: fc.constant('rawPath' as const),
    pick: fc.nat(),
    raw: fc.constantFrom(
      '%zz',
      '%',
      '%E0%A4%A',
      '%C0%AE%C0%AE',
      '..',
      '%2e%2e',
      '%00',
      '%2F',
      'a%2Fb',
      '%u0041',
      '%F0%9F%98%80',
      '-1',
      '0',
      '1.5',
      '1e3',
      'x'.repeat(20_000),
    ),
  }),
  fc.record({
    kind: fc.constant('rawQuery' as const),
    raw: fc.constantFrom('%zz=1', 'page=%zz', 'perPage=%00', 'page=1&page=2', 'eventId[]=1', '=', '&&&', `${'a'.repeat(20_000)}=1`),
  }),
  fc.record({
    kind: fc.constant('rawBody' as const),
    body: fc.constantFrom('invalidJson', 'textPlain', 'array', 'string', 'null', 'empty', 'form', 'multipart', 'deep'),
  }),
  fc.record({ kind: fc.constant('nonce' as const), value: fc.constantFrom(null, '', 'forged', 'x'.repeat(300)) }),
);

/** Dotted paths into a value, the value itself first (`[]`), at most three levels down. */
function pathsOf(value: unknown, at: string[] = [], out: string[][] = []): string[][] {
  out.push(at);
  if (at.length < 3 && value !== null && typeof value === 'object')
    for (const key of Object.keys(value)) pathsOf((value as Record<string, unknown>)[key], [...at, key], out);
  return out;
}

function getAt(value: unknown, path: string[]): unknown {
  return path.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), value);
}

/** The value with `path` set to `next` (undefined: removed); the root path replaces the value. */
function setAt(value: unknown, path: string[], next: unknown): unknown {
  if (path.length === 0) return next;
  const [head, ...rest] = path as [string, ...string[]];
  const copy: Record<string, unknown> = Array.isArray(value) ? ([...value] as unknown as Record<string, unknown>) : { ...(value as Record<string, unknown>) };
  const child = setAt(copy[head], rest, next);
  if (child === undefined) delete copy[head];
  else Object.defineProperty(copy, head, { value: child, enumerable: true, writable: true, configurable: true });
  return copy;
}

interface Call {
  params: Record<string, unknown>;
  query: unknown;
  body: unknown;
  rawPath: Map<string, string>;
  rawQuery: string[];
  rawBody: Extract<Mutation, { kind: 'rawBody' }>['body'] | null;
  nonce: string | null | undefined;
  anonymous: boolean;
  /** A signed webhook's body goes with a valid signature over the bytes sent. */
  signed: boolean;
}

function applyMutation(call: Call, m: Mutation, pathNames: string[]): void {
  if (m.kind === 'rawPath') {
    if (pathNames.length) call.rawPath.set(pathNames[m.pick % pathNames.length]!, m.raw);
    return;
  }
  if (m.kind === 'rawQuery') return void call.rawQuery.push(m.raw);
  if (m.kind === 'rawBody') return void (call.rawBody = m.body);
  if (m.kind === 'nonce') return void (call.nonce = m.value);
  const current = call[m.part];
  if (m.kind === 'extra') {
    const target = current !== null && typeof current === 'object' && !Array.isArray(current) ? current : {};
    call[m.part] = setAt(target, [m.key], m.value) as never;
    return;
  }
  const paths = pathsOf(current);
  const path = paths[m.pick % paths.length]!;
  const old = getAt(current, path);
  const next =
    m.kind === 'drop'
      ? undefined
      : m.kind === 'wrongType'
        ? m.value
        : m.kind === 'nul' || m.kind === 'badText'
          ? `${typeof old === 'string' ? old.slice(0, 3) : 'a'}${m.kind === 'nul' ? '\u0000' : m.char}${typeof old === 'string' ? old.slice(3) : 'b'}`
          : m.kind === 'huge'
            ? 'x'.repeat(m.size)
            : m.value;
  call[m.part] = (path.length === 0 && m.part === 'params' ? {} : setAt(current, path, next)) as never;
}

// ---- sending --------------------------------------------------------------------------------------

function queryText(query: unknown): string {
  const params = new URLSearchParams();
  if (query !== null && typeof query === 'object' && !Array.isArray(query)) {
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) params.append(key, v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
    }
  } else if (query !== undefined) params.append('q', JSON.stringify(query));
  return params.toString();
}

/** A path parameter's value as text (a lone surrogate becomes U+FFFD: a URL has no bytes for it). */
function pathText(value: unknown): string {
  const text = value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.toWellFormed();
}

function formText(body: unknown): string {
  const params = new URLSearchParams();
  if (body !== null && typeof body === 'object')
    for (const [k, v] of Object.entries(body)) params.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  return params.toString();
}

interface Answer {
  status: number;
  text: string;
  headers: Headers;
  request: string;
}

async function send(baseUrl: string, op: AnyOperation, call: Call, auth: Session | null, sign?: (body: string) => Record<string, string>): Promise<Answer> {
  const rest = op.rest!;
  const path = documentedPath(rest.path).replace(
    /:([A-Za-z_]\w*)/g,
    (_, name: string) => call.rawPath.get(name) ?? encodeURIComponent(pathText(call.params[name])),
  );
  const query = [queryText(call.query), ...call.rawQuery].filter(Boolean).join('&');
  const target = `/svc/v1${path}${query ? `?${query}` : ''}`;
  const url = `${baseUrl}${target}`;
  const method = rest.method.toUpperCase();
  const headers: Record<string, string> = {};
  if (auth) {
    headers.cookie = auth.cookie;
    headers.origin = new URL(baseUrl).origin;
  }
  if (call.nonce) headers['x-svc-nonce'] = call.nonce;
  let body: string | undefined;
  if (method !== 'GET' && method !== 'DELETE') {
    headers['content-type'] = 'application/json';
    body = call.body === undefined ? '' : JSON.stringify(call.body);
    switch (call.rawBody) {
      case 'invalidJson':
        body = '{"a": 1,';
        break;
      case 'textPlain':
        headers['content-type'] = 'text/plain';
        break;
      case 'array':
        body = JSON.stringify([call.body]);
        break;
      case 'string':
        body = JSON.stringify(JSON.stringify(call.body ?? null));
        break;
      case 'null':
        body = 'null';
        break;
      case 'empty':
        body = '';
        break;
      case 'form':
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = formText(call.body);
        break;
      case 'multipart':
        // an unterminated part
        headers['content-type'] = 'multipart/form-data; boundary=svc';
        body = `--svc\r\nContent-Disposition: form-data; name="email"\r\n\r\n${formText(call.body)}\r\n`;
        break;
      case 'deep':
        body = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
        break;
    }
  }
  if (sign && call.signed) Object.assign(headers, sign(body ?? ''));
  const res = await rawRequest(baseUrl, target, method, headers, body);
  const request = `${method} ${url.length > 300 ? `${url.slice(0, 300)}…` : url} ${body && body.length > 300 ? `${body.slice(0, 300)}…` : (body ?? '')}`;
  return { ...res, request };
}

/**
 * One request on a connection of its own, the path sent byte for byte (fetch would resolve `..`
 * and reuse a connection the server closed after refusing a 1 MB body unread).
 */
function rawRequest(
  baseUrl: string,
  path: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<Omit<Answer, 'request'>> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = httpRequest(
      { hostname, port, path, method, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent: false },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const out = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out.set(k, Array.isArray(v) ? v.join(', ') : v);
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), headers: out });
        });
        res.on('error', reject);
      },
    );
    // the server may answer (413, 431) and close before a large body is written: the answer counts
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    req.end(body);
  });
}

/** SPEC §3: `{code, message, data: {status, params?}}`, `data.status` the HTTP status, 429 with Retry-After. */
function assertErrorShape(answer: Answer): void {
  const where = `${answer.request} → ${answer.status} ${answer.text.slice(0, 500)}`;
  let body: unknown;
  expect(() => (body = JSON.parse(answer.text)), `a JSON error body: ${where}`).not.toThrow();
  expect(body, where).toEqual({
    code: expect.stringMatching(/^svc_[a-z0-9_]+$/),
    message: expect.any(String),
    data: expect.objectContaining({ status: answer.status }),
  });
  const { code, message, data } = body as { code: string; message: string; data: { params?: unknown } };
  expect(Object.keys(ERROR_CODES), `a code of shared/errors.ts: ${where}`).toContain(code);
  expect(message.length, where).toBeGreaterThan(0);
  expect(message, `no stack trace in the message: ${where}`).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
  if (data.params !== undefined) {
    expect(data.params, `data.params names fields: ${where}`).toEqual(expect.any(Object));
    for (const v of Object.values(data.params as object)) expect(typeof v, where).toBe('string');
  }
  if (answer.status === 429) expect(answer.headers.get('retry-after'), where).toMatch(/^\d+$/);
}

// ---- the database fingerprint ---------------------------------------------------------------------

async function fingerprintQuery(fixture: TestServerFixture): Promise<string> {
  const tables = await queryRows<{ name: string }>(
    fixture.db(),
    sql`select table_name as name from information_schema.tables where table_schema = current_schema() and table_name like 'svc\_%' order by 1`,
  );
  return tables
    .map((t) => t.name)
    .filter((name) => !CHANGE_ON_REFUSAL.includes(name))
    .map((name) => `select '${name}' as t, count(*) || ':' || md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as f from ${name} x`)
    .join(' union all ');
}

async function fingerprint(fixture: TestServerFixture, query: string): Promise<Map<string, string>> {
  return new Map((await queryRows<{ t: string; f: string }>(fixture.db(), sql.raw(query))).map((r) => [r.t, r.f]));
}

// ---- real rows to point inputs at ------------------------------------------------------------------

/** Rows an operation's input can name, made on first use for each operation (so one that deletes its row hurts no other). */
class Fixtures {
  private readonly made = new Map<string, Promise<unknown>>();

  constructor(
    private readonly fixture: TestServerFixture,
    private readonly edition: Edition,
  ) {}

  private once<T>(key: string, make: () => Promise<T>): Promise<T> {
    if (!this.made.has(key)) this.made.set(key, make());
    return this.made.get(key) as Promise<T>;
  }

  private get api() {
    return this.fixture.admin.api;
  }

  server() {
    return this.fixture.server;
  }

  private async ok<T = Record<string, unknown>>(what: string, res: Promise<{ status: number; body: unknown }>): Promise<T> {
    const answer = await res;
    if (answer.status >= 300) throw new Error(`fixture ${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body as T;
  }

  event(): Promise<number> {
    return this.once('event', async () => (await createEvent(this.api)).id as number);
  }

  attendee(): Promise<{ id: number; cancelToken: string; ticketCode: string }> {
    return this.once('attendee', async () => {
      const eventId = await this.event();
      const res = await signUp(this.fixture.server, eventId);
      const { id } = await this.ok<{ id: number }>('sign-up', Promise.resolve(res));
      const [row] = await queryRows<{ cancel_token: string; ticket_code: string }>(
        this.fixture.db(),
        sql`select cancel_token, ticket_code from svc_attendees where id = ${id}`,
      );
      return { id, cancelToken: row!.cancel_token, ticketCode: row!.ticket_code };
    });
  }

  host(): Promise<number> {
    return this.once('host', () => createHost(this.api, 'Hedy'));
  }

  /** A user the operation may change or delete (never the signed-in administrator). */
  user(): Promise<number> {
    return this.once('user', () => createHost(this.api, 'Ulla'));
  }

  apiToken(): Promise<number> {
    return this.once('apiToken', async () => (await this.ok<{ id: number }>('token', this.api.post('/auth/tokens', { name: 'Fuzz' }))).id);
  }

  invite(): Promise<string> {
    return this.once('invite', async () => {
      const email = uniqueEmail('invitee');
      await this.ok('invite', this.api.post('/users/invite', { email, role: 'host' }));
      const mails = await this.ok<Array<{ to: string; text: string }>>('outbox', this.api.get('/outbox?perPage=500'));
      const text = mails.find((m) => m.to === email)?.text ?? '';
      return /\/invite\/([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? 'no-invite-link';
    });
  }

  type(extra: Record<string, unknown> = {}, key = 'type'): Promise<number> {
    return this.once(key, async () => (await createType(this.api, { hosts: [await this.host()], ...extra })).id as number);
  }

  /** A visitor's booking: its id and its cancel token (the manage link's capability). */
  booking(key = 'booking', extra: Record<string, unknown> = {}): Promise<{ id: number; token: string; paymentUrl?: string }> {
    return this.once(key, async () => {
      const typeId = await this.type(extra, `type:${key}`);
      const made = await this.ok<{ bookingId: number; paymentUrl?: string }>(
        'booking',
        submitBooking(this.fixture.server.url, bookingBody(typeId, futureStart(3, 10))),
      );
      const [row] = await queryRows<{ cancel_token: string }>(
        this.fixture.db(),
        sql`select cancel_token from svc_bookings where booking_id = ${made.bookingId}`,
      );
      return { id: made.bookingId, token: row!.cancel_token, paymentUrl: made.paymentUrl };
    });
  }

  async pendingBooking(): Promise<number> {
    return (await this.booking('pendingBooking', { requiresApproval: true })).id;
  }

  /** A held payment of a priced booking (extended edition), with its checkout made by the job that makes it. */
  payment(): Promise<string> {
    return this.once('payment', async () => {
      if (this.edition.name !== 'extended') return 'no-payment-in-the-free-edition';
      const { paymentUrl } = await this.booking('paidBooking', { priceCents: 1500 });
      await this.fixture.server.server.ctx.jobs.runDue();
      return paymentUrl?.split('/').pop() ?? 'no-payment-url';
    });
  }

  order(): Promise<number> {
    return this.once('order', async () => {
      if (this.edition.name !== 'extended') return 1;
      const event = await createEvent(this.api, { priceCents: 2500 });
      const body = await this.ok<{ orderId?: number }>('paid sign-up', signUp(this.fixture.server, event.id as number));
      return body.orderId ?? 1;
    });
  }

  checkin(): Promise<number> {
    return this.once('checkin', async () => {
      const [eventId, attendee] = [await this.event(), await this.attendee()];
      return (await this.ok<{ checkinId: number }>('check-in', this.api.post('/checkins', { ticketCode: attendee.ticketCode, eventId }))).checkinId;
    });
  }

  /** Extended edition rows (id 1 in the free edition, where their routes answer 404 anyway). */
  private extendedRow(key: string, make: () => Promise<number>): Promise<number> {
    return this.once(key, () => (this.edition.name === 'extended' ? make() : Promise.resolve(1)));
  }

  webhook(): Promise<number> {
    return this.extendedRow('webhook', async () => {
      const made = await this.ok<{ id: number }>('webhook', this.api.post('/webhooks', { url: 'https://hooks.example.com/svc', events: ['attendee.created'] }));
      return made.id;
    });
  }

  resource(): Promise<number> {
    return this.extendedRow('resource', async () => (await this.ok<{ id: number }>('resource', this.api.post('/resources', { name: 'Room 1' }))).id);
  }

  submission(): Promise<number> {
    return this.extendedRow('submission', async () => {
      const [row] = await queryRows<{ id: number }>(
        this.fixture.db(),
        sql`insert into svc_events (title, starts_utc, status, submission_status, submitter_name, submitter_email)
            values ('Proposed', ${futureStart(5, 10)}, 'draft', 'submitted', 'Robin', 'robin@example.test') returning id`,
      );
      return row!.id;
    });
  }

  device(): Promise<{ id: number; code: string }> {
    return this.once('device', async () => {
      const made = await this.ok<{ id: number; pairing: { pairingCode: string } }>(
        'device',
        this.api.post('/devices', { name: 'Door', eventIds: [await this.event()] }),
      );
      return { id: made.id, code: made.pairing.pairingCode };
    });
  }
}

type Resolver = (fx: Fixtures) => Promise<fc.Arbitrary<unknown>>;
const constant =
  <T>(make: (fx: Fixtures) => Promise<T>): Resolver =>
  async (fx) =>
    fc.constant(await make(fx));

/** What a path's `:id` or `:token` names, per operation (anything else is generated from the schema). */
const PATH_ROWS: Record<string, Resolver> = {
  'auth.invite': constant((fx) => fx.invite()),
  'auth.acceptInvite': constant((fx) => fx.invite()),
  'auth.revokeToken': constant((fx) => fx.apiToken()),
  'auth.sendPasswordLink': constant((fx) => fx.user()),
  'auth.user': constant((fx) => fx.user()),
  'auth.updateUser': constant((fx) => fx.user()),
  'auth.deleteUser': constant((fx) => fx.user()),
  'events.get': constant((fx) => fx.event()),
  'events.update': constant((fx) => fx.event()),
  'events.duplicate': constant((fx) => fx.event()),
  'events.delete': constant((fx) => fx.event()),
  'attendees.form': constant((fx) => fx.event()),
  'attendees.signup': constant((fx) => fx.event()),
  'attendees.cancelPreview': constant(async (fx) => (await fx.attendee()).cancelToken),
  'attendees.cancel': constant(async (fx) => (await fx.attendee()).cancelToken),
  'attendees.get': constant(async (fx) => (await fx.attendee()).id),
  'attendees.update': constant(async (fx) => (await fx.attendee()).id),
  'attendees.delete': constant(async (fx) => (await fx.attendee()).id),
  'booking.slots': constant((fx) => fx.type()),
  'booking.type': constant((fx) => fx.type()),
  'booking.updateType': constant((fx) => fx.type()),
  'booking.deleteType': constant((fx) => fx.type()),
  'booking.reschedule': constant(async (fx) => (await fx.booking()).token),
  'booking.byToken': constant(async (fx) => (await fx.booking()).token),
  'booking.cancelByToken': constant(async (fx) => (await fx.booking()).token),
  'booking.approve': constant((fx) => fx.pendingBooking()),
  'booking.decline': constant((fx) => fx.pendingBooking()),
  'booking.cancel': constant(async (fx) => (await fx.booking()).id),
  'checkin.annul': constant((fx) => fx.checkin()),
  'devices.update': constant(async (fx) => (await fx.device()).id),
  'devices.newPairingCode': constant(async (fx) => (await fx.device()).id),
  'devices.revoke': constant(async (fx) => (await fx.device()).id),
  'payments.checkout': constant((fx) => fx.payment()),
  'payments.cancelCheckout': constant((fx) => fx.payment()),
  'payments.localSession': constant((fx) => fx.payment()),
  'payments.localPay': constant((fx) => fx.payment()),
  'payments.localCancel': constant((fx) => fx.payment()),
  'payments.webhook': async () => fc.constantFrom('local', 'stripe'),
  'payments.order': constant((fx) => fx.order()),
  'payments.refundOrder': constant((fx) => fx.order()),
  'webhooks.get': constant((fx) => fx.webhook()),
  'webhooks.update': constant((fx) => fx.webhook()),
  'webhooks.remove': constant((fx) => fx.webhook()),
  'webhooks.rotate': constant((fx) => fx.webhook()),
  'webhooks.deliveries': constant((fx) => fx.webhook()),
  'webhooks.test': constant((fx) => fx.webhook()),
  'resources.get': constant((fx) => fx.resource()),
  'resources.update': constant((fx) => fx.resource()),
  'resources.delete': constant((fx) => fx.resource()),
  'submissions.publish': constant((fx) => fx.submission()),
  'submissions.reject': constant((fx) => fx.submission()),
  'timeline.get': constant(async (fx) => (await fx.attendee()).id),
};

/** Query and body fields that name rows or need plausible values, by name, in every operation. */
const FIELD_VALUES: Record<string, Resolver> = {
  eventId: constant((fx) => fx.event()),
  eventIds: constant(async (fx) => [await fx.event()]),
  attendeeId: constant(async (fx) => (await fx.attendee()).id),
  attendeeIds: constant(async (fx) => String((await fx.attendee()).id)),
  ticketCode: constant(async (fx) => (await fx.attendee()).ticketCode),
  bookingTypeId: constant((fx) => fx.type()),
  hostUserId: constant((fx) => fx.host()),
  hosts: constant(async (fx) => [await fx.host()]),
  startUtc: async () => fc.tuple(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 23 })).map(([days, hour]) => futureStart(days, hour)),
  customerEmail: async () => fc.constant(null).map(() => uniqueEmail()),
  email: async () => fc.constant(null).map(() => uniqueEmail()),
  timezone: async () => fc.constant('Europe/Berlin'),
  customerTz: async () => fc.constant('Europe/Berlin'),
  code: constant(async (fx) => (await fx.device()).code),
  password: async () => fc.constantFrom('a long enough password', 'short'),
};

/** Per operation, fields whose value a generic name cannot tell. */
const OPERATION_FIELDS: Record<string, Record<string, Resolver>> = {
  'auth.login': {
    email: async () => fc.constant('admin@example.test'),
    password: async () => fc.constantFrom('wrong password', 'correct horse battery staple'),
  },
};

/**
 * The bodies of the webhooks that read their body raw (no input schema to generate from), in the
 * shape their senders sign: the shop's order for the commerce bridge, the local provider's payment
 * event (naming the held payment most of the time) for the payment webhook.
 */
const SIGNED_BODIES: Record<string, Resolver> = {
  'payments.commerceOrder': async (fx) => {
    const eventId = await fx.event();
    return fc.record({
      id: fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.nat()),
      status: fc.constantFrom('paid', 'refunded', 'cancelled'),
      email: fc.constant(null).map(() => uniqueEmail('buyer')),
      name: fc.string({ minLength: 1, maxLength: 24, unit: 'grapheme' }),
      lines: fc.array(fc.record({ eventId: fc.constant(eventId), quantity: fc.integer({ min: 1, max: 3 }) }), { minLength: 1, maxLength: 2 }),
    });
  },
  'payments.webhook': async (fx) => {
    const paymentId = await fx.payment();
    return fc.record({
      type: fc.constantFrom('payment.succeeded', 'payment.failed', 'payment.refunded'),
      timestamp: fc.constant(null).map(() => new Date().toISOString()),
      data: fc.record({
        sessionId: fc.oneof(fc.constant(paymentId), fc.string({ minLength: 1, maxLength: 24 })),
        amountCents: fc.integer({ min: 0, max: 5000 }),
      }),
    });
  },
};

/** Signs a raw body as its sender would, with the secret the test server is configured with. */
function signerOf(key: string, fixture: TestServerFixture, edition: Edition): ((body: string) => Record<string, string>) | undefined {
  if (key === 'payments.commerceOrder' && edition.env.SVC_COMMERCE_SECRET) {
    const secret = edition.env.SVC_COMMERCE_SECRET;
    return (body) => ({ ...signStandardWebhook(secret, newEventId(), body) });
  }
  if (key === 'payments.webhook')
    return (body) => ({ ...signStandardWebhook(derivedWebhookSecret(fixture.server.server.ctx.secret, LOCAL_WEBHOOK_PURPOSE), newEventId(), body) });
  return undefined;
}

/** Operations that change or remove a user by id: never the signed-in administrator. */
const USER_BY_ID = ['auth.sendPasswordLink', 'auth.updateUser', 'auth.deleteUser'];

/** An input part: generated from its schema, with the fixtures' values for the fields that name rows (most of the time). */
async function partArbitrary(key: string, schema: ZodType | undefined, names: string[], fx: Fixtures, path = false): Promise<fc.Arbitrary<unknown>> {
  if (!schema) return fc.constant(undefined);
  const generated = arbitraryOf(schema);
  const overrides: Record<string, fc.Arbitrary<unknown>> = {};
  for (const name of names) {
    const resolve = (path ? PATH_ROWS[key] : undefined) ?? OPERATION_FIELDS[key]?.[name] ?? (path ? undefined : FIELD_VALUES[name]);
    if (resolve) overrides[name] = await resolve(fx);
  }
  if (key === 'attendees.signup' && !path) {
    // the sign-up form as the page posts it: a signed render time old enough, an empty honeypot
    const eventId = await fx.event();
    return fc.oneof(
      {
        weight: 4,
        arbitrary: fc
          .constant(null)
          .map(() => ({ email: uniqueEmail(), display_name: 'Ada Lovelace', quantity: 1, svc_ts: agedFormToken(fx.server(), eventId), svc_hp: '' })),
      },
      { weight: 1, arbitrary: generated },
    );
  }
  if (Object.keys(overrides).length === 0) return generated;
  return fc
    .tuple(generated, fc.record(overrides), fc.nat({ max: 4 }))
    .map(([value, fixed, dice]) => (dice === 0 || value === null || typeof value !== 'object' ? value : { ...value, ...fixed }));
}

// ---- the properties ---------------------------------------------------------------------------------

const mutationsArb = fc.oneof(
  { weight: 1, arbitrary: fc.constant([] as Mutation[]) },
  { weight: 6, arbitrary: fc.array(mutationArb, { minLength: 1, maxLength: 2 }) },
);

for (const edition of EDITIONS) {
  describe(`every REST operation refuses broken input cleanly (${edition.name} edition)`, () => {
    const fixture = useTestServer({ env: { SVC_JOBS: 'off', ...edition.env } });
    let fingerprintSql = '';
    let adminId = 0;
    beforeAll(async () => {
      fingerprintSql = await fingerprintQuery(fixture);
      adminId = (await fixture.admin.api.get('/auth/me')).body.id as number;
    });

    it('covers every operation with a REST binding, each excluded one with its reason', () => {
      const covered = OPERATIONS.filter((o) => !EXCLUDED[o.key]).length;
      expect(covered + Object.keys(EXCLUDED).length).toBe(OPERATIONS.length);
      for (const key of Object.keys(EXCLUDED)) expect(OPERATIONS.map((o) => o.key)).toContain(key);
    });

    for (const { key, op } of OPERATIONS) {
      if (EXCLUDED[key]) continue;
      const rest = op.rest!;
      it(`${key}: ${rest.method.toUpperCase()} ${rest.path} — never 5xx, errors in the SPEC §3 shape, nothing stored on a 4xx`, async () => {
        const fx = new Fixtures(fixture, edition);
        const parts = restInputParts(op);
        const pathNames = pathParamsOf(rest.path);
        const shapeKeys = (schema: ZodType | undefined) => (schema instanceof z.ZodObject ? Object.keys(schema.shape) : []);
        const [params, query, body] = [
          await partArbitrary(key, parts.params, pathNames, fx, true),
          await partArbitrary(key, parts.query, shapeKeys(parts.query), fx),
          // a webhook read raw has no body schema: its sender's shape instead
          parts.body === undefined && SIGNED_BODIES[key] ? await SIGNED_BODIES[key](fx) : await partArbitrary(key, parts.body, shapeKeys(parts.body), fx),
        ];
        const nonce = op.screen ? await fetchNonce(fixture.server.url) : undefined;
        // signing out ends the session it is sent with: that operation gets a session of its own
        let session: Session =
          key === 'auth.logout' ? await loginAs(fixture.server.url, fixture.server.admin.email, fixture.server.admin.password) : fixture.admin;
        const allowed = [...CHANGE_ON_REFUSAL, ...(OPERATION_WRITES_ON_REFUSAL[key] ?? [])];
        let baseline: Map<string, string> | null = null;
        /** The last run ended with a refusal that stored nothing: `baseline` is still the database's state. */
        let settled = false;

        const callArb = fc.record({
          params,
          query,
          body,
          mutations: mutationsArb,
          anonymous: op.access === 'public' ? fc.boolean() : fc.constant(false),
          // mostly signed: a body refused at the signature tells nothing about what comes after it
          signed: fc.nat({ max: 4 }).map((dice) => dice > 0),
        });
        const sign = signerOf(key, fixture, edition);
        await fc.assert(
          fc.asyncProperty(callArb, async (generated) => {
            const call: Call = {
              params: (generated.params ?? {}) as Record<string, unknown>,
              query: generated.query,
              body: generated.body,
              rawPath: new Map(),
              rawQuery: [],
              rawBody: null,
              nonce,
              anonymous: generated.anonymous,
              signed: generated.signed,
            };
            for (const m of generated.mutations) applyMutation(call, m, pathNames);
            if (USER_BY_ID.includes(key) && pathText(call.params.id) === String(adminId)) call.params.id = await fx.user();
            await resetThrottles(fixture.server);
            // the state right before this request: a failed run (or one that succeeded) may have changed it
            baseline = settled ? baseline : null;
            settled = false;
            baseline ??= await fingerprint(fixture, fingerprintSql);
            const answer = await send(fixture.server.url, op, call, call.anonymous ? null : session, sign);
            const where = `${answer.request} → ${answer.status} ${answer.text.slice(0, 300)}`;
            expect(answer.status, `no 5xx: ${where}`).toBeLessThan(500);
            if (answer.status >= 300) assertErrorShape(answer);
            if (answer.status >= 400) {
              const after = await fingerprint(fixture, fingerprintSql);
              const changed = [...after].filter(([table, f]) => baseline!.get(table) !== f && !allowed.includes(table)).map(([table]) => table);
              expect(changed, `nothing stored on a refusal: ${where}`).toEqual([]);
              settled = true;
            } else if (key === 'auth.logout') session = await loginAs(fixture.server.url, fixture.server.admin.email, fixture.server.admin.password);
          }),
          { numRuns: edition.runs, seed: SEED, verbose: 1, interruptAfterTimeLimit: SHRINK_LIMIT_MS },
        );
        // the administrator is still signed in: no run locked the next operation out
        expect((await fixture.admin.api.get('/auth/me')).status).toBe(200);
      }, 180_000);
    }
  });
}
