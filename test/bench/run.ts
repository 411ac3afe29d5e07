/**
 * `npm run bench`: runs every test/bench/*.bench.ts in turn and prints each figure beside
 * its target. `npm run bench -- slots` runs only the files whose name contains "slots".
 * Exits 0 whatever the figures: a benchmark reports, it does not gate.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchResult } from './types';

const dir = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

const rows: Array<BenchResult & { file: string }> = [];
for (const file of files) {
  process.stdout.write(`\n▶ ${file}\n`);
  const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { default: () => Promise<BenchResult[]> };
  try {
    for (const r of await mod.default()) {
      rows.push({ ...r, file });
      process.stdout.write(`  ${r.pass ? 'PASS' : 'MISS'}  ${r.name}: ${formatValue(r.value)} ${r.unit}   (target ${r.target})\n`);
    }
  } catch (err) {
    process.stdout.write(`  ERROR ${file}: ${(err as Error).stack ?? String(err)}\n`);
    rows.push({ file, name: `${file} failed to run`, value: NaN, unit: '', target: '-', pass: false });
  }
}

function formatValue(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  return Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2);
}

process.stdout.write('\nSummary\n');
const width = Math.max(...rows.map((r) => r.name.length), 10);
for (const r of rows) process.stdout.write(`  ${r.pass ? 'PASS' : 'MISS'}  ${r.name.padEnd(width)}  ${formatValue(r.value).padStart(10)} ${r.unit.padEnd(8)} target ${r.target}\n`);
process.stdout.write(`${rows.filter((r) => r.pass).length} of ${rows.length} figures meet their targets\n`);
process.exit(0);
