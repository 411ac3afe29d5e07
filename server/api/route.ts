import { assertCleanText } from '../../shared/validation';
import type { Context } from 'hono';
import { z, type ZodType } from 'zod';
import { AppError } from '../../shared/errors';
import { authorize, type Access, type Principal } from '../auth/principal';
import type { AppContext } from '../context';
import { assertNotCrossSite, assertSameOrigin, clientIp, resolvePrincipal } from '../http';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteInput<P, Q, B, Pre> {
  params: P;
  query: Q;
  body: B;
  /** The caller after the access check; non-null on every route that is not public. */
  principal: Principal | null;
  /** REMOTE_ADDR after IP validation, or '' (X-Forwarded-For is ignored). */
  ip: string;
  /** Whatever the route's `before` step returned. */
  pre: Pre;
  c: Context;
  ctx: AppContext;
}

export type RouteResult = Response | { status?: number; body?: unknown; headers?: Record<string, string> };

/** One documented answer of a route. */
/** A request header an operation reads, as the OpenAPI document declares it. */
export interface RequestHeaderDoc {
  name: string;
  required: boolean;
  description: string;
}

/** The public forms' nonce (docs/api.md#errors): checked before anything else, even validation. */
export const NONCE_HEADER: RequestHeaderDoc = {
  name: 'X-Svc-Nonce',
  required: true,
  description: 'The nonce from GET /nonce; missing, forged or expired answers 403 svc_invalid_nonce',
};

export interface RouteResponse {
  description: string;
  /** The JSON body (for a list: the item, answered as a bare array with X-Total-Count). */
  schema?: ZodType;
  list?: boolean;
  /** An error answer: the error body (`{code, message, data}`). */
  error?: boolean;
  /** Media types of a body the handler streams itself. */
  produces?: string[];
}

export interface RouteDef<P = unknown, Q = unknown, B = unknown, Pre = undefined> {
  method: HttpMethod;
  /** Hono-style path under /svc/v1, e.g. `/events/:id`. */
  path: string;
  summary: string;
  tags: string[];
  access: Access;
  params?: ZodType<P>;
  query?: ZodType<Q>;
  body?: ZodType<B>;
  /** `form` also accepts application/x-www-form-urlencoded and multipart bodies. */
  bodyFormat?: 'json' | 'json-or-form';
  /** The handler reads the body raw (signed webhooks): its description, for the document. */
  rawBody?: string;
  /** The raw body's media types (default application/json). */
  rawBodyTypes?: string[];
  /** Request headers it reads, for the document. */
  requestHeaders?: RequestHeaderDoc[];
  /** The body's documented shape when `body` takes it loosely. */
  documentedBody?: ZodType;
  /** Runs after the access check and before input validation (nonce checks, throttles). */
  before?: (input: { c: Context; ctx: AppContext; principal: Principal | null; ip: string; raw: () => Promise<unknown> }) => Promise<Pre>;
  /** Documented answers, for the OpenAPI document. */
  responses: Record<number, RouteResponse>;
  handler: (input: RouteInput<P, Q, B, Pre>) => Promise<RouteResult>;
}

// The registry is typed loosely so routes of every shape fit in one list.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a registry holds declarations of every shape
export type AnyRouteDef = RouteDef<any, any, any, any>;

/** Declares a REST route; inference keeps params/query/body typed from the schemas. */
export function defineRoute<P = Record<string, never>, Q = Record<string, never>, B = undefined, Pre = undefined>(
  def: RouteDef<P, Q, B, Pre>,
): RouteDef<P, Q, B, Pre> {
  return def;
}

/** Maps zod issues to `data.params` (field → message), docs/api.md#errors's svc_invalid_param. */
export function invalidParams(error: z.ZodError, prefix?: string): AppError {
  const params: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || (prefix ?? 'body');
    params[key] ??= issue.message;
  }
  const names = Object.keys(params);
  return new AppError('svc_invalid_param', `Invalid parameter(s): ${names.join(', ')}`, { status: 400, params });
}

export function parseWith<T>(schema: ZodType<T> | undefined, value: unknown, prefix?: string): T {
  if (!schema) return undefined as T;
  assertCleanText(value);
  const result = schema.safeParse(value);
  if (!result.success) throw invalidParams(result.error, prefix);
  return result.data;
}

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/;

async function readBody(c: Context, format: 'json' | 'json-or-form'): Promise<unknown> {
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  if (format === 'json-or-form' && (type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data'))) {
    const form = await c.req.parseBody({ all: true }).catch(() => {
      throw new AppError('svc_invalid_json', 'The form body could not be read.');
    });
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(form)) {
      if (value instanceof File || (Array.isArray(value) && value.some((v) => v instanceof File))) continue;
      out[key.endsWith('[]') ? key.slice(0, -2) : key] = value;
    }
    return out;
  }
  const text = await c.req.text();
  if (text.trim() === '') return {};
  // JSON only when sent as JSON: a cross-site form can post text/plain, never application/json
  if (!JSON_TYPE.test(type)) throw new AppError('svc_unsupported_media_type');
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('svc_invalid_json', 'The request body is not valid JSON.');
  }
}

/** Runs one declared route: access → before → validation → handler → response. */
export async function runRoute(def: AnyRouteDef, c: Context, ctx: AppContext): Promise<Response> {
  // On public routes a credential that cannot be checked (database down) counts as none:
  // the route itself then answers for the database (health says 503).
  const caller = def.access === 'public' ? await resolvePrincipal(c, ctx).catch(() => null) : await resolvePrincipal(c, ctx);
  const principal = authorize(caller, def.access);
  if (principal?.via === 'session' && def.method !== 'get') assertSameOrigin(c, ctx);
  else if (def.method !== 'get' && principal?.via !== 'token' && def.bodyFormat !== 'json-or-form') assertNotCrossSite(c, ctx);
  const ip = clientIp(c);
  // The raw input (path, query and body fields as sent) for checks that run before validation;
  // an unreadable body counts as empty here and is answered by validation below.
  // Its text is checked as validation checks it: a screen keys throttles and nonces on it.
  const raw = async () => {
    const fields = {
      ...c.req.query(),
      ...((def.body ? await readBody(c, def.bodyFormat ?? 'json').catch(() => ({})) : {}) as object),
      ...c.req.param(),
    };
    assertCleanText(fields);
    return fields;
  };
  const pre = def.before ? await def.before({ c, ctx, principal, ip, raw }) : undefined;
  const params = parseWith(def.params, c.req.param(), undefined);
  const query = parseWith(def.query, c.req.query(), undefined);
  const body = def.body ? parseWith(def.body, await readBody(c, def.bodyFormat ?? 'json'), undefined) : undefined;
  const result = await def.handler({ params, query, body, principal, ip, pre, c, ctx });
  if (result instanceof Response) return result;
  // Through c.body so headers the handler set on the context (Set-Cookie) are kept.
  const status = (result.status ?? 200) as 200;
  const headers: Record<string, string> = { ...result.headers };
  if (status === (204 as number) || result.body === undefined) return c.body(null, status, headers);
  headers['content-type'] = 'application/json; charset=utf-8';
  const text = JSON.stringify(result.body);
  // The length lets the compression step leave small answers alone.
  headers['content-length'] = String(Buffer.byteLength(text));
  return c.body(text, status, headers);
}

export const ZPagination = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  perPage: z.coerce.number().int().min(1).max(500).default(50),
});

/** A list answer: a bare array with X-Total-Count (docs/api.md#rest). */
export function listResult(items: unknown[], total: number): RouteResult {
  return { status: 200, body: items, headers: { 'X-Total-Count': String(total) } };
}
