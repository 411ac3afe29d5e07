import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Context } from 'hono';
import { matchRoute } from '../shared/route-match';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

/**
 * Serves the built PWA. Hashed files under /assets are cached for a year; the shell,
 * the manifest and the service worker are revalidated so an update is seen at once. A client
 * that accepts brotli or gzip gets the copy the build precompressed.
 * Any other GET of a page path answers index.html (client-side routes).
 */
export function staticHandler(root: string) {
  const absRoot = path.resolve(root);
  return async (c: Context): Promise<Response | null> => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return null;
    let urlPath: string;
    try {
      urlPath = decodeURIComponent(new URL(c.req.url).pathname);
    } catch {
      return null; // malformed percent-encoding names no file: 404
    }
    if (urlPath.includes('\u0000')) return null;
    const candidate = path.resolve(absRoot, `.${urlPath}`);
    if (!candidate.startsWith(absRoot + path.sep) && candidate !== absRoot) return null;
    const file = (await isFile(candidate)) ? candidate : path.extname(urlPath) ? null : path.join(absRoot, 'index.html');
    if (!file || !(await isFile(file))) return null;
    const preload = path.basename(file) === 'index.html' && !path.extname(urlPath) ? await routePreloadLink(absRoot, urlPath) : null;
    const encoding = await precompressedFor(file, c.req.header('accept-encoding'));
    const body = await readFile(encoding ? `${file}${ENCODINGS[encoding]}` : file);
    const immutable = urlPath.startsWith('/assets/');
    const headers: Record<string, string> = {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      'x-content-type-options': 'nosniff',
      'content-length': String(body.length),
      vary: 'Accept-Encoding',
    };
    if (encoding) headers['content-encoding'] = encoding;
    if (preload) headers.link = preload;
    return new Response(c.req.method === 'HEAD' ? null : body, { status: 200, headers });
  };
}

interface RoutePreload {
  /** A client route pattern: `/events/:id`. */
  path: string;
  js: string[];
  css: string[];
}

interface PreloadTable {
  /** The entry script(s) index.html loads. */
  entry: string[];
  routes: RoutePreload[];
}

const NO_PRELOADS: PreloadTable = { entry: [], routes: [] };

/** route-preloads.json per build folder, re-read when the file changes (a test deploys a new version in place). */
const preloadTables = new Map<string, { mtimeMs: number; table: PreloadTable }>();

async function routePreloads(root: string): Promise<PreloadTable> {
  const file = path.join(root, 'route-preloads.json');
  const mtimeMs = await stat(file).then(
    (s) => s.mtimeMs,
    () => -1,
  );
  const known = preloadTables.get(root);
  if (known?.mtimeMs === mtimeMs) return known.table;
  const table = mtimeMs < 0 ? NO_PRELOADS : (JSON.parse(await readFile(file, 'utf8')) as PreloadTable);
  preloadTables.set(root, { mtimeMs, table });
  return table;
}

/**
 * The Link header for a page path: the chunks and stylesheets its route's page imports (written
 * by the build, vite.config.ts routePreloads), so the browser fetches them beside the entry
 * script instead of one round trip after it (docs/decisions/019-fast-first-paint.md). Null when no route matches.
 */
async function routePreloadLink(root: string, pathname: string): Promise<string | null> {
  const { entry, routes } = await routePreloads(root);
  const route = matchRoute(routes, pathname)?.route;
  if (!route || route.js.length + route.css.length === 0) return null;
  // the entry first (header hints are fetched in order); `crossorigin` on the stylesheet as Vite's loader asks for it, or the preload goes unused
  return [
    ...[...entry, ...route.js].map((src) => `<${src}>; rel=modulepreload`),
    ...route.css.map((href) => `<${href}>; rel=preload; as=style; crossorigin`),
  ].join(', ');
}

/** The build writes these beside each compressible file (server/build-client.ts), brotli preferred. */
const ENCODINGS = { br: '.br', gzip: '.gz' } as const;
type Encoding = keyof typeof ENCODINGS;

/** The precompressed copy the client accepts (q > 0), if the build made one. */
async function precompressedFor(file: string, acceptEncoding: string | undefined): Promise<Encoding | null> {
  if (!acceptEncoding) return null;
  const accepted = new Map(
    acceptEncoding.split(',').map((part) => {
      const [name, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
      return [name!.trim(), q === undefined ? 1 : Number(q)] as const;
    }),
  );
  for (const encoding of Object.keys(ENCODINGS) as Encoding[]) {
    const q = accepted.get(encoding) ?? accepted.get('*') ?? 0;
    if (q > 0 && (await isFile(`${file}${ENCODINGS[encoding]}`))) return encoding;
  }
  return null;
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}
