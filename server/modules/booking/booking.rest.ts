/** REST transport of the booking domain (contract Endpoints, SPEC §4). Thin: parse, call the service. */
import { z } from 'zod';
import {
  BOOKING_STATUSES,
  LOCATION_MODES,
  ZAdminBookingPatch,
  ZAdminCreateBookingInput,
  ZBookingListQuery,
  ZBookingTypeInput,
  ZBookingTypePatch,
  ZCreateBookingInput,
  ZRescheduleInput,
  ZSettingsPatch,
  ZSlotsQuery,
  ZWeeklyWindows,
} from '../../../shared/booking';
import { ADMIN_ONLY } from '../../auth/principal';
import { defineRoute, listResult, ZIdParams, ZPagination, type AnyRouteDef } from '../../rest/route';
import { settingsService } from '../settings/settings.service';
import { bookingTypeService } from './booking-type.service';
import { bookingService } from './booking.service';
import { slotService } from './slot.service';

const ZBookingTypeDto = z.object({
  id: z.number().int(),
  title: z.string(),
  slug: z.string(),
  description: z.string(),
  status: z.enum(['draft', 'published']),
  durationMinutes: z.number().int(),
  slotIntervalMinutes: z.number().int(),
  timezone: z.string(),
  hosts: z.array(z.number().int()),
  assignment: z.string(),
  weeklyWindows: ZWeeklyWindows,
  daysOff: z.array(z.string()),
  minNoticeMinutes: z.number().int(),
  maxAdvanceDays: z.number().int(),
  bufferBeforeMinutes: z.number().int(),
  bufferAfterMinutes: z.number().int(),
  capacity: z.number().int(),
  priceCents: z.number().int(),
  requiresApproval: z.boolean(),
  locationMode: z.enum(LOCATION_MODES),
  locationValue: z.string(),
  createdUtc: z.string(),
  updatedUtc: z.string(),
});
const ZPublicBookingTypeDto = ZBookingTypeDto.extend({ currency: z.string(), locationLabel: z.string() });
const ZSlotDto = z.object({
  start_utc: z.string(),
  end_utc: z.string(),
  start: z.string(),
  label: z.string(),
  hosts: z.array(z.number().int()),
  capacity_left: z.number().int(),
});
const ZBookingCreatedDto = z.object({
  bookingId: z.number().int(),
  status: z.enum(BOOKING_STATUSES),
  startUtc: z.string(),
  endUtc: z.string(),
  hostUserId: z.number().int(),
  paymentUrl: z.string().optional(),
});
const ZBookingDto = z.object({
  bookingId: z.number().int(),
  bookingTypeId: z.number().int(),
  hostUserId: z.number().int(),
  customerUserId: z.number().int().nullable(),
  customerEmail: z.string(),
  customerName: z.string(),
  customerTz: z.string(),
  startUtc: z.string(),
  endUtc: z.string(),
  status: z.enum(BOOKING_STATUSES),
  quantity: z.number().int(),
  paymentStatus: z.string().nullable(),
  orderId: z.string().nullable(),
  customFields: z.record(z.string(), z.unknown()).nullable(),
  rescheduledFrom: z.string().nullable(),
  createdUtc: z.string(),
  updatedUtc: z.string(),
});
const ZBookingHolderDto = ZBookingDto.extend({
  bookingTypeTitle: z.string(),
  hostName: z.string(),
  durationMinutes: z.number().int(),
  location: z.string(),
  locationMode: z.string(),
  priceCents: z.number().int(),
  currency: z.string(),
  canCancel: z.boolean(),
  canReschedule: z.boolean(),
});
const ZSettingsDto = z.object({ currency: z.string(), locationLabels: z.record(z.string(), z.string()), paymentHoldHours: z.number().int() });
/** Any string: a malformed token answers 404 like an unknown one (the service checks the 64-char form). */
const ZTokenParams = z.object({ token: z.string().max(200) });

const TYPES = ['booking types'];
const BOOKINGS = ['bookings'];

