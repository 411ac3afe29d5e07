/**
 * Public event submission (extended edition, docs/api.md#event-submission). A visitor proposes an
 * event; it is stored as a draft marked `submitted`, invisible to the public. An administrator
 * publishes it (the draft becomes published and keeps `submission_status = 'submitted'` as the
 * record of who proposed it) or rejects it (it stays a draft, marked `rejected`). The submitter
 * is mailed on receipt, on publish and on reject, each mail queued in the transaction that
 * causes it.
 *
 * The public post runs the sign-up's checks in the sign-up's order, before validation: nonce,
 * honeypot, minimum fill time, `svc_rsvp_client_ip`, throttles, bot check.
 */
import { AppError } from '../../../shared/errors';
import type { EventStatus } from '../events/events.sql';
import {
  type EventSubmissionFields,
  type RejectSubmissionInput,
  type ReviewStatus,
  type SubmissionDto,
  type SubmissionForm,
  type SubmissionListQuery,
  type SubmissionReceipt,
  ZRejectSubmissionInput,
  ZSubmissionListQuery,
} from '../../../shared/submissions';
import { toUtcString } from '../../../shared/time';
import type { AppContext } from '../../context';
import { applyContractFilter } from '../../hooks';
import { queueMail } from '../../mail/mailer';
import { sha256Hex } from '../../security/crypto';
import { assertNonce, PUBLIC_FORM_NONCE_ACTION, readSigned, signValue } from '../../security/nonce';
import { enforceRateLimit } from '../../security/throttle';
import { FORM_TOKEN_FIELD, HONEYPOT_FIELD, MIN_FILL_MS } from '../attendees/signup.service';
import { planEventReminder } from '../attendees/attendees.reminders';
import { eventsRepository, type EventRow } from '../events/events.repository';
import { requireExtended } from '../orders/payments.service';
import { recipientLanguage } from '../../mail/language';
import { buildSubmissionMail, submissionMailKey, type SubmissionMailKind } from './submissions.mail';
import { submissionsRepository } from './submissions.repository';

/** Contract "Limits": 3 proposals per 10 minutes per IP, keyed by svc_rsvp_client_ip ('' turns it off). */
export const SUBMISSION_IP_LIMIT = { limit: 3, windowSeconds: 600 } as const;
/** docs/api.md#event-submission: 3 proposals per hour per submitter email (applies when the IP throttle is off too). */
export const SUBMISSION_EMAIL_LIMIT = { limit: 3, windowSeconds: 3600 } as const;
/** What the form token signs: its own purpose, so a sign-up form's token is refused here. */
export const SUBMISSION_FORM_PURPOSE = 'event-submission-form';

export const submissionIpBucket = (ip: string) => `submission:ip:${ip}`;
export const submissionEmailBucket = (email: string) => `submission:email:${sha256Hex(email.trim().toLowerCase())}`;

export interface SubmissionScreenInput {
  nonce: string | undefined;
  /** REMOTE_ADDR after IP validation, or ''. */
  remoteIp: string;
  /** The body as posted, before validation. */
  raw: unknown;
  /** The request headers (the bot check sees them without the caller's credentials). */
  headers: Record<string, string>;
  nowMs?: number;
}

/** One line of plain text: control characters and runs of whitespace become one space (a title goes into a mail subject). */
const oneLine = (text: string) =>
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  text.replace(/[\u0000-\u001f\u007f\s]+/g, ' ').trim();

function reviewStatusOf(row: EventRow): ReviewStatus {
  if (row.status === 'published') return 'published';
  return row.submissionStatus === 'rejected' ? 'rejected' : 'submitted';
}

function toSubmissionDto(row: EventRow): SubmissionDto {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    startsUtc: row.startsUtc,
    endsUtc: row.endsUtc,
    timezone: row.timezone,
    venue: row.venue,
    status: reviewStatusOf(row),
    submitterName: row.submitterName ?? '',
    submitterEmail: row.submitterEmail ?? '',
    createdUtc: row.createdUtc,
    updatedUtc: row.updatedUtc,
  };
}

function invalid(params: Record<string, string>): AppError {
  return new AppError('svc_invalid_param', `Invalid parameter(s): ${Object.keys(params).join(', ')}`, { params });
}

