import { describe, expect, it } from 'vitest';
import { startTestServer } from '../helpers/server';
import { useTestServer } from '../helpers/test-server';

const { server: srv } = useTestServer({ login: false, env: { SVC_JOBS: 'off' } });

async function headersOf(url: string, init?: RequestInit): Promise<Headers> {
  const res = await fetch(url, init);
  await res.body?.cancel();
  return res.headers;
}

describe('security headers on every answer', () => {
  it('the API, an error and tRPC carry the CSP without inline scripts, frame-ancestors none, no-referrer and the camera for our pages only', async () => {
    for (const path of ['/svc/v1/health', '/svc/v1/no-such-route', '/trpc/system.health']) {
      const h = await headersOf(`${srv.url}${path}`);
      const csp = h.get('content-security-policy') ?? '';
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      // WebAssembly may be compiled (the door's QR decoder), JS eval may not
      expect(csp, path).toContain("script-src 'self' 'wasm-unsafe-eval'");
      expect(csp, path).not.toMatch(/script-src[^;]*'unsafe-eval'/);
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(h.get('referrer-policy'), path).toBe('no-referrer');
      expect(h.get('permissions-policy'), path).toContain('camera=(self)');
      expect(h.get('permissions-policy'), path).toContain('microphone=()');
      expect(h.get('x-frame-options'), path).toBe('DENY');
      expect(h.get('x-content-type-options'), path).toBe('nosniff');
      expect(h.get('strict-transport-security'), path).toBeNull();
    }
  });

  it('HSTS only behind a TLS proxy that is trusted (SVC_TRUST_PROXY=1 and X-Forwarded-Proto: https)', async () => {
    // without trust the header is not believed
    expect((await headersOf(`${srv.url}/svc/v1/health`, { headers: { 'x-forwarded-proto': 'https' } })).get('strict-transport-security')).toBeNull();
    const trusted = await startTestServer({ env: { SVC_JOBS: 'off', SVC_TRUST_PROXY: '1' } });
    try {
      const h = await headersOf(`${trusted.url}/svc/v1/health`, { headers: { 'x-forwarded-proto': 'https' } });
      expect(h.get('strict-transport-security')).toMatch(/^max-age=\d{8,}/);
      expect((await headersOf(`${trusted.url}/svc/v1/health`)).get('strict-transport-security')).toBeNull();
    } finally {
      await trusted.close();
    }
  });
});
