import { z } from 'zod';
import { ZCheckinInput, ZCheckinListQuery, ZCheckinSource } from '../../../shared/checkin';
import { ADMIN_OR_STAFF } from '../../auth/principal';
import { ZId } from '../../rest/route';
import { authedProcedure, router } from '../../trpc/trpc';
import { checkinService } from './checkin.service';

/** Online check-in for the admin app and the door when it is online; same service as POST /checkins. */
export const checkinRouter = router({
  checkIn: authedProcedure(ADMIN_OR_STAFF)
    .input(ZCheckinInput.and(z.object({ source: ZCheckinSource.default('manual') })))
    .mutation(async ({ input: { source, ...input }, ctx }) => (await checkinService(ctx.ctx).checkIn(input, ctx.principal, source)).result),
  annul: authedProcedure(ADMIN_OR_STAFF)
    .input(z.object({ id: ZId }))
    .mutation(({ input, ctx }) => checkinService(ctx.ctx).annul(input.id, ctx.principal)),
  counts: authedProcedure(ADMIN_OR_STAFF)
    .input(z.object({ eventId: ZId }))
    .query(({ input, ctx }) => checkinService(ctx.ctx).counts(input.eventId, ctx.principal)),
  list: authedProcedure(ADMIN_OR_STAFF)
    .input(ZCheckinListQuery)
    .query(({ input, ctx }) => checkinService(ctx.ctx).list(input, ctx.principal)),
});
