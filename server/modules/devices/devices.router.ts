import { z } from 'zod';
import { ZCreateDeviceInput, ZPairDeviceInput, ZUpdateDeviceInput } from '../../../shared/checkin';
import { AppError } from '../../../shared/errors';
import { ADMIN_ONLY, ADMIN_OR_STAFF } from '../../auth/principal';
import { ZId } from '../../rest/route';
import { authedProcedure, publicProcedure, router } from '../../trpc/trpc';
import { devicesOf } from './devices.rest';

/** Door devices for the admin app, pairing and "who am I" for the door app. */
export const devicesRouter = router({
  list: authedProcedure(ADMIN_ONLY).query(({ ctx }) => devicesOf(ctx.ctx).list()),
  create: authedProcedure(ADMIN_ONLY)
    .input(ZCreateDeviceInput)
    .mutation(({ input, ctx }) => devicesOf(ctx.ctx).create(input, ctx.principal)),
  update: authedProcedure(ADMIN_ONLY)
    .input(ZUpdateDeviceInput.extend({ id: ZId }))
    .mutation(({ input: { id, ...patch }, ctx }) => devicesOf(ctx.ctx).update(id, patch)),
  newPairingCode: authedProcedure(ADMIN_ONLY)
    .input(z.object({ id: ZId }))
    .mutation(({ input, ctx }) => devicesOf(ctx.ctx).newPairingCode(input.id)),
  revoke: authedProcedure(ADMIN_ONLY)
    .input(z.object({ id: ZId }))
    .mutation(async ({ input, ctx }) => {
      await devicesOf(ctx.ctx).revoke(input.id);
      return { id: input.id };
    }),
  pair: publicProcedure.input(ZPairDeviceInput).mutation(({ input, ctx }) => devicesOf(ctx.ctx).pair({ code: input.code, ip: ctx.ip })),
  me: authedProcedure(ADMIN_OR_STAFF).query(({ ctx }) => {
    if (ctx.principal.deviceId === undefined) throw new AppError('svc_not_found', 'This credential is not a door device.');
    return devicesOf(ctx.ctx).get(ctx.principal.deviceId);
  }),
});
