/**
 * GET /embed.js (docs/api.md#embeds): the script an organizer pastes into their website. Its URL
 * is fixed (it is written into other sites' pages, so it cannot carry a content hash): it is cached
 * for an hour and revalidated by ETag, so a new version reaches every site within the hour while a
 * page view costs at most a 304. The words it shows come from the server's catalogues.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { Context } from 'hono';
import { LOCALES } from '../../shared/i18n/locales';
import { translate } from '../i18n/translate';

export const EMBED_SCRIPT_PATH = '/embed.js';
export const EMBED_SCRIPT_CACHE_CONTROL = 'public, max-age=3600, stale-while-revalidate=86400';

function embedMessages() {
  return Object.fromEntries(
    LOCALES.map((locale) => [
      locale,
      {
        bookNow: translate(locale, 'embed.bookNow'),
        close: translate(locale, 'embed.close'),
        eventsTitle: translate(locale, 'embed.eventsTitle'),
        eventTitle: translate(locale, 'embed.eventTitle'),
        bookingTitle: translate(locale, 'embed.bookingTitle'),
      },
    ]),
  );
}

/** The script with its words filled in, made once per process. */
function buildScript(): { body: Buffer; gzipped: Buffer; etag: string } {
  const source = readFileSync(new URL('./embed.js', import.meta.url), 'utf8');
  const filled = source
    .replace(/^\/\* global __SVC_EMBED_MESSAGES__ \*\/\n/, '')
    .replace('const MESSAGES = __SVC_EMBED_MESSAGES__;', () => `const MESSAGES = ${JSON.stringify(embedMessages())};`);
  const body = Buffer.from(filled);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { body, gzipped: gzipSync(body, { level: 9 }), etag };
}

export function embedScriptHandler() {
  const script = buildScript();
  return (c: Context): Response => {
    const headers: Record<string, string> = {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': EMBED_SCRIPT_CACHE_CONTROL,
      etag: script.etag,
      vary: 'Accept-Encoding',
      // other sites load it; one that isolates itself (COEP) still may
      'cross-origin-resource-policy': 'cross-origin',
    };
    const match = c.req.header('if-none-match');
    if (match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === script.etag)) return new Response(null, { status: 304, headers });
    const gzip = /\bgzip\b/.test(c.req.header('accept-encoding') ?? '');
    const body = gzip ? script.gzipped : script.body;
    if (gzip) headers['content-encoding'] = 'gzip';
    headers['content-length'] = String(body.length);
    return new Response(c.req.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
  };
}
