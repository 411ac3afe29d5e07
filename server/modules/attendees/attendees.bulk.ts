/**
 * Attendees handled by an administrator in bulk (docs/api.md#attendees-in-bulk,
 * docs/decisions/047-attendees-in-bulk.md): one added by hand, a selection cancelled, moved to
 * going, mailed its ticket again, checked in or written to, as a durable job with progress; and a
 * message to an event's going attendees, its waitlist or both.
 *
 * Every row goes through the path its single-row route takes: a cancel or a move is the admin
 * PATCH's write and actions (`svc_attendee_status_changed`, never `svc_rsvp_cancelled`), a
 * check-in is the check-in service's, so the contract's hooks fire per row exactly as there.
 */
import { and, eq, sql } from 'drizzle-orm';
import { AppError } from '../../../shared/errors';
import type { AttendeeDto } from '../../../shared/attendees';
import {
  MAX_BULK_ROWS,
  type AddAttendeeInput,
  type AttendeeMessage,
  type AttendeeSelection,
  type BulkAction,
  type BulkInput,
  type BulkStarted,
  type EventMessageInput,
  type EventMessageResult,
  type JobProgress,
  type SelectionExportInput,
} from '../../../shared/attendees-bulk';
import { assertEventAccess, type Principal } from '../../auth/principal';
import type { AppContext } from '../../context';
import { announce, holdAnnouncement } from '../../jobs/announcements';
import { enqueueJob, type JobContext, type JobRunner } from '../../jobs/queue';
import { jobs } from '../../jobs/jobs.sql';
import { maskSecrets, queueMail } from '../../mail/mailer';
import { toUtcString } from '../../../shared/time';
import { eventsRepository, type EventRow } from '../events/events.repository';
import { checkinRepository } from '../checkin/checkin.repository';
import { checkinService } from '../checkin/checkin.service';
import { newTicketSecrets, seatsTakenLocked, submittedPayload } from '../orders/tickets.service';
import { exportAttendeesStream, exportedFieldsOf } from './attendees.export';
import { attendeeMessageMail, ticketMailOf, withoutTicketMail } from './attendees.mail';
import { attendeesRepository, type AttendeeRecord } from './attendees.repository';
import { announceChangeNow, attendeesService, planAttendeeUpdate, writeAttendeeUpdate } from './attendees.service';
import { serializeAttendee } from './attendees.serialize';

export const ATTENDEES_BULK_JOB = 'attendees.bulk';
/** The held `svc_rsvp_submitted` of an attendee an administrator added (server/jobs/announcements.ts), with its notify flag. */
export const ANNOUNCE_ATTENDEE_ADDED_JOB = 'announce.attendee_added';
/** Mails a bulk job queues per minute (a message, a resend): the rest wait in the outbox for their minute. */
export const BULK_MAILS_PER_MINUTE = 60;
/** Progress is written every this many rows (and at the end); a job taken over after a crash resumes there. */
const PROGRESS_EVERY = 10;

type RowOutcome = 'done' | 'failed' | 'skipped';

/** A bulk job's payload: the selection fixed when it was asked for, and its progress so far. */
interface BulkPayload {
  eventId: number;
  action: BulkAction;
  ids: number[];
  message?: AttendeeMessage;
  /** The administrator who asked (the check-ins' author). */
  userId: number | null;
  /** Index of the next row to handle. */
  next: number;
  done: number;
  failed: number;
  skipped: number;
  /** Rows a status change took, each with the status it had (what an undo puts back). */
  changed?: Array<[number, string]>;
}

const STATUS_ACTIONS = { cancel: 'cancelled', going: 'going', waitlist: 'waitlist' } as const;
type StatusAction = keyof typeof STATUS_ACTIONS;
/** The bulk action that puts a row back to a status it had (an old empty status reads as going). */
const ACTION_OF_STATUS: Record<string, StatusAction> = { going: 'going', '': 'going', waitlist: 'waitlist', cancelled: 'cancel' };

/** The requests that undo a finished status change, one per status the rows had. */
function undoOf(p: BulkPayload): JobProgress['undo'] {
  const groups = new Map<StatusAction, number[]>();
  for (const [id, from] of p.changed ?? []) {
    const action = ACTION_OF_STATUS[from];
    if (action) groups.set(action, [...(groups.get(action) ?? []), id]);
  }
  return [...groups].map(([action, ids]) => ({ action, ids }));
}

