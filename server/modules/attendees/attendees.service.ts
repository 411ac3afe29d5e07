/** Administration of attendees: list, get, PATCH (contract diff + action order), DELETE. */
import { AppError } from '../../../shared/errors';
import type { AttendeeDto, AttendeeExportQuery, AttendeeListQuery, UpdateAttendeeInput } from '../../../shared/attendees';
import { assertEventAccess, type Principal } from '../../auth/principal';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import type { AttendeeChanges } from '../../hooks';
import { eventsRepository } from '../events/events.repository';
import { exportAttendeesStream, exportedFieldsOf } from './attendees.export';
import { attendeesRepository, type AttendeeRecord } from './attendees.repository';
import { withdrawAttendeeReminder } from './attendees.reminders';
import { serializeAttendee, serializeAttendees } from './attendees.serialize';
import { announceChangeNow, announceAttendeeChange, holdAttendeeChange, type AttendeeChange } from './attendees.announce';
import { announcePromotedNow, lockEvent, NO_PROMOTION, promoteWaitlist, type HeldPromotion } from './waitlist.service';

export { ANNOUNCE_ATTENDEE_CHANGED_JOB, announceAttendeeChange, announceChangeNow, holdAttendeeChange, type AttendeeChange } from './attendees.announce';

/** What an admin PATCH writes and announces, decided from the row as it is. */
export interface AttendeeUpdatePlan {
  patch: Partial<Pick<AttendeeRecord, 'displayName' | 'email' | 'quantity' | 'status'>>;
  change: Extract<AttendeeChange, { change: 'updated' }>;
}

/**
 * Contract: diff of display_name/email/quantity (changed columns only), then
 * svc_attendee_updated (even with an empty diff), then svc_attendee_status_changed
 * when a status was sent (old '' when the row had none).
 */
export function planAttendeeUpdate(before: AttendeeRecord, input: UpdateAttendeeInput): AttendeeUpdatePlan {
  const changes: AttendeeChanges = {};
  const patch: AttendeeUpdatePlan['patch'] = {};
  if (input.displayName !== undefined && input.displayName !== before.displayName) {
    changes.display_name = { from: before.displayName, to: input.displayName };
    patch.displayName = input.displayName;
  }
  if (input.email !== undefined && input.email !== before.email) {
    changes.email = { from: before.email, to: input.email };
    patch.email = input.email;
  }
  if (input.quantity !== undefined && input.quantity !== before.quantity) {
    changes.quantity = { from: before.quantity, to: input.quantity };
    patch.quantity = input.quantity;
  }
  if (input.status !== undefined && input.status !== before.status) patch.status = input.status;
  return { patch, change: { change: 'updated', attendeeId: before.id, changes, status: input.status, oldStatus: before.status ?? '' } };
}

/**
 * The PATCH's write in the caller's transaction: the row, its reminder withdrawn when it no
 * longer goes, and its actions held (`announceChangeNow` fires them after commit). Null: no row.
 * A bulk action (attendees.bulk.ts) calls it per row, under the event's lock when seats count.
 */
export async function writeAttendeeUpdate(tx: Db, id: number, plan: AttendeeUpdatePlan): Promise<{ row: AttendeeRecord; held: number } | null> {
  const row = await attendeesRepository(tx).update(id, plan.patch);
  // an attendee no longer going gets no reminder still waiting in the outbox
  if (row && plan.patch.status !== undefined && plan.patch.status !== 'going' && plan.patch.status !== '') await withdrawAttendeeReminder(tx, id);
  return row && { row, held: await holdAttendeeChange(tx, plan.change) };
}

