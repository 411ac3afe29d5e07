/**
 * PostgreSQL only: a statement that fails while its rows are arriving leaves no holes in the next
 * statement's rows on that connection. postgres.js 3.4.9 resets its row counter only when a
 * statement completes, so the next one resolved with leading holes: a door push whose connection
 * was terminated mid-answer made a later request on that connection answer 500 (`new Map` over
 * the holes) or 401 (its device read as `[0] ?? null`). A mid-stream division by zero takes the
 * same path without a terminated connection, so this proves it every time
 * (docs/decisions/018-driver-connection-loss.md).
 */
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '../../server/db/client';
import { preparing } from '../../server/db/prepared';
import { createScratchPostgres } from '../helpers/db';

let scratch: Awaited<ReturnType<typeof createScratchPostgres>>;
let client: postgres.Sql;
let db: Db;
beforeAll(async () => {
  scratch = await createScratchPostgres();
  // one connection, so both statements meet on it
  client = postgres(scratch.url, { max: 1, onnotice: () => {} });
  db = drizzle(preparing(client)) as unknown as Db;
});
afterAll(async () => {
  await client?.end();
  await scratch?.drop();
});

/** Three rows, then division by zero at the fourth. */
const failsAfterThreeRows = sql`select i, 1 / (4 - i) as boom from generate_series(1, 10) i`;

describe('rows after a statement that failed mid-answer', () => {
  it('the next statement on the connection answers its own rows only, without holes', async () => {
    await expect(queryRows(db, failsAfterThreeRows)).rejects.toThrow();
    const rows = await queryRows<{ x: number }>(db, sql`select x from generate_series(1, 5) x`);
    expect(rows.length).toBe(5);
    expect(0 in rows, 'the first row is there').toBe(true);
    expect(rows.map((r) => r.x)).toEqual([1, 2, 3, 4, 5]);
  });

  it('a drizzle select after it maps every row (the device look-up read a hole as "no device")', async () => {
    await expect(queryRows(db, failsAfterThreeRows)).rejects.toThrow();
    const rows = await db.select({ n: sql<number>`n` }).from(sql`generate_series(1, 2) n`);
    expect(rows).toEqual([{ n: 1 }, { n: 2 }]);
  });
});
