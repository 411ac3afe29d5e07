import { AppError } from '../../shared/errors';
import type { Role } from './auth.sql';

/** Who is making a request, whatever the credential (session cookie or Bearer token). */
export interface Principal {
  via: 'session' | 'token';
  role: Role;
  /** The signed-in user; for a token, the user who created it (may be null). */
  userId: number | null;
  /** Events a staff principal may work on; null = every event. */
  eventIds: number[] | null;
  tokenId?: number;
  sessionTokenHash?: string;
  /** A paired door device (its Bearer token): role staff, the device's events. */
  deviceId?: number;
  /** A door device's check-in list: the ticket categories it admits; null or absent = every ticket. */
  categoryIds?: number[] | null;
}

export type Access = 'public' | readonly Role[];

/**
 * The one authorization check for REST and tRPC: no credential → 401, wrong role → 403.
 * Runs before any lookup, so an unknown id never answers 404 to a stranger.
 */
export function authorize(principal: Principal | null, access: Access): Principal | null {
  if (access === 'public') return principal;
  if (!principal) throw new AppError('svc_unauthorized');
  if (!access.includes(principal.role)) throw new AppError('svc_forbidden');
  return principal;
}

/** Staff may only work on the events they are assigned; administrators on all. */
export function assertEventAccess(principal: Principal, eventId: number): void {
  if (principal.role === 'administrator' || principal.eventIds === null) return;
  if (!principal.eventIds.includes(eventId)) throw new AppError('svc_forbidden', 'You are not assigned to this event.');
}

export const ADMIN_ONLY: readonly Role[] = ['administrator'];
export const ADMIN_OR_STAFF: readonly Role[] = ['administrator', 'staff'];
export const SIGNED_IN: readonly Role[] = ['administrator', 'staff', 'host'];
