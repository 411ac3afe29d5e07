import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertTargetAllowed, isPrivateAddress, OutboundError, postOutbound, outboundFetch } from '../../server/security/outbound';

const strict = { allowPrivate: false };
const open = { allowPrivate: true };

describe('outbound targets (docs/api.md#webhooks): loopback, private and link-local refused unless allowed', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '224.0.0.1',
  ])('%s is private', (ip) => expect(isPrivateAddress(ip)).toBe(true));
  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (ip) => expect(isPrivateAddress(ip)).toBe(false));

  it('only absolute http(s) URLs without credentials are saved, naming the field', () => {
    for (const bad of ['ftp://example.com/', 'file:///etc/passwd', 'javascript:alert(1)', 'example.com/hook', 'https://user:pw@example.com/']) {
      expect(() => assertTargetAllowed(bad, strict, 'chatWebhookUrl')).toThrowError(
        expect.objectContaining({ code: 'svc_invalid_param', data: expect.objectContaining({ params: { chatWebhookUrl: expect.any(String) } }) }),
      );
    }
    expect(assertTargetAllowed('https://hooks.example.com/T1', strict).hostname).toBe('hooks.example.com');
  });

  it('a literal private address or a localhost name is refused at save time, and allowed with the flag', () => {
    for (const bad of ['http://127.0.0.1:8080/', 'http://[::1]/', 'http://localhost/', 'http://api.localhost/', 'http://169.254.169.254/latest/meta-data']) {
      expect(() => assertTargetAllowed(bad, strict)).toThrowError(expect.objectContaining({ code: 'svc_invalid_param' }));
      expect(() => assertTargetAllowed(bad, open)).not.toThrow();
    }
  });
});

describe('postOutbound: checked at delivery time, no redirects, a deadline and a capped body', () => {
  let server: http.Server;
  let base = '';
  const hits: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/redirect') return void res.writeHead(302, { location: '/ok' }).end();
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 2_000).unref();
      if (req.url === '/huge') return void res.end('x'.repeat(1_000_000));
      req.resume();
      req.on('end', () => res.end('fine'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('a name that resolves to loopback is refused before any request is made', async () => {
    const port = new URL(base).port;
    const before = hits.length;
    const err = await postOutbound(`http://hooks.example.test:${port}/ok`, '{}', {}, { allowPrivate: false, lookup: async () => ['127.0.0.1'] }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(OutboundError);
    expect((err as OutboundError).refused).toBe(true);
    expect(hits.length).toBe(before);
  });

  it('a name with the flag connects to the address it resolved to', async () => {
    const port = new URL(base).port;
    const res = await postOutbound(`http://hooks.example.test:${port}/ok`, '{"a":1}', {}, { allowPrivate: true, lookup: async () => ['127.0.0.1'] });
    expect(res).toMatchObject({ status: 200, body: 'fine' });
  });

  it('a redirect is an answer, not followed', async () => {
    const before = hits.length;
    const res = await postOutbound(`${base}/redirect`, '{}', {}, open);
    expect(res.status).toBe(302);
    expect(hits.slice(before)).toEqual(['/redirect']);
  });

  it('no answer within the deadline fails', async () => {
    await expect(postOutbound(`${base}/slow`, '{}', {}, open, { timeoutMs: 200 })).rejects.toThrow(/no answer within/);
  });

  it('the body is read only up to the cap', async () => {
    const res = await postOutbound(`${base}/huge`, '{}', {}, open, { maxResponseBytes: 1024 });
    expect(res.body.length).toBe(1024);
  });

  it('a refused connection fails without internals', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(postOutbound(`http://127.0.0.1:${port}/`, '{}', {}, open)).rejects.toThrow('connection refused');
  });
});

describe('outboundFetch: the fetch tsdav is given keeps the same rules', () => {
  let server: http.Server;
  let base = '';
  const seen: Array<{ method: string; url: string; body: string }> = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', body });
        if (req.url === '/huge') return void res.end('x'.repeat(100_000));
        if (req.url === '/empty') return void res.writeHead(204).end();
        res.writeHead(207, { 'content-type': 'application/xml', dav: '1, calendar-access' }).end('<multistatus/>');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('any method with its text body is sent, and the answer comes back as a Response with status and headers', async () => {
    const res = await outboundFetch({ allowPrivate: true })(`${base}/cal/`, { method: 'PROPFIND', headers: { depth: '0' }, body: '<propfind/>' });
    expect(res.status).toBe(207);
    expect(res.headers.get('dav')).toBe('1, calendar-access');
    expect(await res.text()).toBe('<multistatus/>');
    expect(seen.at(-1)).toEqual({ method: 'PROPFIND', url: '/cal/', body: '<propfind/>' });
    expect((await outboundFetch({ allowPrivate: true })(`${base}/empty`)).status).toBe(204);
  });

  it('a loopback address is refused without the flag, and an answer over the cap fails instead of being cut', async () => {
    await expect(outboundFetch({ allowPrivate: false })(`${base}/cal/`)).rejects.toBeInstanceOf(OutboundError);
    await expect(outboundFetch({ allowPrivate: true }, { maxResponseBytes: 1024 })(`${base}/huge`)).rejects.toThrow(/larger than/);
  });
});
