/** Sign-in, invite links, API tokens and users (docs/api.md): one declaration per operation. */
import type { Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { ZApiTokenCreatedDto, ZApiTokenDto, ZInvitePreview, ZUpdateMeInput, ZUserDto } from '../../shared/users';
import { defineOperation, ZIdParams, ZListOf, ZPagination } from '../api/operation';
import type { AppContext } from '../context';
import { isSecure, SESSION_COOKIE } from '../http';
import { authService, SESSION_TTL_DAYS, ZCreateApiTokenInput, ZCreateUserInput, ZLoginInput, ZUpdateUserInput } from './auth.service';
import { invitesService, ZAcceptInviteInput, ZInviteTokenParams, ZInviteUserInput, ZPasswordResetAnswer, ZPasswordResetRequest } from './invites.service';
import { ADMIN_ONLY, SIGNED_IN } from './principal';

const AUTH = ['auth'];
const USERS = ['users'];

/** The session cookie, on the REST and the tRPC answer alike (server/app.ts keeps headers set on `c`). */
function setSessionCookie(c: Context, ctx: AppContext, sessionToken: string): void {
  setCookie(c, SESSION_COOKIE, sessionToken, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: isSecure(c, ctx),
    path: '/',
    maxAge: SESSION_TTL_DAYS * 86_400,
  });
}

