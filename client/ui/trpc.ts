/**
 * The one typed client of the PWA: tRPC at `/trpc` with superjson's wire format
 * (shared/transformer.ts), typed from the server's operations (docs/decisions/013-operations.md),
 * so a page reading a field an operation no longer returns fails the build.
 *
 * `rpc` is the browser's client (session cookie). `call(promise)` turns a failed call into the
 * errors pages already show: `ApiError` (the server said no: code, message, status, params) or
 * `NetworkError` (no answer). A visitor form's nonce travels as the X-Svc-Nonce header, as over
 * REST: pass it as `{ context: { nonce } }`.
 */
import { createTRPCClient, httpBatchLink, httpLink, splitLink, TRPCClientError } from '@trpc/client';
import { transformer } from '../../shared/transformer';
import type { AppRouter } from '../../server/api/router';
import { ApiError, NetworkError } from './errors';

export type { AppRouter };

/** A client for the signed-in browser (session cookie) or, with `bearer`, a paired door device. */
export function createTrpc(opts: { bearer?: () => string | null; url?: string } = {}) {
  const url = opts.url ?? '/trpc';
  const authorization = (): Record<string, string> => {
    const token = opts.bearer?.();
    return token ? { authorization: `Bearer ${token}` } : {};
  };
  return createTRPCClient<AppRouter>({
    links: [
      splitLink({
        // a call with its own header (the form nonce) goes alone, so a batch never mixes two
        condition: (op) => typeof op.context.nonce === 'string',
        true: httpLink({ url, transformer, headers: ({ op }) => ({ ...authorization(), 'x-svc-nonce': String(op.context.nonce) }) }),
        false: httpBatchLink({ url, transformer, headers: authorization }),
      }),
    ],
  });
}

let browserClient: ReturnType<typeof createTrpc> | undefined;

/** The browser's client (session cookie), made on first use. */
export function rpc(): ReturnType<typeof createTrpc> {
  browserClient ??= createTrpc();
  return browserClient;
}

/** The docs/api.md error of a failed call, as pages show it; anything else is rethrown unchanged. */
export function toApiError(err: unknown): unknown {
  if (!(err instanceof TRPCClientError)) return err;
  const data = err.data as { svcCode?: string | null; httpStatus?: number; params?: Record<string, string> | null; retryAfter?: number | null } | undefined;
  if (!data) return new NetworkError(err);
  const status = data.httpStatus ?? 500;
  return new ApiError(data.svcCode ?? 'svc_internal', err.message, status, {
    status,
    ...(data.params ? { params: data.params } : {}),
    ...(data.retryAfter ? { retryAfter: data.retryAfter } : {}),
  });
}

/** Awaits a tRPC call; a failure becomes `ApiError` or `NetworkError` (see `toApiError`). */
export async function call<T>(pending: Promise<T>): Promise<T> {
  try {
    return await pending;
  } catch (err) {
    throw toApiError(err);
  }
}

/** The docs/api.md#errors code of a failed call: `svc_…`, or `'network'` when the server was not reached. */
export function trpcErrorCode(err: unknown): string {
  if (err instanceof TRPCClientError) {
    const data = err.data as { svcCode?: string | null } | undefined;
    if (data?.svcCode) return data.svcCode;
    if (!err.data) return 'network';
    return 'svc_internal';
  }
  return 'network';
}
