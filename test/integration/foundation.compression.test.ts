/**
 * Compressed and cached answers: built assets come precompressed (brotli, else gzip) by
 * Accept-Encoding; JSON over 1 KB and streamed exports are gzipped on the fly; hashed assets are
 * immutable for a year, the shell and the service worker revalidated.
 */
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/test-server';
import { createEvent } from '../helpers/registration';

const { server: srv, admin } = useTestServer({ client: true, env: { SVC_JOBS: 'off' } });

/** A raw GET (fetch would decode the body and hide the encoding). */
function rawGet(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
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

async function assetPath(): Promise<string> {
  const shell = (await rawGet('/')).body.toString();
  return /src="(\/assets\/index-[^"]+\.js)"/.exec(shell)![1]!;
}

describe('built assets', () => {
  it('a hashed script is served precompressed with brotli, else gzip, else plain, and cached immutable for a year', async () => {
    const path = await assetPath();
    const plain = await rawGet(path);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers.vary).toBe('Accept-Encoding');

    const br = await rawGet(path, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.length).toBeLessThan(plain.body.length / 2);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);

    const gz = await rawGet(path, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);

    const refused = await rawGet(path, { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
  });

  it('the shell and the service worker are revalidated on every load', async () => {
    for (const path of ['/', '/events', '/sw.js']) {
      const res = await rawGet(path, { 'accept-encoding': 'br' });
      expect(res.status, path).toBe(200);
      expect(res.headers['cache-control'], path).toBe('no-cache');
    }
  });
});

describe('API answers', () => {
  it('JSON over 1 KB is gzipped on the fly; a small answer is not', async () => {
    const doc = await rawGet('/svc/v1/openapi.json', { 'accept-encoding': 'gzip' });
    expect(doc.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(doc.body).toString()).openapi).toBe('3.1.0');
    const small = await rawGet('/svc/v1/health', { 'accept-encoding': 'gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    // an error answer is small too (a rush of "full" refusals is not gzipped one by one)
    const refused = await rawGet('/svc/v1/events/999999', { 'accept-encoding': 'gzip' });
    expect(refused.status).toBe(404);
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(Number(refused.headers['content-length'])).toBe(refused.body.length);
    expect(JSON.parse(refused.body.toString()).code).toBe('svc_not_found');
  });

  it('a streamed CSV export is gzipped on the fly', async () => {
    const event = await createEvent(admin.api);
    const res = await rawGet(`/svc/v1/attendees/export?eventId=${event.id}&format=csv`, { 'accept-encoding': 'gzip', cookie: admin.cookie });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.body).toString()).toContain('email');
  });
});