const AUDIENCE_STATUSES: Record<EventMessageInput['to'], string[]> = {
  going: ['going', ''],
  waitlist: ['waitlist'],
  all: ['going', '', 'waitlist'],
};

const isGoing = (status: string) => status === 'going' || status === '';

/** The contract's `svc_rsvp_submitted` for an added row; without its ticket mail when the administrator said so. */
async function fireAdded(ctx: Pick<AppContext, 'hooks'>, row: AttendeeRecord, notify: boolean): Promise<void> {
  const fire = () => ctx.hooks.doAction('svc_rsvp_submitted', row.id, submittedPayload(row));
  await (notify ? fire() : withoutTicketMail(ctx.hooks, [row.id], fire));
}

async function eventOrBadParam(ctx: AppContext, eventId: number, field: string): Promise<EventRow> {
  const event = await eventsRepository(ctx.db).findById(eventId);
  if (!event) throw new AppError('svc_invalid_param', `Invalid parameter(s): ${field}`, { params: { [field]: 'no such event' } });
  return event;
}

export function attendeesBulkService(ctx: AppContext) {
  const { db } = ctx;

  async function queueBulk(eventId: number, action: BulkAction, ids: number[], principal: Principal, message?: AttendeeMessage): Promise<number> {
    const payload: BulkPayload = { eventId, action, ids, message, userId: principal.userId, next: 0, done: 0, failed: 0, skipped: 0 };
    const jobId = await enqueueJob(db, ATTENDEES_BULK_JOB, payload as unknown as Record<string, unknown>, { maxAttempts: 3 });
    ctx.jobs.kick();
    return jobId!;
  }

  /**
   * The rows a selection names, fixed when it is asked for: its ids, each checked to be the
   * event's, or every row the list's own search and status filters match; at most MAX_BULK_ROWS.
   */
  async function resolveSelection(selection: AttendeeSelection): Promise<{ event: EventRow; ids: number[] }> {
    const event = await eventOrBadParam(ctx, selection.eventId, 'eventId');
    const repo = attendeesRepository(db);
    if (selection.ids) {
      const wanted = [...new Set(selection.ids)];
      const ids = await repo.idsMatching({ eventId: event.id }, MAX_BULK_ROWS, { among: wanted });
      if (ids.length !== wanted.length)
        throw new AppError('svc_invalid_param', 'Invalid parameter(s): ids', { params: { ids: 'some ids are not attendees of this event' } });
      return { event, ids };
    }
    const query = selection.query!;
    const ids = await repo.idsMatching({ eventId: event.id, status: query.status, search: query.search || undefined }, MAX_BULK_ROWS + 1);
    if (ids.length > MAX_BULK_ROWS)
      throw new AppError('svc_invalid_param', 'Invalid parameter(s): query', { params: { query: `selects more than ${MAX_BULK_ROWS} attendees` } });
    return { event, ids };
  }

  return {
    /**
     * A comp ticket (or a waitlist place) added by an administrator. Never beyond capacity: going
     * without the seats answers svc_event_full with the seats left (decision 047). Fires
     * `svc_rsvp_submitted` as a sign-up does; notify: false keeps its ticket mail from going.
     */
    async add(eventId: number, input: AddAttendeeInput): Promise<AttendeeDto> {
      const written = await db.transaction(async (tx) => {
        const event = await eventsRepository(tx).lockById(eventId);
        if (!event) return null;
        if (input.status === 'going' && event.capacity !== null) {
          const seatsLeft = Math.max(0, event.capacity - (await seatsTakenLocked(tx, event)));
          if (input.quantity > seatsLeft)
            throw new AppError('svc_event_full', `Only ${seatsLeft} seat(s) left: add to the waitlist or raise the capacity.`, { seatsLeft });
        }
        const row = await attendeesRepository(tx).insert({
          eventId,
          email: input.email,
          displayName: input.displayName,
          quantity: input.quantity,
          status: input.status,
          customFields: null,
          ...newTicketSecrets(),
        });
        return { row, held: await holdAnnouncement(tx, ANNOUNCE_ATTENDEE_ADDED_JOB, { attendeeIds: [row.id], notify: input.notify }) };
      });
      if (!written) throw new AppError('svc_not_found', 'No such event.');
      await announce(db, ctx.logger, written.held, () => fireAdded(ctx, written.row, input.notify));
      return serializeAttendee(ctx, written.row);
    },

    /** Fixes the selection and queues the job. */
    async start(input: BulkInput, principal: Principal): Promise<BulkStarted> {
      const { ids } = await resolveSelection(input);
      return { jobId: await queueBulk(input.eventId, input.action, ids, principal, input.message), count: ids.length };
    },

    /** The selection a bulk action would take, as a CSV, XLSX or JSON file of exactly those rows. */
    async exportSelection(input: SelectionExportInput, principal: Principal): Promise<{ eventId: number; stream: ReadableStream<Uint8Array> }> {
      assertEventAccess(principal, input.eventId);
      const { event, ids } = await resolveSelection(input);
      return { eventId: event.id, stream: exportAttendeesStream(ctx, event.id, input.format, exportedFieldsOf(ctx, event), ids) };
    },

    /** A bulk job's progress; any other job is not found (its payload is never shown). */
    async progress(id: number): Promise<JobProgress> {
      const [row] = await db
        .select()
        .from(jobs)
        .where(and(eq(jobs.id, id), eq(jobs.type, ATTENDEES_BULK_JOB)));
      if (!row) throw new AppError('svc_not_found', 'No such job.');
      const p = row.payload as unknown as BulkPayload;
      return {
        id: row.id,
        action: p.action,
        eventId: p.eventId,
        state: row.state,
        total: p.ids.length,
        done: p.done,
        failed: p.failed,
        skipped: p.skipped,
        undo: row.state === 'done' ? undoOf(p) : [],
      };
    },

    /**
     * A message to the event's going attendees, its waitlist or both, one mail per person with an
     * address (a bulk job of action message). `dryRun` answers the count and the first mail as
     * it reads, and queues nothing.
     */
    async message(eventId: number, input: EventMessageInput, principal: Principal): Promise<EventMessageResult> {
      const event = await eventsRepository(db).findById(eventId);
      if (!event) throw new AppError('svc_not_found', 'No such event.');
      const repo = attendeesRepository(db);
      const ids = await repo.idsMatching({ eventId }, MAX_BULK_ROWS + 1, { statuses: AUDIENCE_STATUSES[input.to], withEmail: true });
      if (ids.length > MAX_BULK_ROWS)
        throw new AppError('svc_invalid_param', 'Invalid parameter(s): to', {
          params: { to: `more than ${MAX_BULK_ROWS} people; write to a selection instead` },
        });
      const message = { subject: input.subject, body: input.body };
      const first = ids.length > 0 ? await repo.findById(ids[0]!) : null;
      const sample = first ?? ({ id: 0, displayName: '', email: '', language: null, cancelToken: '' } as unknown as AttendeeRecord);
      const mail = await attendeeMessageMail(ctx, sample, event, message);
      const preview = { subject: mail.subject, text: maskSecrets(mail.text) };
      if (input.dryRun) return { count: ids.length, jobId: null, preview };
      return { count: ids.length, jobId: await queueBulk(eventId, 'message', ids, principal, message), preview };
    },
  };
}

