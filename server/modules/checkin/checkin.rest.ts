import { z } from 'zod';
import {
  ZArrivals,
  ZArrivalsQuery,
  ZAttendeeCheckinStats,
  ZCheckinCounts,
  ZCheckinDto,
  ZCheckinInput,
  ZCheckinListQuery,
  ZCheckinResult,
  ZCheckinStatsQuery,
} from '../../../shared/checkin';
import { ADMIN_OR_STAFF } from '../../auth/principal';
import { defineRoute, listResult, ZIdParams, type AnyRouteDef } from '../../rest/route';
import { checkinService } from './checkin.service';

const ZCountsQuery = z.object({ eventId: z.coerce.number().int().positive().max(2_147_483_647) });

export const checkinRoutes: AnyRouteDef[] = [
  defineRoute({
    method: 'post',
    path: '/checkins',
    summary: 'Check an attendee in by ticketCode or attendeeId (every admitted scan is a new row; clientId makes it idempotent)',
    tags: ['check-in'],
    access: ADMIN_OR_STAFF,
    body: ZCheckinInput,
    responses: {
      201: { description: 'Checked in: verdict ok, or again with the previous check-in', schema: ZCheckinResult },
      200: { description: 'This clientId was checked in before: the original check-in', schema: ZCheckinResult },
      404: { description: 'svc_ticket_unknown' },
      409: { description: 'svc_ticket_cancelled, svc_ticket_waitlist or svc_ticket_wrong_event' },
      500: { description: 'The check-in could not be stored; no action fired' },
    },
    async handler({ body, principal, ctx }) {
      const { created, result } = await checkinService(ctx).checkIn(body, principal!, 'rest');
      return { status: created ? 201 : 200, body: result };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/checkins/counts',
    summary: 'Check-in counts of an event: attendees going, checked in (distinct), scans, conflicts',
    tags: ['check-in'],
    access: ADMIN_OR_STAFF,
    query: ZCountsQuery,
    responses: { 200: { description: 'Counts', schema: ZCheckinCounts }, 404: { description: 'No such event' } },
    handler: async ({ query, principal, ctx }) => ({ body: await checkinService(ctx).counts(query.eventId, principal!) }),
  }),
  defineRoute({
    method: 'get',
    path: '/checkins/stats',
    summary: 'Check-in count, last check-in and conflicts of some attendees of an event (eventId, attendeeIds=1,2,…; at most 500)',
    tags: ['check-in'],
    access: ADMIN_OR_STAFF,
    query: ZCheckinStatsQuery,
    responses: { 200: { description: 'One entry per attendee with a check-in not annulled', schema: z.array(ZAttendeeCheckinStats) } },
    handler: async ({ query, principal, ctx }) => ({ body: await checkinService(ctx).statsOfAttendees(query, principal!) }),
  }),
  defineRoute({
    method: 'get',
    path: '/checkins/arrivals',
    summary: 'Check-ins per 5 minutes of scan time (the latest 24 hours that have any), for the dashboard chart',
    tags: ['check-in'],
    access: ADMIN_OR_STAFF,
    query: ZArrivalsQuery,
    responses: { 200: { description: 'Buckets, oldest first', schema: ZArrivals }, 404: { description: 'No such event' } },
    handler: async ({ query, principal, ctx }) => ({ body: await checkinService(ctx).arrivals(query.eventId, principal!) }),
  }),
  defineRoute({
    method: 'get',
    path: '/checkins',
    summary: 'Check-ins of an event, newest first (eventId, attendeeId, conflicts, page, perPage; X-Total-Count)',
    tags: ['check-in'],
    access: ADMIN_OR_STAFF,
    query: ZCheckinListQuery,
    responses: { 200: { description: 'Check-ins', schema: z.array(ZCheckinDto) } },
    async handler({ query, principal, ctx }) {
      const { items, total } = await checkinService(ctx).list(query, principal!);
      return listResult(items, total);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/checkins/:id/annul',
    summary: 'Annul a check-in (kept, marked, no longer counted); staff: own check-ins of the last 15 minutes',
    tags: ['check-in'],
    access: ADMIN_OR_STAFF,
    params: ZIdParams,
    responses: { 200: { description: 'The annulled check-in', schema: ZCheckinDto }, 404: { description: 'No such check-in' }, 409: { description: 'Already annulled' } },
    handler: async ({ params, principal, ctx }) => ({ body: await checkinService(ctx).annul(params.id, principal!) }),
  }),
];
