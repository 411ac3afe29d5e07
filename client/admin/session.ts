/**
 * Who is signed in, for the admin pages: fetched once per app load and shared by every
 * admin page, cleared on sign-out. What each role may open follows docs/api.md#auth
 */
import { createSignal } from 'solid-js';
import { NetworkError } from '../ui/errors';
import { fetchCurrentUser, logout } from './auth';
import type { UserDto } from '../../shared/users';
import type { Role } from './constants';
import { rememberedUser, rememberUser as rememberForOffline } from './offline-flag';
import { applyMyLanguage } from './my-language';

/** Who is signed in (`auth.me`); staff carry the events they are assigned to (`eventIds`, null = all). */
export type AdminUser = UserDto;

let pending: Promise<AdminUser | null> | null = null;
const [cachedUser, setCachedUser] = createSignal<AdminUser | null>(null);

/** The signed-in user, or null (no session). A failed request is thrown and not cached. */
export function adminUser(): Promise<AdminUser | null> {
  if (cachedUser()) return Promise.resolve(cachedUser());
  pending ??= fetchCurrentUser()
    .then(async (user) => {
      setCachedUser(user);
      rememberForOffline(user);
      await applyMyLanguage(user);
      return user;
    })
    .catch((error: unknown) => {
      // offline: an admin who keeps events offline can still read them (the server guards every write)
      if (!(error instanceof NetworkError)) throw error;
      const remembered = rememberedUser();
      if (!remembered) throw error;
      return remembered;
    })
    .finally(() => {
      pending = null;
    });
  return pending;
}

/** After a sign-in that did not go through `adminUser()` (an accepted invite): the pages see the new user at once. */
export function rememberUser(user: AdminUser): void {
  setCachedUser(user);
  rememberForOffline(user);
  void applyMyLanguage(user);
}

export async function signOut(): Promise<void> {
  await logout();
  setCachedUser(null);
  rememberForOffline(null);
}

/** Areas of the admin app. */
export type AdminArea =
  | 'overview'
  | 'events'
  | 'manage-events'
  | 'attendees'
  | 'dashboard'
  | 'booking'
  | 'orders'
  | 'integrations'
  | 'settings'
  | 'devices'
  | 'outbox'
  /** A host's own space: their bookings, hours, calendars, profile (administrators: any host's). */
  | 'host-space'
  /** The administrators' list of hosts. */
  | 'hosts';

/**
 * docs/api.md#auth: staff check in and read attendees of their events; hosts have their own
 * space (docs/decisions/043-host-space.md); hosts and staff never see users, settings, outbox.
 */
const AREAS_BY_ROLE: Record<Role, readonly AdminArea[]> = {
  administrator: [
    'overview',
    'events',
    'manage-events',
    'attendees',
    'dashboard',
    'booking',
    'orders',
    'integrations',
    'settings',
    'devices',
    'outbox',
    'host-space',
    'hosts',
  ],
  staff: ['overview', 'events', 'attendees', 'dashboard'],
  host: ['host-space'],
};

export function mayOpen(role: Role, area: AdminArea): boolean {
  return AREAS_BY_ROLE[role].includes(area);
}

/** What a role may change (read-only staff views hide the controls the server would refuse). */
export const canEdit = (role: Role): boolean => role === 'administrator';
