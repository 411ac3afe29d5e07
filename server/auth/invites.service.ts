/**
 * Invitations and password links (issue 8 item 5): an administrator invites a person by
 * email, or sends an existing user a fresh link instead of typing a password for them; a user
 * who forgot their password asks for one on the sign-in page (an hour, same answer for any address).
 * The link `${publicUrl}/invite/{token}` carries 256 random bits; only its SHA-256 is
 * stored; it works once and for INVITE_TTL_DAYS; a new link replaces the old one.
 */
import type { AppContext } from '../context';
import { z } from 'zod';
import { AppError } from '../../shared/errors';
import { toUtcString } from '../../shared/time';
import type { Db } from '../db/client';
import { cancelQueuedMail, queueMail } from '../mail/mailer';
import { recipientLanguage } from '../mail/language';
import { randomToken, sha256Hex } from '../security/crypto';
import { enforceRateLimit } from '../security/throttle';
import type { InvitePreview } from '../../shared/users';
import { ZEmail } from '../../shared/schemas';
import { authRepository } from './auth.repository';
import { buildInviteMail } from './invites.mail';
import { startSession, toUserDto, withInvites, ZCreateUserInput, type UserDto } from './auth.service';
import type { Role } from './auth.sql';
import { hashPassword } from './passwords';
import type { Principal } from './principal';

export const INVITE_TTL_DAYS = 7;
/** A link asked for on the sign-in page ("Forgot your password?") lives an hour: the person is waiting for it. */
export const RESET_TTL_MINUTES = 60;

export const ZPasswordResetRequest = z.object({ email: ZEmail });
export type PasswordResetRequest = z.infer<typeof ZPasswordResetRequest>;

/** The one answer to a reset request, whether or not an account has the address (no account enumeration). */
export const ZPasswordResetAnswer = z.object({ message: z.string() });
export const PASSWORD_RESET_ANSWER = {
  message: `If an account uses this address, we have sent it a link to choose a new password. The link works once, for ${RESET_TTL_MINUTES} minutes.`,
} as const;

export const ZInviteUserInput = ZCreateUserInput.omit({ password: true });
export type InviteUserInput = z.infer<typeof ZInviteUserInput>;

/** The token as it appears in the link (43 base64url characters today; bounds keep junk out). */
export const ZInviteTokenParams = z.object({
  token: z
    .string()
    .min(20)
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be the code from the link'),
});

export const ZAcceptInviteInput = z.object({ password: z.string().min(8, 'must be at least 8 characters').max(1024) });
export type AcceptInviteInput = z.infer<typeof ZAcceptInviteInput>;

// Invite links: setting a password is throttled like login; the preview a little more loosely.
// Reset requests: a few per address an hour (known or not, so the throttle tells nothing either) and per client IP.
const INVITE_LIMITS = {
  accept: { limit: 10, windowSeconds: 60 },
  preview: { limit: 30, windowSeconds: 60 },
  resetPerAddress: { limit: 3, windowSeconds: 3600 },
  resetPerIp: { limit: 10, windowSeconds: 15 * 60 },
} as const;

// One answer for unknown, used and expired links: the page cannot tell them apart, nor can a guesser.
const invalidLink = () =>
  new AppError(
    'svc_not_found',
    'This link is not valid: it was already used, replaced by a newer one, or it expired. Ask an administrator for a new link, or use “Forgot your password?” on the sign-in page.',
  );