/** One row of a bulk job, through the path its single-row route takes. */
async function handleRow(ctx: AppContext, p: BulkPayload, event: EventRow, id: number, index: number, jobId: number): Promise<RowOutcome> {
  const row = await attendeesRepository(ctx.db).findById(id);
  if (!row || row.eventId !== p.eventId) return 'failed';
  // mails of one job go out at BULK_MAILS_PER_MINUTE (the outbox sends each at its time)
  const sendAtUtc = toUtcString(Date.now() + Math.floor(index / BULK_MAILS_PER_MINUTE) * 60_000);
  switch (p.action) {
    case 'cancel':
    case 'waitlist':
    case 'going': {
      const target = STATUS_ACTIONS[p.action];
      if (row.status === target || (target === 'going' && isGoing(row.status))) return 'skipped';
      if (target !== 'going') {
        // the admin PATCH itself: its write, its actions (svc_attendee_status_changed, never svc_rsvp_cancelled)
        await attendeesService(ctx).update(id, { status: target });
        (p.changed ??= []).push([id, row.status]);
        return 'done';
      }
      // the PATCH's write, under the event row's lock a sign-up takes too: never beyond capacity
      const written = await ctx.db.transaction(async (tx) => {
        const locked = await eventsRepository(tx).lockById(p.eventId);
        const current = await attendeesRepository(tx).lockById(id);
        if (!locked || !current) return 'failed' as const;
        if (isGoing(current.status)) return 'skipped' as const;
        if (locked.capacity !== null && (await seatsTakenLocked(tx, locked)) + current.quantity > locked.capacity) return 'failed' as const;
        const plan = planAttendeeUpdate(current, { status: 'going' });
        const w = await writeAttendeeUpdate(tx, id, plan);
        return w ? { held: w.held, plan, from: current.status } : ('failed' as const);
      });
      if (typeof written === 'string') return written;
      await announceChangeNow(ctx, written.held, written.plan.change);
      (p.changed ??= []).push([id, written.from]);
      return 'done';
    }
    case 'resend': {
      if (row.status === 'cancelled' || row.email === '') return 'skipped';
      await queueMail(ctx.db, await ticketMailOf(ctx, row, event), { onceKey: `attendee-resend:${jobId}:${id}`, sendAtUtc });
      return 'done';
    }
    case 'checkin': {
      if (await checkinRepository(ctx.db, ctx.logger).lastForAttendee(id)) return 'skipped';
      const principal: Principal = { via: 'session', role: 'administrator', userId: p.userId, eventIds: null };
      try {
        await checkinService(ctx).checkIn({ eventId: p.eventId, attendeeId: id }, principal, 'manual');
      } catch (err) {
        // a refusal (waitlisted, cancelled) is the row's outcome; anything else is the job's
        if (err instanceof AppError && err.code.startsWith('svc_ticket_')) return 'failed';
        throw err;
      }
      return 'done';
    }
    case 'message': {
      if (row.status === 'cancelled' || row.email === '') return 'skipped';
      await queueMail(ctx.db, await attendeeMessageMail(ctx, row, event, p.message!), { onceKey: `attendee-message:${jobId}:${id}`, sendAtUtc });
      return 'done';
    }
  }
}

