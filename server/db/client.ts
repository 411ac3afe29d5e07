import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { preparing, type ConnectionCloses } from './prepared';
import * as schema from './schema';

export type Schema = typeof schema;
/** One type for both drivers; a transaction is a Db too. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Applies the migrations in drizzle/ under an advisory lock (two instances may start at once). */
  migrate(): Promise<void>;
  /** True when the database answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export const MIGRATIONS_FOLDER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');
// Any constant works; it only has to be the same for every instance of svc.
const MIGRATION_LOCK_KEY = 7_302_215_001;

/**
 * Seconds before the pool tries a lost connection again, after `retries` failed tries: 0.1, 0.2,
 * 0.4, 0.8, then every second. The driver's own default grows to 20 s (3^retries / 100), so after
 * a PostgreSQL restart of half a minute the server stayed away for up to 20 s more; with this it
 * is back within about a second of PostgreSQL (docs/decisions/018-driver-connection-loss.md).
 */
export function reconnectDelaySeconds(retries: number): number {
  return Math.min(0.1 * 2 ** retries, 1);
}

export async function openDatabase(opts: { url?: string; dataDir?: string; memory?: boolean }): Promise<Database> {
  return opts.url ? openPostgres(opts.url) : openPglite(opts);
}

async function openPostgres(url: string): Promise<Database> {
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const { migrate } = await import('drizzle-orm/postgres-js/migrator');
  // Transactions waiting for a connection ask again when the pool loses one (server/db/prepared.ts).
  const closes: ConnectionCloses = new Set();
  const client = postgres(url, {
    max: 10,
    onnotice: () => {},
    connection: { TimeZone: 'UTC' },
    backoff: reconnectDelaySeconds,
    onclose: () => closes.forEach((closed) => closed()),
  });
  const db = drizzle(preparing(client, closes), { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    async migrate() {
      // A session-level advisory lock needs one dedicated connection for the whole run.
      const single = postgres(url, { max: 1, onnotice: () => {}, connection: { TimeZone: 'UTC' } });
      try {
        await single`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
        await migrate(drizzle(single), { migrationsFolder: MIGRATIONS_FOLDER });
        await single`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`;
      } finally {
        await single.end();
      }
    },
    ping: () => pingDb(db),
    close: () => client.end({ timeout: 5 }),
  };
}

async function openPglite(opts: { dataDir?: string; memory?: boolean }): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { btree_gist } = await import('@electric-sql/pglite/contrib/btree_gist');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  let dataDir: string | undefined;
  if (!opts.memory) {
    dataDir = path.join(opts.dataDir ?? './data', 'pglite');
    mkdirSync(dataDir, { recursive: true });
  }
  const client = await PGlite.create({ dataDir, extensions: { btree_gist } });
  await client.exec(`set timezone to 'UTC'`);
  const db = drizzle(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    async migrate() {
      // PGlite is one connection in one process: nothing else can migrate it concurrently.
      await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
    },
    ping: () => pingDb(db),
    close: () => client.close(),
  };
}

async function pingDb(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

/**
 * A transaction whose last statements leave with its COMMIT. `decide` reads and decides (the
 * locks it takes are held while it runs); what it answers as `write` is started and the
 * transaction commits without waiting for those statements' answers: the connection sends them
 * and the COMMIT in one flight, so a hot lock is held for the database's work only, not for a
 * round trip to this server and back. `write` sends all its statements at once (it never waits
 * for one's answer before the next), and nothing may depend on their answers before the commit.
 * If one of its statements fails, PostgreSQL rolls the whole transaction back at the COMMIT and
 * the error is thrown here; nothing is stored. docs/decisions/022-prepared-statements.md.
 */
export async function transactionWithFinalWrite<D, W>(
  db: Db,
  decide: (tx: Db) => Promise<{ decision: D; write: (() => PromiseLike<W>) | null }>,
): Promise<{ decision: D; written: W | null }> {
  let pending: Promise<W> | null = null;
  const committed = db.transaction(async (tx) => {
    const decided = await decide(tx);
    if (decided.write) {
      const write = decided.write;
      // Started once (a drizzle query runs again on every then()), and a failure must not count as
      // unhandled before it is awaited below.
      pending = new Promise<W>((resolve, reject) => void write().then(resolve, reject));
      pending.catch(() => {});
      // Both drivers hand a statement over after a few promise steps, never after I/O: once the
      // steps queued now have run, the write's statements are queued on the transaction's
      // connection and the COMMIT goes behind them. postgres.js itself sends at this same point.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return decided.decision;
  });
  const decision = await committed.catch(async (err: unknown) => {
    // PGlite answers the COMMIT after a failed statement with an error of its own (PostgreSQL
    // with ROLLBACK): the final write's error is the cause worth throwing.
    if (pending) await pending;
    throw err;
  });
  return { decision, written: pending === null ? null : await (pending as Promise<W>) };
}

/**
 * A query built once: `build` answers drizzle's `.prepare()` of a query whose varying values are
 * `sql.placeholder`s, and later calls reuse its SQL text, so the hot reads of a rush do not rebuild
 * it on every request (drizzle's query building was the largest part of a sign-up's CPU). On
 * another handle (a transaction's, new each time) the same prepared query is used through that
 * handle's connection: a copy of it whose `client` is the handle's (both drivers' prepared
 * queries send through `this.client`; test/unit/built-once.test.ts holds them to it).
 * docs/decisions/022-prepared-statements.md.
 */
export function builtOnce<Q extends object>(build: (db: Db) => Q): (db: Db) => Q {
  let template: (Q & { client?: unknown }) | undefined;
  return (db) => {
    template ??= build(db) as Q & { client?: unknown };
    const client = (db._.session as unknown as { client: unknown }).client;
    if (template.client === client) return template;
    return Object.assign(Object.create(Object.getPrototypeOf(template) as object) as object, template, { client }) as Q;
  };
}

const statementDialect = new PgDialect();

/**
 * A raw statement built once, its varying values `sql.placeholder`s: `run(db, values)` sends the
 * same SQL text on any handle, a transaction's too (see `builtOnce`), and answers its rows.
 */
export function statementOnce<T = Record<string, unknown>>(build: () => SQL): { run(db: Db, values: Record<string, unknown>): Promise<T[]> } {
  let query: ReturnType<PgDialect['sqlToQuery']> | undefined;
  return {
    async run(db, values) {
      query ??= statementDialect.sqlToQuery(build());
      const result = (await db._.session.prepareQuery(query, undefined, undefined, false).execute(values)) as unknown;
      if (Array.isArray(result)) return result as T[];
      return ((result as { rows?: T[] }).rows ?? []) as T[];
    },
  };
}

/** Rows of a raw `db.execute()`, whichever driver answered (PGlite: {rows}, postgres.js: an array). */
export async function queryRows<T = Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** A list parameter as one bound JSON value (`id in ${jsonInts(ids)}`): one plan whatever the list's length. */
export const jsonInts = (values: number[]) => sql`(select value::int from jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;
export const jsonTexts = (values: string[]) => sql`(select value from jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;
/** A timestamp column as UTC `Y-m-d H:i:s` text. */
export const utcText = (column: SQL) => sql`to_char(${column}, 'YYYY-MM-DD HH24:MI:SS')`;
