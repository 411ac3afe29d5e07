/** Private calendar feeds of bookings (docs/api.md#calendar-feeds). */
import { ZCalendarFeedDto, type FeedScope } from '../../../shared/feeds';
import { z } from '../../../shared/validation';
import { defineOperation, ZId } from '../../api/operation';
import { ADMIN_ONLY, SIGNED_IN } from '../../auth/principal';
import { feedsService } from './feeds.service';

const TAGS = ['calendar feeds'];
const ZHostParams = z.object({ userId: ZId });
const ZFeedFile = z.object({ token: z.string().min(1).max(200) });
const ICS_TYPE = 'text/calendar; charset=utf-8';
const HOST: FeedScope = 'host';
const ALL: FeedScope = 'all';

const FOR_HOST_ERRORS = { 403: "Another user's feed (a host manages their own; an administrator anyone's)", 404: 'No such user' };
const FOR_ALL_ERRORS = { 403: 'Administrators only' };

export const feedsOperations = {
  hostFeed: defineOperation({
    summary: "A host's private calendar feed of their bookings: its addresses, or null when there is none",
    access: SIGNED_IN,
    kind: 'query',
    input: ZHostParams,
    output: ZCalendarFeedDto,
    rest: { method: 'get', path: '/hosts/:userId/feed', tags: TAGS, describe: 'The feed', errors: FOR_HOST_ERRORS },
    handler: ({ input, principal, ctx }) => feedsService(ctx).get(principal, input.userId, HOST),
  }),
  renewHostFeed: defineOperation({
    summary: "Makes a host's feed address, or replaces it (the old address stops working at once)",
    access: SIGNED_IN,
    kind: 'mutation',
    input: ZHostParams,
    output: ZCalendarFeedDto,
    rest: { method: 'post', path: '/hosts/:userId/feed', tags: TAGS, status: 201, describe: 'The new address', errors: FOR_HOST_ERRORS },
    handler: ({ input, principal, ctx }) => feedsService(ctx).renew(principal, input.userId, HOST),
  }),
  revokeHostFeed: defineOperation({
    summary: "Revokes a host's feed: its address answers 404 from now on",
    access: SIGNED_IN,
    kind: 'mutation',
    input: ZHostParams,
    rest: { method: 'delete', path: '/hosts/:userId/feed', tags: TAGS, describe: 'Revoked (also when there was none)', errors: FOR_HOST_ERRORS },
    handler: ({ input, principal, ctx }) => feedsService(ctx).revoke(principal, input.userId, HOST),
  }),
  allFeed: defineOperation({
    summary: "The signed-in administrator's private calendar feed of every booking",
    access: ADMIN_ONLY,
    kind: 'query',
    output: ZCalendarFeedDto,
    rest: { method: 'get', path: '/feeds/all', tags: TAGS, describe: 'The feed', errors: FOR_ALL_ERRORS },
    handler: ({ principal, ctx }) => feedsService(ctx).get(principal, principal.userId ?? 0, ALL),
  }),
  renewAllFeed: defineOperation({
    summary: "Makes or replaces the administrator's feed of every booking (the old address stops working at once)",
    access: ADMIN_ONLY,
    kind: 'mutation',
    output: ZCalendarFeedDto,
    rest: { method: 'post', path: '/feeds/all', tags: TAGS, status: 201, describe: 'The new address', errors: FOR_ALL_ERRORS },
    handler: ({ principal, ctx }) => feedsService(ctx).renew(principal, principal.userId ?? 0, ALL),
  }),
  revokeAllFeed: defineOperation({
    summary: "Revokes the administrator's feed of every booking",
    access: ADMIN_ONLY,
    kind: 'mutation',
    rest: { method: 'delete', path: '/feeds/all', tags: TAGS, describe: 'Revoked (also when there was none)', errors: FOR_ALL_ERRORS },
    handler: ({ principal, ctx }) => feedsService(ctx).revoke(principal, principal.userId ?? 0, ALL),
  }),
  feed: defineOperation({
    summary: 'A private feed as an iCalendar file (RFC 5545) for Google, Apple or Outlook Calendar to subscribe to: the address is the credential',
    access: 'public',
    kind: 'query',
    input: ZFeedFile,
    // a calendar app fetches it as a file
    trpc: false,
    rest: {
      method: 'get',
      path: '/feeds/:token{[A-Za-z0-9_-]+\\.ics}',
      tags: TAGS,
      status: 200,
      produces: ['text/calendar'],
      describe: 'Confirmed bookings and those awaiting approval (tentative) from 90 days ago on, earliest first',
      errors: { 404: 'Unknown, replaced or revoked address' },
    },
    handler: async ({ input, ctx }) =>
      new Response(await feedsService(ctx).render(input.token), {
        status: 200,
        headers: { 'content-type': ICS_TYPE, 'content-disposition': 'inline; filename="bookings.ics"', 'cache-control': 'private, no-store' },
      }),
  }),
};
