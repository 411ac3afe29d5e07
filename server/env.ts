import { z } from 'zod';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { EMBED_ORIGINS_MAX, normalizeOrigin } from '../shared/embeds';

/** Every environment variable svc reads, parsed once at boot (README lists them). */
const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** Set → real PostgreSQL through postgres.js; unset → embedded PGlite under SVC_DATA_DIR. */
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  SVC_DATA_DIR: z.string().min(1).default('./data'),
  SVC_ADMIN_EMAIL: z.email().default('admin@svc.local'),
  SVC_ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  SVC_PLUGINS: z.string().default(''),
  SVC_EDITION: z.enum(['free', 'extended']).default('free'),
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  SVC_MAIL_FROM: z.string().min(3).default('svc <no-reply@svc.local>'),
  /** Public base URL used in emailed links (cancel, manage). Defaults to http://localhost:PORT. */
  SVC_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Secret for nonces and signed form tokens; generated and stored in the database when unset. */
  SVC_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Whether the job runner polls in this process (turn off for API-only instances). */
  SVC_JOBS: z.enum(['on', 'off']).default('on'),
  /** Trust X-Forwarded-Proto for the Secure cookie flag behind a TLS proxy. */
  SVC_TRUST_PROXY: z.enum(['0', '1']).default('0'),
  /** Days the sync change log is kept; a door device offline longer re-downloads its events. */
  SVC_SYNC_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** Days sent mail stays in the outbox (failed mail stays until an administrator looks). */
  SVC_OUTBOX_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  /** Extended edition: who takes payments (docs/api.md#payments); `local` needs no network. */
  SVC_PAYMENT_PROVIDER: z.enum(['local', 'stripe']).default('local'),
  STRIPE_SECRET_KEY: z.string().min(8).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(8).optional(),
  /** Another address for Stripe's API (a test double); the package's host/port/protocol options. */
  STRIPE_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Extended edition: let webhooks and team chat reach loopback, private and link-local addresses (docs/api.md#webhooks). */
  SVC_WEBHOOKS_ALLOW_PRIVATE: z.enum(['0', '1']).default('0'),
  /** Extended edition: the outside shop's Standard Webhooks secret (`whsec_…`); unset turns the bridge off. */
  SVC_COMMERCE_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/=]{16,}$/, 'must be a whsec_ secret (base64 after the prefix)')
    .optional(),
  /**
   * Apple Wallet passes (docs/api.md#wallet-pass): all of these or none. The certificate, key and
   * WWDR values are PEM text or a path to a PEM file; none set turns the passes off.
   */
  SVC_WALLET_PASS_TYPE_ID: z
    .string()
    .regex(/^pass\.[A-Za-z0-9.-]+$/, 'must be a Pass Type ID (pass.…)')
    .optional(),
  SVC_WALLET_TEAM_ID: z
    .string()
    .regex(/^[A-Z0-9]{10}$/, 'must be the 10-character Team ID')
    .optional(),
  SVC_WALLET_SIGNER_CERT: z.string().min(1).optional(),
  SVC_WALLET_SIGNER_KEY: z.string().min(1).optional(),
  SVC_WALLET_SIGNER_KEY_PASSPHRASE: z.string().optional(),
  SVC_WALLET_WWDR: z.string().min(1).optional(),
  /** Comma-separated origins allowed to frame the embeddable pages (docs/decisions/052-embeds.md), beside Settings → Embeds. */
  SVC_EMBED_ORIGINS: z.string().default(''),
});

/** The variables an Apple Wallet setup needs, all or none (the passphrase only for an encrypted key). */
const WALLET_VARIABLES = ['SVC_WALLET_PASS_TYPE_ID', 'SVC_WALLET_TEAM_ID', 'SVC_WALLET_SIGNER_CERT', 'SVC_WALLET_SIGNER_KEY', 'SVC_WALLET_WWDR'] as const;

export type Env = z.infer<typeof ZEnv> & { dataDir: string; publicUrl: string; plugins: string[]; embedOrigins: string[] };

export class EnvError extends Error {
  override name = 'EnvError';
}

/** Parses the environment; a bad value throws an EnvError naming the variable. */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ZEnv.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new EnvError(`Invalid environment:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  if (env.SVC_EDITION === 'extended' && env.SVC_PAYMENT_PROVIDER === 'stripe' && (!env.STRIPE_SECRET_KEY || !env.STRIPE_WEBHOOK_SECRET)) {
    throw new EnvError('Invalid environment:\n  SVC_PAYMENT_PROVIDER: stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET');
  }
  const walletSet = WALLET_VARIABLES.filter((name) => env[name] !== undefined);
  if (walletSet.length > 0 && walletSet.length < WALLET_VARIABLES.length) {
    const missing = WALLET_VARIABLES.filter((name) => env[name] === undefined);
    throw new EnvError(`Invalid environment:\n  ${missing.join(', ')}: Apple Wallet needs all of ${WALLET_VARIABLES.join(', ')} (or none)`);
  }
  for (const name of ['SVC_WALLET_SIGNER_CERT', 'SVC_WALLET_SIGNER_KEY', 'SVC_WALLET_WWDR'] as const) {
    const value = env[name];
    if (value !== undefined && !isPem(value) && !existsSync(value)) {
      throw new EnvError(`Invalid environment:\n  ${name}: neither PEM text nor an existing file`);
    }
  }
  return {
    ...env,
    embedOrigins: parseEmbedOrigins(env.SVC_EMBED_ORIGINS),
    dataDir: path.resolve(env.SVC_DATA_DIR),
    publicUrl: (env.SVC_PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
    plugins: env.SVC_PLUGINS.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  };
}

/** SVC_EMBED_ORIGINS as origins (`https://example.org,http://localhost:8080`); one that is not an origin stops start-up. */
function parseEmbedOrigins(value: string): string[] {
  const origins = new Set<string>();
  for (const part of value.split(',').map((s) => s.trim())) {
    if (!part) continue;
    const origin = normalizeOrigin(part);
    if (origin === null)
      throw new EnvError(`Invalid environment:\n  SVC_EMBED_ORIGINS: "${part}" is not an origin like https://example.org or http://localhost:8080`);
    origins.add(origin);
  }
  if (origins.size > EMBED_ORIGINS_MAX) throw new EnvError(`Invalid environment:\n  SVC_EMBED_ORIGINS: at most ${EMBED_ORIGINS_MAX} origins`);
  return [...origins];
}

/** Whether a wallet variable holds the PEM text itself rather than a path to it. */
export function isPem(value: string): boolean {
  return value.trimStart().startsWith('-----BEGIN ');
}
