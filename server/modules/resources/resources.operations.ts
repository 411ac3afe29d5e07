/**
 * Shared resources of the extended edition (docs/api.md#resources): a room, a projector, that
 * booking types need. Every operation answers 404 in the free edition, before its input is read.
 */
import { ZResourceDto, ZResourceInput, ZResourcePatch } from '../../../shared/resources';
import { defineOperation, ZIdParams, ZListOf, ZPagination } from '../../api/operation';
import { ADMIN_ONLY } from '../../auth/principal';
import { requireExtended } from '../orders/payments.service';
import { resourcesService } from './resources.service';

const TAGS = ['resources'];
const extendedOnly = async ({ ctx }: { ctx: Parameters<typeof requireExtended>[0] }) => requireExtended(ctx);

export const resourcesOperations = {
  list: defineOperation({
    summary: 'Shared resources (rooms, equipment) with the booking types that need them, by name',
    access: ADMIN_ONLY,
    kind: 'query',
    screen: extendedOnly,
    input: ZPagination,
    output: ZListOf(ZResourceDto),
    rest: { method: 'get', path: '/resources', tags: TAGS, list: true, describe: 'Resources', errors: { 404: 'The free edition' } },
    handler: ({ input, ctx }) => resourcesService(ctx).list(input),
  }),
  create: defineOperation({
    summary: 'Add a shared resource; capacity = sessions it can host at once (default 1)',
    access: ADMIN_ONLY,
    kind: 'mutation',
    screen: extendedOnly,
    input: ZResourceInput,
    output: ZResourceDto,
    rest: { method: 'post', path: '/resources', tags: TAGS, status: 201, describe: 'The resource', errors: { 404: 'The free edition' } },
    handler: ({ input, ctx }) => resourcesService(ctx).create(input),
  }),
  get: defineOperation({
    summary: 'One shared resource',
    access: ADMIN_ONLY,
    kind: 'query',
    screen: extendedOnly,
    input: ZIdParams,
    output: ZResourceDto,
    rest: { method: 'get', path: '/resources/:id', tags: TAGS, describe: 'The resource', errors: { 404: 'No such resource, or the free edition' } },
    handler: ({ input, ctx }) => resourcesService(ctx).get(input.id),
  }),
  update: defineOperation({
    summary: 'Rename a resource or change its capacity (bookings already made stay)',
    access: ADMIN_ONLY,
    kind: 'mutation',
    screen: extendedOnly,
    input: ZIdParams.extend({ patch: ZResourcePatch }),
    output: ZResourceDto,
    rest: {
      method: 'patch',
      path: '/resources/:id',
      tags: TAGS,
      bodyKey: 'patch',
      describe: 'The resource',
      errors: { 404: 'No such resource, or the free edition' },
    },
    handler: ({ input, ctx }) => resourcesService(ctx).update(input.id, input.patch),
  }),
  delete: defineOperation({
    summary: 'Delete a resource no booking type needs',
    access: ADMIN_ONLY,
    kind: 'mutation',
    screen: extendedOnly,
    input: ZIdParams,
    rest: {
      method: 'delete',
      path: '/resources/:id',
      tags: TAGS,
      describe: 'Deleted',
      errors: { 404: 'No such resource, or the free edition', 409: 'svc_conflict: booking types still need it (named in the message and data.bookingTypes)' },
    },
    handler: ({ input, ctx }) => resourcesService(ctx).remove(input.id),
  }),
};
