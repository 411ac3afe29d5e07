/**
 * Public event submission (extended edition, docs/api.md#event-submission): the visitor's
 * proposal, its receipt, and the administrators' review list. Shared by the server (REST + tRPC)
 * and the PWA.
 */
import { z } from './validation';
import { zoneTimeline, DAY_MS } from './booking/tz';
import { ZEmail, ZTimeZone, ZUtcDateTime } from './schemas';

/** Length limits of a proposal (the page's `maxlength`s and the server's checks). */
export const SUBMISSION_LIMITS = { title: 190, description: 5_000, venue: 190, name: 190, reason: 1_000 } as const;

/**
 * Where a proposal stands, from its two columns: `submitted` = a draft awaiting review,
 * `published` = published (by Publish, or by an administrator's edit), `rejected` = refused and
 * still a draft.
 */
export const REVIEW_STATUSES = ['submitted', 'published', 'rejected'] as const;
export const ZReviewStatus = z.enum(REVIEW_STATUSES);
export type ReviewStatus = z.infer<typeof ZReviewStatus>;

/**
 * `POST /events/submissions`: the proposal as the form posts it (JSON or form-encoded, so every
 * value may arrive as text; an empty `endsUtc` means none). `svc_ts` and `svc_hp` are checked
 * before this schema runs (docs/api.md#event-submission).
 */
export const ZEventSubmissionInput = z.object({
  title: z.string().trim().min(1).max(SUBMISSION_LIMITS.title),
  description: z.string().trim().max(SUBMISSION_LIMITS.description).default(''),
  startsUtc: ZUtcDateTime,
  endsUtc: z
    .union([ZUtcDateTime, z.literal('')])
    .nullable()
    .default(null),
  timezone: ZTimeZone.default('UTC'),
  venue: z.string().trim().max(SUBMISSION_LIMITS.venue).default(''),
  submitterName: z.string().trim().min(1).max(SUBMISSION_LIMITS.name),
  submitterEmail: ZEmail,
  /** The `formToken` of `GET /events/submissions/form` (minimum fill time). */
  svc_ts: z.string().optional(),
  /** Honeypot: must be empty. */
  svc_hp: z.string().optional(),
});
export type EventSubmissionInput = z.input<typeof ZEventSubmissionInput>;
export type EventSubmissionFields = z.output<typeof ZEventSubmissionInput>;

/** `GET /events/submissions/form`: the signed render time to post back as `svc_ts`. */
export const ZSubmissionForm = z.object({ formToken: z.string() });
export type SubmissionForm = z.infer<typeof ZSubmissionForm>;

/** The 201 of a proposal: what the visitor sent back, never the submitter's details or another event. */
export const ZSubmissionReceipt = z.object({
  id: z.number().int(),
  title: z.string(),
  startsUtc: z.string(),
  endsUtc: z.string().nullable(),
  timezone: z.string(),
  venue: z.string(),
  status: z.literal('submitted'),
});
export type SubmissionReceipt = z.infer<typeof ZSubmissionReceipt>;

/** One proposal in the administrators' list. */
export const ZSubmissionDto = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  startsUtc: z.string(),
  endsUtc: z.string().nullable(),
  timezone: z.string(),
  venue: z.string(),
  status: ZReviewStatus,
  submitterName: z.string(),
  submitterEmail: z.string(),
  createdUtc: z.string(),
  updatedUtc: z.string(),
});
export type SubmissionDto = z.infer<typeof ZSubmissionDto>;

export const ZSubmissionListQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  perPage: z.coerce.number().int().min(1).max(500).default(50),
  /** Only proposals in this state; all of them when omitted. */
  status: ZReviewStatus.optional(),
});
export type SubmissionListQuery = z.input<typeof ZSubmissionListQuery>;

/** `POST /events/submissions/{id}/reject`: an optional reason, mailed to the submitter (not stored). */
export const ZRejectSubmissionInput = z.object({ reason: z.string().trim().max(SUBMISSION_LIMITS.reason).default('') });
export type RejectSubmissionInput = z.input<typeof ZRejectSubmissionInput>;

const WALL_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * A `datetime-local` value read as a wall-clock time in `tz` → UTC `Y-m-d H:i:s`; null when
 * empty or malformed. A time skipped by a clock change moves forward by the gap; a repeated one
 * is its first occurrence (shared/booking/tz.ts).
 */
export function wallTimeToUtc(value: string, tz: string): string | null {
  const m = WALL_RE.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
  const wallMs = Date.UTC(y, mo - 1, d, h, mi, Number.isNaN(s) ? 0 : s);
  const check = new Date(wallMs);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59) return null;
  let utcMs: number;
  try {
    utcMs = zoneTimeline(tz, wallMs - 2 * DAY_MS, wallMs + 2 * DAY_MS).wallToUtc(wallMs);
  } catch {
    return null;
  }
  const out = new Date(utcMs).toISOString();
  return `${out.slice(0, 10)} ${out.slice(11, 19)}`;
}
