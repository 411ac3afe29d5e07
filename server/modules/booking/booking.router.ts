/** tRPC transport of the booking domain: the same schemas and service functions as REST. */
import { z } from 'zod';
import {
  ZAdminCreateBookingInput,
  ZBookingListQuery,
  ZBookingTypeInput,
  ZBookingTypePatch,
  ZCreateBookingInput,
  ZRescheduleInput,
  ZSettingsPatch,
  ZSlotsQuery,
} from '../../../shared/booking';
import { ADMIN_ONLY } from '../../auth/principal';
import { ZIdParams, ZPagination } from '../../rest/route';
import { authedProcedure, publicProcedure, router } from '../../trpc/trpc';
import { settingsService } from '../settings/settings.service';
import { bookingTypeService } from './booking-type.service';
import { bookingService } from './booking.service';
import { slotService } from './slot.service';

const admin = authedProcedure(ADMIN_ONLY);
const ZToken = z.object({ token: z.string().max(200) });

export const bookingRouter = router({
  types: publicProcedure.input(ZPagination).query(({ input, ctx }) =>
    bookingTypeService(ctx.ctx).list({ publicView: ctx.principal?.role !== 'administrator', ...input }),
  ),
  type: publicProcedure.input(ZIdParams).query(({ input, ctx }) =>
    bookingTypeService(ctx.ctx).get(input.id, { publicView: ctx.principal?.role !== 'administrator' }),
  ),
  slots: publicProcedure.input(ZIdParams.extend(ZSlotsQuery.shape)).query(async ({ input, ctx }) => {
    const type = await bookingTypeService(ctx.ctx).getRow(input.id, { publicView: true });
    return { slots: await slotService(ctx.ctx).listForDisplay(type, input) };
  }),
  createType: admin.input(ZBookingTypeInput).mutation(({ input, ctx }) => bookingTypeService(ctx.ctx).create(input)),
  updateType: admin.input(ZIdParams.extend({ patch: ZBookingTypePatch })).mutation(({ input, ctx }) => bookingTypeService(ctx.ctx).update(input.id, input.patch)),
  deleteType: admin.input(ZIdParams).mutation(({ input, ctx }) => bookingTypeService(ctx.ctx).remove(input.id)),

  /** Same order as REST: nonce, client IP filter, throttles and bot check run before validation. */
  create: publicProcedure.input(z.object({ nonce: z.string().max(200).optional(), booking: z.unknown() })).mutation(async ({ input, ctx }) => {
    const service = bookingService(ctx.ctx);
    await service.screenSubmission({ nonce: input.nonce, remoteIp: ctx.ip, raw: input.booking, headers: ctx.c.req.header() });
    return service.create(ZCreateBookingInput.parse(input.booking));
  }),
  createByAdmin: admin.input(ZAdminCreateBookingInput).mutation(({ input, ctx }) => bookingService(ctx.ctx).createByAdmin(input)),
  byToken: publicProcedure.input(ZToken).query(({ input, ctx }) => bookingService(ctx.ctx).getForHolder(input.token)),
  cancelByToken: publicProcedure.input(ZToken).mutation(({ input, ctx }) => bookingService(ctx.ctx).cancelByToken(input.token)),
  reschedule: publicProcedure.input(ZToken.extend(ZRescheduleInput.shape)).mutation(({ input, ctx }) => bookingService(ctx.ctx).reschedule(input.token, input.startUtc)),
  list: admin.input(ZBookingListQuery).query(({ input, ctx }) => bookingService(ctx.ctx).list(input)),
  cancel: admin.input(ZIdParams).mutation(({ input, ctx }) => bookingService(ctx.ctx).cancel(input.id)),
  approve: admin.input(ZIdParams).mutation(({ input, ctx }) => bookingService(ctx.ctx).approve(input.id)),
  decline: admin.input(ZIdParams).mutation(({ input, ctx }) => bookingService(ctx.ctx).decline(input.id)),

  settings: admin.query(({ ctx }) => settingsService(ctx.ctx.db, ctx.ctx.hooks).get()),
  updateSettings: admin.input(ZSettingsPatch).mutation(({ input, ctx }) => settingsService(ctx.ctx.db, ctx.ctx.hooks).update(input)),
});
