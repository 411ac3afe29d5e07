/**
 * The check-in domain's operations (docs/api.md): online check-in, the check-in list and its
 * figures, annulment. Offline scans arrive through sync.push (`syncOperations`), decided by the
 * same service. Declaration order is route order: `/checkins/counts` before `/checkins/:id/annul`.
 */
import { z } from 'zod';
import {
  ZArrivals,
  ZArrivalsQuery,
  ZAttendeeCheckinStats,
  ZCheckinCounts,
  ZCheckinDto,
  ZCheckinInput,
  ZCheckinListItem,
  ZCheckinListQuery,
  ZCheckinResult,
  ZCheckinStatsQuery,
} from '../../../shared/checkin';
import { defineOperation, ZIdParams, ZListOf } from '../../api/operation';
import { ZQueryId } from '../../../shared/schemas';
import { ADMIN_OR_STAFF } from '../../auth/principal';
import { checkinService } from './checkin.service';

const ZCountsQuery = z.object({ eventId: ZQueryId });
const TAGS = ['check-in'];

export const checkinOperations = {
  // REST only: the REST body has no `source` (its rows say 'rest'); tRPC has `checkIn` below.
  checkIn: defineOperation({
    summary: 'Check an attendee in by ticketCode or attendeeId (every admitted scan is a new row; clientId makes it idempotent)',
    access: ADMIN_OR_STAFF,
    kind: 'mutation',
    trpc: false,
    input: ZCheckinInput,
    output: ZCheckinResult,
    rest: {
      method: 'post',
      path: '/checkins',
      tags: TAGS,
      status: 201,
      describe: 'Checked in: verdict ok, or again with the previous check-in',
      alsoAnswers: { 200: 'This clientId was checked in before: the original check-in' },
      errors: {
        404: 'svc_ticket_unknown',
        409: "svc_ticket_cancelled, svc_ticket_waitlist, svc_ticket_wrong_event or svc_ticket_wrong_category (the device's check-in list)",
        500: 'The check-in could not be stored; no action fired',
      },
    },
    async handler({ input, principal, ctx, reply }) {
      const { created, result } = await checkinService(ctx).checkIn(input, principal, 'rest');
      if (!created) reply.status(200);
      return result;
    },
  }),
  counts: defineOperation({
    summary: 'Check-in figures of an event in seats (checked in, going, places left, waitlisted), attendees checked in (distinct), scans, conflicts',
    access: ADMIN_OR_STAFF,
    kind: 'query',
    input: ZCountsQuery,
    output: ZCheckinCounts,
    rest: { method: 'get', path: '/checkins/counts', tags: TAGS, describe: 'Counts', errors: { 404: 'No such event' } },
    handler: ({ input, principal, ctx }) => checkinService(ctx).counts(input.eventId, principal),
  }),
  stats: defineOperation({
    summary: 'Check-in count, last check-in and conflicts of some attendees of an event (eventId, attendeeIds=1,2,…; at most 500)',
    access: ADMIN_OR_STAFF,
    kind: 'query',
    input: ZCheckinStatsQuery,
    output: z.array(ZAttendeeCheckinStats),
    rest: { method: 'get', path: '/checkins/stats', tags: TAGS, describe: 'One entry per attendee with a check-in not annulled' },
    handler: ({ input, principal, ctx }) => checkinService(ctx).statsOfAttendees(input, principal),
  }),
  arrivals: defineOperation({
    summary: 'Check-ins per 5 minutes of scan time (the latest 24 hours that have any), for the dashboard chart',
    access: ADMIN_OR_STAFF,
    kind: 'query',
    input: ZArrivalsQuery,
    output: ZArrivals,
    rest: { method: 'get', path: '/checkins/arrivals', tags: TAGS, describe: 'Buckets, oldest first', errors: { 404: 'No such event' } },
    handler: ({ input, principal, ctx }) => checkinService(ctx).arrivals(input.eventId, principal),
  }),
  list: defineOperation({
    summary: 'Check-ins of an event, newest first, re-entries marked `repeat` (eventId, attendeeId, conflicts, page, perPage; X-Total-Count)',
    access: ADMIN_OR_STAFF,
    kind: 'query',
    input: ZCheckinListQuery,
    output: ZListOf(ZCheckinListItem),
    rest: { method: 'get', path: '/checkins', tags: TAGS, list: true, describe: 'Check-ins' },
    handler: ({ input, principal, ctx }) => checkinService(ctx).list(input, principal),
  }),
  annul: defineOperation({
    summary: 'Annul a check-in (kept, marked, no longer counted); staff: own check-ins of the last 15 minutes',
    access: ADMIN_OR_STAFF,
    kind: 'mutation',
    input: ZIdParams,
    output: ZCheckinDto,
    rest: {
      method: 'post',
      path: '/checkins/:id/annul',
      tags: TAGS,
      describe: 'The annulled check-in',
      errors: { 404: 'No such check-in', 409: 'Already annulled' },
    },
    handler: ({ input, principal, ctx }) => checkinService(ctx).annul(input.id, principal),
  }),
};
