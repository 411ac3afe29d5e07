/**
 * Online check-in (POST /checkins, the admin app), annulment, counts and the check-in list.
 * Offline scans arrive through sync.push (modules/sync/sync.service.ts) instead.
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '../../../shared/errors';
import {
  ARRIVAL_BUCKET_MINUTES,
  MAX_ARRIVAL_BUCKETS,
  checkinVerdict,
  type Arrivals,
  type AttendeeCheckinStats,
  type CheckinStatsQuery,
  isAdmitted,
  type CheckinCounts,
  type CheckinDto,
  type CheckinInput,
  type CheckinListQuery,
  type CheckinResult,
  type CheckinSource,
  type RefusalVerdict,
} from '../../../shared/checkin';
import { nowUtcString, utcMs } from '../../../shared/time';
import { assertEventAccess, type Principal } from '../../auth/principal';
import type { AppContext } from '../../context';
import { sha256Hex } from '../../security/crypto';
import { attendeesRepository, type AttendeeRecord } from '../attendees/attendees.repository';
import { eventsRepository } from '../events/events.repository';
import { checkinRepository, type CheckinRecord, type NewCheckin } from './checkin.repository';
import { fireCheckedIn } from './checkin.actions';

/** The error code a refused scan answers with (SPEC §4). */
export const REFUSAL_CODES: Record<RefusalVerdict, string> = {
  unknown: 'svc_ticket_unknown',
  cancelled: 'svc_ticket_cancelled',
  waitlist: 'svc_ticket_waitlist',
  wrong_event: 'svc_ticket_wrong_event',
};

/** Door staff may undo their own mistaken scan for this long (UX "Undo"); administrators always. */
export const STAFF_UNDO_MINUTES = 15;

/** Who stored a check-in: the device token, or the signed-in user when there is no device. */
export function checkinAuthor(principal: Principal): { deviceId: number | null; userId: number | null } {
  return principal.deviceId !== undefined ? { deviceId: principal.deviceId, userId: null } : { deviceId: null, userId: principal.userId };
}

export function toCheckinDto(r: CheckinRecord): CheckinDto {
  return {
    id: r.id,
    attendeeId: r.attendeeId,
    eventId: r.eventId,
    scannedUtc: r.scannedUtc,
    createdUtc: r.createdUtc,
    deviceId: r.deviceId,
    userId: r.userId,
    clientId: r.clientId,
    source: r.source,
    conflict: r.conflict,
    annulledUtc: r.annulledUtc,
    annulledBy: r.annulledBy,
  };
}

class CheckinInsertFailed extends Error {}

