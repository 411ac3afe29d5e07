import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { openDatabase, type Database } from '../../server/db/client';

/** Which database the integration tests of this vitest project run on. */
export const TEST_DB_KIND: 'pglite' | 'postgres' = process.env.SVC_TEST_DB === 'postgres' ? 'postgres' : 'pglite';

function pgUrl(): string {
  const url = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL or DATABASE_URL is required for PostgreSQL tests');
  return url;
}

/** A fresh, empty PostgreSQL database on the test server; dropped by the returned cleanup. */
export async function createScratchPostgres(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = new URL(pgUrl());
  const name = `svc_t_${randomBytes(6).toString('hex')}`;
  const admin = postgres(base.toString(), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const a = postgres(base.toString(), { max: 1, onnotice: () => {} });
      try {
        await a.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await a.end();
      }
    },
  };
}

/** A migrated database of this project's kind: in-memory PGlite, or a scratch PostgreSQL database. */
export async function openTestDatabase(): Promise<Database> {
  if (TEST_DB_KIND === 'pglite') {
    const database = await openDatabase({ memory: true });
    await database.migrate();
    return database;
  }
  const scratch = await createScratchPostgres();
  const database = await openDatabase({ url: scratch.url });
  await database.migrate();
  return {
    ...database,
    async close() {
      await database.close();
      await scratch.drop();
    },
  };
}
