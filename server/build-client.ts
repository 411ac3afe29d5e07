import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/**
 * Where the built PWA lives: dist/client, or SVC_CLIENT_DIST (an absolute folder) so a benchmark
 * or a second checkout can build and serve its own copy without replacing the one others test against.
 */
export const CLIENT_DIST = process.env.SVC_CLIENT_DIST ? path.resolve(process.env.SVC_CLIENT_DIST) : path.join(ROOT, 'dist', 'client');

function newestMtime(p: string): number {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

/** True when the build (CLIENT_DIST) is missing or older than any client source. */
export function clientBuildIsStale(): boolean {
  const built = path.join(CLIENT_DIST, 'index.html');
  if (!existsSync(built)) return true;
  const sources = ['client', 'shared', 'vite.config.ts', 'package-lock.json'].map((p) => newestMtime(path.join(ROOT, p)));
  return Math.max(...sources) > statSync(built).mtimeMs;
}

/**
 * Builds the PWA with Vite when the build is missing or stale. Safe when several processes
 * call it at once (a test run, two servers): one builds into a temporary folder under a lock
 * and swaps it in; the others wait for the lock and find the build fresh.
 */
export function ensureClientBuilt(log: (line: string) => void = () => {}): void {
  if (!clientBuildIsStale()) return;
  // lock and temporary build sit beside the target, so the final rename never crosses file systems
  const lock = path.join(path.dirname(CLIENT_DIST), '.build-lock');
  mkdirSync(path.dirname(lock), { recursive: true });
  const waitUntil = Date.now() + 180_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // a lock older than the longest build belongs to a process that died
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })!.mtimeMs > 180_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > waitUntil) throw new Error(`Timed out waiting for another PWA build (${lock})`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    if (!clientBuildIsStale()) return;
    log('Building the PWA (vite build)…');
    const tmp = path.join(path.dirname(CLIENT_DIST), `${path.basename(CLIENT_DIST)}-${process.pid}-${Date.now()}`);
    try {
      buildClient(tmp);
    } catch (error) {
      rmSync(tmp, { recursive: true, force: true });
      throw error;
    }
    rmSync(CLIENT_DIST, { recursive: true, force: true });
    renameSync(tmp, CLIENT_DIST);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * A production build of the PWA (service worker included) into `outDir`. `configFile` builds
 * with another Vite config, e.g. a test's config that makes the next version of the app.
 */
export function buildClient(outDir: string, opts: { configFile?: string } = {}): void {
  const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const config = opts.configFile ? ['--config', opts.configFile] : [];
  const result = spawnSync(process.execPath, [vite, 'build', ...config, '--logLevel', 'warn', '--outDir', outDir], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    // Vite decides PROD from NODE_ENV; under vitest it is 'test', which would drop the service worker.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error(`vite build failed (exit ${result.status})`);
  precompress(outDir);
}

/** What is worth compressing: text. Images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|json|webmanifest|svg|txt|ico|wasm)$/;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_COMPRESS_BYTES = 512;

/**
 * Writes `.br` (brotli, best quality) and `.gz` (gzip -9) beside every compressible built file,
 * kept only when smaller: the static handler serves them by Accept-Encoding at no CPU cost per
 * request (docs/api.md#overview).
 */
export function precompress(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      precompress(file);
      continue;
    }
    if (!COMPRESSIBLE.test(entry.name)) continue;
    const raw = readFileSync(file);
    if (raw.length < MIN_COMPRESS_BYTES) continue;
    const br = brotliCompressSync(raw, {
      params: { [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: raw.length },
    });
    const gz = gzipSync(raw, { level: 9 });
    if (br.length < raw.length) writeFileSync(`${file}.br`, br);
    if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz);
  }
}
