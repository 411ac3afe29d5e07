/** Session auth against `/svc/v1/auth` (SPEC §4–5): an HttpOnly cookie the page never sees. */
import { api, ApiError } from './api';

export type UserRole = 'administrator' | 'staff' | 'host';

export interface User {
  id: number;
  email: string;
  displayName: string;
  role: UserRole;
  timezone: string;
}

export function login(email: string, password: string): Promise<User> {
  return api<User>('/auth/login', { method: 'POST', body: { email, password } });
}

export async function logout(): Promise<void> {
  await api<undefined>('/auth/logout', { method: 'POST' });
}

/** The signed-in user, or null when there is no valid session (401). */
export async function fetchCurrentUser(): Promise<User | null> {
  try {
    return await api<User>('/auth/me');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

/** Only same-origin paths are followed after sign-in (no open redirect via `?next=`). */
export function safeNextPath(next: string | null): string | null {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  return next;
}

/** `/login?next=/admin` — the path is kept readable; only characters a query needs are escaped. */
export function loginPath(next: string): string {
  return `/login?next=${encodeURIComponent(next).replace(/%2F/gi, '/')}`;
}
