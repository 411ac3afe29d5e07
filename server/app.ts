import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { bodyLimit } from 'hono/body-limit';
import { HOST_PHOTO_MAX_BYTES } from '../shared/hosts';
import { IMAGE_MAX_BYTES } from '../shared/images';
import { mediaHandler } from './modules/images/media';
import { compress } from 'hono/compress';
import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { randomUUID } from 'node:crypto';
import { AppError } from '../shared/errors';
import type { AppContext } from './context';
import { redactPath } from './logger';
import { isSecure, setSecurityHeaders } from './http';
import { isEmbeddablePage } from '../shared/embeds';
import { allowedEmbedOrigins } from './modules/embeds/embeds.service';
import { EMBED_SCRIPT_PATH, embedScriptHandler } from './embed/embed-script';
import { allRoutes } from './modules';
import { buildOpenApi } from './api/openapi';
import { runRoute } from './api/route';
import { localizedBody } from './api/error-language';
import { staticHandler } from './static';
import { pageHead } from './share/page-meta';
import { pageLanguageHints } from './i18n/page-language';
import { MANIFEST_PATH, manifestHandler } from './manifest';
import { shellOrganization } from './organization-shell';
import { appRouter } from './api/router';
import { createTrpcContext } from './api/procedure';
import { observeRequest } from './metrics';
import { databaseErrorCode, databaseUnavailable, isDatabaseUnavailable } from './db/driver-faults';

const MAX_BODY_BYTES = 1024 * 1024;
/** PUT /hosts/{userId}/photo (docs/api.md#host-space). */
const HOST_PHOTO_PATH = /\/hosts\/\d+\/photo$/;
/** PUT /events/{id}/image, /booking-types/{id}/image, /settings/organization/logo (docs/api.md#images). */
const IMAGE_PATH = /\/(events\/\d+\/image|booking-types\/\d+\/image|settings\/organization\/logo)$/;

/** Seconds a refused caller should wait, for Retry-After: a throttle's or an absent database's. */
function retryAfterOf(err: AppError | null): number | null {
  const retryAfter = err?.data.retryAfter;
  return (err?.code === 'svc_rate_limited' || err?.code === 'svc_unavailable') && typeof retryAfter === 'number' ? retryAfter : null;
}

/** The error as JSON, its message in the language the request names (server/api/error-language.ts). */
function errorResponse(err: AppError, c: Context | null): Response {
  const headers = new Headers({ 'content-type': 'application/json; charset=utf-8' });
  const retryAfter = retryAfterOf(err);
  if (retryAfter !== null) headers.set('Retry-After', String(retryAfter));
  const text = JSON.stringify(localizedBody(err, c));
  // the length lets the compression step leave it alone: an error answer is always small
  headers.set('content-length', String(Buffer.byteLength(text)));
  return new Response(text, { status: err.status, headers });
}

/**
 * hono's bodyLimit, deciding from Content-Length alone when the request has one (as hono's does)
 * but without reading `c.req.raw.body` first: that makes @hono/node-server build a web Request with
 * a stream for the request, and the body is then read through web streams instead of straight from
 * the socket (~5 % of the server's CPU in a sign-up rush). A body without a length goes through
 * hono's own check, which counts the bytes as they come.
 */
function limitBody(maxSize: number): MiddlewareHandler {
  const counted = bodyLimit({ maxSize, onError: (c) => errorResponse(new AppError('svc_payload_too_large'), c) });
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length === undefined || c.req.header('transfer-encoding') !== undefined) return counted(c, next);
    if (Number.parseInt(length, 10) > maxSize) return errorResponse(new AppError('svc_payload_too_large'), c);
    return next();
  };
}

/**
 * The metrics label of a request: its route template (`/svc/v1/events/:id`), a tRPC procedure's
 * name, or `static` — never the raw path, so ids and tokens stay out and the label set stays small.
 */
function routeLabel(c: Context): string {
  const template = routePath(c, -1);
  if (template.startsWith('/trpc/')) {
    const name = new URL(c.req.url).pathname.slice('/trpc/'.length);
    return /^[A-Za-z.,]{1,200}$/.test(name) ? `/trpc/${name}` : '/trpc/*';
  }
  return template === '*' || template === '/*' ? 'static' : template;
}

/** The origins that may frame this answer: only an embeddable page's, in its embedded form (docs/decisions/052-embeds.md). */
async function frameAncestorsOf(c: Context, ctx: AppContext): Promise<string[] | null> {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return null;
  if (!c.res.headers.get('content-type')?.startsWith('text/html')) return null;
  const url = new URL(c.req.url);
  if (!isEmbeddablePage(url.pathname, url.searchParams)) return null;
  // without the saved list (database away) only the operator's origins may frame the page
  return allowedEmbedOrigins(ctx).catch(() => ctx.env.embedOrigins);
}

