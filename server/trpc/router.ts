import { authRouter } from '../auth/auth.router';
import { router } from './trpc';

/** The PWA's typed API. */
export const appRouter = router({
  auth: authRouter,
});

export type AppRouter = typeof appRouter;
