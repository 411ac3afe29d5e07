/**
 * What the users table says about each person: whether they can sign in yet (an invite
 * not accepted, a link expired) and which events a staff user may work on.
 */
import { parseUtcString } from '../../shared/time';
import type { Role } from './constants';

export type AccessKind = 'active' | 'reset-sent' | 'invited' | 'invite-expired' | 'no-password';

export interface AccessState {
  kind: AccessKind;
  label: string;
}

export function accessState(user: { hasPassword: boolean; inviteExpiresUtc: string | null }, nowMs = Date.now()): AccessState {
  const expires = user.inviteExpiresUtc ? (parseUtcString(user.inviteExpiresUtc)?.getTime() ?? null) : null;
  const linkLive = expires !== null && expires > nowMs;
  if (user.hasPassword) return linkLive ? { kind: 'reset-sent', label: 'Active, password link sent' } : { kind: 'active', label: 'Active' };
  if (linkLive) return { kind: 'invited', label: 'Invited, not yet accepted' };
  if (expires !== null) return { kind: 'invite-expired', label: 'Invited, link expired' };
  return { kind: 'no-password', label: 'No password yet' };
}

/** "All events", "None", or the titles (an id without a known event reads "Event #id"). */
export function eventsSummary(user: { role: Role; eventIds: number[] | null }, titles: ReadonlyMap<number, string>): string {
  if (user.role !== 'staff') return 'Not limited';
  if (user.eventIds === null) return 'All events';
  if (user.eventIds.length === 0) return 'None';
  return user.eventIds.map((id) => titles.get(id) ?? `Event #${id}`).join(', ');
}
