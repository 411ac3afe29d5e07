import type { Logger } from 'pino';
import type { Env } from './env';
import type { Database, Db } from './db/client';
import type { Hooks } from './hooks';
import type { JobRunner } from './jobs/queue';
import type { VisitorVerifiers } from './security/verifier';
import type { Principal } from './auth/principal';

/** The door devices' tokens, as auth may ask about them (wired in main.ts: server/auth never imports a domain module). */
export interface DeviceTokens {
  /** The principal of a device token (by its SHA-256); null when no device has it; throws for a revoked device. */
  authenticate(tokenHash: string): Promise<Principal | null>;
}

/**
 * Everything a request, a job or a plugin may reach. Every service is built the same way,
 * `fooService(ctx)` (plus, for tests, the repositories it uses), where it is needed.
 */
export interface AppContext {
  env: Env;
  database: Database;
  db: Db;
  hooks: Hooks;
  logger: Logger;
  jobs: JobRunner;
  /** HMAC key for nonces and signed form tokens (shared by every instance). */
  secret: string;
  deviceTokens: DeviceTokens;
  /** This instance's own address once it listens (the local payment provider delivers its webhooks here). */
  selfUrl?: string;
  /** Bot check / spam scoring registered by plugins (none by default). */
  verifiers: VisitorVerifiers;
}
