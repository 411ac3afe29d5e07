import { describe, expect, it } from 'vitest';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import superjson from 'superjson';
import type { AppRouter } from '../../server/api/router';
import { capturedLogger } from '../helpers/logs';
import { useTestServer } from '../helpers/test-server';
import { loginAs } from '../helpers/http';

const captured = capturedLogger('info');
const logLines = captured.lines;

const { server: srv } = useTestServer({ logger: captured.logger, login: false });

/** A client as the browser's: with `seen`, the Set-Cookie headers of every answer are collected. */
function trpc(cookie?: string, seen?: string[]) {
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${srv.url}/trpc`,
        transformer: superjson,
        headers: () => (cookie ? { cookie, origin: srv.url } : {}),
        fetch: async (url, init) => {
          const res = await fetch(url, init);
          seen?.push(...res.headers.getSetCookie());
          return res;
        },
      }),
    ],
  });
}

describe('tRPC at /trpc', () => {
  it('answers a signed-in caller through the same auth service as REST', async () => {
    const { cookie } = await loginAs(srv.url, srv.admin.email, srv.admin.password);
    const me = await trpc(cookie).auth.me.query();
    expect(me).toMatchObject({ email: srv.admin.email, role: 'administrator' });
  });

  it('auth.login sets the session cookie as REST does; auth.me answers with it; auth.logout clears it', async () => {
    const seen: string[] = [];
    const user = await trpc(undefined, seen).auth.login.mutate({ email: srv.admin.email, password: srv.admin.password });
    expect(user).toMatchObject({ email: srv.admin.email, role: 'administrator' });
    const session = seen.find((c) => c.startsWith('svc_session='));
    expect(session).toBeDefined();
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(session).toMatch(/Path=\//);
    const cookie = session!.split(';')[0]!;
    expect(await trpc(cookie).auth.me.query()).toMatchObject({ email: srv.admin.email, role: 'administrator' });

    const cleared: string[] = [];
    await trpc(cookie, cleared).auth.logout.mutate();
    expect(cleared.find((c) => c.startsWith('svc_session='))).toMatch(/Max-Age=0/i);
    const err = await trpc(cookie)
      .auth.me.query()
      .catch((e: unknown) => e);
    expect((err as TRPCClientError<AppRouter>).data).toMatchObject({ httpStatus: 401 });
  });

  it('maps the one error type: no credentials → UNAUTHORIZED with svcCode svc_unauthorized', async () => {
    const err = await trpc()
      .auth.me.query()
      .catch((e: unknown) => e);
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
