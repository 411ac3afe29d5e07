import { describe, expect, it } from 'vitest';
import { EnvError, loadEnv } from '../../server/env';
import { EMBED_SCRIPT_CACHE_CONTROL } from '../../server/embed/embed-script';
import { useTestServer } from '../helpers/test-server';

const OPERATOR = 'https://operator.example';
const { server: srv, admin } = useTestServer({ client: true, env: { SVC_JOBS: 'off', SVC_EMBED_ORIGINS: `${OPERATOR}, http://localhost:8081/` } });

async function headersOf(path: string, init?: RequestInit): Promise<Headers> {
  const res = await fetch(`${srv.url}${path}`, init);
  await res.body?.cancel();
  return res.headers;
}

function frameAncestors(h: Headers): string {
  return /frame-ancestors ([^;]*)/.exec(h.get('content-security-policy') ?? '')?.[1] ?? '';
}

describe('framing: only the embeddable pages in their embedded form may be framed, by the allowed origins', () => {
  it('the events list, an event and a booking page with ?embed=1 name the operator’s origins in frame-ancestors and send no X-Frame-Options', async () => {
    for (const path of ['/events?embed=1', '/events/42?embed=1&lang=de', '/book/7?embed=1&host=https%3A%2F%2Foperator.example']) {
      const h = await headersOf(path);
      expect(frameAncestors(h), path).toBe(`${OPERATOR} http://localhost:8081`);
      expect(h.get('x-frame-options'), path).toBeNull();
    }
  });

  it('the same pages without ?embed=1, other pages, the API and assets still refuse framing', async () => {
    for (const path of [
      '/events',
      '/events/42',
      '/book/7',
      '/admin?embed=1',
      '/cancel/abc?embed=1',
      '/manage/abc?embed=1',
      '/events/submit?embed=1',
      '/',
      '/svc/v1/health?embed=1',
    ]) {
      const h = await headersOf(path);
      expect(frameAncestors(h), path).toBe("'none'");
      expect(h.get('x-frame-options'), path).toBe('DENY');
    }
  });

  it('origins saved in Settings → Embeds join the operator’s, normalized, and a save applies at once', async () => {
    const saved = await admin.api.put('/settings/embeds', { origins: ['https://Shop.Example:8443/', 'http://127.0.0.1:5173'] });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ origins: ['https://shop.example:8443', 'http://127.0.0.1:5173'], operatorOrigins: [OPERATOR, 'http://localhost:8081'] });
    expect(frameAncestors(await headersOf('/events?embed=1'))).toBe(`${OPERATOR} http://localhost:8081 https://shop.example:8443 http://127.0.0.1:5173`);
    expect((await admin.api.get('/settings/embeds')).body.origins).toEqual(['https://shop.example:8443', 'http://127.0.0.1:5173']);
    await admin.api.put('/settings/embeds', { origins: [] });
    expect(frameAncestors(await headersOf('/events?embed=1'))).toBe(`${OPERATOR} http://localhost:8081`);
  });

  it('a value that is not an origin is refused with the problem named, and nothing is stored', async () => {
    for (const bad of [
      'https://shop.example/path',
      'shop.example',
      'ftp://shop.example',
      "https://a.example; script-src 'unsafe-inline'",
      'https://*.example',
      'https://user@shop.example',
    ]) {
      const res = await admin.api.put('/settings/embeds', { origins: ['https://ok.example', bad] });
      expect(res.status, bad).toBe(400);
      expect(JSON.stringify(res.body), bad).toContain('origins');
    }
    expect((await admin.api.get('/settings/embeds')).body.origins).toEqual([]);
  });

  it('only an administrator reads or changes the embed settings', async () => {
    const res = await fetch(`${srv.url}/svc/v1/settings/embeds`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{"origins":["https://evil.example"]}',
    });
    expect(res.status).toBe(401);
    expect(frameAncestors(await headersOf('/events?embed=1'))).not.toContain('evil');
  });
});

describe('no origin allowed: embed pages refuse framing too', () => {
  const { server: bare } = useTestServer({ client: true, login: false, env: { SVC_JOBS: 'off' } });
  it("frame-ancestors 'none' and X-Frame-Options DENY on ?embed=1 pages", async () => {
    const res = await fetch(`${bare.url}/events?embed=1`);
    await res.body?.cancel();
    expect(frameAncestors(res.headers)).toBe("'none'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });
});

describe('SVC_EMBED_ORIGINS at start-up', () => {
  it('is parsed into normalized origins, each once', () => {
    expect(loadEnv({ SVC_EMBED_ORIGINS: 'https://A.example, http://localhost:8080/,https://a.example' }).embedOrigins).toEqual([
      'https://a.example',
      'http://localhost:8080',
    ]);
    expect(loadEnv({}).embedOrigins).toEqual([]);
  });

  it('a value that is not an origin stops start-up with the variable and the value named', () => {
    for (const bad of ['https://shop.example/widget', 'shop.example', "https://a.example 'unsafe-inline'"]) {
      expect(() => loadEnv({ SVC_EMBED_ORIGINS: `https://ok.example,${bad}` }), bad).toThrow(EnvError);
      expect(() => loadEnv({ SVC_EMBED_ORIGINS: `https://ok.example,${bad}` }), bad).toThrow(/SVC_EMBED_ORIGINS: ".*" is not an origin/);
    }
  });
});

describe('GET /embed.js', () => {
  it('is JavaScript, cached for an hour and revalidated by ETag, loadable by other sites', async () => {
    const res = await fetch(`${srv.url}/embed.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe(EMBED_SCRIPT_CACHE_CONTROL);
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const text = await res.text();
    expect(text).toContain("customElements.define(\n    'svc-booking'");
    // the words come from the server's catalogues, filled in
    expect(text).not.toContain('__SVC_EMBED_MESSAGES__');
    expect(text).toContain('"bookNow":"Jetzt buchen"');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await fetch(`${srv.url}/embed.js`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const gzipped = await fetch(`${srv.url}/embed.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(await gzipped.text()).toBe(text);
  });
});
