/**
 * PostgreSQL only: a transaction never shares its connection with the pool. postgres.js 3.4.9's
 * `sql.begin` marks the connection as the transaction's only after BEGIN is written, and skips
 * that when the BEGIN is the statement that fills the connection's pipeline (100 statements sent
 * and unanswered): the BEGIN failed with UNSAFE_TRANSACTION (one request in a 200-client rush, 4
 * rushes in 7) and the connection went back to the pool inside an open transaction. Transactions
 * now run on a connection reserved before BEGIN (server/db/prepared.ts, decision 022).
 */
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '../../server/db/client';
import { preparing, type ConnectionCloses } from '../../server/db/prepared';
import * as schema from '../../server/db/schema';
import { createScratchPostgres } from '../helpers/db';

/** postgres.js's default `max_pipeline`: statements sent on one connection before it counts as full. */
const PIPELINE = 100;

let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
beforeAll(async () => {
  scratch = await createScratchPostgres();
});
afterAll(async () => {
  await scratch?.drop();
});

/**
 * A pool of two connections with one held elsewhere, and the other one's pipeline filled to one
 * below the limit (a sleeping statement, then 99 more sent behind it and unanswered), so the next
 * statement sent on it is the one that fills it.
 */
async function poolOnePipelineShortOfFull() {
  const client = postgres(scratch.url, { max: 2, onnotice: () => {} });
  const held = await client.reserve();
  await client.unsafe('select 1');
  const sleeping = client.unsafe('select pg_sleep(0.3)').then(() => 'slept');
  const queued = Array.from({ length: PIPELINE - 1 }, (_, i) => client.unsafe(`select ${i} as n`).then(() => i));
  return { client, held, pending: Promise.all([sleeping, ...queued]) };
}

describe('transactions and the pool', () => {
  it('a transaction whose BEGIN fills a busy connection’s pipeline commits on a connection of its own (no UNSAFE_TRANSACTION)', async () => {
    const { client, held, pending } = await poolOnePipelineShortOfFull();
    try {
      const db = drizzle(preparing(client), { schema }) as unknown as Db;
      const tx = db.transaction(async (t) => {
        const [a] = await queryRows<{ id: string }>(t, sql`select txid_current()::text as id`);
        const [b] = await queryRows<{ id: string; n: number }>(t, sql`select txid_current()::text as id, ${41}::int + 1 as n`);
        return { same: a!.id === b!.id, n: b!.n };
      });
      const [answered, result] = await Promise.all([pending, tx]);
      expect(answered).toHaveLength(PIPELINE);
      expect(result).toEqual({ same: true, n: 42 });
      // Nothing was left open on either connection: a statement of the pool runs in a transaction of its own.
      held.release();
      const states = await Promise.all(
        [0, 1].map(() => client.unsafe(`select txid_current_if_assigned() is null as fresh, now() = statement_timestamp() as own`)),
      );
      for (const [row] of states) expect(row).toEqual({ fresh: true, own: true });
    } finally {
      await client.end({ timeout: 5 });
    }
  });

  // Held as postgres.js's own sql.begin held it, now that the transaction is ours.
  it('a failed statement nobody awaited rolls the transaction back and the transaction throws, never reported as committed', async () => {
    const client = postgres(scratch.url, { max: 2, onnotice: () => {} });
    try {
      await client.unsafe('create table if not exists svc_t_unawaited (v int primary key)');
      const db = drizzle(preparing(client), { schema }) as unknown as Db;
      const outcome = await db
        .transaction(async (t) => {
          await t.execute(sql`insert into svc_t_unawaited values (1)`);
          // Failed and not awaited: PostgreSQL aborts the transaction and answers its COMMIT with ROLLBACK.
          void Promise.resolve(t.execute(sql`insert into svc_t_unawaited values (1)`)).catch(() => {});
          await new Promise((resolve) => setTimeout(resolve, 50));
        })
        .then(
          () => 'committed',
          (err: Error) => err.message,
        );
      expect(outcome).not.toBe('committed');
      expect(await client.unsafe('select count(*)::int as n from svc_t_unawaited')).toEqual([{ n: 0 }]);
    } finally {
      await client.end({ timeout: 5 });
    }
  });
});

describe('a transaction waiting for a connection when the pool loses one', () => {
  it('is served once the pool reconnects, not left waiting forever (postgres.js drops the reservation it reconnected for)', async () => {
    const closes: ConnectionCloses = new Set();
    const client = postgres(scratch.url, { max: 2, onnotice: () => {}, onclose: () => closes.forEach((closed) => closed()) });
    const admin = postgres(scratch.url, { max: 1, onnotice: () => {} });
    try {
      // Both connections held: the transaction's reservation waits at the head of the pool's queue.
      const [first, second] = [await client.reserve(), await client.reserve()];
      const [{ pid }] = await first.unsafe<[{ pid: number }]>('select pg_backend_pid() as pid');
      const db = drizzle(preparing(client, closes), { schema }) as unknown as Db;
      const tx = db.transaction(async (t) => (await queryRows<{ n: number }>(t, sql`select ${7}::int as n`))[0]!.n);
      await new Promise((resolve) => setTimeout(resolve, 100));
      // The lost connection reconnects for the waiting reservation, then forgets it.
      await admin`select pg_terminate_backend(${pid})`;
      const outcome = await Promise.race([tx, new Promise((resolve) => setTimeout(resolve, 10_000, 'still waiting after 10 s'))]);
      expect(outcome).toBe(7);
      second.release();
    } finally {
      await admin.end();
      await client.end({ timeout: 5 });
    }
  });
});
