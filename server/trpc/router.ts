import { authRouter } from '../auth/auth.router';
import { routerOf } from '../api/trpc';
import { bookingOperations } from '../modules/booking/booking.operations';
import { settingsOperations } from '../modules/settings/settings.operations';
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
  booking: routerOf(bookingOperations),
  settings: routerOf(settingsOperations),
  checkin: checkinRouter,
  devices: devicesRouter,
  sync: syncRouter,
});

export type AppRouter = typeof appRouter;
