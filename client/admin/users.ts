/**
 * What the users table says about each person: whether they can sign in yet (an invite
 * not accepted, a link expired) and which events a staff user may work on.
 */
import { parseUtcString } from '../../shared/time';
import type { Role } from './constants';
import { intlLocale, t } from '../i18n/i18n';

export type AccessKind = 'active' | 'reset-sent' | 'invited' | 'invite-expired' | 'no-password';

export interface AccessState {
  kind: AccessKind;
  label: string;
}

export function accessState(user: { hasPassword: boolean; inviteExpiresUtc: string | null }, nowMs = Date.now()): AccessState {
  const expires = user.inviteExpiresUtc ? (parseUtcString(user.inviteExpiresUtc)?.getTime() ?? null) : null;
  const linkLive = expires !== null && expires > nowMs;
  if (user.hasPassword)
    return linkLive ? { kind: 'reset-sent', label: t('admin.common.access.resetSent') } : { kind: 'active', label: t('admin.common.access.active') };
  if (linkLive) return { kind: 'invited', label: t('admin.common.access.invited') };
  if (expires !== null) return { kind: 'invite-expired', label: t('admin.common.access.inviteExpired') };
  return { kind: 'no-password', label: t('admin.common.access.noPassword') };
}

/** "All events", "None", or the titles (an id without a known event reads "Event #id"). */
export function eventsSummary(user: { role: Role; eventIds: number[] | null }, titles: ReadonlyMap<number, string>): string {
  if (user.role !== 'staff') return t('admin.common.access.notLimited');
  if (user.eventIds === null) return t('admin.common.access.allEvents');
  if (user.eventIds.length === 0) return t('admin.common.access.none');
  // a unit list ("a, b, c"): the titles are names, not a sentence's "and"
  return new Intl.ListFormat(intlLocale(), { type: 'unit', style: 'short' }).format(
    user.eventIds.map((id) => titles.get(id) ?? t('admin.attendees.eventNumber', { id })),
  );
}
