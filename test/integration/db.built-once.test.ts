/**
 * Queries built once (server/db/client.ts `builtOnce`, `statementOnce`) run on the handle they are
 * given: inside a transaction they see its uncommitted rows and are rolled back with it, on both
 * drivers, whichever handle first built them (docs/decisions/022-prepared-statements.md).
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtOnce, statementOnce, type Database, type Db } from '../../server/db/client';
import { events } from '../../server/modules/events/events.sql';
import { openTestDatabase } from '../helpers/db';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const titleQuery = builtOnce((db) =>
  db
    .select({ title: events.title })
    .from(events)
    .where(eq(events.id, sql.placeholder('id')))
    .prepare('svc_test_title'),
);
const titleStatement = statementOnce<{ title: string }>(() => sql`select title from ${events} where id = ${sql.placeholder('id')}::int`);

async function insertEvent(db: Db, title: string): Promise<number> {
  const [row] = await db.insert(events).values({ title, startsUtc: '2099-01-01 10:00:00', status: 'draft' }).returning({ id: events.id });
  return row!.id;
}

class Rollback extends Error {}

describe('a query built once', () => {
  it('first built inside a transaction, reads that transaction’s rows there and the committed ones outside', async () => {
    let inside: unknown[] = [];
    let statementInside: unknown[] = [];
    let uncommittedId = 0;
    await database.db
      .transaction(async (tx) => {
        uncommittedId = await insertEvent(tx, 'Not yet committed');
        // the first use of each builds it, on the transaction's handle
        inside = await titleQuery(tx).execute({ id: uncommittedId });
        statementInside = await titleStatement.run(tx, { id: uncommittedId });
        throw new Rollback();
      })
      .catch((err: unknown) => {
        if (!(err instanceof Rollback)) throw err;
      });
    expect(inside).toEqual([{ title: 'Not yet committed' }]);
    expect(statementInside).toEqual([{ title: 'Not yet committed' }]);
    // rolled back with the transaction: outside, on the pool, the row is not there
    expect(await titleQuery(database.db).execute({ id: uncommittedId })).toEqual([]);
    expect(await titleStatement.run(database.db, { id: uncommittedId })).toEqual([]);

    const committed = await insertEvent(database.db, 'Committed');
    expect(await titleQuery(database.db).execute({ id: committed })).toEqual([{ title: 'Committed' }]);
    expect(await titleStatement.run(database.db, { id: committed })).toEqual([{ title: 'Committed' }]);
  });

  it('used by two transactions at once, each one reads its own uncommitted row', async () => {
    if (database.kind === 'pglite') {
      // PGlite runs one transaction at a time: one after the other, each sees only its own row
      for (const title of ['First', 'Second']) {
        const seen = await database.db.transaction(async (tx) => {
          const id = await insertEvent(tx, title);
          return { own: await titleQuery(tx).execute({ id }), viaStatement: await titleStatement.run(tx, { id }) };
        });
        expect(seen).toEqual({ own: [{ title }], viaStatement: [{ title }] });
      }
      return;
    }
    let release!: () => void;
    const bothInserted = new Promise<void>((resolve) => (release = resolve));
    let inserted = 0;
    const run = (title: string) =>
      database.db.transaction(async (tx) => {
        const id = await insertEvent(tx, title);
        if (++inserted === 2) release();
        await bothInserted;
        return { id, own: await titleQuery(tx).execute({ id }), viaStatement: await titleStatement.run(tx, { id }) };
      });
    const [a, b] = await Promise.all([run('Alpha'), run('Beta')]);
    expect(a.own).toEqual([{ title: 'Alpha' }]);
    expect(a.viaStatement).toEqual([{ title: 'Alpha' }]);
    expect(b.own).toEqual([{ title: 'Beta' }]);
    expect(b.viaStatement).toEqual([{ title: 'Beta' }]);
  });
});