export const bookingRoutes: AnyRouteDef[] = [
  defineRoute({
    method: 'get',
    path: '/booking-types',
    summary: 'Booking types: published ones for the public, all for administrators',
    tags: TYPES,
    access: 'public',
    query: ZPagination,
    responses: { 200: { description: 'Resolved public config of each type', schema: z.array(ZPublicBookingTypeDto) } },
    async handler({ query, principal, ctx }) {
      const { items, total } = await bookingTypeService(ctx).list({ publicView: principal?.role !== 'administrator', ...query });
      return listResult(items, total);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/booking-types',
    summary: 'Create a booking type',
    tags: TYPES,
    access: ADMIN_ONLY,
    body: ZBookingTypeInput,
    responses: { 201: { description: 'The booking type', schema: ZBookingTypeDto }, 409: { description: 'Slug taken' } },
    handler: async ({ body, ctx }) => ({ status: 201, body: await bookingTypeService(ctx).create(body) }),
  }),
  defineRoute({
    method: 'get',
    path: '/booking-types/:id/slots',
    summary: 'Bookable slots; `from`/`to` are UTC days (raw, may be empty), `tz` the requester zone; drafts only for administrators',
    tags: TYPES,
    access: 'public',
    params: ZIdParams,
    query: ZSlotsQuery,
    responses: { 200: { description: 'The zero-indexed slot list', schema: z.object({ slots: z.array(ZSlotDto) }) }, 404: { description: 'No such published type' } },
    async handler({ params, query, principal, ctx }) {
      // administrators preview a draft's slots too (the admin app's live preview)
      const type = await bookingTypeService(ctx).getRow(params.id, { publicView: principal?.role !== 'administrator' });
      return { body: { slots: await slotService(ctx).listForDisplay(type, query) } };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/booking-types/:id',
    summary: 'One booking type (drafts only for administrators)',
    tags: TYPES,
    access: 'public',
    params: ZIdParams,
    responses: { 200: { description: 'Resolved public config', schema: ZPublicBookingTypeDto }, 404: { description: 'No such type' } },
    handler: async ({ params, principal, ctx }) => ({ body: await bookingTypeService(ctx).get(params.id, { publicView: principal?.role !== 'administrator' }) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/booking-types/:id',
    summary: 'Update a booking type',
    tags: TYPES,
    access: ADMIN_ONLY,
    params: ZIdParams,
    body: ZBookingTypePatch,
    responses: { 200: { description: 'The booking type', schema: ZBookingTypeDto } },
    handler: async ({ params, body, ctx }) => ({ body: await bookingTypeService(ctx).update(params.id, body) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/booking-types/:id',
    summary: 'Delete a booking type without bookings',
    tags: TYPES,
    access: ADMIN_ONLY,
    params: ZIdParams,
    responses: { 204: { description: 'Deleted' }, 409: { description: 'The type has bookings' } },
    async handler({ params, ctx }) {
      await bookingTypeService(ctx).remove(params.id);
      return { status: 204 };
    },
  }),

  defineRoute({
    method: 'post',
    path: '/bookings',
    summary: 'Book a slot (header X-Svc-Nonce; throttled per IP and per email); never returns the cancel token',
    tags: BOOKINGS,
    access: 'public',
    // Contract order: nonce → client IP filter → throttles → bot check / spam scoring, then validation.
    async before({ c, ctx, ip }) {
      let raw: unknown = {};
      try {
        raw = JSON.parse((await c.req.text()) || '{}');
      } catch {
        /* validation answers for an unreadable body */
      }
      return bookingService(ctx).screenSubmission({ nonce: c.req.header('x-svc-nonce'), remoteIp: ip, raw, headers: c.req.header() });
    },
    body: ZCreateBookingInput,
    responses: {
      201: { description: 'The booking', schema: ZBookingCreatedDto },
      403: { description: 'Missing or expired nonce' },
      409: { description: 'svc_booking_slot_unavailable or svc_booking_no_host' },
      429: { description: 'Too many submissions' },
    },
    handler: async ({ body, ctx }) => ({ status: 201, body: await bookingService(ctx).create(body) }),
  }),
  defineRoute({
    method: 'post',
    path: '/bookings/admin',
    summary: 'An administrator enters a booking: confirmed at once (no approval step, no payment hold)',
    tags: BOOKINGS,
    access: ADMIN_ONLY,
    body: ZAdminCreateBookingInput,
    responses: { 201: { description: 'The booking', schema: ZBookingCreatedDto }, 409: { description: 'Slot or host unavailable' } },
    handler: async ({ body, ctx }) => ({ status: 201, body: await bookingService(ctx).createByAdmin(body) }),
  }),
  defineRoute({
    method: 'get',
    path: '/bookings',
    summary: 'List bookings; filters: bookingTypeId, status, from/to (UTC days on the start)',
    tags: BOOKINGS,
    access: ADMIN_ONLY,
    query: ZBookingListQuery,
    responses: { 200: { description: 'Bookings, latest start first', schema: z.array(ZBookingDto) } },
    async handler({ query, ctx }) {
      const { items, total } = await bookingService(ctx).list(query);
      return listResult(items, total);
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/bookings/:token/reschedule',
    summary: 'Move a booking to another listed start (holder of the cancel token)',
    tags: BOOKINGS,
    access: 'public',
    params: ZTokenParams,
    body: ZRescheduleInput,
    responses: { 200: { description: 'The moved booking', schema: ZBookingHolderDto }, 404: { description: 'Unknown token' }, 409: { description: 'svc_booking_slot_unavailable' } },
    handler: async ({ params, body, ctx }) => ({ body: await bookingService(ctx).reschedule(params.token, body.startUtc) }),
  }),
  defineRoute({
    method: 'post',
    path: '/bookings/:id/approve',
    summary: 'Approve a booking request',
    tags: BOOKINGS,
    access: ADMIN_ONLY,
    params: ZIdParams,
    responses: { 200: { description: 'The confirmed booking', schema: ZBookingDto }, 409: { description: 'svc_booking_already_approved or svc_booking_invalid_state' } },
    handler: async ({ params, ctx }) => ({ body: await bookingService(ctx).approve(params.id) }),
  }),
  defineRoute({
    method: 'post',
    path: '/bookings/:id/decline',
    summary: 'Decline a booking request (frees the slot)',
    tags: BOOKINGS,
    access: ADMIN_ONLY,
    params: ZIdParams,
    responses: { 200: { description: 'The cancelled booking', schema: ZBookingDto }, 409: { description: 'Not awaiting approval' } },
    handler: async ({ params, ctx }) => ({ body: await bookingService(ctx).decline(params.id) }),
  }),
  defineRoute({
    method: 'get',
    path: '/bookings/:token',
    summary: 'The booking as its holder may see it (manage page); never changes state',
    tags: BOOKINGS,
    access: 'public',
    params: ZTokenParams,
    responses: { 200: { description: 'The booking', schema: ZBookingHolderDto }, 404: { description: 'Unknown token' } },
    handler: async ({ params, ctx }) => ({ body: await bookingService(ctx).getForHolder(params.token), headers: { 'cache-control': 'no-store' } }),
  }),
  defineRoute({
    method: 'delete',
    path: '/bookings/:token',
    summary: 'Cancel a booking (holder of the cancel token)',
    tags: BOOKINGS,
    access: 'public',
    params: ZTokenParams,
    responses: { 204: { description: 'Cancelled' }, 404: { description: 'Unknown token' }, 409: { description: 'Already cancelled' } },
    async handler({ params, ctx }) {
      await bookingService(ctx).cancelByToken(params.token);
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'patch',
    path: '/bookings/:id',
    summary: 'Administrator cancel: body {"status":"cancelled"} only (no admin-side move exists)',
    tags: BOOKINGS,
    access: ADMIN_ONLY,
    params: ZIdParams,
    body: ZAdminBookingPatch,
    responses: { 200: { description: 'The cancelled booking', schema: ZBookingDto }, 400: { description: 'Anything but status cancelled' } },
    handler: async ({ params, ctx }) => ({ body: await bookingService(ctx).cancel(params.id) }),
  }),

  defineRoute({
    method: 'get',
    path: '/settings',
    summary: 'Site settings: currency, location labels, payment hold hours (after their filters)',
    tags: ['settings'],
    access: ADMIN_ONLY,
    responses: { 200: { description: 'Settings', schema: ZSettingsDto } },
    handler: async ({ ctx }) => ({ body: await settingsService(ctx.db, ctx.hooks).get() }),
  }),
  defineRoute({
    method: 'patch',
    path: '/settings',
    summary: 'Change settings; a currency is relabelled, never converted',
    tags: ['settings'],
    access: ADMIN_ONLY,
    body: ZSettingsPatch,
    responses: { 200: { description: 'Settings', schema: ZSettingsDto } },
    handler: async ({ body, ctx }) => ({ body: await settingsService(ctx.db, ctx.hooks).update(body) }),
  }),
];
