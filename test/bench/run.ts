/**
 * `npm run bench`: runs every test/bench/*.bench.ts in turn, each in a process of its own (no
 * benchmark pays for the heap, JIT state or open handles another one left), and prints each
 * figure beside its target. `npm run bench -- slots` runs only the files whose name contains "slots".
 * Exits 0 whatever the figures: a benchmark reports, it does not gate.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RESULTS_ENV, RESULTS_MARK } from './support';
import type { BenchResult } from './types';

const dir = path.dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();

/** Runs one benchmark file in a child process; answers its figures (its other output passes through). */
function runFile(file: string): Promise<BenchResult[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(dir, file)], {
      env: { ...process.env, [RESULTS_ENV]: '1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith(RESULTS_MARK));
      process.stdout.write(
        out
          .split('\n')
          .filter((l) => l && !l.startsWith(RESULTS_MARK))
          .map((l) => `  ${l}\n`)
          .join(''),
      );
      if (!line) return reject(new Error(`${file} exited with ${code} and no figures`));
      resolve(JSON.parse(line.slice(RESULTS_MARK.length)) as BenchResult[]);
    });
  });
}

const rows: Array<BenchResult & { file: string }> = [];
for (const file of files) {
  process.stdout.write(`\n▶ ${file}\n`);
  try {
    for (const r of await runFile(file)) {
      rows.push({ ...r, file });
      process.stdout.write(`  ${r.pass ? 'PASS' : 'MISS'}  ${r.name}: ${formatValue(r.value)} ${r.unit}   (target ${r.target})\n`);
    }
  } catch (err) {
    process.stdout.write(`  ERROR ${file}: ${(err as Error).message}\n`);
    rows.push({ file, name: `${file} failed to run`, value: NaN, unit: '', target: '-', pass: false });
  }
}

function formatValue(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  return Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2);
}

process.stdout.write('\nSummary\n');
const width = Math.max(...rows.map((r) => r.name.length), 10);
for (const r of rows)
  process.stdout.write(`  ${r.pass ? 'PASS' : 'MISS'}  ${r.name.padEnd(width)}  ${formatValue(r.value).padStart(10)} ${r.unit.padEnd(8)} target ${r.target}\n`);
process.stdout.write(`${rows.filter((r) => r.pass).length} of ${rows.length} figures meet their targets\n`);
process.exit(0);
