import { z } from 'zod';
import { ZEventListQuery } from '../../../shared/events';
import { ZCancelToken } from '../../../shared/attendees';
import { procedure, router } from '../../trpc/trpc';
import { ZId } from '../../rest/route';
import { PUBLIC_FORM_NONCE_ACTION } from '../../rest/system.rest';
import { assertNonce } from '../../security/nonce';
import { signupService } from '../attendees/signup.service';
import { verifierHeaders } from '../attendees/attendees.rest';

/** The PWA's event pages: list, detail, sign-up form and post, cancel page. Same services as REST. */
export const eventsRouter = router({
  list: procedure('public')
    .input(ZEventListQuery)
    .query(({ input, ctx }) => ctx.ctx.services.events.list(input, ctx.principal)),
  get: procedure('public')
    .input(z.object({ id: ZId }))
    .query(({ input, ctx }) => ctx.ctx.services.events.get(input.id, ctx.principal)),
  form: procedure('public')
    .input(z.object({ id: ZId }))
    .query(({ input, ctx }) => signupService(ctx.ctx).form(input.id)),
  /** Same rules as POST /events/{id}/signup, including the X-Svc-Nonce header. */
  signup: procedure('public')
    .input(z.object({ id: ZId, fields: z.record(z.string(), z.unknown()) }))
    .mutation(({ input, ctx }) => {
      assertNonce(ctx.ctx.secret, PUBLIC_FORM_NONCE_ACTION, ctx.c.req.header('x-svc-nonce'));
      return signupService(ctx.ctx).signup({ eventId: input.id, raw: input.fields, ip: ctx.ip, headers: verifierHeaders(ctx.c) });
    }),
  cancelPreview: procedure('public')
    .input(z.object({ token: ZCancelToken }))
    .query(({ input, ctx }) => signupService(ctx.ctx).cancelPreview(input.token)),
  cancel: procedure('public')
    .input(z.object({ token: ZCancelToken }))
    .mutation(({ input, ctx }) => signupService(ctx.ctx).cancel(input.token)),
});
