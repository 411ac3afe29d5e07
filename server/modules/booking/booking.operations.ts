/** The booking domain's operations (docs/api.md): booking types, slots, bookings. */
import { requestLanguage } from '../../mail/language';
import { z } from 'zod';
import {
  ZAdminBookingPatch,
  ZAdminCreateBookingInput,
  ZBookingCreatedDto,
  ZBookingDto,
  ZBookingHolderDto,
  ZBookingListQuery,
  ZBookingTypeDto,
  ZBookingTypeInput,
  ZBookingTypePatch,
  ZCreateBookingInput,
  ZPublicBookingTypeDto,
  ZRescheduleInput,
  ZSlotDto,
  ZSlotsQuery,
} from '../../../shared/booking';
import { defineOperation, ZIdParams, ZListOf, ZPagination } from '../../api/operation';
import { NONCE_HEADER } from '../../api/route';
import { ADMIN_ONLY, SIGNED_IN, type Principal } from '../../auth/principal';
import { bookingTypeService } from './booking-type.service';
import { bookingService } from './booking.service';
import { slotService } from './slot.service';
import { bookingPassByToken } from './booking-pass.service';
import { passDownload, PKPASS_TYPE } from '../../wallet/pass';

/** Any string: a malformed token answers 404 like an unknown one (the service checks the 64-char form). */
const ZToken = z.object({ token: z.string().max(200) });
const TYPES = ['booking types'];
const BOOKINGS = ['bookings'];
const NO_STORE = { 'cache-control': 'no-store' };
/** Administrators see drafts too (the admin app's list and live slot preview). */
const publicView = (principal: Principal | null) => principal?.role !== 'administrator';

