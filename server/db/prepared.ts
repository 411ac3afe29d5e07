import type { ReservedSql, Sql } from 'postgres';
import { isDatabaseUnavailable } from './driver-faults';

/**
 * A statement with more parameters than this runs unprepared: such a statement spells a list
 * out in its SQL (`in ($1, …, $n)`, a multi-row VALUES), so its text changes with the list's
 * length and a prepared copy would rarely be used again. The batch statements pass a list as one
 * JSON parameter instead.
 */
export const MAX_PREPARED_PARAMETERS = 64;

type Callback = (sql: Sql) => unknown;

/** postgres.js's `unsafe`, answering named prepared statements for up to MAX_PREPARED_PARAMETERS parameters, their rows without holes. */
function preparedUnsafe(target: Sql) {
  return (text: string, params?: unknown, options?: Record<string, unknown>) => {
    // unsafe(text, options) is postgres.js's two-argument form
    const list = Array.isArray(params) ? params : [];
    const given = Array.isArray(params) ? (options ?? {}) : ((params as Record<string, unknown> | undefined) ?? {});
    return withoutHoles(target.unsafe(text, list as never, { ...given, prepare: list.length <= MAX_PREPARED_PARAMETERS }));
  };
}

type PendingQuery = ReturnType<Sql['unsafe']>;

/**
 * The pending query, answering its rows through `closeRowHoles`. Still lazy (postgres.js sends a
 * query on its first `then`), so drizzle's `.values()` before awaiting keeps working.
 */
