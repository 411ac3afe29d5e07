/**
 * Public event submission (extended edition, docs/api.md#event-submission): the visitor's form
 * token and proposal, the administrators' review list, Publish and Reject. In the free edition
 * each answers 404. Registered ahead of the events' operations, so `/events/submissions…` is
 * matched before `/events/:id`.
 */
import {
  ZEventSubmissionInput,
  ZRejectSubmissionInput,
  ZSubmissionDto,
  ZSubmissionForm,
  ZSubmissionListQuery,
  ZSubmissionReceipt,
} from '../../../shared/submissions';
import { defineOperation, ZIdParams, ZListOf } from '../../api/operation';
import { NONCE_HEADER } from '../../api/route';
import { ADMIN_ONLY } from '../../auth/principal';
import { submissionsService } from './submissions.service';

const SUBMISSIONS = ['event submissions'];
const NO_STORE = { 'cache-control': 'no-store' };

// Declaration order is REST matching order: /events/submissions/form before anything with an id.
export const submissionsOperations = {
  form: defineOperation({
    summary: 'The event proposal form’s signed render time, to post back as svc_ts (minimum fill time)',
    access: 'public',
    kind: 'query',
    output: ZSubmissionForm,
    rest: {
      method: 'get',
      path: '/events/submissions/form',
      tags: SUBMISSIONS,
      headers: NO_STORE,
      describe: 'Form token',
      errors: { 404: 'The free edition' },
    },
    handler: ({ ctx }) => submissionsService(ctx).form(),
  }),
  submit: defineOperation({
    summary:
      'Propose an event (JSON or form-encoded; header X-Svc-Nonce): stored as a draft awaiting review; throttled per IP (svc_rsvp_client_ip) and per email',
    access: 'public',
    kind: 'mutation',
    // The sign-up's order: nonce, honeypot, fill time, IP filter, throttles, bot check — all before validation.
    screen: ({ c, ctx, ip, raw }) =>
      submissionsService(ctx).screenSubmission({ nonce: c.req.header('x-svc-nonce'), remoteIp: ip, raw, headers: c.req.header() }),
    input: ZEventSubmissionInput,
    output: ZSubmissionReceipt,
    rest: {
      method: 'post',
      path: '/events/submissions',
      tags: SUBMISSIONS,
      status: 201,
      bodyFormat: 'json-or-form',
      requestHeaders: [NONCE_HEADER],
      describe: 'Received: a draft awaiting review (never the submitter’s details)',
      errors: {
        400: 'Invalid input (data.params), or spam suspected (honeypot filled, sent too fast, bot check)',
        403: 'Missing or invalid X-Svc-Nonce',
        404: 'The free edition',
        429: 'Throttled: 3 per 10 minutes per IP, 3 per hour per email',
      },
    },
    handler: ({ input, ctx }) => submissionsService(ctx).submit(input),
  }),
  list: defineOperation({
    summary: 'Proposed events, newest first (status: submitted = awaiting review, published, rejected); X-Total-Count',
    access: ADMIN_ONLY,
    kind: 'query',
    input: ZSubmissionListQuery,
    output: ZListOf(ZSubmissionDto),
    rest: { method: 'get', path: '/events/submissions', tags: SUBMISSIONS, list: true, describe: 'Proposals', errors: { 404: 'The free edition' } },
    handler: ({ input, ctx }) => submissionsService(ctx).list(input),
  }),
  publish: defineOperation({
    summary: 'Publish a proposal awaiting review: the draft becomes a published event; the submitter is mailed its link',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams,
    output: ZSubmissionDto,
    rest: {
      method: 'post',
      path: '/events/submissions/:id/publish',
      tags: SUBMISSIONS,
      describe: 'The published proposal',
      errors: { 404: 'No such proposal, or the free edition', 409: 'Already published or rejected' },
    },
    handler: ({ input, ctx }) => submissionsService(ctx).publish(input.id),
  }),
  reject: defineOperation({
    summary: 'Reject a proposal awaiting review (optional reason, mailed to the submitter, not stored); it stays a draft',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams.extend(ZRejectSubmissionInput.shape),
    output: ZSubmissionDto,
    rest: {
      method: 'post',
      path: '/events/submissions/:id/reject',
      tags: SUBMISSIONS,
      describe: 'The rejected proposal',
      errors: { 404: 'No such proposal, or the free edition', 409: 'Already published or rejected' },
    },
    handler: ({ input, ctx }) => submissionsService(ctx).reject(input.id, { reason: input.reason }),
  }),
};
