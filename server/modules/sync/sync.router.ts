import { ZDownloadInput, ZPullInput, ZPushInput } from '../../../shared/checkin';
import { ADMIN_OR_STAFF } from '../../auth/principal';
import { authedProcedure, router } from '../../trpc/trpc';
import { syncService } from './sync.service';

/** The door device's sync protocol (SPEC §6); a device token or a staff/admin session. */
export const syncRouter = router({
  push: authedProcedure(ADMIN_OR_STAFF)
    .input(ZPushInput)
    .mutation(({ input, ctx }) => syncService(ctx.ctx).push(input, ctx.principal)),
  pull: authedProcedure(ADMIN_OR_STAFF)
    .input(ZPullInput)
    .query(({ input, ctx }) => syncService(ctx.ctx).pull(input, ctx.principal)),
  download: authedProcedure(ADMIN_OR_STAFF)
    .input(ZDownloadInput)
    .query(({ input, ctx }) => syncService(ctx.ctx).download(input, ctx.principal)),
});
