/**
 * Attendees handled by an administrator in bulk (docs/api.md#attendees-in-bulk): one added by
 * hand, a selection changed as a durable job with progress, and a message to an event's people.
 */
import { z } from 'zod';
import { MAX_NAME_LENGTH, MAX_QUANTITY, ZAttendeeStatus, ZEmailAddress } from './attendees';
import { ZPositiveId } from './schemas';

/** POST /events/{id}/attendees: a comp ticket (or a waitlist place) added by an administrator. */
export const ZAddAttendeeInput = z.object({
  email: ZEmailAddress,
  displayName: z.string().trim().min(1).max(MAX_NAME_LENGTH),
  quantity: z.number().int().min(1).max(MAX_QUANTITY).default(1),
  status: z.enum(['going', 'waitlist']).default('going'),
  /** Mail the ticket (or the waitlist mail) as a sign-up is mailed; false sends nothing. */
  notify: z.boolean().default(true),
});
export type AddAttendeeInput = z.infer<typeof ZAddAttendeeInput>;

/** `waitlist` (back to the waitlist) is what undoes a move to going. */
export const BULK_ACTIONS = ['cancel', 'going', 'waitlist', 'resend', 'checkin', 'message'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** The most rows one bulk request selects (a larger event is handled search by search). */
export const MAX_BULK_ROWS = 10_000;
export const MAX_MESSAGE_SUBJECT = 200;
export const MAX_MESSAGE_BODY = 10_000;

/** The administrator's own words: the mail's subject and body, framed in each reader's language. */
export const ZAttendeeMessage = z.object({
  subject: z.string().trim().min(1).max(MAX_MESSAGE_SUBJECT),
  body: z.string().trim().min(1).max(MAX_MESSAGE_BODY),
});
export type AttendeeMessage = z.infer<typeof ZAttendeeMessage>;

/** The attendee list's own filters (GET /attendees: status and search on name or email). */
export const ZBulkQuery = z.object({
  search: z.string().trim().max(254).optional(),
  status: ZAttendeeStatus.optional(),
});

/**
 * Which rows a bulk action or an export takes: the ids ticked on the list, or every row the list's
 * filters match ("select all that match"), never both.
 */
export const ZAttendeeSelection = z.object({
  eventId: ZPositiveId,
  ids: z.array(ZPositiveId).min(1).max(MAX_BULK_ROWS).optional(),
  query: ZBulkQuery.optional(),
});
export type AttendeeSelection = z.infer<typeof ZAttendeeSelection>;

function checkSelection<T extends AttendeeSelection>(v: T, issue: z.RefinementCtx<T>): void {
  if ((v.ids === undefined) === (v.query === undefined)) issue.addIssue({ code: 'custom', path: ['ids'], message: 'send ids or query (one of them)' });
}

export const ZBulkInput = ZAttendeeSelection.extend({
  action: z.enum(BULK_ACTIONS),
  message: ZAttendeeMessage.optional(),
}).superRefine((v, issue) => {
  checkSelection(v, issue);
  if (v.action === 'message' && v.message === undefined) issue.addIssue({ code: 'custom', path: ['message'], message: 'required for action message' });
});
export type BulkInput = z.infer<typeof ZBulkInput>;

export const EXPORT_FORMATS = ['csv', 'json', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** POST /attendees/export: the selection a bulk action takes, as a file. */
export const ZSelectionExportInput = ZAttendeeSelection.extend({ format: z.enum(EXPORT_FORMATS).default('csv') }).superRefine(checkSelection);
export type SelectionExportInput = z.infer<typeof ZSelectionExportInput>;

export const ZBulkStarted = z.object({ jobId: z.number().int(), count: z.number().int() });
export type BulkStarted = z.infer<typeof ZBulkStarted>;

/** GET /jobs/{id}: a bulk job's progress (never its payload). */
export const ZJobProgress = z.object({
  id: z.number().int(),
  action: z.enum(BULK_ACTIONS),
  eventId: z.number().int(),
  state: z.enum(['queued', 'running', 'done', 'failed']),
  total: z.number().int(),
  /** Rows changed (or mailed, or checked in). */
  done: z.number().int(),
  /** Rows the action could not take: no seat left for a move to going, a check-in refused. */
  failed: z.number().int(),
  /** Rows already as asked (cancelled, going, checked in) or without an address: left alone. */
  skipped: z.number().int(),
  /**
   * A finished cancel, move to going or to the waitlist: the bulk requests that put the changed
   * rows back as they were (the admin app offers them as "Undo" for a minute). Empty otherwise.
   */
  undo: z.array(z.object({ action: z.enum(['cancel', 'going', 'waitlist']), ids: z.array(z.number().int()) })),
});
export type JobProgress = z.infer<typeof ZJobProgress>;

export const MESSAGE_AUDIENCES = ['going', 'waitlist', 'all'] as const;

/** POST /events/{id}/messages; `dryRun: true` answers the count and a preview and queues nothing. */
export const ZEventMessageInput = ZAttendeeMessage.extend({
  to: z.enum(MESSAGE_AUDIENCES),
  dryRun: z.boolean().default(false),
});
export type EventMessageInput = z.infer<typeof ZEventMessageInput>;

export const ZEventMessageResult = z.object({
  /** People who get the mail: attendees of the audience with an address. */
  count: z.number().int(),
  /** The queued job; null on a dry run. */
  jobId: z.number().int().nullable(),
  /** The mail as the first recipient reads it (the event's language when there is none). */
  preview: z.object({ subject: z.string(), text: z.string() }),
});
export type EventMessageResult = z.infer<typeof ZEventMessageResult>;