export const bookingOperations = {
  types: defineOperation({
    summary: 'Booking types: published ones for the public, all for administrators',
    access: 'public',
    kind: 'query',
    input: ZPagination,
    output: ZListOf(ZPublicBookingTypeDto),
    rest: { method: 'get', path: '/booking-types', tags: TYPES, list: true },
    handler: ({ input, principal, ctx }) => bookingTypeService(ctx).list({ publicView: publicView(principal), ...input }),
  }),
  createType: defineOperation({
    summary: 'Create a booking type',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZBookingTypeInput,
    output: ZBookingTypeDto,
    rest: { method: 'post', path: '/booking-types', tags: TYPES, status: 201, errors: { 409: 'The slug is taken' } },
    handler: ({ input, ctx }) => bookingTypeService(ctx).create(input),
  }),
  slots: defineOperation({
    summary: 'Bookable slots; `from`/`to` are UTC days (raw, may be empty), `tz` the requester zone; drafts only for administrators',
    access: 'public',
    kind: 'query',
    input: ZIdParams.extend(ZSlotsQuery.shape),
    output: z.object({ slots: z.array(ZSlotDto) }),
    rest: { method: 'get', path: '/booking-types/:id/slots', tags: TYPES, describe: 'The zero-indexed slot list', errors: { 404: 'No such published type' } },
    async handler({ input: { id, ...query }, principal, ctx }) {
      const type = await bookingTypeService(ctx).getRow(id, { publicView: publicView(principal) });
      return { slots: await slotService(ctx).listForDisplay(type, query) };
    },
  }),
  type: defineOperation({
    summary: 'One booking type (drafts only for administrators)',
    access: 'public',
    kind: 'query',
    input: ZIdParams,
    output: ZPublicBookingTypeDto,
    rest: { method: 'get', path: '/booking-types/:id', tags: TYPES, errors: { 404: 'No such type' } },
    handler: ({ input, principal, ctx }) => bookingTypeService(ctx).get(input.id, { publicView: publicView(principal) }),
  }),
  updateType: defineOperation({
    summary: 'Update a booking type',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams.extend({ patch: ZBookingTypePatch }),
    output: ZBookingTypeDto,
    rest: { method: 'patch', path: '/booking-types/:id', tags: TYPES, bodyKey: 'patch', errors: { 404: 'No such type', 409: 'The slug is taken' } },
    handler: ({ input, ctx }) => bookingTypeService(ctx).update(input.id, input.patch),
  }),
  deleteType: defineOperation({
    summary: 'Delete a booking type without bookings',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams,
    rest: { method: 'delete', path: '/booking-types/:id', tags: TYPES, describe: 'Deleted', errors: { 404: 'No such type', 409: 'The type has bookings' } },
    handler: ({ input, ctx }) => bookingTypeService(ctx).remove(input.id),
  }),

  create: defineOperation({
    summary: 'Book a slot (header X-Svc-Nonce; throttled per IP and per email); never returns the cancel token',
    access: 'public',
    kind: 'mutation',
    // Contract order: nonce → client IP filter → throttles → bot check / spam scoring, then validation.
    screen: ({ c, ctx, ip, raw }) => bookingService(ctx).screenSubmission({ nonce: c.req.header('x-svc-nonce'), remoteIp: ip, raw, headers: c.req.header() }),
    input: ZCreateBookingInput,
    output: ZBookingCreatedDto,
    rest: {
      method: 'post',
      path: '/bookings',
      tags: BOOKINGS,
      status: 201,
      requestHeaders: [NONCE_HEADER],
      describe: 'The booking',
      errors: { 403: 'Missing or expired nonce', 409: 'svc_booking_slot_unavailable or svc_booking_no_host', 429: 'Too many submissions' },
    },
    handler: ({ input, ctx, c }) => bookingService(ctx).create(input, { language: requestLanguage(c) }),
  }),
  createByAdmin: defineOperation({
    summary: 'An administrator enters a booking: confirmed at once (no approval step, no payment hold)',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZAdminCreateBookingInput,
    output: ZBookingCreatedDto,
    rest: { method: 'post', path: '/bookings/admin', tags: BOOKINGS, status: 201, describe: 'The booking', errors: { 409: 'Slot or host unavailable' } },
    handler: ({ input, ctx }) => bookingService(ctx).createByAdmin(input),
  }),
  list: defineOperation({
    summary: 'List bookings, upcoming first; filters: bookingTypeId, status, from/to (days on the start, in tz or UTC), q (name or email)',
    access: ADMIN_ONLY,
    kind: 'query',
    input: ZBookingListQuery,
    output: ZListOf(ZBookingDto),
    rest: { method: 'get', path: '/bookings', tags: BOOKINGS, list: true, describe: 'Bookings: upcoming first, soonest first; then past, latest first' },
    handler: ({ input, ctx }) => bookingService(ctx).list(input),
  }),
  pass: defineOperation({
    summary: 'The Apple Wallet pass of a confirmed booking (holder of the manage token), in the booking’s language',
    access: 'public',
    kind: 'query',
    input: ZToken,
    // A download the manage page opens as a link.
    trpc: false,
    rest: {
      method: 'get',
      path: '/bookings/:token/booking.pkpass',
      tags: BOOKINGS,
      status: 200,
      produces: [PKPASS_TYPE],
      describe: 'The signed pass',
      errors: { 404: 'Unknown token, or svc_wallet_unavailable (the server has no Wallet certificates)', 409: 'svc_booking_invalid_state: not confirmed' },
    },
    handler: async ({ input, ctx }) => passDownload(await bookingPassByToken(ctx, input.token), 'booking.pkpass'),
  }),
  reschedule: defineOperation({
    summary: 'Move a booking to another listed start (holder of the cancel token)',
    access: 'public',
    kind: 'mutation',
    input: ZToken.extend(ZRescheduleInput.shape),
    output: ZBookingHolderDto,
    rest: {
      method: 'patch',
      path: '/bookings/:token/reschedule',
      tags: BOOKINGS,
      describe: 'The moved booking',
      errors: { 404: 'Unknown token', 409: 'svc_booking_slot_unavailable' },
    },
    handler: ({ input, ctx }) => bookingService(ctx).reschedule(input.token, input.startUtc),
  }),
  approve: defineOperation({
    summary: 'Approve a booking request',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams,
    output: ZBookingDto,
    rest: {
      method: 'post',
      path: '/bookings/:id/approve',
      tags: BOOKINGS,
      describe: 'The confirmed booking',
      errors: { 409: 'svc_booking_already_approved or svc_booking_invalid_state' },
    },
    handler: ({ input, ctx }) => bookingService(ctx).approve(input.id),
  }),
  decline: defineOperation({
    summary: 'Decline a booking request (frees the slot)',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams,
    output: ZBookingDto,
    rest: { method: 'post', path: '/bookings/:id/decline', tags: BOOKINGS, describe: 'The cancelled booking', errors: { 409: 'Not awaiting approval' } },
    handler: ({ input, ctx }) => bookingService(ctx).decline(input.id),
  }),
  byToken: defineOperation({
    summary: 'The booking as its holder may see it (manage page); never changes state',
    access: 'public',
    kind: 'query',
    input: ZToken,
    output: ZBookingHolderDto,
    rest: { method: 'get', path: '/bookings/:token', tags: BOOKINGS, headers: NO_STORE, describe: 'The booking', errors: { 404: 'Unknown token' } },
    handler: ({ input, ctx }) => bookingService(ctx).getForHolder(input.token),
  }),
  cancelByToken: defineOperation({
    summary: 'Cancel a booking (holder of the cancel token)',
    access: 'public',
    kind: 'mutation',
    input: ZToken,
    rest: { method: 'delete', path: '/bookings/:token', tags: BOOKINGS, describe: 'Cancelled', errors: { 404: 'Unknown token', 409: 'Already cancelled' } },
    handler: async ({ input, ctx }) => {
      await bookingService(ctx).cancelByToken(input.token);
    },
  }),
  cancel: defineOperation({
    summary: 'Cancel a booking: body {"status":"cancelled"} only; administrators any booking, a host the bookings they host (the holder is mailed)',
    access: SIGNED_IN,
    kind: 'mutation',
    input: ZIdParams.extend({ patch: ZAdminBookingPatch }),
    output: ZBookingDto,
    rest: {
      method: 'patch',
      path: '/bookings/:id',
      tags: BOOKINGS,
      bodyKey: 'patch',
      describe: 'The cancelled booking',
      errors: { 400: 'Anything but status cancelled', 403: 'Not a booking the caller hosts (staff: none)', 404: 'No such booking' },
    },
    handler: ({ input, principal, ctx }) => bookingService(ctx).cancelAs(principal, input.id),
  }),
  move: defineOperation({
    summary: 'Move a booking to another listed start: administrators any booking, a host the bookings they host (the holder is mailed as after their own move)',
    access: SIGNED_IN,
    kind: 'mutation',
    input: ZIdParams.extend(ZRescheduleInput.shape),
    output: ZBookingDto,
    rest: {
      method: 'post',
      path: '/bookings/:id/move',
      tags: BOOKINGS,
      describe: 'The moved booking',
      errors: { 403: 'Not a booking the caller hosts (staff: none)', 404: 'No such booking', 409: 'svc_booking_slot_unavailable or svc_booking_invalid_state' },
    },
    handler: ({ input, principal, ctx }) => bookingService(ctx).rescheduleAs(principal, input.id, input.startUtc),
  }),
};
