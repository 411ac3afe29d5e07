/** The attendee timeline's operation (docs/api.md#timeline); free edition: 404. */
import { ZTimelineEntryDto } from '../../../shared/timeline';
import { defineOperation, ZIdParams, ZListOf, ZPagination } from '../../api/operation';
import { ADMIN_OR_STAFF } from '../../auth/principal';
import { timelineService } from './timeline.service';

// `/attendees/:id/timeline` has one segment more than the attendees' `/attendees/:id`, so the
// attendees record (registered first) cannot shadow it.
export const timelineOperations = {
  get: defineOperation({
    summary: 'An attendee’s history, newest first: signed up, status changes, check-ins, cancelled, paid, refunded',
    access: ADMIN_OR_STAFF,
    kind: 'query',
    input: ZIdParams.extend(ZPagination.shape),
    output: ZListOf(ZTimelineEntryDto),
    rest: {
      method: 'get',
      path: '/attendees/:id/timeline',
      tags: ['attendees'],
      list: true,
      describe: 'Timeline entries, newest first',
      errors: { 403: 'Staff not assigned to the attendee’s event', 404: 'No such attendee, or the free edition' },
    },
    handler: ({ input, principal, ctx }) => timelineService(ctx).list(input.id, principal, input),
  }),
};
