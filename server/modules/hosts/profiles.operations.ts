/** A host's own space (docs/api.md#host-space): their bookings and profile; administrators' list of hosts. */
import { ZBookingDto, ZBookingListQuery } from '../../../shared/booking';
import { HOST_PHOTO_TYPES, ZHostProfileDto, ZHostProfilePatch, ZHostSummaryDto } from '../../../shared/hosts';
import { z } from '../../../shared/validation';
import { defineOperation, ZId, ZListOf } from '../../api/operation';
import { ADMIN_ONLY, SIGNED_IN } from '../../auth/principal';
import { hostSpaceService } from './profiles.service';

const TAGS = ['hosts'];
const ZHostParams = z.object({ userId: ZId });
const FOR_HOST_ERRORS = { 403: "Another user's (a host acts for themselves; an administrator for anyone)", 404: 'No such user' };
/** A photo's address changes with it (`?v=`), so it may be kept for long. */
const PHOTO_CACHE = 'public, max-age=31536000, immutable';

export const profilesOperations = {
  hosts: defineOperation({
    summary: 'Users who host a booking type, by name, with their types and upcoming bookings',
    access: ADMIN_ONLY,
    kind: 'query',
    output: z.array(ZHostSummaryDto),
    rest: { method: 'get', path: '/hosts', tags: TAGS, describe: 'The hosts', errors: { 403: 'Administrators only' } },
    handler: ({ ctx }) => hostSpaceService(ctx).hosts(),
  }),
  hostBookings: defineOperation({
    summary: "A host's bookings: upcoming first (soonest first), then past (latest first); the filters of GET /bookings",
    access: SIGNED_IN,
    kind: 'query',
    input: ZHostParams.extend(ZBookingListQuery.shape),
    output: ZListOf(ZBookingDto),
    rest: { method: 'get', path: '/hosts/:userId/bookings', tags: TAGS, list: true, describe: "The host's bookings", errors: FOR_HOST_ERRORS },
    handler: ({ input: { userId, ...query }, principal, ctx }) => hostSpaceService(ctx).bookings(principal, userId, query),
  }),
  hostProfile: defineOperation({
    summary: "A host's profile: name, short bio, meeting link, photo address",
    access: SIGNED_IN,
    kind: 'query',
    input: ZHostParams,
    output: ZHostProfileDto,
    rest: { method: 'get', path: '/hosts/:userId/profile', tags: TAGS, describe: 'The profile', errors: FOR_HOST_ERRORS },
    handler: ({ input, principal, ctx }) => hostSpaceService(ctx).profile(principal, input.userId),
  }),
  updateHostProfile: defineOperation({
    summary: "Changes a host's name, bio (≤ 500 characters) or meeting link (https); '' clears the bio or link",
    access: SIGNED_IN,
    kind: 'mutation',
    input: ZHostParams.extend({ patch: ZHostProfilePatch }),
    output: ZHostProfileDto,
    rest: { method: 'patch', path: '/hosts/:userId/profile', tags: TAGS, bodyKey: 'patch', describe: 'The profile', errors: FOR_HOST_ERRORS },
    handler: ({ input, principal, ctx }) => hostSpaceService(ctx).updateProfile(principal, input.userId, input.patch),
  }),
  uploadHostPhoto: defineOperation({
    summary: "Sets a host's photo: the body is a JPEG, PNG or WebP image (≤ 5 MB, judged by its bytes), stored re-encoded small without EXIF",
    access: SIGNED_IN,
    kind: 'mutation',
    input: ZHostParams,
    output: ZHostProfileDto,
    // the body is the image's bytes
    trpc: false,
    rest: {
      method: 'put',
      path: '/hosts/:userId/photo',
      tags: TAGS,
      rawBody: 'The image file',
      rawBodyTypes: [...HOST_PHOTO_TYPES],
      describe: 'The profile with its new photo address',
      errors: { ...FOR_HOST_ERRORS, 400: 'svc_invalid_param (photo): empty, not a JPEG/PNG/WebP image, or unreadable', 413: 'Larger than 5 MB' },
    },
    handler: async ({ input, principal, c, ctx }) => hostSpaceService(ctx).setPhoto(principal, input.userId, new Uint8Array(await c.req.arrayBuffer())),
  }),
  removeHostPhoto: defineOperation({
    summary: "Removes a host's photo",
    access: SIGNED_IN,
    kind: 'mutation',
    input: ZHostParams,
    rest: { method: 'delete', path: '/hosts/:userId/photo', tags: TAGS, describe: 'Removed (also when there was none)', errors: FOR_HOST_ERRORS },
    handler: ({ input, principal, ctx }) => hostSpaceService(ctx).removePhoto(principal, input.userId),
  }),
  hostPhoto: defineOperation({
    summary: "A host's photo as the booking page shows it (JPEG; ETag, kept for long: its address changes with it)",
    access: 'public',
    kind: 'query',
    input: ZHostParams,
    trpc: false,
    rest: {
      method: 'get',
      path: '/hosts/:userId/photo',
      tags: TAGS,
      status: 200,
      produces: ['image/jpeg'],
      describe: 'The photo',
      alsoAnswers: { 304: 'Not modified (If-None-Match names its ETag)' },
      errors: { 404: 'No photo' },
    },
    async handler({ input, c, ctx }) {
      const photo = await hostSpaceService(ctx).photo(input.userId);
      const etag = `"${photo.etag}"`;
      const headers = { etag, 'cache-control': PHOTO_CACHE, 'x-content-type-options': 'nosniff' };
      if (c.req.header('if-none-match') === etag) return new Response(null, { status: 304, headers });
      return new Response(new Uint8Array(photo.bytes), {
        status: 200,
        headers: { ...headers, 'content-type': photo.type, 'content-length': String(photo.bytes.length) },
      });
    },
  }),
};
