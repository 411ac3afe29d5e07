/**
 * transactionWithFinalWrite (server/db/client.ts): the last statements leave with the COMMIT,
 * unawaited, on both drivers. What they answer comes back after the commit; if one fails, the
 * whole transaction is rolled back and its error is thrown.
 */
import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, transactionWithFinalWrite, type Database } from '../../server/db/client';
import { settings } from '../../server/security/security.sql';
import { openTestDatabase } from '../helpers/db';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

const stored = async (keys: string[]) =>
  (await database.db.select({ key: settings.key }).from(settings).where(inArray(settings.key, keys))).map((r) => r.key).sort();

describe('a transaction whose last write leaves with its COMMIT', () => {
  it('keeps what the decision wrote and what the final write wrote, in the same transaction, and answers both', async () => {
    const { decision, written } = await transactionWithFinalWrite(database.db, async (tx) => {
      await tx.insert(settings).values({ key: 't.final.decided', value: 1 });
      const [seen] = await queryRows<{ txid: string }>(tx, sql`select txid_current()::text as txid`);
      return {
        decision: seen!.txid,
        write: () =>
          queryRows<{ txid: string }>(
            tx,
            sql`with ins as (insert into svc_settings (key, value) values ('t.final.written', '2') returning key) select txid_current()::text as txid, (select key from ins) as key`,
          ),
      };
    });
    expect(written).toEqual([{ txid: decision, key: 't.final.written' }]);
    expect(await stored(['t.final.decided', 't.final.written'])).toEqual(['t.final.decided', 't.final.written']);
  });

  it('a final write that takes a few promise steps before its statement still runs inside the transaction', async () => {
    const { decision, written } = await transactionWithFinalWrite(database.db, async (tx) => {
      const [seen] = await queryRows<{ txid: string }>(tx, sql`select txid_current()::text as txid`);
      const steps = async () => {
        for (let i = 0; i < 5; i++) await Promise.resolve();
        return queryRows<{ txid: string }>(tx, sql`select txid_current()::text as txid`);
      };
      return { decision: seen!.txid, write: steps };
    });
    expect(written).toEqual([{ txid: decision }]);
  });

  it('a drizzle query as the final write runs once', async () => {
    const { written } = await transactionWithFinalWrite(database.db, async (tx) => ({
      decision: null,
      write: () => tx.insert(settings).values({ key: 't.final.once', value: 1 }).returning({ key: settings.key }),
    }));
    expect(written).toEqual([{ key: 't.final.once' }]);
    expect(await stored(['t.final.once'])).toEqual(['t.final.once']);
  });

  it('a final write that fails rolls the whole transaction back and throws its error', async () => {
    await database.db.insert(settings).values({ key: 't.final.taken', value: 0 });
    const attempt = transactionWithFinalWrite(database.db, async (tx) => {
      await tx.insert(settings).values({ key: 't.final.rolled-back', value: 1 });
      // the primary key refuses it: found by the database after the COMMIT left
      return { decision: null, write: () => tx.insert(settings).values({ key: 't.final.taken', value: 3 }) };
    });
    // the write's own error, not the COMMIT's
    await expect(attempt).rejects.toThrow(/Failed query: insert into "svc_settings"/);
    expect(await stored(['t.final.rolled-back'])).toEqual([]);
    const [kept] = await database.db
      .select({ value: settings.value })
      .from(settings)
      .where(inArray(settings.key, ['t.final.taken']));
    expect(kept!.value).toBe(0);
  });

  it('a decision without a final write commits what the decision wrote', async () => {
    const { decision, written } = await transactionWithFinalWrite(database.db, async (tx) => {
      await tx.insert(settings).values({ key: 't.final.only-decided', value: 1 });
      return { decision: 'done', write: null };
    });
    expect({ decision, written }).toEqual({ decision: 'done', written: null });
    expect(await stored(['t.final.only-decided'])).toEqual(['t.final.only-decided']);
  });
});
