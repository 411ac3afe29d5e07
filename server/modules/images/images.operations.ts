/**
 * Cover images of events and booking types, and the organization's logo (docs/api.md#images).
 * The upload's body is the image itself, so the PUTs are REST only; removing is REST and tRPC.
 */
import type { Context } from 'hono';
import { AppError } from '../../../shared/errors';
import { IMAGE_TYPES, ZImageDto } from '../../../shared/images';
import { defineOperation, ZIdParams } from '../../api/operation';
import { ADMIN_ONLY } from '../../auth/principal';
import { imagesService } from './images.service';

const UPLOAD_ERRORS = {
  400: 'svc_invalid_param (image): empty, or under 16 or over 10000 pixels on a side',
  413: 'svc_payload_too_large: larger than 8 MB',
  415: 'svc_unsupported_media_type: sent as another Content-Type, or not a JPEG, PNG or WebP image by its content, or unreadable',
};
const UPLOAD = {
  rawBody: 'The image file (JPEG, PNG or WebP, at most 8 MB; judged by its bytes)',
  rawBodyTypes: [...IMAGE_TYPES] as string[],
};
/** The body's bytes, once its Content-Type says it is one of the accepted images (its bytes are judged next). */
async function upload(c: Context): Promise<Uint8Array> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!(IMAGE_TYPES as readonly string[]).includes(type))
    throw new AppError('svc_unsupported_media_type', 'Send the image as image/jpeg, image/png or image/webp.', {
      params: { image: 'must be sent as image/jpeg, image/png or image/webp' },
    });
  return new Uint8Array(await c.req.arrayBuffer());
}

const DESCRIBE = 'The stored image: its largest variant, every variant for srcset, and its size';

export const imagesOperations = {
  setEventImage: defineOperation({
    summary: "Sets an event's cover image: re-encoded into WebP variants (320/640/1280 wide) without EXIF",
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams,
    output: ZImageDto,
    trpc: false,
    rest: { method: 'put', path: '/events/:id/image', tags: ['events'], ...UPLOAD, describe: DESCRIBE, errors: { ...UPLOAD_ERRORS, 404: 'No such event' } },
    handler: async ({ input, c, ctx }) => imagesService(ctx).setCover('event', input.id, await upload(c)),
  }),
  removeEventImage: defineOperation({
    summary: "Removes an event's cover image",
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams,
    rest: { method: 'delete', path: '/events/:id/image', tags: ['events'], describe: 'Removed (also when there was none)', errors: { 404: 'No such event' } },
    handler: ({ input, ctx }) => imagesService(ctx).removeCover('event', input.id),
  }),
  setBookingTypeImage: defineOperation({
    summary: "Sets a booking type's cover image: re-encoded into WebP variants (320/640/1280 wide) without EXIF",
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams,
    output: ZImageDto,
    trpc: false,
    rest: {
      method: 'put',
      path: '/booking-types/:id/image',
      tags: ['booking types'],
      ...UPLOAD,
      describe: DESCRIBE,
      errors: { ...UPLOAD_ERRORS, 404: 'No such booking type' },
    },
    handler: async ({ input, c, ctx }) => imagesService(ctx).setCover('bookingType', input.id, await upload(c)),
  }),
  removeBookingTypeImage: defineOperation({
    summary: "Removes a booking type's cover image",
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams,
    rest: {
      method: 'delete',
      path: '/booking-types/:id/image',
      tags: ['booking types'],
      describe: 'Removed (also when there was none)',
      errors: { 404: 'No such booking type' },
    },
    handler: ({ input, ctx }) => imagesService(ctx).removeCover('bookingType', input.id),
  }),
  setOrganizationLogo: defineOperation({
    summary: "Sets the organization's logo: re-encoded into WebP variants without EXIF",
    access: ADMIN_ONLY,
    kind: 'mutation',
    output: ZImageDto,
    trpc: false,
    rest: { method: 'put', path: '/settings/organization/logo', tags: ['settings'], ...UPLOAD, describe: DESCRIBE, errors: { ...UPLOAD_ERRORS } },
    handler: async ({ c, ctx }) => imagesService(ctx).setLogo(await upload(c)),
  }),
  removeOrganizationLogo: defineOperation({
    summary: "Removes the organization's logo",
    access: ADMIN_ONLY,
    kind: 'mutation',
    rest: { method: 'delete', path: '/settings/organization/logo', tags: ['settings'], describe: 'Removed (also when there was none)' },
    handler: ({ ctx }) => imagesService(ctx).removeLogo(),
  }),
};
