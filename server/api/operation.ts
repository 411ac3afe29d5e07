/**
 * One declaration per operation (docs/decisions/013-operations.md): its input and output
 * schemas, who may call it, the service call and — when it is part of the REST API — its REST
 * binding. The tRPC procedure (`trpc.ts`), the REST route (`rest.ts`) and the OpenAPI entry
 * (`openapi.ts`) are all derived from it; nothing about an operation is written twice.
 */
import '../../shared/validation';
import type { Context } from 'hono';
import { z, type ZodObject, type ZodType } from 'zod';
import type { Access, Principal } from '../auth/principal';
import type { AppContext } from '../context';
import type { RequestHeaderDoc } from './route';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type OperationKind = 'query' | 'mutation';

/** What a handler may say about the HTTP answer beyond its value (REST only; tRPC answers 200). */
export interface Reply {
  /** A success status other than the binding's (check-in: 200 for a replayed clientId). */
  status(code: number): void;
}

/** The caller after the access check: never null unless the operation is public. */
export type PrincipalFor<A extends Access> = A extends 'public' ? Principal | null : Principal;

export interface OperationCall<A extends Access, I> {
  input: I;
  principal: PrincipalFor<A>;
  /** REMOTE_ADDR after IP validation, or '' (X-Forwarded-For is ignored). */
  ip: string;
  ctx: AppContext;
  /** The HTTP request under either transport: headers, cookies. */
  c: Context;
  reply: Reply;
}

export interface ScreenCall<A extends Access> extends Omit<OperationCall<A, never>, 'input' | 'reply'> {
  /** The input as sent, before validation. */
  raw: unknown;
}

export interface RestBinding {
  method: HttpMethod;
  /** Hono-style path under /svc/v1, e.g. `/events/:id`; its parameters are fields of the input. */
  path: string;
  tags: string[];
  /** The success status (default 200; 204 for an operation without output). */
  status?: number;
  /** Output `{items, total}` answers as a bare array with X-Total-Count. */
  list?: boolean;
  /** `json-or-form` also accepts application/x-www-form-urlencoded and multipart bodies. */
  bodyFormat?: 'json' | 'json-or-form';
  /** The body is this one field of the input (a patch beside the path's id) instead of the remaining fields. */
  bodyKey?: string;
  /** Fixed response headers (cache-control). */
  headers?: Record<string, string>;
  /** Error statuses this operation answers, with when (documented with the error schema). */
  errors?: Record<number, string>;
  /** Other successful answers, documented beside the main one (check-in's 200 replay). */
  alsoAnswers?: Record<number, string>;
  /** A handler that returns its own Response (a streamed file): its media types, for the document. */
  produces?: string[];
  /** A description of the success answer; defaults to the summary. */
  describe?: string;
  /**
   * The handler reads the body itself, byte for byte (a signature covers its exact bytes, so
   * nothing parses it first): what the body is, for the document.
   */
  rawBody?: string;
  /** The raw body's media types, for the document (default application/json). */
  rawBodyTypes?: string[];
  /** Request headers the operation reads (the public forms' X-Svc-Nonce), for the document. */
  requestHeaders?: RequestHeaderDoc[];
  /**
   * The body as the document shows it, when the operation takes it loosely and validates it
   * itself (the sign-up: the contract's spam checks come before validation).
   */
  documentedBody?: ZodType;
}

type InputSchema = ZodType | undefined;
type InputOf<S extends InputSchema> = S extends ZodType ? z.output<S> : undefined;
/** What the handler returns: the output schema's shape, or nothing (or a raw Response, REST only). */
export type ResultOf<O extends InputSchema> = O extends ZodType ? z.input<O> : void | Response;

export interface Operation<
  A extends Access = Access,
  S extends InputSchema = InputSchema,
  O extends InputSchema = InputSchema,
  K extends OperationKind = OperationKind,
  T extends boolean = boolean,
> {
  /** One line for the OpenAPI document and the reader. */
  summary: string;
  access: A;
  kind: K;
  input?: S;
  output?: O;
  /**
   * Runs after the access check and before input validation, with the raw input: the contract
   * puts the nonce, the client-IP filter, throttles and the bot check before validation.
   */
  screen?: (call: ScreenCall<A>) => Promise<unknown>;
  rest?: RestBinding;
  /** false: REST only (a streamed download the PWA opens as a link). */
  trpc?: T;
  handler: (call: OperationCall<A, InputOf<S>>) => Promise<ResultOf<O>>;
}

// The registry is typed loosely so operations of every shape fit in one record.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a registry holds declarations of every shape
export type AnyOperation = Operation<any, any, any, any, any>;
export type OperationRecord = Record<string, AnyOperation>;

/** Declares an operation; inference keeps the handler's input, principal and result typed. */
export function defineOperation<
  const A extends Access,
  S extends InputSchema = undefined,
  O extends InputSchema = undefined,
  K extends OperationKind = OperationKind,
  T extends boolean = true,
>(op: Operation<A, S, O, K, T>): Operation<A, S, O, K, T> {
  return op;
}

/** A list operation's output: one page of items and the total (REST: bare array + X-Total-Count). */
export function ZListOf<T extends ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int() });
}

export const ZId = z.coerce.number({ message: 'must be an integer id' }).int('must be an integer id').positive('must be a positive id').max(2_147_483_647);
export const ZIdParams = z.object({ id: ZId });
export const ZPagination = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  perPage: z.coerce.number().int().min(1).max(500).default(50),
});

/** The path parameters of a Hono-style path, in order. */
export function pathParamsOf(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z_]\w*)/g)].map((m) => m[1]!);
}

/** The parts of an operation's input that travel in the path, the query string and the body. */
export interface RestInputParts {
  params?: ZodType;
  query?: ZodType;
  body?: ZodType;
}

function objectOf(schema: ZodType | undefined): ZodObject | null {
  return schema instanceof z.ZodObject ? schema : null;
}

/**
 * Splits the input schema along the REST binding: path parameters by name, then the rest into
 * the query (GET, DELETE) or the body (the other methods), or `bodyKey`'s field as the body.
 */
export function restInputParts(op: AnyOperation): RestInputParts {
  const rest = op.rest!;
  const input = op.input as ZodType | undefined;
  if (!input) return {};
  const object = objectOf(input);
  const names = pathParamsOf(rest.path);
  const bodyMethod = rest.method !== 'get' && rest.method !== 'delete';
  if (!names.length && !rest.bodyKey) return bodyMethod ? { body: input } : { query: input };
  if (!object) throw new Error(`operation ${rest.method} ${rest.path}: an input with path parameters must be a z.object`);
  const shape = object.shape as Record<string, ZodType>;
  for (const name of names) if (!shape[name]) throw new Error(`operation ${rest.method} ${rest.path}: the input has no field '${name}'`);
  const pick = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, true])) as Record<string, true>;
  const params = names.length ? object.pick(pick(names)) : undefined;
  const others = Object.keys(shape).filter((k) => !names.includes(k) && k !== rest.bodyKey);
  const remaining = others.length ? object.pick(pick(others)) : undefined;
  if (rest.bodyKey) return { params, query: remaining, body: shape[rest.bodyKey] };
  return bodyMethod ? { params, body: remaining } : { params, query: remaining };
}
