/**
 * The HTML shell of every page speaks the reader's language before any script runs
 * (docs/decisions/027-languages.md): `<html lang dir>` and `Content-Language` from the link's
 * `?lang=`, the `svc_lang` cookie, then Accept-Language, then English; `?lang=` keeps the choice.
 */
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/test-server';

const { server: srv } = useTestServer({ client: true, login: false, env: { SVC_JOBS: 'off' } });

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A raw GET (fetch would decode the body and hide the encoding). */
function rawGet(path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(`${srv.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

function htmlTag(body: Buffer): string {
  return /<html\b[^>]*>/i.exec(body.toString())?.[0] ?? '';
}

describe('the page shell’s language', () => {
  it('follows the browser’s Accept-Language: <html lang dir> and Content-Language, varying by language and cookie', async () => {
    const res = await rawGet('/events/1', { 'accept-language': 'ja, de-DE;q=0.9, en;q=0.8' });
    expect(res.status).toBe(200);
    expect(htmlTag(res.body)).toBe('<html lang="de" dir="ltr">');
    expect(res.headers['content-language']).toBe('de');
    expect(String(res.headers.vary)).toMatch(/Accept-Language/);
    expect(String(res.headers.vary)).toMatch(/Cookie/);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('?lang=ar chooses Arabic over the browser, writes right to left, and keeps the choice in the svc_lang cookie', async () => {
    const res = await rawGet('/events?lang=ar', { 'accept-language': 'de' });
    expect(htmlTag(res.body)).toBe('<html lang="ar" dir="rtl">');
    expect(res.headers['content-language']).toBe('ar');
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^svc_lang=ar; Path=\/; Max-Age=31536000; SameSite=Lax$/);
  });

  it('the svc_lang cookie wins over Accept-Language, and a ?lang= svc does not speak is passed over without touching it', async () => {
    const res = await rawGet('/events?lang=xx', { 'accept-language': 'de', cookie: 'other=1; svc_lang=fr' });
    expect(res.status).toBe(200);
    expect(htmlTag(res.body)).toBe('<html lang="fr" dir="ltr">');
    expect(res.headers['content-language']).toBe('fr');
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('a regional tag reads as its language (pt-PT → pt-BR), and with nothing to go on the shell is English', async () => {
    expect(htmlTag((await rawGet('/', { 'accept-language': 'pt-PT' })).body)).toBe('<html lang="pt-BR" dir="ltr">');
    const plain = await rawGet('/');
    expect(htmlTag(plain.body)).toBe('<html lang="en" dir="ltr">');
    expect(plain.headers['content-language']).toBe('en');
  });

  it('garbage in the link, the cookie or the header opens the page in English, never an error', async () => {
    const res = await rawGet(`/events?lang=%3Cscript%3E&lang=de`, {
      'accept-language': `${'x'.repeat(5000)};q=, ,;;q=abc`,
      cookie: 'svc_lang=%E0%A4%A',
    });
    expect(res.status).toBe(200);
    expect(htmlTag(res.body)).toBe('<html lang="en" dir="ltr">');
  });

  it('comes compressed in the chosen language, and preloads that language’s catalogue beside the entry script', async () => {
    const br = await rawGet('/events', { 'accept-encoding': 'br', 'accept-language': 'nl' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(htmlTag(brotliDecompressSync(br.body))).toBe('<html lang="nl" dir="ltr">');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    const link = String(br.headers.link);
    expect(link).toMatch(/<\/assets\/nl-[\w-]+\.js>; rel=modulepreload/);
    expect(link).not.toMatch(/\/assets\/en-[\w-]+\.js/);

    const gz = await rawGet('/events', { 'accept-encoding': 'gzip', cookie: 'svc_lang=ar' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(htmlTag(gunzipSync(gz.body))).toBe('<html lang="ar" dir="rtl">');
  });

  it('a door or admin page also preloads its own area’s catalogue in that language; a visitor page only the public one', async () => {
    const catalogues = (link: unknown, locale: string) =>
      [...String(link).matchAll(new RegExp(`</assets/${locale}-[\\w-]+\\.js>; rel=modulepreload`, 'g'))].length;
    expect(catalogues((await rawGet('/events', { 'accept-language': 'de' })).headers.link, 'de')).toBe(1);
    const admin = (await rawGet('/admin/events', { 'accept-language': 'de' })).headers.link;
    expect(catalogues(admin, 'de'), 'public and admin').toBe(2);
    expect(String(admin)).not.toMatch(/\/assets\/en-/);
    expect(catalogues((await rawGet('/door?lang=ar')).headers.link, 'ar'), 'public and door').toBe(2);
  });

  it('/index.html itself, the service worker’s copy, is the build’s file unchanged', async () => {
    const res = await rawGet('/index.html', { 'accept-language': 'de', cookie: 'svc_lang=ar' });
    expect(htmlTag(res.body)).toBe('<html lang="en">');
    expect(res.headers['content-language']).toBeUndefined();
  });
});
