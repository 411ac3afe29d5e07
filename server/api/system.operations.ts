/** System endpoints (docs/api.md): liveness, the public-form nonce, the mail outbox. */
import { z } from 'zod';
import { AppError } from '../../shared/errors';
import { ZOutboxItem } from '../../shared/mail';
import { ZHealthDto, ZNonceDto } from '../../shared/system';
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
