import type { AppContext } from '../context';
import type { Hooks } from '../hooks';
import { registerQueueJobs, type JobRunner } from '../jobs/queue';
import type { AnyRouteDef } from '../rest/route';
import type { OperationRecord } from '../api/operation';
import { routesOf } from '../api/rest';
import { systemRoutes } from '../rest/system.rest';
import { registerThrottleJobs } from '../security/throttle';
import { authRoutes } from '../auth/auth.rest';
import { eventRoutes } from './events/events.rest';
import { attendeeRoutes } from './attendees/attendees.rest';
import { registerConfirmationMail } from './attendees/attendees.mail';
import { bookingOperations } from './booking/booking.operations';
import { settingsOperations } from './settings/settings.operations';
import { registerBookingJobs, registerBookingListeners } from './booking/booking.notifications';
import { checkinRoutes } from './checkin/checkin.rest';
import { deviceRoutes } from './devices/devices.rest';
import { registerSyncJobs } from './sync/sync.jobs';
import { registerCheckinJobs } from './checkin/checkin.actions';

/** One domain's contribution to the server: its REST routes, jobs and built-in listeners. */
export interface SvcModule {
  name: string;
  /** Declared operations: REST routes (those with a binding), tRPC procedures and OpenAPI entries. */
  operations?: OperationRecord;
  routes?: AnyRouteDef[];
  registerJobs?(runner: JobRunner, ctx: AppContext): void;
  /** Built-in (free edition) listeners, at the priorities the contract fixes. */
  registerListeners?(hooks: Hooks, ctx: AppContext): void;
}

export const modules: SvcModule[] = [
  {
    name: 'system',
    routes: systemRoutes,
    registerJobs: (runner, ctx) => {
      registerThrottleJobs(runner, ctx.db);
      registerQueueJobs(runner, ctx.db);
    },
  },
  { name: 'auth', routes: authRoutes },
  { name: 'events', routes: eventRoutes },
  { name: 'attendees', routes: attendeeRoutes, registerListeners: registerConfirmationMail },
  { name: 'booking', operations: bookingOperations, registerJobs: registerBookingJobs, registerListeners: registerBookingListeners },
  { name: 'checkin', routes: checkinRoutes, registerJobs: registerCheckinJobs },
  { name: 'settings', operations: settingsOperations },
  { name: 'devices', routes: deviceRoutes },
  { name: 'sync', registerJobs: registerSyncJobs },
];

export function allRoutes(): AnyRouteDef[] {
  return modules.flatMap((m) => [...(m.routes ?? []), ...(m.operations ? routesOf(m.operations) : [])]);
}