/** The job: every row from where it stopped, its progress written as it goes (GET /jobs/{id} reads it). */
async function runBulk(ctx: AppContext, payload: Record<string, unknown>, job: JobContext): Promise<void> {
  const p = payload as unknown as BulkPayload;
  const event = await eventsRepository(ctx.db).findById(p.eventId);
  const save = () =>
    ctx.db
      .update(jobs)
      .set({
        payload:
          sql`${jobs.payload} || ${JSON.stringify({ next: p.next, done: p.done, failed: p.failed, skipped: p.skipped, changed: p.changed ?? [] })}::jsonb` as never,
      })
      .where(eq(jobs.id, job.jobId));
  while (p.next < p.ids.length) {
    const id = p.ids[p.next]!;
    let outcome: RowOutcome;
    try {
      outcome = event ? await handleRow(ctx, p, event, id, p.next, job.jobId) : 'failed';
    } catch (err) {
      job.logger.warn({ err, attendeeId: id, action: p.action }, 'a bulk action failed for one attendee');
      outcome = 'failed';
    }
    p[outcome] += 1;
    p.next += 1;
    if (p.next % PROGRESS_EVERY === 0) await save();
  }
  await save();
}

export function registerBulkJobs(runner: JobRunner, ctx: AppContext): void {
  runner.register(ATTENDEES_BULK_JOB, (payload, job) => runBulk(ctx, payload, job));
  // an added attendee's announcement whose writer died after its commit
  runner.register(ANNOUNCE_ATTENDEE_ADDED_JOB, async (payload) => {
    for (const id of (payload.attendeeIds as number[]) ?? []) {
      const row = await attendeesRepository(ctx.db).findById(id);
      if (row) await fireAdded(ctx, row, payload.notify !== false);
    }
  });
}
