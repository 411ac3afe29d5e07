import { AppError } from '../../../shared/errors';
import type { Principal } from '../../auth/principal';

/**
 * What a user keeps for themselves (hours, calendars, feed): theirs to see and change; an
 * administrator may act for anyone; a door device never.
 */
export function assertMayManageOwn(principal: Principal, userId: number): void {
  if (principal.role === 'administrator') return;
  if (principal.userId !== userId || principal.deviceId !== undefined) throw new AppError('svc_forbidden');
}
