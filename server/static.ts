import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { Context } from 'hono';
import { matchRoute } from '../shared/route-match';
import { localizeShellHead } from './manifest';
import { brandShell, isStaffShellPath } from './organization-shell';
import type { Organization } from '../shared/organization';
import type { PageHead } from './share/page-meta';
import { escapeHtml } from '../shared/html';
import { namesSpokenLocale, requestLanguage } from './i18n/request-language';
import {
  LANG_COOKIE,
  LANG_COOKIE_MAX_AGE_S,
  LANG_PARAM,
  localeDirection,
  matchLocale,
  negotiateLocale,
  type Locale,
  type LocaleInputs,
} from '../shared/i18n/locales';

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

export interface StaticOptions {
  /** Whether the request came over HTTPS (the language cookie is then Secure). */
  isSecure?: (c: Context) => boolean;
  /** The page's own fallbacks (its event's language, the organization's default), read only when the reader names nothing we speak. */
  pageLanguage?: (urlPath: string) => Promise<Pick<LocaleInputs, 'eventLocale' | 'orgDefault'>>;
  /** The organization's identity written into every shell (server/organization-shell.ts). */
  organization?: (c: Context) => Promise<Organization>;
  /** The page's own title, description and preview tags (server/share/page-meta.ts); null keeps the generic head. */
  pageHead?: (urlPath: string, locale: Locale) => Promise<PageHead | null>;
}

/**
 * Serves the built PWA. Hashed files under /assets are cached for a year; the shell,
 * the manifest and the service worker are revalidated so an update is seen at once. A client
 * that accepts brotli or gzip gets the copy the build precompressed.
 * Any other GET of a page path answers index.html (client-side routes), in the reader's
 * language: `<html lang dir>` and `Content-Language` as negotiated (docs/decisions/027-languages.md).
 */
export function staticHandler(root: string, options: StaticOptions = {}) {
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
    if (path.basename(file) === 'index.html' && !path.extname(urlPath)) return serveShell(c, absRoot, file, urlPath, options);
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
    return new Response(c.req.method === 'HEAD' ? null : body, { status: 200, headers });
  };
}

/**
 * A page's shell in the negotiated language: `<html lang="de" dir="ltr">` before any script runs
 * (no flash of English; right for search engines and screen readers), `Content-Language`, and
 * the locale's catalogue among the preloads. `?lang=` that names a language we speak is kept in
 * the `svc_lang` cookie; one we do not speak is passed over, never an error.
 */
async function serveShell(c: Context, root: string, file: string, urlPath: string, options: StaticOptions): Promise<Response> {
  const url = new URL(c.req.url);
  const chosen = matchLocale(url.searchParams.get(LANG_PARAM));
  const reader = requestLanguage(c);
  // the page's own fallbacks cost a look-up: only when the reader's side names nothing we speak
  const fallbacks = namesSpokenLocale(reader) || !options.pageLanguage ? {} : await options.pageLanguage(urlPath);
  // the shell is cached by the locale it ends in, so a new organization default needs no invalidation here
  const locale = negotiateLocale({ ...reader, ...fallbacks });
  const encoding = acceptedEncoding(c.req.header('accept-encoding'));
  const organization = options.organization ? await options.organization(c) : null;
  const staffPage = isStaffShellPath(urlPath);
  const [head, preload] = await Promise.all([staffPage ? null : (options.pageHead?.(urlPath, locale) ?? null), routePreloadLink(root, urlPath, locale)]);
  // a page with a preview of its own is made per request (one string replace and a fast compression);
  // every other page is the cached shell (docs/decisions/051-link-previews-and-directions.md)
  const body = head ? await shellWithHead(file, locale, encoding, head, organization) : await localizedShell(file, locale, encoding, organization, staffPage);
  const headers: Record<string, string> = {
    'content-type': TYPES['.html']!,
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    'content-length': String(body.length),
    'content-language': locale,
    // the same URL answers in another language to another cookie or browser
    vary: 'Accept-Encoding, Accept-Language, Cookie',
  };
  if (encoding) headers['content-encoding'] = encoding;
  if (preload) headers.link = preload;
  if (chosen) {
    const secure = options.isSecure?.(c) ? '; Secure' : '';
    headers['set-cookie'] = `${LANG_COOKIE}=${chosen}; Path=/; Max-Age=${LANG_COOKIE_MAX_AGE_S}; SameSite=Lax${secure}`;
  }
  return new Response(c.req.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
}

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * The shell per file version, locale, encoding, area and identity: made once (8 locales × 3
 * encodings × 2 areas of a 2 KB file), not per request. A new identity starts the cache afresh.
 */
const shells = new Map<string, { mtimeMs: number; body: Buffer }>();
let shellsIdentity = '';

/** The shell's text in a locale, per file version. */
const shellTexts = new Map<string, { mtimeMs: number; html: string }>();

async function localizedHtml(file: string, locale: Locale): Promise<string> {
  const mtimeMs = (await stat(file)).mtimeMs;
  const key = `${file}|${locale}`;
  const known = shellTexts.get(key);
  if (known?.mtimeMs === mtimeMs) return known.html;
  const html = localizeShellHead((await readFile(file, 'utf8')).replace(/<html\b[^>]*>/i, `<html lang="${locale}" dir="${localeDirection(locale)}">`), locale);
  shellTexts.set(key, { mtimeMs, html });
  return html;
}

/**
 * The shell with a page's own head: its title and description in place of the generic ones, its
 * preview tags before `</head>`. Compressed at a fast level: this copy is made per request.
 */
async function shellWithHead(file: string, locale: Locale, encoding: Encoding | null, head: PageHead, organization: Organization | null): Promise<Buffer> {
  const localized = await localizedHtml(file, locale);
  const html = (organization ? brandShell(localized, organization, false) : localized)
    .replace(/<title>[^<]*<\/title>/i, () => `<title>${escapeHtml(head.title)}</title>`)
    .replace(/(<meta name="description" content=")[^"]*(")/, (_all, start: string, end: string) => `${start}${escapeHtml(head.description)}${end}`)
    .replace(/<\/head>/i, () => `  ${head.tags}\n  </head>`);
  const plain = Buffer.from(html);
  if (encoding === 'br') return brotli(plain, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } });
  if (encoding === 'gzip') return gzipAsync(plain, { level: 6 });
  return plain;
}

async function localizedShell(file: string, locale: Locale, encoding: Encoding | null, organization: Organization | null, staffPage: boolean): Promise<Buffer> {
  const mtimeMs = (await stat(file)).mtimeMs;
  const identity = JSON.stringify(organization);
  if (identity !== shellsIdentity) {
    shells.clear();
    shellsIdentity = identity;
  }
  const key = `${file}|${locale}|${encoding ?? 'identity'}|${staffPage ? 'staff' : 'public'}`;
  const known = shells.get(key);
  if (known?.mtimeMs === mtimeMs) return known.body;
  const localized = await localizedHtml(file, locale);
  const html = organization ? brandShell(localized, organization, staffPage) : localized;
  const plain = Buffer.from(html);
  const body =
    encoding === 'br'
      ? await brotli(plain, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } })
      : encoding === 'gzip'
        ? await gzipAsync(plain, { level: 9 })
        : plain;
  shells.set(key, { mtimeMs, body });
  return body;
}