export function submissionsService(ctx: AppContext) {
  const { db, hooks } = ctx;

  /** A proposal awaiting review, locked for the rest of the transaction; 404 for any other event, 409 once decided. */
  async function lockPending(tx: AppContext['db'], id: number): Promise<EventRow> {
    const row = await eventsRepository(tx).lockById(id);
    if (!row || row.submissionStatus === null) throw new AppError('svc_not_found', 'No such submission.');
    const status = reviewStatusOf(row);
    if (status !== 'submitted') throw new AppError('svc_conflict', `This submission was already ${status}.`);
    return row;
  }

  async function decide(id: number, next: { status: EventStatus; submissionStatus: 'submitted' | 'rejected' }, kind: SubmissionMailKind, reason = '') {
    requireExtended(ctx);
    const row = await db.transaction(async (tx) => {
      const before = await lockPending(tx, id);
      const updated = await eventsRepository(tx).update(id, next);
      if (!updated) throw new AppError('svc_not_found', 'No such submission.');
      // a published proposal reminds its attendees as any event does
      await planEventReminder(tx, before, updated);
      const key = submissionMailKey(kind, id);
      await queueMail(tx, buildSubmissionMail(kind, ctx.env.publicUrl, updated, await recipientLanguage(tx, updated.language), reason), {
        dedupeKey: key,
        onceKey: key,
      });
      return updated;
    });
    return toSubmissionDto(row);
  }

  return {
    /** `GET /events/submissions/form`: the signed render time the page posts back as `svc_ts`. */
    async form(nowMs = Date.now()): Promise<SubmissionForm> {
      requireExtended(ctx);
      return { formToken: signValue(ctx.secret, SUBMISSION_FORM_PURPOSE, String(nowMs)) };
    },

    /**
     * Everything before validation, in the sign-up's order (docs/api.md#event-submission). The
     * free edition answers 404 before the nonce is looked at.
     */
    async screenSubmission(input: SubmissionScreenInput): Promise<void> {
      const nowMs = input.nowMs ?? Date.now();
      requireExtended(ctx);
      // 1. The public-form nonce.
      assertNonce(ctx.secret, PUBLIC_FORM_NONCE_ACTION, input.nonce, nowMs);
      const raw = (typeof input.raw === 'object' && input.raw !== null ? input.raw : {}) as Record<string, unknown>;

      // 2. Honeypot.
      const honeypot = raw[HONEYPOT_FIELD];
      if (honeypot !== undefined && honeypot !== null && String(honeypot) !== '') throw new AppError('svc_spam_suspected');

      // 3. Minimum fill time from the signed render time.
      const token = raw[FORM_TOKEN_FIELD];
      const rendered = Number(readSigned(ctx.secret, SUBMISSION_FORM_PURPOSE, typeof token === 'string' ? token : null));
      if (!Number.isFinite(rendered) || rendered <= 0 || nowMs - rendered < MIN_FILL_MS) {
        throw new AppError('svc_spam_suspected', 'The form was sent too quickly or has expired. Please try again.');
      }

      // 4. The operator's view of the visitor IP: the sign-up's filter ('' turns the per-IP throttle off).
      const ip = await applyContractFilter(hooks, 'svc_rsvp_client_ip', input.remoteIp);

      // 5. Throttles, in the database so every instance shares them.
      if (ip !== '') await enforceRateLimit(db, submissionIpBucket(ip), SUBMISSION_IP_LIMIT, nowMs);
      const email = typeof raw.submitterEmail === 'string' ? raw.submitterEmail.trim().toLowerCase() : '';
      if (email !== '') await enforceRateLimit(db, submissionEmailBucket(email), SUBMISSION_EMAIL_LIMIT, nowMs);

      // 6. Bot check and spam scoring (plugins) with the filtered IP.
      const text = (key: string) => (typeof raw[key] === 'string' ? (raw[key] as string) : '');
      await ctx.verifiers.assertHuman({
        kind: 'submission',
        ip,
        email,
        name: text('submitterName'),
        content: { title: text('title'), description: text('description'), venue: text('venue') },
        headers: input.headers,
      });
    },

    /** `POST /events/submissions` after the screen and validation: a draft marked submitted, and the receipt mail. */
    async submit(fields: EventSubmissionFields, nowMs = Date.now()): Promise<SubmissionReceipt> {
      requireExtended(ctx);
      const title = oneLine(fields.title);
      const venue = oneLine(fields.venue);
      const submitterName = oneLine(fields.submitterName);
      const endsUtc = fields.endsUtc === '' ? null : fields.endsUtc;
      const params: Record<string, string> = {};
      if (title === '') params.title = 'must not be empty';
      if (submitterName === '') params.submitterName = 'must not be empty';
      // Times are fixed-width UTC strings, so string order is time order.
      if (fields.startsUtc <= toUtcString(nowMs)) params.startsUtc = 'must be in the future';
      if (endsUtc !== null && endsUtc < fields.startsUtc) params.endsUtc = 'must not be before startsUtc';
      if (Object.keys(params).length > 0) throw invalid(params);

      const row = await db.transaction(async (tx) => {
        const inserted = await eventsRepository(tx).insert({
          title,
          description: fields.description,
          startsUtc: fields.startsUtc,
          endsUtc,
          timezone: fields.timezone,
          venue,
          // never public until an administrator publishes it
          status: 'draft',
          submissionStatus: 'submitted',
          submitterName,
          submitterEmail: fields.submitterEmail,
        });
        const key = submissionMailKey('received', inserted.id);
        await queueMail(tx, buildSubmissionMail('received', ctx.env.publicUrl, inserted, await recipientLanguage(tx, inserted.language)), {
          dedupeKey: key,
          onceKey: key,
        });
        return inserted;
      });
      return {
        id: row.id,
        title: row.title,
        startsUtc: row.startsUtc,
        endsUtc: row.endsUtc,
        timezone: row.timezone,
        venue: row.venue,
        status: 'submitted',
      };
    },

    /** The administrators' list, newest first, filtered by review state. */
    async list(query: SubmissionListQuery): Promise<{ items: SubmissionDto[]; total: number }> {
      requireExtended(ctx);
      const q = ZSubmissionListQuery.parse(query);
      const { rows, total } = await submissionsRepository.list(db, { status: q.status }, q.perPage, (q.page - 1) * q.perPage);
      return { items: rows.map(toSubmissionDto), total };
    },

    /** Publish a proposal awaiting review: the draft becomes published; the submitter is mailed the link. */
    publish(id: number): Promise<SubmissionDto> {
      return decide(id, { status: 'published', submissionStatus: 'submitted' }, 'published');
    },

    /** Reject a proposal awaiting review: it stays a draft, marked rejected; the submitter is mailed the reason, if any. */
    reject(id: number, input: RejectSubmissionInput = {}): Promise<SubmissionDto> {
      const { reason } = ZRejectSubmissionInput.parse(input);
      return decide(id, { status: 'draft', submissionStatus: 'rejected' }, 'rejected', reason);
    },
  };
}
export type SubmissionsService = ReturnType<typeof submissionsService>;
