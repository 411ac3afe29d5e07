import { z } from 'zod';
import { deleteCookie, setCookie } from 'hono/cookie';
import { defineRoute, listResult, ZIdParams, ZPagination, type AnyRouteDef } from '../rest/route';
import { isSecure, SESSION_COOKIE } from '../http';
import { enforceRateLimit } from '../security/throttle';
import { ADMIN_ONLY, SIGNED_IN } from './principal';
import { SESSION_TTL_DAYS, ZCreateApiTokenInput, ZCreateUserInput, ZLoginInput, ZRole, ZUpdateUserInput } from './auth.service';

export const ZUserDto = z.object({
  id: z.number().int(),
  email: z.string(),
  displayName: z.string(),
  role: ZRole,
  timezone: z.string(),
  eventIds: z.array(z.number().int()).nullable(),
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
      setCookie(c, SESSION_COOKIE, sessionToken, {
        httpOnly: true,
        sameSite: 'Lax',
        secure: isSecure(c, ctx),
        path: '/',
        maxAge: SESSION_TTL_DAYS * 86_400,
      });
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
