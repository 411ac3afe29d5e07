import { z } from 'zod';
import { deleteCookie, setCookie } from 'hono/cookie';
import { defineRoute, listResult, ZIdParams, ZPagination, type AnyRouteDef } from '../rest/route';
import { isSecure, SESSION_COOKIE } from '../http';
import { enforceRateLimit } from '../security/throttle';
import { ADMIN_ONLY, SIGNED_IN } from './principal';
import { SESSION_TTL_DAYS, ZCreateApiTokenInput, ZCreateUserInput, ZLoginInput, ZRole, ZUpdateUserInput } from './auth.service';
import { invitesService, ZAcceptInviteInput, ZInvitePreview, ZInviteTokenParams, ZInviteUserInput } from './invites.service';
import type { AppContext } from '../context';
import type { Context } from 'hono';

export const ZUserDto = z.object({
  id: z.number().int(),
  email: z.string(),
  displayName: z.string(),
  role: ZRole,
  timezone: z.string(),
  eventIds: z.array(z.number().int()).nullable(),
  hasPassword: z.boolean().describe('False until an invited user has chosen a password'),
  inviteExpiresUtc: z.string().nullable().describe('Expiry of the pending invite / password link; null when none is pending'),
});
const ZApiTokenCreated = z.object({ id: z.number().int(), name: z.string(), token: z.string() });
const ZApiTokenDto = z.object({
  id: z.number().int(),
  name: z.string(),
  role: ZRole,
  eventIds: z.array(z.number().int()).nullable(),
  createdUtc: z.string(),
  lastUsedUtc: z.string().nullable(),
  expiresUtc: z.string().nullable(),
  revokedUtc: z.string().nullable(),
});

// Password guessing: 10 tries a minute per address, 20 an hour per account.
const LOGIN_LIMITS = { perIp: { limit: 10, windowSeconds: 60 }, perEmail: { limit: 20, windowSeconds: 3600 } } as const;
// Invite links: setting a password is throttled like login; the preview a little more loosely.
const INVITE_LIMITS = { accept: { limit: 10, windowSeconds: 60 }, preview: { limit: 30, windowSeconds: 60 } } as const;

const invitesOf = (ctx: AppContext) => invitesService(ctx.db, { publicUrl: ctx.env.publicUrl });

function setSessionCookie(c: Context, ctx: AppContext, sessionToken: string): void {
  setCookie(c, SESSION_COOKIE, sessionToken, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: isSecure(c, ctx),
    path: '/',
    maxAge: SESSION_TTL_DAYS * 86_400,
  });
}

