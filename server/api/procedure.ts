import { initTRPC, TRPCError } from '@trpc/server';
import { transformer } from '../../shared/transformer';
import { ZodError } from 'zod';
import type { Context as HonoContext } from 'hono';
import { AppError, trpcCodeFor, type KnownErrorCode } from '../../shared/errors';
import { authorize, type Access, type Principal } from '../auth/principal';
import type { AppContext } from '../context';
import { assertNotCrossSite, assertSameOrigin, clientIp, resolvePrincipal } from '../http';
import { invalidParams } from './route';
import { localizedMessage, requestLocale } from './error-language';
import { databaseErrorCode, databaseUnavailable, isDatabaseUnavailable } from '../db/driver-faults';

export interface TrpcContext {
  ctx: AppContext;
  principal: Principal | null;
  ip: string;
  c: HonoContext;
  /** A credential that was refused with a specific code (a revoked door device): thrown by non-public procedures. */
  authError?: AppError;
}

export async function createTrpcContext(c: HonoContext, ctx: AppContext): Promise<TrpcContext> {
  try {
    return { ctx, principal: await resolvePrincipal(c, ctx), ip: clientIp(c), c };
  } catch (err) {
    if (err instanceof AppError) return { ctx, principal: null, ip: clientIp(c), c, authError: err };
    // The credential's look-up runs before any procedure, outside errorMapping: a connection lost
    // there answered 500 with nothing logged (a door push, docs/decisions/018-driver-connection-loss.md).
    if (isDatabaseUnavailable(err)) {
      ctx.logger.warn({ code: databaseErrorCode(err) }, 'connection lost under a request; answered 503');
      const app = databaseUnavailable();
      throw new TRPCError({ code: trpcCodeFor(app.code, app.status), message: app.message, cause: app });
    }
    throw err;
  }
}

const TRANSPORT_CODES: Partial<Record<TRPCError['code'], KnownErrorCode>> = {
  PARSE_ERROR: 'svc_invalid_json',
  BAD_REQUEST: 'svc_invalid_json',
  NOT_FOUND: 'svc_not_found',
  METHOD_NOT_SUPPORTED: 'svc_not_found',
  UNSUPPORTED_MEDIA_TYPE: 'svc_unsupported_media_type',
  PAYLOAD_TOO_LARGE: 'svc_payload_too_large',
};

const t = initTRPC.context<TrpcContext>().create({
  transformer,
  errorFormatter({ shape, error, ctx }) {
    // The docs/api.md#errors code travels in data.svcCode so the PWA handles REST and tRPC errors alike.
    const cause = error.cause;
    let app: AppError | null = cause instanceof AppError ? cause : null;
    if (!app && cause instanceof ZodError) app = invalidParams(cause);
    // The transport's own refusals (unreadable JSON, an unknown procedure) answer in our words too,
    // never the library's or the JSON parser's text.
    if (!app) app = new AppError(TRANSPORT_CODES[error.code] ?? 'svc_internal');
    return {
      ...shape,
      // in the language the request names (server/api/error-language.ts); the code never changes
      message: localizedMessage(app, ctx?.c ? requestLocale(ctx.c) : null),
      data: {
        code: shape.data.code,
        httpStatus: app?.status ?? shape.data.httpStatus,
        svcCode: app?.code ?? null,
        params: (app?.data.params as Record<string, string> | undefined) ?? null,
        // what REST says in Retry-After: seconds until a throttle lets the caller try again
        retryAfter: typeof app?.data.retryAfter === 'number' ? app.data.retryAfter : null,
      },
    };
  },
});

/** Turns the one error type into tRPC errors; anything unknown becomes svc_internal. */
const errorMapping = t.middleware(async ({ ctx, next }) => {
  const result = await next();
  if (!result.ok) {
    const err = result.error;
    if (err.cause instanceof AppError) {
      throw new TRPCError({ code: trpcCodeFor(err.cause.code, err.cause.status), message: err.cause.message, cause: err.cause });
    }
    if (isDatabaseUnavailable(err.cause)) {
      ctx.ctx.logger.warn({ code: databaseErrorCode(err.cause) }, 'connection lost under a request; answered 503');
      const app = databaseUnavailable();
      throw new TRPCError({ code: trpcCodeFor(app.code, app.status), message: app.message, cause: app });
    }
    if (err.code === 'INTERNAL_SERVER_ERROR') ctx.ctx.logger.error({ err: err.cause ?? err }, 'tRPC procedure failed');
  }
  return result;
});

export const router = t.router;
export const publicProcedure = t.procedure.use(errorMapping);

/** A procedure behind the same authorization layer as REST; mutations pass the same Origin checks. */
export function procedure(access: Access) {
  return publicProcedure.use(async ({ ctx, type, next }) => {
    try {
      if (access !== 'public' && ctx.authError) throw ctx.authError;
      const principal = authorize(ctx.principal, access);
      if (principal?.via === 'session' && type === 'mutation') assertSameOrigin(ctx.c, ctx.ctx);
      else if (type === 'mutation' && principal?.via !== 'token') assertNotCrossSite(ctx.c, ctx.ctx);
      return next({ ctx: { ...ctx, principal } });
    } catch (err) {
      if (err instanceof AppError) throw new TRPCError({ code: trpcCodeFor(err.code, err.status), message: err.message, cause: err });
      throw err;
    }
  });
}
