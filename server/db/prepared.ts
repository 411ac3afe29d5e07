import type { Sql } from 'postgres';

/**
 * A statement with more parameters than this runs unprepared: such a statement spells a list
 * out in its SQL (`in ($1, …, $n)`, a multi-row VALUES), so its text changes with the list's
 * length and a prepared copy would rarely be used again. The batch statements pass a list as one
 * JSON parameter instead.
 */
export const MAX_PREPARED_PARAMETERS = 64;

type Callback = (sql: Sql) => unknown;

/**
 * The pool as drizzle should use it: every statement with parameters (up to
 * MAX_PREPARED_PARAMETERS) runs as a named prepared statement, kept per connection.
 *
 * drizzle calls postgres.js's `unsafe(text, params, { prepare: false })` for every query, and an
 * unprepared statement with parameters costs postgres.js two round trips (Parse + Describe, wait
 * for the parameter types, then Bind + Execute) and stops the connection's pipeline while it
 * waits. Prepared, the second use on a connection is one round trip (Bind + Execute), and
 * statements sent together go out together. Transactions and savepoints get the same client.
 * Connections are recycled after 30–60 minutes (postgres.js's default lifetime), which bounds the
 * statements each backend keeps. docs/decisions/022-prepared-statements.md.
 */
export function preparing(client: Sql): Sql {
  return new Proxy(client, {
    get(target, key, receiver) {
      if (key === 'unsafe') {
        return (text: string, params?: unknown, options?: Record<string, unknown>) => {
          // unsafe(text, options) is postgres.js's two-argument form
          const list = Array.isArray(params) ? params : [];
          const given = Array.isArray(params) ? (options ?? {}) : ((params as Record<string, unknown> | undefined) ?? {});
          return target.unsafe(text, list as never, { ...given, prepare: list.length <= MAX_PREPARED_PARAMETERS });
        };
      }
      if (key === 'begin' || key === 'savepoint') {
        return (...args: unknown[]) => {
          const fn = args.pop() as Callback;
          const open = Reflect.get(target, key, receiver) as (...a: unknown[]) => Promise<unknown>;
          return open(...args, (sql: Sql) => fn(preparing(sql)));
        };
      }
      return Reflect.get(target, key, receiver);
    },
  });
}
