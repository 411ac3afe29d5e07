/**
 * The web app manifest in the reader's language (docs/decisions/027-languages.md): the build's
 * manifest.webmanifest (icons, start_url, scope, colours as vite.config.ts writes them) with its
 * words — name, short_name, description — from the server's catalogue and `lang`/`dir` set, for
 * the locale negotiated as for a page's shell: `?lang=`, the `svc_lang` cookie, Accept-Language.
 * The shell links `/manifest.webmanifest?lang=<locale>` and the page follows a switch of language,
 * so the service worker precaches one copy per locale and an installed app is named in its language.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Context } from 'hono';
import { LANG_PARAM, localeDirection, negotiateLocale, type Locale } from '../shared/i18n/locales';
import { namesSpokenLocale, requestLanguage } from './i18n/request-language';
import type { PageLanguageHints } from './i18n/page-language';
import { translate } from './i18n/translate';
import type { Organization } from '../shared/organization';

export const MANIFEST_PATH = '/manifest.webmanifest';
const MANIFEST_FILE = 'manifest.webmanifest';

/** The manifest's members in `locale`: the build's, with the words and the language replaced. */
export function localizeManifest(base: Record<string, unknown>, locale: Locale, organizationName = ''): Record<string, unknown> {
  // an installed app carries the organization's name where it has one (docs/decisions/050-organization-identity.md)
  const name = organizationName.trim();
  return {
    ...base,
    name: name || translate(locale, 'manifest.name'),
    short_name: name || translate(locale, 'manifest.shortName'),
    description: translate(locale, 'manifest.description'),
    lang: locale,
    dir: localeDirection(locale),
  };
}

/**
 * The shell's head in `locale`: the manifest link names the locale (a manifest is fetched without
 * cookies, and the worker precaches one copy per locale), and the description is the manifest's.
 */
export function localizeShellHead(html: string, locale: Locale): string {
  return html
    .replace(/(<link rel="manifest" href=")\/manifest\.webmanifest(")/, `$1${MANIFEST_PATH}?${LANG_PARAM}=${locale}$2`)
    .replace(
      /(<meta name="description" content=")[^"]*(")/,
      (_all, start: string, end: string) => `${start}${escapeAttribute(translate(locale, 'manifest.description'))}${end}`,
    );
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

interface LocalizedManifest {
  body: string;
  etag: string;
}

/** Per build folder and locale, re-made when the build's manifest changes (a deploy in place). */
const made = new Map<string, { mtimeMs: number; manifest: LocalizedManifest }>();

async function localizedManifest(file: string, locale: Locale, organizationName: string): Promise<LocalizedManifest | null> {
  const mtimeMs = await stat(file).then(
    (s) => (s.isFile() ? s.mtimeMs : -1),
    () => -1,
  );
  if (mtimeMs < 0) return null;
  const key = `${file}|${locale}|${organizationName}`;
  const known = made.get(key);
  if (known?.mtimeMs === mtimeMs) return known.manifest;
  const base = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  const body = JSON.stringify(localizeManifest(base, locale, organizationName));
  const manifest = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` };
  made.set(key, { mtimeMs, manifest });
  return manifest;
}

/**
 * Answers GET/HEAD /manifest.webmanifest from the build in `root`, or null (no build: 404 as
 * before). Revalidated like the shell (an update's icons are seen at once) but cheap to keep: an
 * ETag per language answers a repeat with 304. Vary names what the language was chosen from.
 */
export function manifestHandler(
  root: string,
  pageLanguage?: (urlPath: string) => Promise<PageLanguageHints>,
  organization?: (c: Context) => Promise<Pick<Organization, 'name'>>,
) {
  const file = path.join(path.resolve(root), MANIFEST_FILE);
  return async (c: Context): Promise<Response | null> => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return null;
    const reader = requestLanguage(c);
    // as the shell: the organization's default only when the reader names nothing svc speaks
    const hints = namesSpokenLocale(reader) || !pageLanguage ? {} : await pageLanguage(MANIFEST_PATH);
    const locale = negotiateLocale({ ...reader, orgDefault: hints.orgDefault });
    const manifest = await localizedManifest(file, locale, organization ? (await organization(c)).name : '');
    if (!manifest) return null;
    const headers: Record<string, string> = {
      'content-type': 'application/manifest+json; charset=utf-8',
      'cache-control': 'public, no-cache',
      etag: manifest.etag,
      'content-language': locale,
      'x-content-type-options': 'nosniff',
      // the same URL answers in another language to another browser or cookie
      vary: 'Accept-Language, Cookie',
    };
    if (ifNoneMatch(c.req.header('if-none-match'), manifest.etag)) return new Response(null, { status: 304, headers });
    headers['content-length'] = String(Buffer.byteLength(manifest.body));
    return new Response(c.req.method === 'HEAD' ? null : manifest.body, { status: 200, headers });
  };
}

function ifNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}
