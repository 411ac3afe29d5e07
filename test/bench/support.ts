/** What every benchmark file shares: a seeded random source, percentiles, seed data, and running alone. */
import { pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import type { Db } from '../../server/db/client';
import type { BenchResult } from './types';

/** mulberry32: small, fast, reproducible. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The p-th percentile (nearest rank) of an ascending list. */
export function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

export const RESULTS_ENV = 'SVC_BENCH_RESULTS';
export const RESULTS_MARK = 'svc-bench-results ';

/**
 * `node --import tsx test/bench/x.bench.ts` runs that file alone: call this with the file's
 * `import.meta.url` and its `run`; it prints each figure and sets a failing exit code on a miss.
 */
export function runWhenMain(moduleUrl: string, run: () => Promise<BenchResult[]>): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  void run().then((results) => {
    // run.ts starts each file in its own process and reads this line
    // (a pipe is written synchronously on Linux, so exiting right after loses nothing)
    if (process.env[RESULTS_ENV]) {
      process.stdout.write(`${RESULTS_MARK}${JSON.stringify(results)}\n`);
      process.exit(0);
    }
    for (const r of results) console.log(`${r.pass ? 'PASS' : 'FAIL'}  ${r.name}: ${r.value} ${r.unit} (target ${r.target})`);
    if (results.some((r) => !r.pass)) process.exitCode = 1;
  });
}

/** Attendees with codes 'bench-<event>-<n>' and their SHA-256, made by the database in one statement. */
export async function seedAttendees(db: Db, eventId: number, count: number): Promise<void> {
  await db.execute(sql`
    insert into svc_attendees (event_id, email, display_name, quantity, status, cancel_token, ticket_code, ticket_code_hash)
    select ${eventId}, 'guest' || g || '@example.org', 'Guest ' || g || ' ' || substr(md5(g::text), 1, 8), 1 + (g % 3),
           case when g % 20 = 0 then 'cancelled' when g % 33 = 0 then 'waitlist' else 'going' end,
           md5('cancel' || ${eventId} || '-' || g) || md5('x' || g),
           'bench-' || ${eventId} || '-' || g,
           encode(sha256(convert_to('bench-' || ${eventId} || '-' || g, 'UTF8')), 'hex')
    from generate_series(1, ${count}) g`);
}
