import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Context } from 'hono';

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
 * the manifest and the service worker are revalidated so an update is seen at once.
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
    const body = await readFile(file);
    const immutable = urlPath.startsWith('/assets/');
    return new Response(c.req.method === 'HEAD' ? null : body, {
      status: 200,
      headers: {
        'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
        'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
        'x-content-type-options': 'nosniff',
      },
    });
  };
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}
