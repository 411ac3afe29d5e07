import type { Logger } from 'pino';
import type { Env } from './env';
import type { Database, Db } from './db/client';
import type { Hooks } from './hooks';
import type { JobRunner } from './jobs/queue';
import { authService, type AuthService } from './auth/auth.service';
import type { VisitorVerifiers } from './security/verifier';
import { eventsService, type EventsService } from './modules/events/events.service';
import { authenticateDeviceToken } from './modules/devices/devices.service';

/** Built once per domain from the database; services hold the rules (STYLE §1). */
export interface Services {
  auth: AuthService;
  events: EventsService;
}

export function createServices(db: Db): Services {
  // Door-device tokens are the devices module's; auth only asks it (server/auth never imports a module).
  return { auth: authService(db, { authenticateDevice: (tokenHash) => authenticateDeviceToken(db, tokenHash) }), events: eventsService(db) };
}

/** Everything a request, a job or a plugin may reach. */
export interface AppContext {
  env: Env;
  database: Database;
  db: Db;
  hooks: Hooks;
  logger: Logger;
  jobs: JobRunner;
  /** HMAC key for nonces and signed form tokens (shared by every instance). */
  secret: string;
  services: Services;
  /** Bot check / spam scoring registered by plugins (none by default). */
  verifiers: VisitorVerifiers;
}
