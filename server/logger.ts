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

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: {
        paths: ['*.authorization', '*.cookie', '*.password', '*.token', '*.cancel_token', '*.cancelToken', '*.ticketCode', '*.ticket_code'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
