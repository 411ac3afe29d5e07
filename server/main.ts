import { serve, type ServerType } from '@hono/node-server';
import type { MiddlewareHandler } from 'hono';
import type { Duplex } from 'node:stream';
import { AppError } from '../shared/errors';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createApp } from './app';
import type { AppContext } from './context';
import { authService } from './auth/auth.service';
import { authenticateDeviceToken } from './modules/devices/devices.service';
import { openDatabase } from './db/client';
import type { Env } from './env';
import { Hooks } from './hooks';
import { JobRunner } from './jobs/queue';
import { createLogger, type Logger } from './logger';
import { registerMailJobs, type AttachmentRenderers } from './mail/mailer';
import { modules } from './modules';
import { createPluginContext, loadPlugins } from './plugins/load';
import { loadServerSecret } from './security/secret';
import { VisitorVerifiers } from './security/verifier';

export interface RunningServer {
  url: string;
  port: number;
  ctx: AppContext;
  /** Set on the first start of an empty database. */
  firstAdministrator: { email: string; generatedPassword?: string } | null;
  httpServer: ServerType;
  /** Stops accepting, finishes in-flight requests and jobs, closes the database. */
  close(): Promise<void>;
}

export interface StartOptions {
  logger?: Logger;
  staticDir?: string;
  /** In-memory PGlite (tests). */
  memoryDb?: boolean;
  version?: string;
  /** Middleware around every REST answer (the tests' OpenAPI conformance check). */
  restMiddleware?: MiddlewareHandler[];
}

/**
 * Requests Node refuses before any handler sees them still answer our error body: a request
 * line or headers past the 16 KB limit is 431 `svc_request_too_large`; anything else Node
 * cannot parse keeps its plain 400.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  if (err.code !== 'HPE_HEADER_OVERFLOW') {
    socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    return;
  }
  const body = JSON.stringify(new AppError('svc_request_too_large').toBody());
  socket.end(
    `HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export async function startServer(env: Env, opts: StartOptions = {}): Promise<RunningServer> {
  const logger = opts.logger ?? createLogger(env.LOG_LEVEL);
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: env.dataDir, memory: opts.memoryDb });
  try {
    await database.migrate();
    const db = database.db;
    const hooks = new Hooks();
    const jobs = new JobRunner(db, logger.child({ component: 'jobs' }));
    const ctx: AppContext = {
      env,
      database,
      db,
      hooks,
      logger,
      jobs,
      secret: await loadServerSecret(db, env.SVC_SECRET),
      deviceTokens: { authenticate: (tokenHash) => authenticateDeviceToken(db, tokenHash) },
      verifiers: new VisitorVerifiers(),
    };

    // files made when a mail is sent (a PDF ticket), by kind, from the modules that own them
    const renderers = Object.assign({}, ...modules.map((mod) => mod.attachmentRenderers?.(ctx) ?? {})) as AttachmentRenderers;
    const mail = registerMailJobs(jobs, { smtpUrl: env.SMTP_URL, from: env.SVC_MAIL_FROM, mailDir: path.join(env.dataDir, 'mail'), renderers });
    for (const mod of modules) {
      mod.registerJobs?.(jobs, ctx);
      mod.registerListeners?.(hooks, ctx);
    }
    await jobs.scheduleRecurring();
    const pluginCtx = createPluginContext(db, env, logger.child({ component: 'plugins' }), ctx.verifiers);
    // docs/api.md#plugins: the extended edition is a plugin too, loaded before SVC_PLUGINS.
    if (env.SVC_EDITION === 'extended') await (await import('./extended/index')).default(hooks, pluginCtx);
    await loadPlugins(env.plugins, hooks, pluginCtx);

    const firstAdministrator = await authService(ctx).ensureFirstAdministrator(env.SVC_ADMIN_EMAIL, env.SVC_ADMIN_PASSWORD);

    const app = createApp(ctx, { staticDir: opts.staticDir, version: opts.version, restMiddleware: opts.restMiddleware });
    const server: ServerType = await new Promise((resolve) => {
      const s = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, () => resolve(s));
    });
    server.on('clientError', answerClientError);
    const port = (server.address() as AddressInfo).port;
    // This instance as it can reach itself: the loopback for a wildcard address, brackets for IPv6.
    const selfHost = env.HOST === '0.0.0.0' ? '127.0.0.1' : env.HOST === '::' ? '[::1]' : env.HOST.includes(':') ? `[${env.HOST}]` : env.HOST;
    ctx.selfUrl = `http://${selfHost}:${port}`;
    if (env.SVC_JOBS === 'on') jobs.start();

    let closing: Promise<void> | null = null;
    return {
      url: `http://${env.HOST === '0.0.0.0' ? 'localhost' : env.HOST}:${port}`,
      port,
      ctx,
      firstAdministrator,
      httpServer: server,
      close() {
        closing ??= (async () => {
          await new Promise<void>((resolve) => server.close(() => resolve()));
          await jobs.stop();
          mail.close();
          await database.close();
        })();
        return closing;
      },
    };
  } catch (err) {
    await database.close().catch(() => {});
    throw err;
  }
}
