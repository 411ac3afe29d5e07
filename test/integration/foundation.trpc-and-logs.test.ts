import { describe, expect, it } from 'vitest';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import superjson from 'superjson';
import { Writable } from 'node:stream';
import type { AppRouter } from '../../server/trpc/router';
import { createLogger } from '../../server/logger';
import { useTestServer } from '../helpers/test-server';
import { loginAs } from '../helpers/http';

const logLines: string[] = [];
const sink = new Writable({
  write(chunk, _enc, cb) {
    logLines.push(chunk.toString());
    cb();
  },
});

const { server: srv } = useTestServer({ logger: createLogger('info', sink), login: false });

function trpc(cookie?: string) {
  return createTRPCClient<AppRouter>({
    links: [httpBatchLink({ url: `${srv.url}/trpc`, transformer: superjson, headers: () => (cookie ? { cookie, origin: srv.url } : {}) })],
  });
}

describe('tRPC at /trpc', () => {
  it('answers a signed-in caller through the same auth service as REST', async () => {
    const { cookie } = await loginAs(srv.url, srv.admin.email, srv.admin.password);
    const me = await trpc(cookie).auth.me.query();
    expect(me).toMatchObject({ email: srv.admin.email, role: 'administrator' });
  });

  it('maps the one error type: no credentials → UNAUTHORIZED with svcCode svc_unauthorized', async () => {
    const err = await trpc().auth.me.query().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TRPCClientError);
    const data = (err as TRPCClientError<AppRouter>).data as { code: string; httpStatus: number; svcCode: string };
    expect(data).toMatchObject({ code: 'UNAUTHORIZED', httpStatus: 401, svcCode: 'svc_unauthorized' });
  });
});

describe('request logs', () => {
  it('are structured and never contain a token from the path or query', async () => {
    const token = 'A'.repeat(32) + 'b'.repeat(32);
    await fetch(`${srv.url}/svc/v1/bookings/${token}`);
    await fetch(`${srv.url}/svc/v1/events/1/form?formToken=${token}`);
    const { cookie } = await loginAs(srv.url, srv.admin.email, srv.admin.password);
    await fetch(`${srv.url}/svc/v1/auth/me`, { headers: { cookie } });
    const text = logLines.join('');
    expect(text).not.toContain(token);
    expect(text).not.toContain(cookie.split('=')[1]!);
    expect(text).not.toContain(srv.admin.password);
    const entries = logLines.map((l) => JSON.parse(l) as { msg: string; path?: string; status?: number });
    const bookingLine = entries.find((e) => e.msg === 'request' && e.path?.startsWith('/svc/v1/bookings/'));
    expect(bookingLine).toMatchObject({ path: '/svc/v1/bookings/:redacted', status: 404 });
  });
});
