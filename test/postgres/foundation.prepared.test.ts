/**
 * PostgreSQL only: drizzle's statements run prepared (server/db/prepared.ts). Unprepared, every
 * statement with parameters cost postgres.js two round trips (describe, then execute) and stopped
 * the connection's pipeline while it waited; prepared, its second use on a connection is one.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type Database } from '../../server/db/client';
import { MAX_PREPARED_PARAMETERS } from '../../server/db/prepared';
import { createScratchPostgres } from '../helpers/db';

let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
let database: Database;
beforeAll(async () => {
  scratch = await createScratchPostgres();
  database = await openDatabase({ url: scratch.url });
});
afterAll(async () => {
  await database?.close();
  await scratch?.drop();
});

/** The statements this connection keeps prepared whose text contains `marker`. */
const preparedWith = (tx: Database['db'], marker: string) =>
  queryRows<{ name: string }>(
    tx,
    sql`select name from pg_prepared_statements where statement like ${`%${marker}%`} and statement not like '%pg_prepared_statements%'`,
  );

describe('prepared statements on PostgreSQL', () => {
  it('a statement with parameters is prepared once per connection and used again (one named statement for two runs)', async () => {
    await database.db.transaction(async (tx) => {
      for (const n of [1, 2]) {
        const [row] = await queryRows<{ n: number }>(tx, sql`select ${n}::int + 1 as n /* svc-prepared-twice */`);
        expect(row!.n).toBe(n + 1);
      }
      const prepared = await preparedWith(tx, 'svc-prepared-twice');
      expect(prepared).toHaveLength(1);
    });
  });

  it('the pool prepares in transactions and savepoints alike', async () => {
    await database.db.transaction(async (tx) => {
      await tx.transaction(async (inner) => {
        await queryRows(inner, sql`select ${'x'}::text as v /* svc-prepared-savepoint */`);
      });
      expect(await preparedWith(tx, 'svc-prepared-savepoint')).toHaveLength(1);
    });
  });

  it(`a statement with more than ${MAX_PREPARED_PARAMETERS} parameters (a list spelled out) runs unprepared`, async () => {
    await database.db.transaction(async (tx) => {
      const ids = Array.from({ length: MAX_PREPARED_PARAMETERS + 1 }, (_, i) => i);
      const [row] = await queryRows<{ n: number }>(
        tx,
        sql`select count(*)::int as n from unnest(array[${sql.join(
          ids.map((id) => sql`${id}::int`),
          sql`, `,
        )}]) /* svc-prepared-long */`,
      );
      expect(row!.n).toBe(ids.length);
      expect(await preparedWith(tx, 'svc-prepared-long')).toEqual([]);
    });
  });
});
