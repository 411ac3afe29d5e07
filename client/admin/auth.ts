/** Session auth over tRPC `auth.*` (docs/api.md#rest–5): an HttpOnly cookie the page never sees. */
import { ApiError } from '../ui/errors';
import { call, rpc } from '../ui/trpc';
import type { UserDto } from '../../shared/users';

/** Signs in; the server sets the session cookie and answers the user. */
export function login(email: string, password: string): Promise<UserDto> {
  return call(rpc().auth.login.mutate({ email, password }));
}

/** "Forgot your password?": the server mails a one-time link if an account uses the address; the answer says so either way. */
export async function requestPasswordReset(email: string): Promise<string> {
  return (await call(rpc().auth.requestPasswordReset.mutate({ email }))).message;
}

export async function logout(): Promise<void> {
  await call(rpc().auth.logout.mutate());
}

/** The signed-in user, or null when there is no valid session (401). */
export async function fetchCurrentUser(): Promise<UserDto | null> {
  try {
    return await call(rpc().auth.me.query());
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/** Only same-origin paths are followed after sign-in (no open redirect via `?next=`). */
/**
 * Where a user lands after signing in (docs/decisions/043-host-space.md): hosts on their
 * bookings; administrators and staff on the overview, which for staff lists the events they
 * check in — never the public home page.
 */
export function landingPath(user: Pick<UserDto, 'id' | 'role'>): string {
  return user.role === 'host' ? `/admin/hosts/${user.id}/bookings` : '/admin';
}

export function safeNextPath(next: string | null): string | null {
  if (!next?.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  return next;
}

/** `/login?next=/admin` — the path is kept readable; only characters a query needs are escaped. */
export function loginPath(next: string): string {
  return `/login?next=${encodeURIComponent(next).replace(/%2F/gi, '/')}`;
}
