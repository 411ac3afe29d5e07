import { sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import { z } from 'zod';
import { AppError } from '../../shared/errors';
import { toUtcString } from '../../shared/time';
import { randomToken, sha256Hex } from '../security/crypto';
import { authRepository, type AuthRepository, type UserRow, type ApiTokenRow } from './auth.repository';
import { hashPassword, verifyPassword } from './passwords';
import { countRateLimits, hitRateLimit, secondsLeftInWindow } from '../security/throttle';
import type { Principal } from './principal';
import { ZEmail, ZLanguage, ZTimeZone } from '../../shared/schemas';
import { matchLocale } from '../../shared/i18n/locales';
import { ZRole, type ApiTokenCreatedDto, type ApiTokenDto, type UpdateMeInput, type UserDto } from '../../shared/users';

export type { ApiTokenDto, UserDto };

export const SESSION_TTL_DAYS = 14;

// Password guessing: 10 tries a minute per address, 20 an hour per account.
/**
 * Sign-in throttles count failed attempts only (OWASP: a correct password never counts, so
 * nobody can lock an account by signing in, or by failing from elsewhere):
 * - per address: 10 failures a minute, whatever the accounts (guessing from one machine);
 * - per account and address: 5 failures in 15 minutes (guessing one account from one machine);
 * - per account across addresses: past 20 failures an hour every attempt on the account is
 *   slowed down (a distributed guess gets slow), but its owner can still sign in.
 */
const LOGIN_LIMITS = {
  perIp: { limit: 10, windowSeconds: 60 },
  perAccountAndIp: { limit: 5, windowSeconds: 15 * 60 },
  perAccount: { limit: 20, windowSeconds: 3600 },
} as const;
/** The slow-down of an account past its hourly failures. */
const LOGIN_SLOWDOWN_MS = 1500;

export const ZLoginInput = z.object({ email: z.string().trim().min(1).max(254), password: z.string().min(1).max(1024) });
export type LoginInput = z.infer<typeof ZLoginInput>;

/** A user's editable fields, without defaults (a PATCH leaves absent fields alone). */
const ZUserFields = z.object({
  email: ZEmail,
  displayName: z.string().trim().max(190),
  role: ZRole,
  timezone: ZTimeZone,
  /** The user's own language; null = not chosen (pages negotiate it). */
  language: ZLanguage.nullable(),
  password: z.string().min(8, 'must be at least 8 characters').max(1024),
  eventIds: z.array(z.number().int().positive()).max(1000).nullable(),
});
export const ZCreateUserInput = ZUserFields.extend({
  displayName: ZUserFields.shape.displayName.default(''),
  timezone: ZUserFields.shape.timezone.default('UTC'),
  language: ZUserFields.shape.language.default(null),
  password: ZUserFields.shape.password.optional(),
  eventIds: ZUserFields.shape.eventIds.optional(),
});
export type CreateUserInput = z.infer<typeof ZCreateUserInput>;
export const ZUpdateUserInput = ZUserFields.partial();
export type UpdateUserInput = z.infer<typeof ZUpdateUserInput>;

export const ZCreateApiTokenInput = z.object({
  name: z.string().trim().min(1).max(190),
  role: ZRole.default('administrator'),
  eventIds: z.array(z.number().int().positive()).max(1000).nullable().optional(),
  expiresInDays: z.number().int().min(1).max(3650).optional(),
});
export type CreateApiTokenInput = z.infer<typeof ZCreateApiTokenInput>;

export function toUserDto(u: UserRow, inviteExpiresUtc: string | null = null): UserDto {
  return {
    id: u.id,
    email: u.email,
    displayName: u.displayName,
    role: u.role,
    timezone: u.timezone,
    language: matchLocale(u.language),
    eventIds: u.eventIds ?? null,
    hasPassword: u.passwordHash !== null,
    inviteExpiresUtc,
  };
}

/** Users with the expiry of their pending invite link, in one extra query. */
export async function withInvites(repo: AuthRepository, rows: UserRow[]): Promise<UserDto[]> {
  const invites = new Map((await repo.invitesOf(rows.map((r) => r.id))).map((i) => [i.userId, i.expiresUtc]));
  return rows.map((r) => toUserDto(r, invites.get(r.id) ?? null));
}

/** A new browser session for a user: the cookie value (shown once) and its expiry. */
export async function startSession(repo: AuthRepository, userId: number, nowMs = Date.now()): Promise<{ sessionToken: string; expiresUtc: string }> {
  const sessionToken = randomToken(32);
  const expiresUtc = toUtcString(nowMs + SESSION_TTL_DAYS * 86_400_000);
  await repo.insertSession({ userId, tokenHash: sha256Hex(sessionToken), expiresUtc });
  return { sessionToken, expiresUtc };
}

function toApiTokenDto(t: ApiTokenRow): ApiTokenDto {
  return {
    id: t.id,
    name: t.name,
    role: t.role,
    eventIds: t.eventIds ?? null,
    createdUtc: t.createdUtc,
    lastUsedUtc: t.lastUsedUtc,
    expiresUtc: t.expiresUtc,
    revokedUtc: t.revokedUtc,
  };
}

// Verifying against a fixed hash when the email is unknown keeps the timing of
// "no such user" and "wrong password" alike.
let dummyHash: Promise<string> | undefined;

/** Any constant: keeps the first-start lock apart from the other advisory locks. */
const FIRST_ADMIN_LOCK_KEY = 1_400_000_007;

export function authService(ctx: AppContext) {
  const { db, deviceTokens } = ctx;
  const repo = authRepository(db);

  return {
    /** Refused while the address or the account-and-address has too many recent failures (see LOGIN_LIMITS). */
    async login(input: LoginInput, opts: { ip?: string } = {}, nowMs = Date.now()): Promise<{ user: UserDto; sessionToken: string; expiresUtc: string }> {
      const email = input.email.toLowerCase();
      const buckets = [
        { bucket: `login:fail:ip:${opts.ip ?? ''}`, rule: LOGIN_LIMITS.perIp },
        { bucket: `login:fail:account-ip:${email}|${opts.ip ?? ''}`, rule: LOGIN_LIMITS.perAccountAndIp },
        { bucket: `login:fail:account:${email}`, rule: LOGIN_LIMITS.perAccount },
      ];
      const [ipFailures, pairFailures, accountFailures] = await countRateLimits(db, buckets, nowMs);
      for (const [i, failures] of [ipFailures!, pairFailures!].entries()) {
        if (opts.ip && failures >= buckets[i]!.rule.limit) {
          throw new AppError('svc_rate_limited', undefined, { retryAfter: secondsLeftInWindow(buckets[i]!.rule, nowMs) });
        }
      }
      if (accountFailures! >= LOGIN_LIMITS.perAccount.limit) await new Promise((resolve) => setTimeout(resolve, LOGIN_SLOWDOWN_MS));
      const user = await repo.findUserByEmail(input.email);
      dummyHash ??= hashPassword(randomToken());
      const ok = await verifyPassword(user?.passwordHash ?? (await dummyHash), input.password);
      if (!user || !ok) {
        await Promise.all(buckets.map(({ bucket, rule }) => hitRateLimit(db, bucket, rule.limit, rule.windowSeconds, nowMs)));
        throw new AppError('svc_unauthorized', 'Wrong email or password.');
      }
      const { sessionToken, expiresUtc } = await startSession(repo, user.id, nowMs);
      return { user: toUserDto(user), sessionToken, expiresUtc };
    },

    async logout(principal: Principal): Promise<void> {
      if (principal.sessionTokenHash) await repo.revokeSession(principal.sessionTokenHash);
    },

    /**
     * Resolves a session cookie or a Bearer token (API token or door-device token) to a
     * principal; null when neither is valid. A revoked door device throws svc_device_revoked.
     */
    async authenticate(creds: { sessionToken?: string | null; bearerToken?: string | null }, nowMs = Date.now()): Promise<Principal | null> {
      if (creds.bearerToken) {
        const tokenHash = sha256Hex(creds.bearerToken);
        // Both kinds at once: a door device pushing scans waits one round trip, not two. The
        // device query only writes (last seen) when the hash is a device's, so an API token
        // never touches a device row.
        const [row, device] = await Promise.allSettled([repo.findApiToken(tokenHash), deviceTokens.authenticate(tokenHash)]);
        if (row.status === 'rejected') throw row.reason;
        if (!row.value) {
          if (device.status === 'rejected') throw device.reason;
          return device.value;
        }
        const token = row.value;
        if (token.revokedUtc || (token.expiresUtc && token.expiresUtc <= toUtcString(nowMs))) return null;
        await repo.touchApiToken(token.id);
        return { via: 'token', role: token.role, userId: token.createdBy, eventIds: token.eventIds ?? null, tokenId: token.id };
      }
      if (creds.sessionToken) {
        const tokenHash = sha256Hex(creds.sessionToken);
        const found = await repo.findLiveSession(tokenHash, toUtcString(nowMs));
        if (!found) return null;
        return { via: 'session', role: found.user.role, userId: found.user.id, eventIds: found.user.eventIds ?? null, sessionTokenHash: tokenHash };
      }
      return null;
    },

    async me(principal: Principal): Promise<UserDto> {
      if (principal.userId === null) throw new AppError('svc_not_found', 'This token has no user.');
      const user = await repo.findUserById(principal.userId);
      if (!user) throw new AppError('svc_not_found');
      return toUserDto(user);
    },

    /** The signed-in person's own settings (their language); an API token without a user has none. */
    async updateMe(principal: Principal, input: UpdateMeInput): Promise<UserDto> {
      if (principal.userId === null) throw new AppError('svc_not_found', 'This token has no user.');
      const updated = await repo.updateUser(principal.userId, { language: input.language });
      if (!updated) throw new AppError('svc_not_found');
      return toUserDto(updated);
    },

    /**
     * First start on an empty database: one administrator from SVC_ADMIN_EMAIL /
     * SVC_ADMIN_PASSWORD, or with a generated password that is returned to be printed once.
     */
    /**
     * The first start on an empty database creates the administrator once, however many
     * instances start together: the count and the insert run under one transaction-scoped
     * advisory lock, so the second instance waits, then finds the user and goes on.
     */
    async ensureFirstAdministrator(email: string, password?: string): Promise<{ email: string; generatedPassword?: string } | null> {
      if ((await repo.countUsers()) > 0) return null;
      const generated = password ? undefined : randomToken(12);
      // Hashed before the lock: argon2 takes a while, and the lock should not.
      const passwordHash = await hashPassword(password ?? generated!);
      const created = await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_ADMIN_LOCK_KEY})`);
        const txRepo = authRepository(tx);
        if ((await txRepo.countUsers()) > 0) return false;
        await txRepo.insertUser({ email, displayName: 'Administrator', role: 'administrator', timezone: 'UTC', passwordHash });
        return true;
      });
      return created ? { email, generatedPassword: generated } : null;
    },

    async listUsers(page: number, perPage: number): Promise<{ items: UserDto[]; total: number }> {
      const [rows, total] = await Promise.all([repo.listUsers(perPage, (page - 1) * perPage), repo.countUsers()]);
      return { items: await withInvites(repo, rows), total };
    },

    async getUser(id: number): Promise<UserDto> {
      const user = await repo.findUserById(id);
      if (!user) throw new AppError('svc_not_found', 'No such user.');
      return (await withInvites(repo, [user]))[0]!;
    },

    async createUser(input: CreateUserInput): Promise<UserDto> {
      if (await repo.findUserByEmail(input.email))
        throw new AppError('svc_conflict', 'A user with this email exists.', { params: { email: 'already in use' } });
      const row = await repo.insertUser({
        email: input.email,
        displayName: input.displayName,
        role: input.role,
        timezone: input.timezone,
        language: input.language,
        passwordHash: input.password ? await hashPassword(input.password) : null,
        eventIds: input.eventIds ?? null,
      });
      return toUserDto(row);
    },

    async updateUser(id: number, input: UpdateUserInput): Promise<UserDto> {
      const existing = await repo.findUserById(id);
      if (!existing) throw new AppError('svc_not_found', 'No such user.');
      if (input.email && input.email.toLowerCase() !== existing.email.toLowerCase() && (await repo.findUserByEmail(input.email))) {
        throw new AppError('svc_conflict', 'A user with this email exists.', { params: { email: 'already in use' } });
      }
      const { password, ...rest } = input;
      const patch: Parameters<typeof repo.updateUser>[1] = { ...rest };
      if (password) patch.passwordHash = await hashPassword(password);
      const updated = await repo.updateUser(id, patch);
      // A password or role change ends the user's other sessions; a typed password voids a pending invite link.
      if (password || (input.role && input.role !== existing.role)) await repo.revokeUserSessions(id);
      if (password) await repo.deleteUserInvite(id);
      return (await withInvites(repo, [updated!]))[0]!;
    },

    async deleteUser(id: number, actor: Principal): Promise<void> {
      if (actor.userId === id) throw new AppError('svc_conflict', 'You cannot delete your own account.');
      if (!(await repo.deleteUser(id))) throw new AppError('svc_not_found', 'No such user.');
    },

    async createApiToken(input: CreateApiTokenInput, actor: Principal, nowMs = Date.now()): Promise<ApiTokenCreatedDto> {
      const token = randomToken(32);
      const row = await repo.insertApiToken({
        name: input.name,
        tokenHash: sha256Hex(token),
        role: input.role,
        eventIds: input.eventIds ?? null,
        createdBy: actor.userId,
        expiresUtc: input.expiresInDays ? toUtcString(nowMs + input.expiresInDays * 86_400_000) : null,
      });
      return { id: row.id, name: row.name, token };
    },

    async listApiTokens(): Promise<ApiTokenDto[]> {
      return (await repo.listApiTokens()).map(toApiTokenDto);
    },

    async revokeApiToken(id: number): Promise<void> {
      if (!(await repo.findApiTokenById(id))) throw new AppError('svc_not_found', 'No such token.');
      await repo.revokeApiToken(id);
    },
  };
}
export type AuthService = ReturnType<typeof authService>;
