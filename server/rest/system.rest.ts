import { z } from 'zod';
import { AppError } from '../../shared/errors';
import { ADMIN_ONLY } from '../auth/principal';
import { listOutbox } from '../mail/mailer';
import { createNonce } from '../security/nonce';
import { defineRoute, listResult, ZPagination, type AnyRouteDef } from './route';

/** The nonce action shared by POST /bookings and sign-up posts (SPEC §3). */
export const PUBLIC_FORM_NONCE_ACTION = 'svc_public_form';

const ZOutboxItem = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  attachments: z.array(z.object({ filename: z.string(), contentType: z.string() })),
  state: z.enum(['queued', 'sent', 'saved', 'failed', 'cancelled']),
  createdUtc: z.string(),
  sentUtc: z.string().nullable(),
});

export const systemRoutes: AnyRouteDef[] = [
  defineRoute({
    method: 'get',
    path: '/health',
    summary: 'Liveness: 200 once the database answers, 503 otherwise',
    tags: ['system'],
    access: 'public',
    responses: { 200: { description: 'Healthy', schema: z.object({ ok: z.literal(true) }) }, 503: { description: 'Database unavailable' } },
    async handler({ ctx }) {
      if (!(await ctx.database.ping())) throw new AppError('svc_unavailable', 'The database does not answer.');
      return { body: { ok: true }, headers: { 'cache-control': 'no-store' } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/nonce',
    summary: 'A nonce for POST /bookings and sign-ups (header X-Svc-Nonce), valid 12–24 h',
    tags: ['system'],
    access: 'public',
    responses: { 200: { description: 'The nonce', schema: z.object({ nonce: z.string(), expiresUtc: z.string() }) } },
    handler: async ({ ctx }) => ({ body: createNonce(ctx.secret, PUBLIC_FORM_NONCE_ACTION), headers: { 'cache-control': 'no-store' } }),
  }),
  defineRoute({
    method: 'get',
    path: '/outbox',
    summary: 'Queued and sent emails',
    tags: ['mail'],
    access: ADMIN_ONLY,
    query: ZPagination.extend({ to: z.string().max(254).optional(), topic: z.string().max(100).optional() }),
    responses: { 200: { description: 'Outbox items, newest first', schema: z.array(ZOutboxItem) } },
    async handler({ query, ctx }) {
      const { items, total } = await listOutbox(ctx.db, query.page, query.perPage, { to: query.to, topic: query.topic });
      return listResult(items, total);
    },
  }),
];
