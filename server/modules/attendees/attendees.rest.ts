import type { Context } from 'hono';
import { z } from 'zod';
import { ZAttendeeDto, ZAttendeeExportQuery, ZAttendeeListQuery, ZCancelPreview, ZCancelToken, ZSignupResult, ZUpdateAttendeeInput } from '../../../shared/attendees';
import { ZSignupForm } from '../../../shared/events';
import { AppError } from '../../../shared/errors';
import { ADMIN_ONLY, ADMIN_OR_STAFF, assertEventAccess } from '../../auth/principal';
import { defineRoute, listResult, ZIdParams, type AnyRouteDef } from '../../rest/route';
import { PUBLIC_FORM_NONCE_ACTION } from '../../rest/system.rest';
import { assertNonce } from '../../security/nonce';
import { eventsRepository } from '../events/events.repository';
import { exportAttendeesStream } from './attendees.export';
import { attendeesService } from './attendees.service';
import { signupService } from './signup.service';

const ZTokenParams = z.object({ token: ZCancelToken });
const ZCancelResult = z.object({ id: z.number().int(), status: z.literal('cancelled') });

/** Request headers for the bot check, without the caller's credentials. */
export function verifierHeaders(c: Context): Record<string, string> {
  const { cookie: _cookie, authorization: _authorization, ...rest } = c.req.header();
  return rest;
}

export const attendeeRoutes: AnyRouteDef[] = [
  defineRoute({
    method: 'get',
    path: '/events/:id/form',
    summary: 'Extra sign-up fields (svc_rsvp_form_fields) and the signed render time to post back as svc_ts',
    tags: ['sign-up'],
    access: 'public',
    params: ZIdParams,
    responses: { 200: { description: 'Fields HTML and form token', schema: ZSignupForm }, 404: { description: 'Draft event' } },
    handler: async ({ params, ctx }) => ({ body: await signupService(ctx).form(params.id), headers: { 'cache-control': 'no-store' } }),
  }),
  defineRoute({
    method: 'post',
    path: '/events/:id/signup',
    summary: 'Sign up (form-encoded or JSON): email, display_name, quantity, svc_ts, svc_hp, svc_cf_<key>…; header X-Svc-Nonce',
    tags: ['sign-up'],
    access: 'public',
    params: ZIdParams,
    // The service validates the fields itself: the contract puts its spam checks and throttles first.
    body: z.record(z.string(), z.unknown()),
    bodyFormat: 'json-or-form',
    async before({ c, ctx }) {
      assertNonce(ctx.secret, PUBLIC_FORM_NONCE_ACTION, c.req.header('x-svc-nonce'));
    },
    responses: {
      201: { description: 'Signed up: going or waitlist', schema: ZSignupResult },
      400: { description: 'Invalid input (data.params), spam suspected, or a custom-fields error' },
      403: { description: 'Missing or invalid X-Svc-Nonce' },
      404: { description: 'Draft event' },
      409: { description: 'svc_event_full or svc_signup_closed' },
      429: { description: 'Throttled' },
    },
    async handler({ params, body, ip, c, ctx }) {
      const result = await signupService(ctx).signup({ eventId: params.id, raw: body, ip, headers: verifierHeaders(c) });
      return { status: 201, body: result };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/attendees/cancel/:token',
    summary: 'What the cancel link would cancel (changes nothing)',
    tags: ['attendees'],
    access: 'public',
    params: ZTokenParams,
    responses: { 200: { description: 'Preview', schema: ZCancelPreview }, 404: { description: 'Unknown token' } },
    handler: async ({ params, ctx }) => ({ body: await signupService(ctx).cancelPreview(params.token), headers: { 'cache-control': 'no-store' } }),
  }),
  defineRoute({
    method: 'post',
    path: '/attendees/cancel/:token',
    summary: 'Cancel a sign-up with its cancel token (svc_rsvp_cancelled)',
    tags: ['attendees'],
    access: 'public',
    params: ZTokenParams,
    responses: { 200: { description: 'Cancelled', schema: ZCancelResult }, 404: { description: 'Unknown token' }, 409: { description: 'Already cancelled' } },
    handler: async ({ params, ctx }) => ({ body: await signupService(ctx).cancel(params.token) }),
  }),
  defineRoute({
    method: 'get',
    path: '/attendees/export',
    summary: 'Export an event’s attendees as CSV or JSON (streamed, same serialization as the list)',
    tags: ['attendees'],
    access: ADMIN_OR_STAFF,
    query: ZAttendeeExportQuery,
    responses: { 200: { description: 'CSV (RFC 4180, header row) or a JSON array' } },
    async handler({ query, principal, ctx }) {
      assertEventAccess(principal!, query.eventId);
      const event = await eventsRepository(ctx.db).findById(query.eventId);
      if (!event) throw new AppError('svc_invalid_param', 'Invalid parameter(s): eventId', { params: { eventId: 'no such event' } });
      const stream = exportAttendeesStream(ctx, event.id, query.format);
      const csv = query.format === 'csv';
      return new Response(stream, {
        status: 200,
        headers: {
          'content-type': csv ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
          'content-disposition': `attachment; filename="attendees-event-${event.id}.${query.format}"`,
          'cache-control': 'no-store',
        },
      });
    },
  }),
  defineRoute({
    method: 'get',
    path: '/attendees',
    summary: 'List attendees (eventId, status, search on name/email, page, perPage; X-Total-Count)',
    tags: ['attendees'],
    access: ADMIN_OR_STAFF,
    query: ZAttendeeListQuery,
    responses: { 200: { description: 'Attendees', schema: z.array(ZAttendeeDto) } },
    async handler({ query, principal, ctx }) {
      const { items, total } = await attendeesService(ctx).list(query, principal!);
      return listResult(items, total);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/attendees/:id',
    summary: 'Get an attendee',
    tags: ['attendees'],
    access: ADMIN_OR_STAFF,
    params: ZIdParams,
    responses: { 200: { description: 'The attendee', schema: ZAttendeeDto }, 404: { description: 'No such attendee' } },
    handler: async ({ params, principal, ctx }) => ({ body: await attendeesService(ctx).get(params.id, principal!) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/attendees/:id',
    summary: 'Edit an attendee (displayName, email, quantity, status)',
    tags: ['attendees'],
    access: ADMIN_ONLY,
    params: ZIdParams,
    body: ZUpdateAttendeeInput,
    responses: { 200: { description: 'The attendee', schema: ZAttendeeDto }, 404: { description: 'No such attendee' }, 500: { description: 'The write failed; no action fired' } },
    handler: async ({ params, body, ctx }) => ({ body: await attendeesService(ctx).update(params.id, body) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/attendees/:id',
    summary: 'Delete an attendee permanently (svc_attendee_deleted)',
    tags: ['attendees'],
    access: ADMIN_ONLY,
    params: ZIdParams,
    responses: { 204: { description: 'Deleted' }, 404: { description: 'No such attendee' } },
    async handler({ params, ctx }) {
      await attendeesService(ctx).delete(params.id);
      return { status: 204 };
    },
  }),
];
