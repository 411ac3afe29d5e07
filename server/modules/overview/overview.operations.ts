/** The admin overview's figures (docs/api.md#admin-overview). */
import { ZOverview, ZOverviewQuery } from '../../../shared/overview';
import { defineOperation } from '../../api/operation';
import { SIGNED_IN } from '../../auth/principal';
import { overviewService } from './overview.service';

export const overviewOperations = {
  get: defineOperation({
    summary:
      "The overview's figures: upcoming events (seats going, waitlisted, checked in, revenue for administrators, sign-ups per day), bookings today and this week in `tz`, the outbox's counts",
    access: SIGNED_IN,
    kind: 'query',
    input: ZOverviewQuery,
    output: ZOverview,
    rest: { method: 'get', path: '/overview', tags: ['overview'], describe: 'The figures' },
    handler: ({ input, principal, ctx }) => overviewService(ctx).overview(principal, input.tz),
  }),
};