interface RoutePreload {
  /** A client route pattern: `/events/:id`. */
  path: string;
  js: string[];
  css: string[];
  /** The areas (door, admin) whose catalogue the page awaits before its first screen. */
  areas?: Array<'door' | 'admin'>;
}

interface PreloadTable {
  /** The entry script(s) index.html loads. */
  entry: string[];
  routes: RoutePreload[];
  /** Each locale's catalogue chunk(s) (client/i18n), which the entry loads before the first render. */
  locales?: Partial<Record<Locale, string[]>>;
  /** The door's and the admin's catalogue chunk(s) per locale. */
  areaLocales?: Partial<Record<'door' | 'admin', Partial<Record<Locale, string[]>>>>;
}

const NO_PRELOADS: PreloadTable = { entry: [], routes: [], locales: {}, areaLocales: {} };

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
async function routePreloadLink(root: string, pathname: string, locale: Locale): Promise<string | null> {
  const { entry, routes, locales, areaLocales } = await routePreloads(root);
  const route = matchRoute(routes, pathname)?.route;
  const catalogue = [...(locales?.[locale] ?? []), ...(route?.areas ?? []).flatMap((area) => areaLocales?.[area]?.[locale] ?? [])];
  if ((!route || route.js.length + route.css.length === 0) && catalogue.length === 0) return null;
  // the entry first (header hints are fetched in order), then the catalogue the entry waits for;
  // `crossorigin` on the stylesheet as Vite's loader asks for it, or the preload goes unused
  return [
    ...[...entry, ...catalogue, ...(route?.js ?? [])].map((src) => `<${src}>; rel=modulepreload`),
    ...(route?.css ?? []).map((href) => `<${href}>; rel=preload; as=style; crossorigin`),
  ].join(', ');
}

/** The build writes these beside each compressible file (server/build-client.ts), brotli preferred. */
const ENCODINGS = { br: '.br', gzip: '.gz' } as const;
type Encoding = keyof typeof ENCODINGS;

/** The encodings the client accepts (q > 0), brotli first. */
function acceptedEncodings(acceptEncoding: string | undefined): Encoding[] {
  if (!acceptEncoding) return [];
  const accepted = new Map(
    acceptEncoding.split(',').map((part) => {
      const [name, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
      return [name!.trim(), q === undefined ? 1 : Number(q)] as const;
    }),
  );
  return (Object.keys(ENCODINGS) as Encoding[]).filter((encoding) => (accepted.get(encoding) ?? accepted.get('*') ?? 0) > 0);
}

function acceptedEncoding(acceptEncoding: string | undefined): Encoding | null {
  return acceptedEncodings(acceptEncoding)[0] ?? null;
}

/** The precompressed copy the client accepts (q > 0), if the build made one. */
async function precompressedFor(file: string, acceptEncoding: string | undefined): Promise<Encoding | null> {
  for (const encoding of acceptedEncodings(acceptEncoding)) if (await isFile(`${file}${ENCODINGS[encoding]}`)) return encoding;
  return null;
}

async function isFile(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isFile();
  } catch {
    return false;
  }
}
