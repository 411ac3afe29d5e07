/**
 * The typed tRPC client of the PWA (`/trpc`, superjson's wire format: shared/transformer.ts). Errors carry the SPEC §3 code in
 * `error.data.svcCode`; `trpcErrorCode(err)` reads it (or 'network' when no answer came).
 */
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { transformer } from '../shared/transformer';
import type { AppRouter } from '../server/trpc/router';

export type { AppRouter };

/** A client for the signed-in browser (session cookie) or, with `bearer`, a paired door device. */
export function createTrpc(opts: { bearer?: () => string | null; url?: string } = {}) {
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: opts.url ?? '/trpc',
        transformer,
        headers() {
          const token = opts.bearer?.();
          return token ? { authorization: `Bearer ${token}` } : {};
        },
      }),
    ],
  });
}

/** The SPEC §3 code of a failed call: `svc_…`, or `'network'` when the server was not reached. */
export function trpcErrorCode(err: unknown): string {
  if (err instanceof TRPCClientError) {
    const data = err.data as { svcCode?: string | null } | undefined;
    if (data?.svcCode) return data.svcCode;
    if (!err.data) return 'network';
    return 'svc_internal';
  }
  return 'network';
}