export function createApp(ctx: AppContext, opts: { staticDir?: string; version?: string; restMiddleware?: MiddlewareHandler[] } = {}): Hono {
  const app = new Hono();
  const log = ctx.logger;

  app.use('*', async (c, next) => {
    const started = performance.now();
    const requestId = randomUUID();
    c.header('x-request-id', requestId);
    await next();
    setSecurityHeaders(c, ctx, await frameAncestorsOf(c, ctx));
    observeRequest(ctx, c.req.method, routeLabel(c), c.res.status, (performance.now() - started) / 1000);
    const url = new URL(c.req.url);
    log.info(
      {
        requestId,
        method: c.req.method,
        path: redactPath(url.pathname + url.search),
        status: c.res.status,
        ms: Math.round(performance.now() - started),
      },
      'request',
    );
  });

  app.onError((err, c) => {
    if (err instanceof AppError) return errorResponse(err, c);
    if (isDatabaseUnavailable(err)) {
      log.warn(
        { code: databaseErrorCode(err), method: c.req.method, path: redactPath(new URL(c.req.url).pathname) },
        'connection lost under a request; answered 503',
      );
      return errorResponse(databaseUnavailable(), c);
    }
    log.error({ err, method: c.req.method, path: redactPath(new URL(c.req.url).pathname) }, 'unhandled error');
    return errorResponse(new AppError('svc_internal'), c);
  });

  const routes = allRoutes();
  const rest = new Hono();
  // JSON answers over 1 KB and streamed exports are gzipped on the fly (built assets come precompressed).
  rest.use('*', compress());
  const limitJson = limitBody(MAX_BODY_BYTES);
  // a host's photo is an image, not JSON: its own limit (the service answers a clear error above 5 MB)
  const limitPhoto = limitBody(HOST_PHOTO_MAX_BYTES + MAX_BODY_BYTES);
  // a cover image or logo: its own limit (the service answers a clear error above 8 MB)
  const limitImage = limitBody(IMAGE_MAX_BYTES + MAX_BODY_BYTES);
  rest.use('*', (c, next) => {
    if (c.req.method !== 'PUT') return limitJson(c, next);
    if (HOST_PHOTO_PATH.test(c.req.path)) return limitPhoto(c, next);
    return IMAGE_PATH.test(c.req.path) ? limitImage(c, next) : limitJson(c, next);
  });
  for (const middleware of opts.restMiddleware ?? []) rest.use('*', middleware);
  rest.get('/openapi.json', (c) => c.json(buildOpenApi(routes, { version: opts.version ?? '0.0.0', serverUrl: ctx.env.publicUrl })));
  for (const route of routes) rest.on(route.method.toUpperCase(), route.path, (c) => runRoute(route, c, ctx));
  rest.notFound((c) => errorResponse(new AppError('svc_not_found', 'No such route.'), c));
  app.route('/svc/v1', rest);

  app.use('/trpc/*', limitBody(8 * MAX_BODY_BYTES));
  // Queries (pull, first download) are large and repetitive (names, statuses, hex hashes) and
  // gzip ~3×; a push answer is small, and compressing it cost more CPU on the push path than it saved.
  const gzip = compress();
  app.use('/trpc/*', (c, next) => (c.req.method === 'GET' ? gzip(c, next) : next()));
  app.all('/trpc/*', async (c) => {
    const res = await fetchRequestHandler({
      endpoint: '/trpc',
      req: c.req.raw,
      router: appRouter,
      createContext: () => createTrpcContext(c, ctx),
      // Retry-After as REST sends it (errorResponse above), so a door's push or a throttled
      // login is told when to try again by the header as well as by data.retryAfter.
      responseMeta: ({ errors }) => {
        const wait = errors.map((e) => (e.cause instanceof AppError ? e.cause : null)).find((e) => retryAfterOf(e) !== null);
        return wait ? { headers: { 'Retry-After': String(retryAfterOf(wait)) } } : {};
      },
    });
    // Hono drops headers set on `c` when a handler returns its own Response; answering through
    // c.newResponse keeps them (a procedure's Set-Cookie: auth.login, auth.logout; x-request-id).
    return c.newResponse(res.body, res);
  });

  app.get(EMBED_SCRIPT_PATH, embedScriptHandler());
  // stored image variants, same origin (the content policy keeps img-src 'self')
  app.get('/media/:file', mediaHandler(ctx));

  const pageLanguage = pageLanguageHints(ctx);
  const organization = shellOrganization(ctx);
  const serveStatic = opts.staticDir
    ? staticHandler(opts.staticDir, { isSecure: (c) => isSecure(c, ctx), pageLanguage, organization, pageHead: pageHead(ctx) })
    : null;
  const serveManifest = opts.staticDir ? manifestHandler(opts.staticDir, pageLanguage, organization) : null;
  app.notFound(async (c) => {
    const path = new URL(c.req.url).pathname;
    if (serveManifest && path === MANIFEST_PATH) {
      const res = await serveManifest(c);
      if (res) return res;
    }
    if (serveStatic && !path.startsWith('/svc/') && !path.startsWith('/trpc/')) {
      const res = await serveStatic(c);
      if (res) return res;
    }
    return errorResponse(new AppError('svc_not_found', 'No such route.'), c);
  });

  return app;
}
