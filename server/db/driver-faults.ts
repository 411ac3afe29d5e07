/**
 * postgres.js 3.4.9 (the newest release) can fail outside any query when PostgreSQL drops a
 * connection — a restart, a failover, `pg_terminate_backend`: the array-type lookup it runs on
 * a fresh connection rejects with nobody awaiting it, and a write it queued for a socket that
 * has since closed throws from a timer (upstream issues 1154, 1192, 1205, 1208; fixes not
 * released). Either ends a Node process by default, although the pool reconnects by itself and
 * every query of ours gets its own error. The entry point survives exactly these two, logged;
 * anything else still ends the process (docs/decisions/018-driver-connection-loss.md).
 */
import type { Logger } from 'pino';
import { AppError } from '../../shared/errors';

/** SQLSTATEs of a connection PostgreSQL shut (admin or crash shutdown, cannot connect now). */
const SHUT_BY_SERVER = new Set(['57P01', '57P02', '57P03']);
/** The driver's and the socket's codes for a connection that went away. */
const CONNECTION_GONE = new Set(['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT']);

const DRIVER_FRAME = /[\\/]postgres[\\/]src[\\/]connection\.js/;

/** A stack with no frame of ours or of any package: a socket's own error event. */
function onlyNodeFrames(stack: string): boolean {
  return stack
    .split('\n')
    .slice(1)
    .every((line) => !/^\s*at /.test(line) || /\(node:|at node:/.test(line));
}

/** Whether `err` is one of the driver's out-of-band failures on a lost connection. */
export function isDriverConnectionLoss(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const stack = err.stack ?? '';
  // A queued write on a socket already closed: `socket.write` of null, thrown in nextWrite.
  if (err instanceof TypeError) return DRIVER_FRAME.test(stack) && /reading 'write'/.test(err.message) && /nextWrite/.test(stack);
  const { code, query } = err as Error & { code?: unknown; query?: unknown };
  if (typeof code !== 'string') return false;
  // The array-type lookup after (re)connecting, refused because PostgreSQL shut the connection.
  if (SHUT_BY_SERVER.has(code)) return DRIVER_FRAME.test(stack) && typeof query === 'string' && query.includes('pg_catalog.pg_type');
  // The same lookup, or a connection being opened, failed by the socket or the driver closing: no query of ours is in it.
  const ours = typeof query === 'string' && !query.includes('pg_catalog.pg_type');
  return CONNECTION_GONE.has(code) && (DRIVER_FRAME.test(stack) || onlyNodeFrames(stack)) && !ours;
}

/** SQLSTATEs and driver codes of a database that cannot be reached right now (class 08, shut down, connect timeout). */
const UNREACHABLE = new Set([...SHUT_BY_SERVER, ...CONNECTION_GONE, 'CONNECT_TIMEOUT', '08000', '08001', '08003', '08004', '08006']);

/**
 * Whether a request failed because the database went away under it (a restart, a failover, a
 * terminated connection), looking through wrappers' `cause`s: such a request answers 503
 * `svc_unavailable` with Retry-After, so clients retry instead of reporting a defect (docs/api.md#errors).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && UNREACHABLE.has(code)) return true;
  }
  return false;
}

/** The first code in the `cause` chain, for logs (never the message: it may quote SQL). */
export function databaseErrorCode(err: unknown): string | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** Seconds a client waits before retrying a request the database's absence refused (the pool reconnects within a second). */
export const UNAVAILABLE_RETRY_AFTER_S = 2;

/** The one answer for a request the database's absence refused. */
export function databaseUnavailable(): AppError {
  return new AppError('svc_unavailable', undefined, { retryAfter: UNAVAILABLE_RETRY_AFTER_S });
}

/**
 * Process handlers for the entry point: the driver's lost-connection failures are logged and
 * survived; any other uncaught error or unhandled rejection is logged and ends the process
 * with code 1, as Node would.
 */
export function surviveDriverConnectionLoss(logger: Logger, exit: (code: number) => void = (code) => process.exit(code)): void {
  const handle = (kind: string) => (err: unknown) => {
    if (isDriverConnectionLoss(err)) {
      logger.warn({ code: (err as { code?: unknown }).code, kind }, 'database connection lost outside a query; the pool reconnects');
      return;
    }
    logger.fatal({ err, kind }, 'uncaught failure; stopping');
    logger.flush(() => exit(1));
  };
  process.on('uncaughtException', handle('uncaught exception'));
  process.on('unhandledRejection', handle('unhandled rejection'));
}
