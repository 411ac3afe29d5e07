/** Administration of attendees: list, get, PATCH (contract diff + action order), DELETE. */
import { AppError } from '../../../shared/errors';
import type { AttendeeDto, AttendeeExportQuery, AttendeeListQuery, UpdateAttendeeInput } from '../../../shared/attendees';
import { assertEventAccess, type Principal } from '../../auth/principal';
import type { AppContext } from '../../context';
import type { AttendeeChanges } from '../../hooks';
import { eventsRepository } from '../events/events.repository';
import { exportAttendeesStream } from './attendees.export';
import { attendeesRepository, type AttendeeRecord } from './attendees.repository';
import { serializeAttendee, serializeAttendees } from './attendees.serialize';

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
      return { items: await serializeAttendees(hooks, rows), total };
    },

    async get(id: number, principal: Principal): Promise<AttendeeDto> {
      const row = await existing(id);
      assertEventAccess(principal, row.eventId);
      return serializeAttendee(hooks, row);
    },

    /**
     * Contract: diff of display_name/email/quantity (changed columns only), then
     * svc_attendee_updated (even with an empty diff), then svc_attendee_status_changed
     * when a status was sent (old '' when the row had none). A failed write fires nothing.
     */
    async update(id: number, input: UpdateAttendeeInput): Promise<AttendeeDto> {
      const before = await existing(id);
      const changes: AttendeeChanges = {};
      const patch: Partial<Pick<AttendeeRecord, 'displayName' | 'email' | 'quantity' | 'status'>> = {};
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

      let after = before;
      if (Object.keys(patch).length > 0) {
        let written: AttendeeRecord | null;
        try {
          written = await repo.update(id, patch);
        } catch (err) {
          ctx.logger.error({ err, attendeeId: id }, 'attendee update failed');
          throw new AppError('svc_internal', 'The attendee could not be saved.', undefined, { cause: err });
        }
        if (!written) throw new AppError('svc_not_found', 'No such attendee.');
        after = written;
      }
      await hooks.doAction('svc_attendee_updated', id, changes);
      if (input.status !== undefined) await hooks.doAction('svc_attendee_status_changed', id, input.status, before.status ?? '');
      return serializeAttendee(hooks, after);
    },

    /**
     * One event's attendees as a stream (CSV or a JSON array, the list's serialization), page by
     * page; staff only for their events. An unknown event is bad input naming the field.
     */
    async export(query: AttendeeExportQuery, principal: Principal): Promise<{ eventId: number; stream: ReadableStream<Uint8Array> }> {
      assertEventAccess(principal, query.eventId);
      const event = await eventsRepository(db).findById(query.eventId);
      if (!event) throw new AppError('svc_invalid_param', 'Invalid parameter(s): eventId', { params: { eventId: 'no such event' } });
      // the custom fields' columns (docs/api.md#custom-fields): the extended edition's definitions only
      const definitions = ctx.env.SVC_EDITION === 'extended' ? event.fields : [];
      return { eventId: event.id, stream: exportAttendeesStream(ctx, event.id, query.format, definitions) };
    },

    /** Permanent delete; svc_attendee_deleted fires once the row is gone. */
    async delete(id: number): Promise<void> {
      if (!(await repo.delete(id))) throw new AppError('svc_not_found', 'No such attendee.');
      await hooks.doAction('svc_attendee_deleted', id);
    },
  };
}
export type AttendeesService = ReturnType<typeof attendeesService>;
