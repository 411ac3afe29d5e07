import { z } from 'zod';
import { ZAttendeeListQuery, ZUpdateAttendeeInput } from '../../../shared/attendees';
import { ADMIN_ONLY, ADMIN_OR_STAFF } from '../../auth/principal';
import { ZId } from '../../rest/route';
import { authedProcedure, router } from '../../trpc/trpc';
import { attendeesService } from './attendees.service';

/** The admin app's attendee screens; same services and schemas as the REST routes. */
export const attendeesRouter = router({
  list: authedProcedure(ADMIN_OR_STAFF)
    .input(ZAttendeeListQuery)
    .query(({ input, ctx }) => attendeesService(ctx.ctx).list(input, ctx.principal)),
  get: authedProcedure(ADMIN_OR_STAFF)
    .input(z.object({ id: ZId }))
    .query(({ input, ctx }) => attendeesService(ctx.ctx).get(input.id, ctx.principal)),
  update: authedProcedure(ADMIN_ONLY)
    .input(ZUpdateAttendeeInput.extend({ id: ZId }))
    .mutation(({ input: { id, ...patch }, ctx }) => attendeesService(ctx.ctx).update(id, patch)),
  delete: authedProcedure(ADMIN_ONLY)
    .input(z.object({ id: ZId }))
    .mutation(async ({ input, ctx }) => {
      await attendeesService(ctx.ctx).delete(input.id);
      return { id: input.id };
    }),
});