export function invitesService(ctx: AppContext) {
  const { db } = ctx;
  const repo = authRepository(db);

  /**
   * Stores a fresh link for the user (replacing any older one) and queues the mail carrying it,
   * atomically. `actor` null: the user asked for it on the sign-in page (a shorter-lived link).
   */
  async function issue(
    tx: Db,
    user: { id: number; email: string; displayName: string; role: Role; passwordHash: string | null; language?: string | null },
    actor: Principal | null,
    nowMs: number,
  ): Promise<string> {
    const txRepo = authRepository(tx);
    const token = randomToken(32);
    const expiresUtc = toUtcString(nowMs + (actor ? INVITE_TTL_DAYS * 86_400_000 : RESET_TTL_MINUTES * 60_000));
    await txRepo.upsertInvite({ userId: user.id, tokenHash: sha256Hex(token), createdBy: actor?.userId ?? null, expiresUtc });
    const topic = `user:${user.id}:invite`;
    // A replaced link is dead: its mail, if still queued, is withdrawn.
    await cancelQueuedMail(tx, topic);
    const inviter = actor?.userId ? await txRepo.findUserById(actor.userId) : null;
    // the user's own language, never the inviting administrator's (server/mail/language.ts)
    const language = await recipientLanguage(tx, user.language);
    const message = buildInviteMail(
      {
        user,
        inviterName: inviter ? inviter.displayName || inviter.email : null,
        byAdministrator: actor !== null,
        link: `${ctx.env.publicUrl}/invite/${token}`,
        expiresUtc,
      },
      language,
    );
    await queueMail(tx, { to: user.email, ...message, topic, linkOrigin: ctx.env.publicUrl, language });
    return expiresUtc;
  }

  return {
    /** Creates a user without a password and mails them a link to choose one. */
    async invite(input: InviteUserInput, actor: Principal, nowMs = Date.now()): Promise<UserDto> {
      if (await repo.findUserByEmail(input.email))
        throw new AppError('svc_conflict', 'A user with this email exists.', { params: { email: 'already in use' } });
      return db.transaction(async (tx) => {
        const user = await authRepository(tx).insertUser({
          email: input.email,
          displayName: input.displayName,
          role: input.role,
          timezone: input.timezone,
          passwordHash: null,
          eventIds: input.eventIds ?? null,
        });
        return toUserDto(user, await issue(tx, user, actor, nowMs));
      });
    },

    /** A fresh link for an existing user (first invite again, or a password reset); the old link stops working. */
    async resend(userId: number, actor: Principal, nowMs = Date.now()): Promise<UserDto> {
      const user = await repo.findUserById(userId);
      if (!user) throw new AppError('svc_not_found', 'No such user.');
      return db.transaction(async (tx) => toUserDto(user, await issue(tx, user, actor, nowMs)));
    },

    /**
     * "Forgot your password?": mails a one-time link (RESET_TTL_MINUTES) to the account with this
     * address, replacing any older link. The answer is the same whether or not an account uses
     * the address, and the throttle counts both alike (per address and per client IP), so neither
     * tells who has an account. The token is only in the mail.
     */
    async requestReset(input: PasswordResetRequest, opts: { ip?: string } = {}, nowMs = Date.now()): Promise<typeof PASSWORD_RESET_ANSWER> {
      const email = input.email.toLowerCase();
      if (opts.ip) await enforceRateLimit(db, `password-reset:ip:${opts.ip}`, INVITE_LIMITS.resetPerIp, nowMs);
      await enforceRateLimit(db, `password-reset:address:${email}`, INVITE_LIMITS.resetPerAddress, nowMs);
      const user = await repo.findUserByEmail(email);
      if (user) await db.transaction((tx) => issue(tx, user, null, nowMs));
      return PASSWORD_RESET_ANSWER;
    },

    /** Who the link is for (throttled per client IP when known). Reading never uses the link up. */
    async preview(token: string, opts: { ip?: string } = {}, nowMs = Date.now()): Promise<InvitePreview> {
      if (opts.ip) await enforceRateLimit(db, `invite:preview:ip:${opts.ip}`, INVITE_LIMITS.preview);
      const found = await repo.findInviteByHash(sha256Hex(token));
      if (!found || found.invite.expiresUtc <= toUtcString(nowMs)) throw invalidLink();
      const { user, invite } = found;
      return { email: user.email, displayName: user.displayName, role: user.role, hasPassword: user.passwordHash !== null, expiresUtc: invite.expiresUtc };
    },

    /**
     * Sets the password and uses the link up, then signs the user in (a new session; their
     * other sessions end). The link is consumed in the same transaction as the password.
     * Throttled per client IP (when known) like login.
     */
    async accept(
      token: string,
      input: AcceptInviteInput,
      opts: { ip?: string } = {},
      nowMs = Date.now(),
    ): Promise<{ user: UserDto; sessionToken: string; expiresUtc: string }> {
      if (opts.ip) await enforceRateLimit(db, `invite:accept:ip:${opts.ip}`, INVITE_LIMITS.accept);
      const tokenHash = sha256Hex(token);
      const found = await repo.findInviteByHash(tokenHash);
      if (!found || found.invite.expiresUtc <= toUtcString(nowMs)) throw invalidLink();
      const passwordHash = await hashPassword(input.password);
      return db.transaction(async (tx) => {
        const txRepo = authRepository(tx);
        const consumed = await txRepo.consumeInvite(tokenHash, toUtcString(nowMs));
        if (!consumed) throw invalidLink();
        await txRepo.revokeUserSessions(consumed.userId);
        const user = await txRepo.updateUser(consumed.userId, { passwordHash });
        const session = await startSession(txRepo, consumed.userId, nowMs);
        return { user: (await withInvites(txRepo, [user!]))[0]!, ...session };
      });
    },
  };
}
export type InvitesService = ReturnType<typeof invitesService>;
