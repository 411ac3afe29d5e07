import pino, { type Logger } from 'pino';

export type { Logger };

// Secrets travel in paths (cancel/manage tokens, 64 chars) and query strings (formToken);
// any long opaque segment is treated as a secret so a new route can't leak one by accident.
const SECRET_SEGMENT = /[A-Za-z0-9_-]{24,}/g;

/** A path safe to log: long opaque segments and the whole query string are masked. */
export function redactPath(pathWithQuery: string): string {
  const [pathOnly, query] = pathWithQuery.split('?', 2);
  const masked = (pathOnly ?? '').replace(SECRET_SEGMENT, ':redacted');
  return query === undefined ? masked : `${masked}?:redacted`;
}

/**
 * Keys under which database errors carry a query's bound values (drizzle's `params`, PGlite's
 * `params`, postgres.js's `parameters`/`args` in debug mode). A value is a row being written:
 * password hashes, cancel tokens, ticket codes. They are never logged, at any depth of `cause`.
 */
const QUERY_VALUE_KEYS = new Set(['params', 'parameters', 'args', 'values']);

/** drizzle puts the values in the message too (`Failed query: …\nparams: a,b`), and so in the stack. */
export function withoutParams(text: string): string {
  const at = text.indexOf('\nparams: ');
  if (at === -1) return text;
  const frames = text.indexOf('\n    at ', at);
  return `${text.slice(0, at)}\nparams: [redacted]${frames === -1 ? '' : text.slice(frames)}`;
}

/**
 * PostgreSQL quotes the value it refused at the end of its message (`invalid input syntax for
 * type integer: "…"`, `invalid input value for enum …: "…"`); the serializer writes a cause's
 * message into the stack (`caused by: PostgresError: …`). Names it quotes elsewhere (a
 * constraint, a relation) stay: they say what failed, not with what.
 */
const REFUSED_VALUE = /^(\S[^\n]*?): "[^\n]*"$/gm;
export const withoutRefusedValues = (text: string) => text.replace(REFUSED_VALUE, '$1: "[redacted]"');

function scrubError(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  if (Array.isArray(value)) return value.map((v) => scrubError(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (QUERY_VALUE_KEYS.has(key)) continue;
    out[key] =
      typeof v === 'string' && (key === 'message' || key === 'stack')
        ? withoutRefusedValues(withoutParams(v))
        : typeof v === 'object'
          ? scrubError(v, depth + 1)
          : v;
  }
  return out;
}

/** The one error serializer: pino's, without a failed query's values. */
export function serializeError(err: unknown): unknown {
  return scrubError(pino.stdSerializers.err(err as Error));
}

/** Secret fields, wherever a log entry carries a row or a payload (one level down or two). */
const SECRET_FIELDS = [
  'authorization',
  'cookie',
  'password',
  'passwordHash',
  'password_hash',
  'token',
  'tokenHash',
  'token_hash',
  'sessionToken',
  'cancel_token',
  'cancelToken',
  'ticketCode',
  'ticket_code',
  'ticketCodeHash',
  'ticket_code_hash',
  'codeHash',
  'pairingCode',
  'pairing_code_hash',
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      serializers: { err: serializeError },
      redact: { paths: SECRET_FIELDS.flatMap((f) => [`*.${f}`, `*.*.${f}`]), censor: '[redacted]' },
    },
    destination,
  );
}