export const authRoutes: AnyRouteDef[] = [
  defineRoute({
    method: 'post',
    path: '/auth/login',
    summary: 'Sign in with email and password; sets the session cookie',
    tags: ['auth'],
    access: 'public',
    body: ZLoginInput,
    responses: { 200: { description: 'The signed-in user', schema: ZUserDto }, 401: { description: 'Wrong credentials' }, 429: { description: 'Too many attempts' } },
    async handler({ body, ip, c, ctx }) {
      if (ip) await enforceRateLimit(ctx.db, `login:ip:${ip}`, LOGIN_LIMITS.perIp);
      await enforceRateLimit(ctx.db, `login:email:${body.email.toLowerCase()}`, LOGIN_LIMITS.perEmail);
      const { user, sessionToken } = await ctx.services.auth.login(body);
      setSessionCookie(c, ctx, sessionToken);
      return { status: 200, body: user };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/auth/invites/:token',
    summary: 'Who an invite / password link is for (does not use the link up)',
    tags: ['auth'],
    access: 'public',
    params: ZInviteTokenParams,
    responses: {
      200: { description: 'The invited user', schema: ZInvitePreview },
      404: { description: 'Unknown, used, replaced or expired link' },
      429: { description: 'Too many attempts' },
    },
    async handler({ params, ip, ctx }) {
      if (ip) await enforceRateLimit(ctx.db, `invite:preview:ip:${ip}`, INVITE_LIMITS.preview);
      return { body: await invitesOf(ctx).preview(params.token) };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/invites/:token',
    summary: 'Choose a password with an invite / password link; uses the link up and signs in (sets the session cookie)',
    tags: ['auth'],
    access: 'public',
    params: ZInviteTokenParams,
    body: ZAcceptInviteInput,
    responses: {
      200: { description: 'The signed-in user', schema: ZUserDto },
      404: { description: 'Unknown, used, replaced or expired link' },
      429: { description: 'Too many attempts' },
    },
    async handler({ params, body, ip, c, ctx }) {
      if (ip) await enforceRateLimit(ctx.db, `invite:accept:ip:${ip}`, INVITE_LIMITS.accept);
      const { user, sessionToken } = await invitesOf(ctx).accept(params.token, body);
      setSessionCookie(c, ctx, sessionToken);
      return { status: 200, body: user };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/logout',
    summary: 'Sign out: revokes this session',
    tags: ['auth'],
    access: SIGNED_IN,
    responses: { 204: { description: 'Signed out' } },
    async handler({ principal, c, ctx }) {
      await ctx.services.auth.logout(principal!);
      deleteCookie(c, SESSION_COOKIE, { path: '/' });
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/auth/me',
    summary: 'The signed-in user',
    tags: ['auth'],
    access: SIGNED_IN,
    responses: { 200: { description: 'The user', schema: ZUserDto } },
    handler: async ({ principal, ctx }) => ({ body: await ctx.services.auth.me(principal!) }),
  }),
  defineRoute({
    method: 'post',
    path: '/auth/tokens',
    summary: 'Create an API token (shown once)',
    tags: ['auth'],
    access: ADMIN_ONLY,
    body: ZCreateApiTokenInput,
    responses: { 201: { description: 'The token; the only time it is shown', schema: ZApiTokenCreated } },
    handler: async ({ body, principal, ctx }) => ({ status: 201, body: await ctx.services.auth.createApiToken(body, principal!) }),
  }),
  defineRoute({
    method: 'get',
    path: '/auth/tokens',
    summary: 'List API tokens (never the secrets)',
    tags: ['auth'],
    access: ADMIN_ONLY,
    responses: { 200: { description: 'Tokens', schema: z.array(ZApiTokenDto) } },
    async handler({ ctx }) {
      const items = await ctx.services.auth.listApiTokens();
      return listResult(items, items.length);
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/auth/tokens/:id',
    summary: 'Revoke an API token',
    tags: ['auth'],
    access: ADMIN_ONLY,
    params: ZIdParams,
    responses: { 204: { description: 'Revoked' }, 404: { description: 'No such token' } },
    async handler({ params, ctx }) {
      await ctx.services.auth.revokeApiToken(params.id);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/users',
    summary: 'List users',
    tags: ['users'],
    access: ADMIN_ONLY,
    query: ZPagination,
    responses: { 200: { description: 'Users', schema: z.array(ZUserDto) } },
    async handler({ query, ctx }) {
      const { items, total } = await ctx.services.auth.listUsers(query.page, query.perPage);
      return listResult(items, total);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/users',
    summary: 'Create a user',
    tags: ['users'],
    access: ADMIN_ONLY,
    body: ZCreateUserInput,
    responses: { 201: { description: 'The user', schema: ZUserDto }, 409: { description: 'Email in use' } },
    handler: async ({ body, ctx }) => ({ status: 201, body: await ctx.services.auth.createUser(body) }),
  }),
  defineRoute({
    method: 'post',
    path: '/users/invite',
    summary: 'Invite a user: creates them without a password and emails a one-time link (7 days) to choose one',
    tags: ['users'],
    access: ADMIN_ONLY,
    body: ZInviteUserInput,
    responses: { 201: { description: 'The invited user (the link is only in the email)', schema: ZUserDto }, 409: { description: 'Email in use' } },
    handler: async ({ body, principal, ctx }) => ({ status: 201, body: await invitesOf(ctx).invite(body, principal!) }),
  }),
  defineRoute({
    method: 'post',
    path: '/users/:id/invite',
    summary: 'Email a user a fresh one-time link to choose a password (invite again or reset); older links stop working',
    tags: ['users'],
    access: ADMIN_ONLY,
    params: ZIdParams,
    responses: { 200: { description: 'The user (the link is only in the email)', schema: ZUserDto }, 404: { description: 'No such user' } },
    handler: async ({ params, principal, ctx }) => ({ body: await invitesOf(ctx).resend(params.id, principal!) }),
  }),
  defineRoute({
    method: 'get',
    path: '/users/:id',
    summary: 'Get a user',
    tags: ['users'],
    access: ADMIN_ONLY,
    params: ZIdParams,
    responses: { 200: { description: 'The user', schema: ZUserDto } },
    handler: async ({ params, ctx }) => ({ body: await ctx.services.auth.getUser(params.id) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/users/:id',
    summary: 'Update a user (role, password, …)',
    tags: ['users'],
    access: ADMIN_ONLY,
    params: ZIdParams,
    body: ZUpdateUserInput,
    responses: { 200: { description: 'The user', schema: ZUserDto } },
    handler: async ({ params, body, ctx }) => ({ body: await ctx.services.auth.updateUser(params.id, body) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/users/:id',
    summary: 'Delete a user',
    tags: ['users'],
    access: ADMIN_ONLY,
    params: ZIdParams,
    responses: { 204: { description: 'Deleted' } },
    async handler({ params, principal, ctx }) {
      await ctx.services.auth.deleteUser(params.id, principal!);
      return { status: 204 };
    },
  }),
];