function withoutHoles(query: PendingQuery): PendingQuery {
  const settled = () => query.then(closeRowHoles);
  const wrapped: PendingQuery = new Proxy(query, {
    get(target, key) {
      if (key === 'then') return (ok?: (v: unknown) => unknown, failed?: (e: unknown) => unknown) => settled().then(ok, failed);
      if (key === 'catch') return (failed?: (e: unknown) => unknown) => settled().catch(failed);
      if (key === 'finally') return (done?: () => void) => settled().finally(done);
      if (key === 'values' || key === 'raw') {
        return () => {
          target[key]();
          return wrapped;
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return wrapped;
}

/**
 * A statement's rows moved to the front when they came after holes. postgres.js 3.4.9 resets the
 * connection's row counter only when a statement completes, so after one that failed while its
 * rows were arriving — a connection terminated mid-answer (57P01, a reset), or an error in a later
 * row — the next statement on that connection resolves with as many leading holes as the failed
 * one had received rows, then all of its own (upstream issues 1119, 1181; fixes unreleased). No
 * error is thrown: a look-up read a hole as "not found", a `new Map` over the rows threw a
 * TypeError (a 500). The rows after the holes are complete (the statement completed), so they
 * are moved up in place, keeping the result's command and count. docs/decisions/018-driver-connection-loss.md.
 */
export function closeRowHoles<T>(rows: T): T {
  if (!Array.isArray(rows) || rows.length === 0 || 0 in rows) return rows;
  let to = 0;
  for (let from = 0; from < rows.length; from++) if (from in rows) rows[to++] = rows[from] as unknown;
  rows.length = to;
  return rows;
}

/**
 * The pool as drizzle should use it: every statement with parameters (up to
 * MAX_PREPARED_PARAMETERS) runs as a named prepared statement, kept per connection, and a
 * transaction runs on a connection reserved before its BEGIN is sent (`transactionOnReserved`).
 *
 * drizzle calls postgres.js's `unsafe(text, params, { prepare: false })` for every query, and an
 * unprepared statement with parameters costs postgres.js two round trips (Parse + Describe, wait
 * for the parameter types, then Bind + Execute) and stops the connection's pipeline while it
 * waits. Prepared, the second use on a connection is one round trip (Bind + Execute), and
 * statements sent together go out together. Transactions and savepoints get the same client.
 * Connections are recycled after 30–60 minutes (postgres.js's default lifetime), which bounds the
 * statements each backend keeps. docs/decisions/022-prepared-statements.md.
 */
export function preparing(client: Sql, closes: ConnectionCloses = new Set()): Sql {
  return new Proxy(client, {
    get(target, key, receiver) {
      if (key === 'unsafe') return preparedUnsafe(target);
      if (key === 'begin') {
        return (...args: unknown[]) => {
          const fn = args.pop() as Callback;
          return transactionOnReserved(target, typeof args[0] === 'string' ? args[0] : '', fn, closes);
        };
      }
      return Reflect.get(target, key, receiver);
    },
  });
}

/**
 * A transaction on a connection taken out of the pool (`sql.reserve()`) before BEGIN is sent,
 * in place of postgres.js's `sql.begin`. postgres.js 3.4.9 marks a connection as its
 * transaction's only after BEGIN is written, and skips that step when the BEGIN is the statement
 * that fills the connection's pipeline (100 statements sent and unanswered) or meets a full
 * socket buffer: the BEGIN then fails with UNSAFE_TRANSACTION and, worse, the connection goes back
 * to the pool inside an open transaction (upstream issues 823, 1189, 1210; fixes unreleased). A
 * rush of 200 clients met it in 4 rushes of 7. A reserved connection is never the pool's while it
 * is ours, whatever its pipeline holds. docs/decisions/022-prepared-statements.md.
 */
export async function transactionOnReserved(pool: Sql, options: string, fn: Callback, closes: ConnectionCloses = new Set()): Promise<unknown> {
  const connection = await reserveConnection(pool, closes);
  // After a lost connection the pool has already taken it back (and may be opening it again for
  // another query): giving it back a second time, or sending a ROLLBACK on it, would reach that
  // new session. PostgreSQL rolled the transaction back when the connection went.
  let lost = false;
  const noteLoss = (err: unknown) => {
    if (isDatabaseUnavailable(err)) lost = true;
  };
  try {
    await connection.unsafe(`begin ${options.replace(/[^a-z ]/gi, '')}`);
    let result: unknown;
    try {
      result = await fn(scoped(connection, { next: 0 }));
    } catch (err) {
      noteLoss(err);
      if (!lost) await connection.unsafe('rollback').catch(noteLoss);
      throw err;
    }
    const committed = await connection.unsafe('commit');
    // A statement of the transaction failed and nothing awaited its error (PostgreSQL then answers
    // COMMIT with ROLLBACK): nothing was stored, and the caller must not think otherwise.
    if (committed.command === 'ROLLBACK') throw new Error('The transaction was rolled back: one of its statements failed.');
    return result;
  } catch (err) {
    noteLoss(err);
    throw err;
  } finally {
    if (!lost) connection.release();
  }
}

/**
 * Called on every connection the pool loses (postgres.js's `onclose` option calls each one):
 * `openDatabase` passes the set it calls to `preparing`.
 */
export type ConnectionCloses = Set<() => void>;

/**
 * `pool.reserve()`, asked again after each lost connection until one answers (the others give
 * their connection straight back). postgres.js 3.4.9 hands a lost connection the request at the
 * head of its queue to reconnect for; when that request is a reservation, the connection drops
 * it after fetching its types, and the reservation never resolves: the transaction would wait
 * forever. The extra ask goes out a tick later, once the pool has finished taking the lost
 * connection back (asked inside `onclose`, it would open that connection twice).
 */
function reserveConnection(pool: Sql, closes: ConnectionCloses): Promise<ReservedSql> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const ask = () => {
      pool.reserve().then(
        (connection) => {
          if (settled) return connection.release();
          settled = true;
          closes.delete(askAgain);
          resolve(connection);
        },
        (err: unknown) => {
          // the pool is ending (a lost ask never settles, so none is waited for)
          if (settled) return;
          settled = true;
          closes.delete(askAgain);
          reject(err as Error);
        },
      );
    };
    const askAgain = () => void setImmediate(() => settled || ask());
    closes.add(askAgain);
    ask();
  });
}

/** The client a transaction's callback gets: prepared statements, and savepoints on the same connection. */
function scoped(connection: ReservedSql, savepoints: { next: number }): Sql {
  return new Proxy(connection, {
    get(target, key, receiver) {
      if (key === 'unsafe') return preparedUnsafe(target);
      if (key === 'savepoint') {
        return async (...args: unknown[]) => {
          const fn = args.pop() as Callback;
          const name = `s${savepoints.next++}`;
          await target.unsafe(`savepoint ${name}`);
          try {
            return await fn(scoped(target, savepoints));
          } catch (err) {
            if (!isDatabaseUnavailable(err)) await target.unsafe(`rollback to ${name}`);
            throw err;
          }
        };
      }
      if (key === 'begin' || key === 'release' || key === 'reserve') {
        return () => {
          throw new Error(`${String(key)} is not available inside a transaction`);
        };
      }
      return Reflect.get(target, key, receiver);
    },
  }) as unknown as Sql;
}