export const authOperations = {
  login: defineOperation({
    summary: 'Sign in with email and password; sets the session cookie',
    access: 'public',
    kind: 'mutation',
    input: ZLoginInput,
    output: ZUserDto,
    rest: { method: 'post', path: '/auth/login', tags: AUTH, describe: 'The signed-in user', errors: { 401: 'Wrong credentials', 429: 'Too many attempts' } },
    async handler({ input, ip, c, ctx }) {
      const { user, sessionToken } = await authService(ctx).login(input, { ip });
      setSessionCookie(c, ctx, sessionToken);
      return user;
    },
  }),
  requestPasswordReset: defineOperation({
    summary: 'Forgot password: emails a one-time link (60 minutes) to choose a new password; the same answer whether or not an account uses the address',
    access: 'public',
    kind: 'mutation',
    input: ZPasswordResetRequest,
    output: ZPasswordResetAnswer,
    rest: {
      method: 'post',
      path: '/auth/password-reset',
      tags: AUTH,
      status: 202,
      describe: 'Accepted: if an account uses the address, the link is in its mail',
      errors: { 429: 'Too many requests for this address or from this client' },
    },
    handler: ({ input, ip, ctx }) => invitesService(ctx).requestReset(input, { ip }),
  }),
  invite: defineOperation({
    summary: 'Who an invite / password link is for (does not use the link up)',
    access: 'public',
    kind: 'query',
    input: ZInviteTokenParams,
    output: ZInvitePreview,
    rest: {
      method: 'get',
      path: '/auth/invites/:token',
      tags: AUTH,
      describe: 'The invited user',
      errors: { 404: 'Unknown, used, replaced or expired link', 429: 'Too many attempts' },
    },
    handler: ({ input, ip, ctx }) => invitesService(ctx).preview(input.token, { ip }),
  }),
  acceptInvite: defineOperation({
    summary: 'Choose a password with an invite / password link; uses the link up and signs in (sets the session cookie)',
    access: 'public',
    kind: 'mutation',
    input: ZInviteTokenParams.extend(ZAcceptInviteInput.shape),
    output: ZUserDto,
    rest: {
      method: 'post',
      path: '/auth/invites/:token',
      tags: AUTH,
      describe: 'The signed-in user',
      errors: { 404: 'Unknown, used, replaced or expired link', 429: 'Too many attempts' },
    },
    async handler({ input: { token, ...body }, ip, c, ctx }) {
      const { user, sessionToken } = await invitesService(ctx).accept(token, body, { ip });
      setSessionCookie(c, ctx, sessionToken);
      return user;
    },
  }),
  logout: defineOperation({
    summary: 'Sign out: revokes this session',
    access: SIGNED_IN,
    kind: 'mutation',
    rest: { method: 'post', path: '/auth/logout', tags: AUTH, describe: 'Signed out' },
    async handler({ principal, c, ctx }) {
      await authService(ctx).logout(principal);
      deleteCookie(c, SESSION_COOKIE, { path: '/' });
    },
  }),
  me: defineOperation({
    summary: 'The signed-in user',
    access: SIGNED_IN,
    kind: 'query',
    output: ZUserDto,
    rest: { method: 'get', path: '/auth/me', tags: AUTH, describe: 'The user' },
    handler: ({ principal, ctx }) => authService(ctx).me(principal),
  }),
  updateMe: defineOperation({
    summary: 'Change the signed-in user’s own settings: their language (a locale svc speaks, or null)',
    access: SIGNED_IN,
    kind: 'mutation',
    input: ZUpdateMeInput,
    output: ZUserDto,
    rest: { method: 'patch', path: '/auth/me', tags: AUTH, describe: 'The user', errors: { 404: 'An API token without a user' } },
    handler: ({ input, principal, ctx }) => authService(ctx).updateMe(principal, input),
  }),
  createToken: defineOperation({
    summary: 'Create an API token (shown once)',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZCreateApiTokenInput,
    output: ZApiTokenCreatedDto,
    rest: { method: 'post', path: '/auth/tokens', tags: AUTH, status: 201, describe: 'The token; the only time it is shown' },
    handler: ({ input, principal, ctx }) => authService(ctx).createApiToken(input, principal),
  }),
  tokens: defineOperation({
    summary: 'List API tokens (never the secrets)',
    access: ADMIN_ONLY,
    kind: 'query',
    output: ZListOf(ZApiTokenDto),
    rest: { method: 'get', path: '/auth/tokens', tags: AUTH, list: true, describe: 'Tokens' },
    async handler({ ctx }) {
      const items = await authService(ctx).listApiTokens();
      return { items, total: items.length };
    },
  }),
  revokeToken: defineOperation({
    summary: 'Revoke an API token',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams,
    rest: { method: 'delete', path: '/auth/tokens/:id', tags: AUTH, describe: 'Revoked', errors: { 404: 'No such token' } },
    handler: ({ input, ctx }) => authService(ctx).revokeApiToken(input.id),
  }),

  users: defineOperation({
    summary: 'List users',
    access: ADMIN_ONLY,
    kind: 'query',
    input: ZPagination,
    output: ZListOf(ZUserDto),
    rest: { method: 'get', path: '/users', tags: USERS, list: true, describe: 'Users' },
    handler: ({ input, ctx }) => authService(ctx).listUsers(input.page, input.perPage),
  }),
  createUser: defineOperation({
    summary: 'Create a user',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZCreateUserInput,
    output: ZUserDto,
    rest: { method: 'post', path: '/users', tags: USERS, status: 201, describe: 'The user', errors: { 409: 'Email in use' } },
    handler: ({ input, ctx }) => authService(ctx).createUser(input),
  }),
  inviteUser: defineOperation({
    summary: 'Invite a user: creates them without a password and emails a one-time link (7 days) to choose one',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZInviteUserInput,
    output: ZUserDto,
    rest: {
      method: 'post',
      path: '/users/invite',
      tags: USERS,
      status: 201,
      describe: 'The invited user (the link is only in the email)',
      errors: { 409: 'Email in use' },
    },
    handler: ({ input, principal, ctx }) => invitesService(ctx).invite(input, principal),
  }),
  sendPasswordLink: defineOperation({
    summary: 'Email a user a fresh one-time link to choose a password (invite again or reset); older links stop working',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams,
    output: ZUserDto,
    rest: { method: 'post', path: '/users/:id/invite', tags: USERS, describe: 'The user (the link is only in the email)', errors: { 404: 'No such user' } },
    handler: ({ input, principal, ctx }) => invitesService(ctx).resend(input.id, principal),
  }),
  user: defineOperation({
    summary: 'Get a user',
    access: ADMIN_ONLY,
    kind: 'query',
    trpc: false,
    input: ZIdParams,
    output: ZUserDto,
    rest: { method: 'get', path: '/users/:id', tags: USERS, describe: 'The user' },
    handler: ({ input, ctx }) => authService(ctx).getUser(input.id),
  }),
  updateUser: defineOperation({
    summary: 'Update a user (role, password, …)',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams.extend({ patch: ZUpdateUserInput }),
    output: ZUserDto,
    rest: { method: 'patch', path: '/users/:id', tags: USERS, bodyKey: 'patch', describe: 'The user' },
    handler: ({ input, ctx }) => authService(ctx).updateUser(input.id, input.patch),
  }),
  deleteUser: defineOperation({
    summary: 'Delete a user',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams,
    rest: { method: 'delete', path: '/users/:id', tags: USERS, describe: 'Deleted' },
    handler: ({ input, principal, ctx }) => authService(ctx).deleteUser(input.id, principal),
  }),
};
