/** What every benchmark file shares: a seeded random source, percentiles, and running alone. */
import { pathToFileURL } from 'node:url';
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

/**
 * `node --import tsx test/bench/x.bench.ts` runs that file alone: call this with the file's
 * `import.meta.url` and its `run`; it prints each figure and sets a failing exit code on a miss.
 */
export function runWhenMain(moduleUrl: string, run: () => Promise<BenchResult[]>): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  void run().then((results) => {
    for (const r of results) console.log(`${r.pass ? 'PASS' : 'FAIL'}  ${r.name}: ${r.value} ${r.unit} (target ${r.target})`);
    if (results.some((r) => !r.pass)) process.exitCode = 1;
  });
}
