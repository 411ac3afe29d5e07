import { authRouter } from '../auth/auth.router';
import { bookingRouter } from '../modules/booking/booking.router';
import { router } from './trpc';

/** The PWA's typed API. */
export const appRouter = router({
  auth: authRouter,
  booking: bookingRouter,
});

export type AppRouter = typeof appRouter;
