import { authedProcedure, router } from '../trpc/trpc';
import { SIGNED_IN } from './principal';

export const authRouter = router({
  me: authedProcedure(SIGNED_IN).query(({ ctx }) => ctx.ctx.services.auth.me(ctx.principal)),
});
