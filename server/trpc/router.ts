import { authRouter } from '../auth/auth.router';
import { bookingRouter } from '../modules/booking/booking.router';
import { router } from './trpc';
import { eventsRouter } from '../modules/events/events.router';
import { attendeesRouter } from '../modules/attendees/attendees.router';
import { checkinRouter } from '../modules/checkin/checkin.router';
import { devicesRouter } from '../modules/devices/devices.router';
import { syncRouter } from '../modules/sync/sync.router';

/** The PWA's typed API. */
export const appRouter = router({
  auth: authRouter,
  events: eventsRouter,
  attendees: attendeesRouter,
  booking: bookingRouter,
  checkin: checkinRouter,
  devices: devicesRouter,
  sync: syncRouter,
});

export type AppRouter = typeof appRouter;