export function attendeesService(ctx: AppContext) {
  const { db, hooks } = ctx;
  const repo = attendeesRepository(db);

  async function existing(id: number): Promise<AttendeeRecord> {
    const row = await repo.findById(id);
    if (!row) throw new AppError('svc_not_found', 'No such attendee.');
    return row;
  }

  return {
    /** Staff see only the events they are assigned to. */
    async list(query: AttendeeListQuery, principal: Principal): Promise<{ items: AttendeeDto[]; total: number }> {
      if (query.eventId !== undefined) assertEventAccess(principal, query.eventId);
      const eventIds = principal.role === 'administrator' ? null : principal.eventIds;
      const { rows, total } = await repo.list(
        { eventId: query.eventId, eventIds, status: query.status, search: query.search || undefined },
        query.perPage,
        (query.page - 1) * query.perPage,
        { sort: query.sort, order: query.order },
      );
      return { items: await serializeAttendees(ctx, rows), total };
    },

    async get(id: number, principal: Principal): Promise<AttendeeDto> {
      const row = await existing(id);
      assertEventAccess(principal, row.eventId);
      return serializeAttendee(ctx, row);
    },

    /** The contract's PATCH (planAttendeeUpdate); a failed write fires nothing. */
    async update(id: number, input: UpdateAttendeeInput): Promise<AttendeeDto> {
      const before = await existing(id);
      const plan = planAttendeeUpdate(before, input);
      if (Object.keys(plan.patch).length === 0) {
        // Nothing written, nothing a crash could lose: the actions fire as the contract says.
        await announceAttendeeChange(hooks, plan.change);
        return serializeAttendee(ctx, before);
      }
      // a status or quantity change may free seats: the event row is locked first, as the sign-up
      // locks it, and the waitlist moves up in the same transaction (docs/decisions/045-waitlist-promotion.md)
      const seatsMayChange = plan.patch.status !== undefined || plan.patch.quantity !== undefined;
      let written: { row: AttendeeRecord; held: number; promoted: HeldPromotion } | null;
      try {
        written = await db.transaction(async (tx) => {
          const event = seatsMayChange ? await lockEvent(tx, before.eventId) : null;
          const wrote = await writeAttendeeUpdate(tx, id, plan);
          if (!wrote) return null;
          // a row the administrator just put on the waitlist is not moved straight back
          const except = plan.patch.status === 'waitlist' ? [wrote.row.id] : [];
          const promoted = event && wrote.row.eventId === event.id ? await promoteWaitlist(ctx, tx, event, except) : NO_PROMOTION;
          return { ...wrote, promoted };
        });
      } catch (err) {
        ctx.logger.error({ err, attendeeId: id }, 'attendee update failed');
        throw new AppError('svc_internal', 'The attendee could not be saved.', undefined, { cause: err });
      }
      if (!written) throw new AppError('svc_not_found', 'No such attendee.');
      await announceChangeNow(ctx, written.held, plan.change);
      await announcePromotedNow(ctx, written.promoted);
      return serializeAttendee(ctx, written.row);
    },

    /**
     * One event's attendees as a stream (CSV or a JSON array, the list's serialization), page by
     * page; staff only for their events. An unknown event is bad input naming the field.
     */
    async export(query: AttendeeExportQuery, principal: Principal): Promise<{ eventId: number; stream: ReadableStream<Uint8Array> }> {
      assertEventAccess(principal, query.eventId);
      const event = await eventsRepository(db).findById(query.eventId);
      if (!event) throw new AppError('svc_invalid_param', 'Invalid parameter(s): eventId', { params: { eventId: 'no such event' } });
      return { eventId: event.id, stream: exportAttendeesStream(ctx, event.id, query.format, exportedFieldsOf(ctx, event)) };
    },

    /**
     * Permanent delete; svc_attendee_deleted fires once the row is gone, at the end. The seats it
     * held go to the waitlist in the same transaction (docs/decisions/045-waitlist-promotion.md);
     * their status changes fire before the delete's action, and one whose listener fails is left
     * to the job runners (its announcement is held) so the delete still ends with its action.
     */
    async delete(id: number): Promise<void> {
      const found = await repo.findById(id);
      if (!found) throw new AppError('svc_not_found', 'No such attendee.');
      const deleted = await db.transaction(async (tx) => {
        const event = await lockEvent(tx, found.eventId);
        if (!(await attendeesRepository(tx).delete(id))) return null;
        return { promoted: event ? await promoteWaitlist(ctx, tx, event) : NO_PROMOTION };
      });
      if (!deleted) throw new AppError('svc_not_found', 'No such attendee.');
      await announcePromotedNow(ctx, deleted.promoted).catch((err: unknown) =>
        ctx.logger.error({ err, attendeeId: id }, 'a waitlist promotion listener failed; the job runners fire it again'),
      );
      await hooks.doAction('svc_attendee_deleted', id);
    },
  };
}
export type AttendeesService = ReturnType<typeof attendeesService>;
