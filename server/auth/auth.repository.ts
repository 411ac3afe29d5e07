import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { apiTokens, sessions, userInvites, users, type Role } from './auth.sql';
import { nowUtc } from '../db/columns';

export type UserRow = typeof users.$inferSelect;
export type ApiTokenRow = typeof apiTokens.$inferSelect;
export type InviteRow = typeof userInvites.$inferSelect;

/** Queries only; rules live in auth.service.ts. */
export function authRepository(db: Db) {
  return {
    countUsers: async () => (await db.select({ n: sql<number>`count(*)::int` }).from(users))[0]!.n,
    findUserByEmail: async (email: string) =>
      (
        await db
          .select()
          .from(users)
          .where(sql`lower(${users.email}) = lower(${email})`)
      )[0] ?? null,
    findUserById: async (id: number) => (await db.select().from(users).where(eq(users.id, id)))[0] ?? null,
    listUsers: (limit: number, offset: number) => db.select().from(users).orderBy(asc(users.id)).limit(limit).offset(offset),
    insertUser: async (row: {
      email: string;
      displayName: string;
      role: Role;
      timezone: string;
      language?: string | null;
      passwordHash: string | null;
      eventIds?: number[] | null;
    }) => (await db.insert(users).values(row).returning())[0]!,
    updateUser: async (id: number, patch: Partial<Pick<UserRow, 'email' | 'displayName' | 'role' | 'timezone' | 'language' | 'passwordHash' | 'eventIds'>>) =>
      (
        await db
          .update(users)
          .set({ ...patch, updatedUtc: nowUtc })
          .where(eq(users.id, id))
          .returning()
      )[0] ?? null,
    deleteUser: async (id: number) => (await db.delete(users).where(eq(users.id, id)).returning({ id: users.id })).length > 0,

    insertSession: async (row: { userId: number; tokenHash: string; expiresUtc: string }) => (await db.insert(sessions).values(row).returning())[0]!,
    findLiveSession: async (tokenHash: string, nowUtcText: string) =>
      (
        await db
          .select({ session: sessions, user: users })
          .from(sessions)
          .innerJoin(users, eq(users.id, sessions.userId))
          .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedUtc), sql`${sessions.expiresUtc} > ${nowUtcText}`))
      )[0] ?? null,
    revokeSession: (tokenHash: string) => db.update(sessions).set({ revokedUtc: nowUtc }).where(eq(sessions.tokenHash, tokenHash)),
    revokeUserSessions: (userId: number) =>
      db
        .update(sessions)
        .set({ revokedUtc: nowUtc })
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedUtc))),

    insertApiToken: async (row: {
      name: string;
      tokenHash: string;
      role: Role;
      eventIds: number[] | null;
      createdBy: number | null;
      expiresUtc: string | null;
    }) => (await db.insert(apiTokens).values(row).returning())[0]!,
    findApiToken: async (tokenHash: string) => (await db.select().from(apiTokens).where(eq(apiTokens.tokenHash, tokenHash)))[0] ?? null,
    touchApiToken: (id: number) => db.update(apiTokens).set({ lastUsedUtc: nowUtc }).where(eq(apiTokens.id, id)),
    listApiTokens: () => db.select().from(apiTokens).orderBy(asc(apiTokens.id)),
    revokeApiToken: async (id: number) =>
      (
        await db
          .update(apiTokens)
          .set({ revokedUtc: nowUtc })
          .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedUtc)))
          .returning({ id: apiTokens.id })
      ).length > 0,
    /** Re-inviting replaces the user's live link (one row per user). */
    upsertInvite: async (row: { userId: number; tokenHash: string; createdBy: number | null; expiresUtc: string }) =>
      (
        await db
          .insert(userInvites)
          .values(row)
          .onConflictDoUpdate({
            target: userInvites.userId,
            set: { tokenHash: row.tokenHash, createdBy: row.createdBy, expiresUtc: row.expiresUtc, createdUtc: nowUtc },
          })
          .returning()
      )[0]!,
    findInviteByHash: async (tokenHash: string) =>
      (
        await db
          .select({ invite: userInvites, user: users })
          .from(userInvites)
          .innerJoin(users, eq(users.id, userInvites.userId))
          .where(eq(userInvites.tokenHash, tokenHash))
      )[0] ?? null,
    /** Single use: the row goes in the same statement that checks it, so two tabs cannot both accept. */
    consumeInvite: async (tokenHash: string, nowUtcText: string) =>
      (
        await db
          .delete(userInvites)
          .where(and(eq(userInvites.tokenHash, tokenHash), sql`${userInvites.expiresUtc} > ${nowUtcText}`))
          .returning({ userId: userInvites.userId })
      )[0] ?? null,
    deleteUserInvite: (userId: number) => db.delete(userInvites).where(eq(userInvites.userId, userId)),
    invitesOf: async (userIds: number[]) =>
      userIds.length === 0
        ? []
        : db.select({ userId: userInvites.userId, expiresUtc: userInvites.expiresUtc }).from(userInvites).where(inArray(userInvites.userId, userIds)),

    findApiTokenById: async (id: number) => (await db.select().from(apiTokens).where(eq(apiTokens.id, id)))[0] ?? null,
  };
}
export type AuthRepository = ReturnType<typeof authRepository>;
