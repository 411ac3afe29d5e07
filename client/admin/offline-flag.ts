/**
 * What the admin app must know synchronously, before Dexie is loaded (decision 012): which
 * events the signed-in admin keeps offline, and who that admin was, so a reload without a
 * network can still open the cached lists. Kept in localStorage; nothing secret (no token:
 * the session cookie stays HttpOnly, and the server stays the guard of every write).
 */
import type { AdminUser } from './session';

const KEPT_KEY = 'svc-admin-offline-events';
const USER_KEY = 'svc-admin-offline-user';

function read<T>(key: string): T | null {
  try {
    const text = globalThis.localStorage?.getItem(key);
    return text ? (JSON.parse(text) as T) : null;
  } catch {
    return null;
  }
}

function write(key: string, value: unknown): void {
  try {
    if (value === null) globalThis.localStorage?.removeItem(key);
    else globalThis.localStorage?.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or disabled: offline mode just stays off
  }
}

/** The events `userId` keeps offline ([] when none). */
export function keptFor(userId: number): number[] {
  const all = read<Record<string, number[]>>(KEPT_KEY) ?? {};
  return all[String(userId)] ?? [];
}

export function rememberKept(userId: number, eventIds: number[]): void {
  const all = read<Record<string, number[]>>(KEPT_KEY) ?? {};
  all[String(userId)] = eventIds;
  write(KEPT_KEY, all);
}

export function forgetKept(userId: number): void {
  const all = read<Record<string, number[]>>(KEPT_KEY) ?? {};
  delete all[String(userId)];
  write(KEPT_KEY, Object.keys(all).length ? all : null);
}

/** The last admin confirmed by the server, remembered only while they keep events offline. */
export function rememberUser(user: AdminUser | null): void {
  write(USER_KEY, user && keptFor(user.id).length > 0 ? user : null);
}

export function rememberedUser(): AdminUser | null {
  const user = read<AdminUser>(USER_KEY);
  return user && keptFor(user.id).length > 0 ? user : null;
}
