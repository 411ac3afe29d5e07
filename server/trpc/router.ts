import { authRouter } from '../auth/auth.router';
import { router } from './trpc';
import { eventsRouter } from '../modules/events/events.router';
import { attendeesRouter } from '../modules/attendees/attendees.router';

/** The PWA's typed API. */
export const appRouter = router({
  auth: authRouter,
  events: eventsRouter,
  attendees: attendeesRouter,
});

export type AppRouter = typeof appRouter;
