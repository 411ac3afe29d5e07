/** System endpoints (docs/api.md): liveness, the public-form nonce, the mail outbox. */
import { z } from 'zod';
import { AppError } from '../../shared/errors';
import { ZOutboxItem } from '../../shared/mail';
import { ZHealthDto, ZNonceDto, ZReadinessDto } from '../../shared/system';
import { exposition, queueFigures } from '../metrics';
import { ADMIN_ONLY } from '../auth/principal';
import { listOutbox } from '../mail/mailer';
import { createNonce, PUBLIC_FORM_NONCE_ACTION } from '../security/nonce';
import { defineOperation, ZListOf, ZPagination } from './operation';

const SYSTEM = ['system'];
const NO_STORE = { 'cache-control': 'no-store' };

export const systemOperations = {
  health: defineOperation({
    summary: 'Liveness: 200 once the database answers, 503 otherwise',
    access: 'public',
    kind: 'query',
    trpc: false,
    output: ZHealthDto,
    rest: { method: 'get', path: '/health', tags: SYSTEM, headers: NO_STORE, describe: 'Healthy', errors: { 503: 'Database unavailable' } },
    async handler({ ctx }) {
      if (!(await ctx.database.ping())) throw new AppError('svc_unavailable', 'The database does not answer.');
      return { ok: true as const };
    },
  }),
  ready: defineOperation({
    summary: 'Readiness: the database answers (else 503), with the job queue’s lag and depth and mail waiting to be sent',
    access: 'public',
    kind: 'query',
    trpc: false,
    output: ZReadinessDto,
    rest: { method: 'get', path: '/ready', tags: SYSTEM, headers: NO_STORE, describe: 'Ready to serve', errors: { 503: 'Database unavailable' } },
    async handler({ ctx }) {
      if (!(await ctx.database.ping())) throw new AppError('svc_unavailable', 'The database does not answer.');
      const q = await queueFigures(ctx);
      return {
        ok: true as const,
        database: true as const,
        jobs: { due: q.due, lagSeconds: Math.round(q.lagSeconds), failed: q.failed, running: ctx.env.SVC_JOBS !== 'off' },
        outboxPending: q.outboxPending,
      };
    },
  }),
  metrics: defineOperation({
    summary: 'Prometheus metrics (text exposition format): requests and latency per route, job queue depth and lag, outbox, slot cache, sync push rows',
    access: ADMIN_ONLY,
    kind: 'query',
    trpc: false,
    rest: {
      method: 'get',
      path: '/metrics',
      tags: SYSTEM,
      headers: NO_STORE,
      produces: ['text/plain'],
      describe: 'The metrics (scrape with an administrator’s API token)',
    },
    async handler({ ctx }) {
      const { body, contentType } = await exposition(ctx);
      return new Response(body, { status: 200, headers: { 'content-type': contentType, 'cache-control': 'no-store' } });
    },
  }),
  nonce: defineOperation({
    summary: 'A nonce for POST /bookings and sign-ups (header X-Svc-Nonce), valid 12–24 h',
    access: 'public',
    kind: 'query',
    output: ZNonceDto,
    rest: { method: 'get', path: '/nonce', tags: SYSTEM, headers: NO_STORE, describe: 'The nonce' },
    handler: async ({ ctx }) => createNonce(ctx.secret, PUBLIC_FORM_NONCE_ACTION),
  }),
  outbox: defineOperation({
    summary: 'Queued and sent emails',
    access: ADMIN_ONLY,
    kind: 'query',
    input: ZPagination.extend({ to: z.string().max(254).optional(), topic: z.string().max(100).optional() }),
    output: ZListOf(ZOutboxItem),
    rest: { method: 'get', path: '/outbox', tags: ['mail'], list: true, describe: 'Outbox items, newest first' },
    handler: ({ input, ctx }) => listOutbox(ctx.db, input.page, input.perPage, { to: input.to, topic: input.topic }),
  }),
};