export function checkinService(ctx: AppContext) {
  const { db, hooks, logger } = ctx;
  const repo = checkinRepository(db, logger);
  const attendees = attendeesRepository(db);

  /** The answer for a clientId seen before: the original row, with the verdict it had then. */
  async function originalResult(original: { id: number }): Promise<CheckinResult> {
    const row = (await repo.findById(original.id))!;
    const [previous, attendee] = await Promise.all([repo.lastForAttendee(row.attendeeId, row.id), attendees.findById(row.attendeeId)]);
    return {
      checkinId: row.id,
      attendeeId: row.attendeeId,
      eventId: row.eventId,
      verdict: previous ? 'again' : 'ok',
      displayName: attendee?.displayName ?? '',
      quantity: attendee?.quantity ?? 0,
      previous,
      duplicate: true,
    };
  }

  async function findAttendee(input: CheckinInput): Promise<{ attendee: AttendeeRecord | null; codeHash: string | null }> {
    if (input.ticketCode !== undefined) {
      const codeHash = sha256Hex(input.ticketCode);
      return { attendee: await repo.findAttendeeByCodeHash(codeHash), codeHash };
    }
    return { attendee: await attendees.findById(input.attendeeId!), codeHash: null };
  }

  return {
    /**
     * One online scan, decided by the server: ok/again insert a row (201) and fire
     * svc_pro_attendee_checked_in after commit; a refusal goes to the scan log and answers
     * its svc_ticket_* code. The attendee row is locked while deciding, so two doors scanning
     * one ticket at once get `ok` and `again`, never two `ok`s. A repeated clientId answers
     * the original check-in (200).
     */
    async checkIn(input: CheckinInput, principal: Principal, source: CheckinSource = 'rest'): Promise<{ created: boolean; result: CheckinResult }> {
      assertEventAccess(principal, input.eventId);
      const author = checkinAuthor(principal);
      if (input.clientId !== undefined) {
        const [seen] = await repo.findByClientIds(author.deviceId, [input.clientId]);
        if (seen) return { created: false, result: await originalResult(seen) };
      }
      const clientId = input.clientId ?? randomUUID();
      const scannedUtc = input.scannedUtc ?? nowUtcString();
      const { attendee, codeHash } = await findAttendee(input);

      let outcome: { refused: RefusalVerdict; attendee: AttendeeRecord | null } | { refused: null; result: CheckinResult; jobId: number };
      try {
        outcome = await db.transaction(async (tx) => {
          const locked = attendee ? await attendeesRepository(tx).lockById(attendee.id) : null;
          const txRepo = checkinRepository(tx, logger);
          const previous = locked ? await txRepo.lastForAttendee(locked.id) : null;
          const verdict = checkinVerdict(locked && { eventId: locked.eventId, status: locked.status, checkinCount: previous ? 1 : 0 }, input.eventId);
          if (!isAdmitted(verdict)) return { refused: verdict, attendee: locked };
          const row: NewCheckin = { attendeeId: locked!.id, eventId: locked!.eventId, scannedUtc, ...author, clientId, source, conflict: null };
          const checkinId = await txRepo.insert(row);
          // 0: the insert failed (or the clientId raced in meanwhile). Roll back; nothing fires.
          if (checkinId === 0) throw new CheckinInsertFailed();
          const jobId = await txRepo.holdActions([[checkinId, row.attendeeId, row.eventId]]);
          return {
            refused: null,
            jobId,
            result: { checkinId, attendeeId: row.attendeeId, eventId: row.eventId, verdict, displayName: locked!.displayName, quantity: locked!.quantity, previous, duplicate: false },
          };
        });
      } catch (err) {
        if (!(err instanceof CheckinInsertFailed)) throw err;
        const [raced] = input.clientId !== undefined ? await repo.findByClientIds(author.deviceId, [clientId]) : [];
        if (raced) return { created: false, result: await originalResult(raced) };
        throw new AppError('svc_internal', 'The check-in could not be saved.');
      }

      if (outcome.refused !== null) {
        await repo.logRejected([
          {
            eventId: input.eventId,
            attendeeId: outcome.attendee?.id ?? null,
            ...author,
            codeHash: codeHash ?? outcome.attendee?.ticketCodeHash ?? null,
            reason: outcome.refused,
            verdictOnDevice: null,
            clientId,
            source,
            scannedUtc,
          },
        ]);
        throw new AppError(REFUSAL_CODES[outcome.refused], undefined, { verdict: outcome.refused });
      }
      const { result, jobId } = outcome;
      await fireCheckedIn(ctx, jobId, [[result.checkinId, result.attendeeId, result.eventId]]);
      return { created: true, result };
    },

    /**
     * Annul a check-in: the row stays, marked, and no longer counts. Administrators may annul
     * any; door staff only their own (same device, or same user) within STAFF_UNDO_MINUTES.
     */
    async annul(id: number, principal: Principal, nowMs = Date.now()): Promise<CheckinDto> {
      const row = await repo.findById(id);
      if (!row) throw new AppError('svc_not_found', 'No such check-in.');
      assertEventAccess(principal, row.eventId);
      if (principal.role !== 'administrator') {
        const author = checkinAuthor(principal);
        const own = author.deviceId !== null ? row.deviceId === author.deviceId : row.deviceId === null && row.userId === author.userId;
        const recent = utcMs(row.createdUtc) >= nowMs - STAFF_UNDO_MINUTES * 60_000;
        if (!own || !recent) throw new AppError('svc_forbidden', `Only your own check-ins of the last ${STAFF_UNDO_MINUTES} minutes can be undone.`);
      }
      if (row.annulledUtc) throw new AppError('svc_conflict', 'This check-in was already annulled.');
      const annulled = await repo.annul(id, principal.userId);
      if (!annulled) throw new AppError('svc_conflict', 'This check-in was already annulled.');
      return toCheckinDto(annulled);
    },

    async counts(eventId: number, principal: Principal): Promise<CheckinCounts> {
      assertEventAccess(principal, eventId);
      if (!(await eventsRepository(db).findById(eventId))) throw new AppError('svc_not_found', 'No such event.');
      return { eventId, ...(await repo.counts(eventId)) };
    },

    /** The admin table's check-in column when the serialization has none (free edition). */
    async statsOfAttendees(query: CheckinStatsQuery, principal: Principal): Promise<AttendeeCheckinStats[]> {
      assertEventAccess(principal, query.eventId);
      return repo.statsOfEventAttendees(query.eventId, query.attendeeIds);
    },

    /** Arrivals per 5 minutes for the dashboard chart. */
    async arrivals(eventId: number, principal: Principal): Promise<Arrivals> {
      assertEventAccess(principal, eventId);
      if (!(await eventsRepository(db).findById(eventId))) throw new AppError('svc_not_found', 'No such event.');
      const buckets = await repo.arrivals(eventId, ARRIVAL_BUCKET_MINUTES, MAX_ARRIVAL_BUCKETS);
      return { eventId, bucketMinutes: ARRIVAL_BUCKET_MINUTES, buckets };
    },

    async list(query: CheckinListQuery, principal: Principal): Promise<{ items: CheckinDto[]; total: number }> {
      assertEventAccess(principal, query.eventId);
      const { rows, total } = await repo.list(query, query.perPage, (query.page - 1) * query.perPage);
      return { items: rows.map(toCheckinDto), total };
    },
  };
}
export type CheckinService = ReturnType<typeof checkinService>;
