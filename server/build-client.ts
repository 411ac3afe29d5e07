import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLIENT_DIST = path.join(ROOT, 'dist', 'client');

function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

/** True when dist/client is missing or older than any client source. */
export function clientBuildIsStale(): boolean {
  const built = path.join(CLIENT_DIST, 'index.html');
  if (!existsSync(built)) return true;
  const sources = ['client', 'shared', 'vite.config.ts', 'package-lock.json'].map((p) => newestMtime(path.join(ROOT, p)));
  return Math.max(...sources) > statSync(built).mtimeMs;
}

/** Builds the PWA with Vite when the build is missing or stale. */
export function ensureClientBuilt(log: (line: string) => void = () => {}): void {
  if (!clientBuildIsStale()) return;
  log('Building the PWA (vite build)…');
  const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) throw new Error(`vite build failed (exit ${result.status})`);
}
