/**
 * The web app manifest in the reader's language (docs/decisions/027-languages.md): the build's
 * manifest with its words from the server's catalogue and `lang`/`dir` set, negotiated as a page's
 * shell is (`?lang=`, the `svc_lang` cookie, Accept-Language); the shell links its locale's copy,
 * and the service worker precaches every locale's. Also the shells of /door and /login, which are
 * not visitor pages but speak the same language.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLIENT_DIST } from '../../server/build-client';
import { LOCALES } from '../../shared/i18n/locales';
import { useTestServer } from '../helpers/test-server';

const { server: srv } = useTestServer({ client: true, login: false, env: { SVC_JOBS: 'off' } });

type Manifest = Record<string, unknown>;
const built = () => JSON.parse(readFileSync(path.join(CLIENT_DIST, 'manifest.webmanifest'), 'utf8')) as Manifest;

async function manifest(query = '', headers: Record<string, string> = {}): Promise<{ res: Response; body: Manifest }> {
  const res = await fetch(`${srv.url}/manifest.webmanifest${query}`, { headers });
  expect(res.status).toBe(200);
  return { res, body: (await res.json()) as Manifest };
}

/** The members that are not words: as the build wrote them, in every language. */
const fixedMembers = (m: Manifest) => ({
  id: m.id,
  start_url: m.start_url,
  scope: m.scope,
  display: m.display,
  theme_color: m.theme_color,
  background_color: m.background_color,
  icons: m.icons,
});

describe('the web app manifest’s language', () => {
  it('with nothing to go on it is the build’s English manifest, left to right, cacheable and revalidated by ETag', async () => {
    const { res, body } = await manifest();
    expect(body).toEqual({ ...built(), lang: 'en', dir: 'ltr' });
    expect(body).toMatchObject({ name: 'svc', short_name: 'svc', description: 'Event check-in and bookings, online or offline.' });
    expect(res.headers.get('content-type')).toBe('application/manifest+json; charset=utf-8');
    expect(res.headers.get('content-language')).toBe('en');
    expect(res.headers.get('cache-control')).toBe('public, no-cache');
    expect(res.headers.get('vary')).toMatch(/Accept-Language/);
    expect(res.headers.get('vary')).toMatch(/Cookie/);

    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${srv.url}/manifest.webmanifest`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    // another language is another body: the English ETag does not answer it
    const german = await fetch(`${srv.url}/manifest.webmanifest?lang=de`, { headers: { 'if-none-match': etag } });
    expect(german.status).toBe(200);
  });

  it('?lang=de answers German words with the build’s icons, start_url, scope and colours', async () => {
    const { res, body } = await manifest('?lang=de', { 'accept-language': 'fr', cookie: 'svc_lang=nl' });
    expect(body.description).toBe('Einlass und Buchungen für Veranstaltungen, online wie offline.');
    expect(body).toMatchObject({ name: 'svc', short_name: 'svc', lang: 'de', dir: 'ltr' });
    expect(fixedMembers(body)).toEqual(fixedMembers(built()));
    expect(res.headers.get('content-language')).toBe('de');
    // the manifest sets no cookie: only a page's link keeps a choice
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('an Arabic browser gets the Arabic manifest, right to left; the svc_lang cookie wins over the browser', async () => {
    const { res, body } = await manifest('', { 'accept-language': 'ar-EG, en;q=0.5' });
    expect(body).toMatchObject({ lang: 'ar', dir: 'rtl', description: 'تسجيل الحضور والحجوزات للفعاليات، مع الاتصال بالإنترنت أو من دونه.' });
    expect(fixedMembers(body)).toEqual(fixedMembers(built()));
    expect(res.headers.get('content-language')).toBe('ar');

    const byCookie = await manifest('', { 'accept-language': 'ar', cookie: 'svc_lang=it' });
    expect(byCookie.body).toMatchObject({ lang: 'it', dir: 'ltr', description: 'Check-in e prenotazioni per eventi, online o offline.' });
    // the service worker's install fetch adds its revision to the query: the language still comes from ?lang=
    const precached = await manifest('?lang=pt-BR&__WB_REVISION__=abc');
    expect(precached.body).toMatchObject({ lang: 'pt-BR', description: 'Check-in e reservas para eventos, online ou offline.' });
  });

  it('a page’s shell links its language’s manifest and describes itself in that language, and /door and /login shells speak it too', async () => {
    for (const [page, locale, dir] of [
      ['/events', 'de', 'ltr'],
      ['/door', 'ar', 'rtl'],
      ['/login', 'ar', 'rtl'],
      ['/door', 'fr', 'ltr'],
      ['/login', 'nl', 'ltr'],
    ] as const) {
      const res = await fetch(`${srv.url}${page}?lang=${locale}`);
      const html = await res.text();
      expect(res.headers.get('content-language'), page).toBe(locale);
      expect(/<html\b[^>]*>/.exec(html)?.[0], page).toBe(`<html lang="${locale}" dir="${dir}">`);
      expect(html, page).toContain(`<link rel="manifest" href="/manifest.webmanifest?lang=${locale}">`);
      const { body } = await manifest(`?lang=${locale}`);
      expect(html, page).toContain(`<meta name="description" content="${String(body.description)}"`);
    }
  });

  it('the service worker precaches every locale’s manifest, so an installed app keeps its language offline', () => {
    const worker = readFileSync(path.join(CLIENT_DIST, 'sw.js'), 'utf8');
    for (const locale of LOCALES) expect(worker, locale).toMatch(new RegExp(`url:"/manifest\\.webmanifest\\?lang=${locale}",revision:"[0-9a-f]{32}"`));
    expect(worker).toMatch(/url:"manifest\.webmanifest",revision:"[0-9a-f]{32}"/);
  });
});
