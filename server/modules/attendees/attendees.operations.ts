/** The attendees domain's operations (docs/api.md): the visitor's sign-up and cancel, the admin's attendee screens and export. */
import { requestLanguage } from '../../mail/language';
import {
  ZAttendeeDto,
  ZAttendeeExportQuery,
  ZAttendeeListQuery,
  ZCancelPreview,
  ZCancelResult,
  ZCancelTokenParams,
  ZSignupBody,
  ZSignupBodyDocumented,
  ZSignupResult,
  ZSignedTicketPdfParams,
  ZTicketPdfParams,
  ZUpdateAttendeeInput,
} from '../../../shared/attendees';
import { ZSignupForm } from '../../../shared/events';
import { defineOperation, ZIdParams, ZListOf } from '../../api/operation';
import { NONCE_HEADER } from '../../api/route';
import { ADMIN_ONLY, ADMIN_OR_STAFF } from '../../auth/principal';
import { attendeesService } from './attendees.service';
import { attendeesBulkService } from './attendees.bulk';
import {
  ZAddAttendeeInput,
  ZBulkInput,
  ZBulkStarted,
  ZEventMessageInput,
  ZEventMessageResult,
  ZJobProgress,
  ZSelectionExportInput,
} from '../../../shared/attendees-bulk';
import { signupService } from './signup.service';
import { TICKET_PDF_TYPE, ticketPdfBySignedToken, ticketPdfByToken } from './ticket-pdf.service';
import { ticketPassBySignedToken, ticketPassByToken } from './ticket-pass.service';
import { passDownload, PKPASS_TYPE } from '../../wallet/pass';
import { fileDownload } from '../../api/download';

const pdfDownload = (pdf: Uint8Array) => fileDownload(pdf, TICKET_PDF_TYPE, 'ticket.pdf');

const SIGN_UP = ['sign-up'];
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const EXPORT_TYPES = { csv: 'text/csv; charset=utf-8', json: 'application/json; charset=utf-8', xlsx: XLSX_TYPE } as const;

/** An export as a download, never cached. */
function exportResponse(stream: ReadableStream<Uint8Array>, name: string, format: keyof typeof EXPORT_TYPES): Response {
  return new Response(stream, {
    status: 200,
    headers: {
      'content-type': EXPORT_TYPES[format],
      'content-disposition': `attachment; filename="${name}.${format}"`,
      'cache-control': 'no-store',
    },
  });
}
const ATTENDEES = ['attendees'];
const NO_STORE = { 'cache-control': 'no-store' };

