/**
 * An attendee's timeline (docs/api.md#timeline): what happened to a sign-up, written by the
 * extended edition's listeners at priority 10 of the actions (server/extended/timeline.ts) and read
 * by administrators and by staff of the attendee's event.
 */
import { AppError } from '../../../shared/errors';
import type { TimelineEntryDto } from '../../../shared/timeline';
import { assertEventAccess, type Principal } from '../../auth/principal';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { attendeesRepository } from '../attendees/attendees.repository';
import { requireExtended } from '../orders/payments.service';
import { timelineRepository, type TimelineRow } from './timeline.repository';

const toDto = (row: TimelineRow): TimelineEntryDto => ({ id: row.id, attendeeId: row.attendeeId, atUtc: row.atUtc, kind: row.kind, data: row.data });

export function timelineService(ctx: Pick<AppContext, 'db' | 'env'>) {
  const repo = timelineRepository(ctx.db);
  return {
    /** Newest first. 404 for an unknown attendee (and in the free edition); staff only for their events. */
    async list(attendeeId: number, principal: Principal, page: { page: number; perPage: number }): Promise<{ items: TimelineEntryDto[]; total: number }> {
      requireExtended(ctx);
      const attendee = await attendeesRepository(ctx.db).findById(attendeeId);
      if (!attendee) throw new AppError('svc_not_found', 'No such attendee.');
      assertEventAccess(principal, attendee.eventId);
      const { rows, total } = await repo.list(attendeeId, page.perPage, (page.page - 1) * page.perPage);
      return { items: rows.map(toDto), total };
    },
  };
}

/** The writers the listeners call, one statement each (autocommit: a later listener sees the entry). */
export function timelineWriter(db: Db) {
  const repo = timelineRepository(db);
  return {
    async submitted(attendeeId: number): Promise<void> {
      const row = await repo.attendee(attendeeId);
      await repo.append(attendeeId, 'submitted', { status: row?.status ?? '', quantity: row?.quantity ?? 0 });
    },
    statusChanged: (attendeeId: number, next: string, previous: string) => repo.append(attendeeId, 'status_changed', { new: next, old: previous }),
    checkedIn: (checkinId: number, attendeeId: number) => repo.appendCheckin(checkinId, attendeeId),
    cancelled: (attendeeId: number) => repo.append(attendeeId, 'cancelled', {}),
    orderPaid: (orderId: number) => repo.appendForOrder(orderId, 'paid'),
    orderRefunded: (orderId: number) => repo.appendForOrder(orderId, 'refunded'),
    wipe: (attendeeId: number) => repo.wipe(attendeeId),
  };
}
