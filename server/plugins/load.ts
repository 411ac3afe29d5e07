import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Logger } from 'pino';
import { AppError } from '../../shared/errors';
import type { Db } from '../db/client';
import type { Env } from '../env';
import type { Hooks } from '../hooks';
import { languageOfAddress } from '../mail/language';
import { queueMail, type MailMessage } from '../mail/mailer';
import type { Locale } from '../../shared/i18n/locales';
import type { VisitorVerifiers } from '../security/verifier';

/** The `ctx` a plugin receives (docs/api.md#plugins). */
export interface PluginContext {
  db: Db;
  config: Env;
  logger: Logger;
  mail: {
    queue(message: MailMessage, opts?: { sendAtUtc?: string; dedupeKey?: string }): Promise<number | null>;
    /** The language to write to this address in (their newest sign-up's, booking's, order's or account's; else the organization's default): pass it as `language`. */
    languageOf(email: string): Promise<Locale>;
  };
  /** The contract's "error object": return or throw `new ctx.SvcError(code, message, {status})`. */
  SvcError: typeof AppError;
  /** Register a bot check or spam scorer (svc addition to docs/api.md#plugins's ctx). */
  verifiers: Pick<VisitorVerifiers, 'register'>;
}

export type Plugin = (hooks: Hooks, ctx: PluginContext) => void | Promise<void>;

export class PluginError extends Error {
  override name = 'PluginError';
}

export function createPluginContext(db: Db, env: Env, logger: Logger, verifiers: VisitorVerifiers): PluginContext {
  return {
    db,
    config: env,
    logger,
    mail: { queue: (message, opts) => queueMail(db, message, opts), languageOf: (email) => languageOfAddress(db, email) },
    SvcError: AppError,
    verifiers,
  };
}

/** Loads each SVC_PLUGINS module in order; any failure stops start-up naming the module. */
export async function loadPlugins(specs: string[], hooks: Hooks, ctx: PluginContext): Promise<void> {
  for (const spec of specs) {
    const target = spec.startsWith('.') || path.isAbsolute(spec) ? pathToFileURL(path.resolve(spec)).href : spec;
    let mod: { default?: unknown };
    try {
      mod = (await import(target)) as { default?: unknown };
    } catch (err) {
      throw new PluginError(`Plugin "${spec}" could not be loaded: ${(err as Error).message}`, { cause: err });
    }
    if (typeof mod.default !== 'function') throw new PluginError(`Plugin "${spec}" must default-export a function (hooks, ctx) => void`);
    try {
      await (mod.default as Plugin)(hooks, ctx);
    } catch (err) {
      throw new PluginError(`Plugin "${spec}" failed while registering: ${(err as Error).message}`, { cause: err });
    }
    ctx.logger.info({ plugin: spec }, 'plugin loaded');
  }
}