// Declaration order is REST matching order: /attendees/cancel/… and /attendees/export before /attendees/:id.
export const attendeesOperations = {
  form: defineOperation({
    summary: 'Extra sign-up fields (svc_rsvp_form_fields) and the signed render time to post back as svc_ts',
    access: 'public',
    kind: 'query',
    input: ZIdParams,
    output: ZSignupForm,
    rest: {
      method: 'get',
      path: '/events/:id/form',
      tags: SIGN_UP,
      headers: NO_STORE,
      describe: 'Fields HTML and form token',
      errors: { 404: 'Unknown or draft event' },
    },
    handler: ({ input, ctx }) => signupService(ctx).form(input.id),
  }),
  signup: defineOperation({
    summary: 'Sign up (form-encoded or JSON): email, display_name, quantity, svc_ts, svc_hp, svc_cf_<key>…; header X-Svc-Nonce',
    access: 'public',
    kind: 'mutation',
    // Contract order: the nonce before anything else, even validation.
    screen: ({ c, ctx }) => signupService(ctx).screenSubmission({ nonce: c.req.header('x-svc-nonce') }),
    // The fields go to the service as posted: the contract puts its spam checks and throttles before their validation.
    input: ZIdParams.extend({ fields: ZSignupBody }),
    output: ZSignupResult,
    rest: {
      method: 'post',
      path: '/events/:id/signup',
      tags: SIGN_UP,
      status: 201,
      bodyFormat: 'json-or-form',
      bodyKey: 'fields',
      documentedBody: ZSignupBodyDocumented,
      requestHeaders: [NONCE_HEADER],
      describe: 'Signed up: going or waitlist',
      errors: {
        400: 'Invalid input (data.params), spam suspected, or a custom-fields error',
        403: 'Missing or invalid X-Svc-Nonce',
        404: 'Draft event',
        409: 'svc_event_full or svc_signup_closed',
        429: 'Throttled',
      },
    },
    handler: ({ input, ip, c, ctx }) =>
      signupService(ctx).signup({ eventId: input.id, raw: input.fields, ip, headers: c.req.header(), language: requestLanguage(c) }),
  }),
  cancelPreview: defineOperation({
    summary: 'What the cancel link would cancel (changes nothing)',
    access: 'public',
    kind: 'query',
    input: ZCancelTokenParams,
    output: ZCancelPreview,
    rest: { method: 'get', path: '/attendees/cancel/:token', tags: ATTENDEES, headers: NO_STORE, describe: 'Preview', errors: { 404: 'Unknown token' } },
    handler: ({ input, ctx }) => signupService(ctx).cancelPreview(input.token),
  }),
  cancel: defineOperation({
    summary: 'Cancel a sign-up with its cancel token (svc_rsvp_cancelled)',
    access: 'public',
    kind: 'mutation',
    input: ZCancelTokenParams,
    output: ZCancelResult,
    rest: {
      method: 'post',
      path: '/attendees/cancel/:token',
      tags: ATTENDEES,
      describe: 'Cancelled',
      errors: { 404: 'Unknown token', 409: 'Already cancelled' },
    },
    handler: ({ input, ctx }) => signupService(ctx).cancel(input.token),
  }),
  ticketPdf: defineOperation({
    summary:
      'The PDF ticket (QR, name, event, category, time, venue, organization) of a going attendee, in their language; the cancel link’s token is the credential',
    access: 'public',
    kind: 'query',
    input: ZTicketPdfParams,
    // A download the pages open as a link.
    trpc: false,
    rest: {
      method: 'get',
      path: '/tickets/:cancelToken/ticket.pdf',
      tags: ATTENDEES,
      status: 200,
      produces: [TICKET_PDF_TYPE],
      describe: 'The ticket, one A4 page',
      errors: { 404: 'Unknown token', 409: 'svc_ticket_waitlist (on the waitlist) or svc_ticket_cancelled (cancelled): no ticket to show' },
    },
    handler: async ({ input, ctx }) => pdfDownload(await ticketPdfByToken(ctx, input.cancelToken)),
  }),
  signedTicketPdf: defineOperation({
    summary: 'The same PDF ticket with the key of the sign-up answer (ticketPdfToken); it leaves the cancel link out',
    access: 'public',
    kind: 'query',
    input: ZSignedTicketPdfParams,
    trpc: false,
    rest: {
      method: 'get',
      path: '/tickets/signed/:ticketPdfToken/ticket.pdf',
      tags: ATTENDEES,
      status: 200,
      produces: [TICKET_PDF_TYPE],
      describe: 'The ticket, one A4 page',
      errors: { 404: 'Unknown key', 409: 'svc_ticket_waitlist or svc_ticket_cancelled: no ticket to show' },
    },
    handler: async ({ input, ctx }) => pdfDownload(await ticketPdfBySignedToken(ctx, input.ticketPdfToken)),
  }),
  ticketPass: defineOperation({
    summary: 'The Apple Wallet pass of a going attendee’s ticket (QR = ticket code), in their language; the cancel link’s token is the credential',
    access: 'public',
    kind: 'query',
    input: ZTicketPdfParams,
    // A download the pages open as a link.
    trpc: false,
    rest: {
      method: 'get',
      path: '/tickets/:cancelToken/ticket.pkpass',
      tags: ATTENDEES,
      status: 200,
      produces: [PKPASS_TYPE],
      describe: 'The signed pass',
      errors: {
        404: 'Unknown token, or svc_wallet_unavailable (the server has no Wallet certificates)',
        409: 'svc_ticket_waitlist or svc_ticket_cancelled: no ticket to show',
      },
    },
    handler: async ({ input, ctx }) => passDownload(await ticketPassByToken(ctx, input.cancelToken), 'ticket.pkpass'),
  }),
  signedTicketPass: defineOperation({
    summary: 'The same Wallet pass with the key of the sign-up answer (ticketPdfToken); it leaves the cancel link out',
    access: 'public',
    kind: 'query',
    input: ZSignedTicketPdfParams,
    trpc: false,
    rest: {
      method: 'get',
      path: '/tickets/signed/:ticketPdfToken/ticket.pkpass',
      tags: ATTENDEES,
      status: 200,
      produces: [PKPASS_TYPE],
      describe: 'The signed pass',
      errors: { 404: 'Unknown key, or svc_wallet_unavailable', 409: 'svc_ticket_waitlist or svc_ticket_cancelled: no ticket to show' },
    },
    handler: async ({ input, ctx }) => passDownload(await ticketPassBySignedToken(ctx, input.ticketPdfToken), 'ticket.pkpass'),
  }),
  add: defineOperation({
    summary: 'Add an attendee by hand (a comp ticket): email, displayName, quantity, status going|waitlist, notify (mail the ticket; default true)',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams.extend({ attendee: ZAddAttendeeInput }),
    output: ZAttendeeDto,
    rest: {
      method: 'post',
      path: '/events/:id/attendees',
      tags: ATTENDEES,
      status: 201,
      bodyKey: 'attendee',
      describe: 'The attendee added; svc_rsvp_submitted fired',
      errors: { 404: 'No such event', 409: 'svc_event_full: going without the seats (the seats left in data)' },
    },
    handler: ({ input, ctx }) => attendeesBulkService(ctx).add(input.id, input.attendee),
  }),
  message: defineOperation({
    summary: 'Write to an event’s going attendees, its waitlist or all: one mail per person through the outbox; dryRun answers the count and a preview',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams.extend({ message: ZEventMessageInput }),
    output: ZEventMessageResult,
    rest: {
      method: 'post',
      path: '/events/:id/messages',
      tags: ATTENDEES,
      status: 202,
      bodyKey: 'message',
      describe: 'The count, the preview and the job (null on a dry run)',
      errors: { 404: 'No such event' },
    },
    handler: ({ input, principal, ctx }) => attendeesBulkService(ctx).message(input.id, input.message, principal),
  }),
  bulk: defineOperation({
    summary: 'Act on a selection of an event’s attendees (ids, or query: the list’s search and status) as a job: cancel, going, resend, checkin, message',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZBulkInput,
    output: ZBulkStarted,
    rest: { method: 'post', path: '/attendees/bulk', tags: ATTENDEES, status: 202, describe: 'The job and how many rows it handles' },
    handler: ({ input, principal, ctx }) => attendeesBulkService(ctx).start(input, principal),
  }),
  job: defineOperation({
    summary: 'A bulk job’s progress: state, total, done, failed, skipped',
    access: ADMIN_ONLY,
    kind: 'query',
    input: ZIdParams,
    output: ZJobProgress,
    rest: { method: 'get', path: '/jobs/:id', tags: ATTENDEES, headers: NO_STORE, describe: 'Progress', errors: { 404: 'No such bulk job' } },
    handler: ({ input, ctx }) => attendeesBulkService(ctx).progress(input.id),
  }),
  export: defineOperation({
    summary: 'Export an event’s attendees as CSV, XLSX or JSON (streamed, same serialization as the list)',
    access: ADMIN_OR_STAFF,
    kind: 'query',
    input: ZAttendeeExportQuery,
    // A download the admin app opens as a link.
    trpc: false,
    rest: {
      method: 'get',
      path: '/attendees/export',
      tags: ATTENDEES,
      status: 200,
      produces: ['text/csv', 'application/json', XLSX_TYPE],
      describe: 'CSV (RFC 4180, UTF-8 with a byte order mark, header row), an XLSX workbook or a JSON array',
    },
    async handler({ input, principal, ctx }) {
      const { eventId, stream } = await attendeesService(ctx).export(input, principal);
      return exportResponse(stream, `attendees-event-${eventId}`, input.format);
    },
  }),
  exportSelection: defineOperation({
    summary: 'Export a selection (the ids, or every row a search matches, as a bulk action takes them) as CSV, XLSX or JSON',
    access: ADMIN_OR_STAFF,
    kind: 'query',
    input: ZSelectionExportInput,
    // A download the admin app fetches and saves; a selection of ids does not fit a link.
    trpc: false,
    rest: {
      method: 'post',
      path: '/attendees/export',
      tags: ATTENDEES,
      status: 200,
      produces: ['text/csv', 'application/json', XLSX_TYPE],
      describe: 'Exactly the selected rows, in the same columns as the whole event’s export',
    },
    async handler({ input, principal, ctx }) {
      const { eventId, stream } = await attendeesBulkService(ctx).exportSelection(input, principal);
      return exportResponse(stream, `attendees-event-${eventId}-selection`, input.format);
    },
  }),
  list: defineOperation({
    summary: 'List attendees (eventId, status, search on name/email, page, perPage; X-Total-Count)',
    access: ADMIN_OR_STAFF,
    kind: 'query',
    input: ZAttendeeListQuery,
    output: ZListOf(ZAttendeeDto),
    rest: { method: 'get', path: '/attendees', tags: ATTENDEES, list: true, describe: 'Attendees' },
    handler: ({ input, principal, ctx }) => attendeesService(ctx).list(input, principal),
  }),
  get: defineOperation({
    summary: 'Get an attendee',
    access: ADMIN_OR_STAFF,
    kind: 'query',
    input: ZIdParams,
    output: ZAttendeeDto,
    rest: { method: 'get', path: '/attendees/:id', tags: ATTENDEES, describe: 'The attendee', errors: { 404: 'No such attendee' } },
    handler: ({ input, principal, ctx }) => attendeesService(ctx).get(input.id, principal),
  }),
  update: defineOperation({
    summary: 'Edit an attendee (displayName, email, quantity, status)',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams.extend({ patch: ZUpdateAttendeeInput }),
    output: ZAttendeeDto,
    rest: {
      method: 'patch',
      path: '/attendees/:id',
      tags: ATTENDEES,
      bodyKey: 'patch',
      describe: 'The attendee',
      errors: { 404: 'No such attendee', 500: 'The write failed; no action fired' },
    },
    handler: ({ input, ctx }) => attendeesService(ctx).update(input.id, input.patch),
  }),
  delete: defineOperation({
    summary: 'Delete an attendee permanently (svc_attendee_deleted)',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams,
    rest: { method: 'delete', path: '/attendees/:id', tags: ATTENDEES, describe: 'Deleted', errors: { 404: 'No such attendee' } },
    handler: ({ input, ctx }) => attendeesService(ctx).delete(input.id),
  }),
};
