/** Promo codes and vouchers of an event (docs/api.md#tickets): administrators only. */
import { ZVoucherDto, ZVoucherInput, ZVoucherPatch } from '../../../shared/vouchers';
import { defineOperation, ZIdParams, ZListOf, ZPagination } from '../../api/operation';
import { ADMIN_ONLY } from '../../auth/principal';
import { vouchersService } from './vouchers.service';

const TAGS = ['vouchers'];

export const vouchersOperations = {
  list: defineOperation({
    summary: "An event's vouchers by code, each with the tickets it has discounted (usedCount)",
    access: ADMIN_ONLY,
    kind: 'query',
    input: ZIdParams.extend(ZPagination.shape),
    output: ZListOf(ZVoucherDto),
    rest: { method: 'get', path: '/events/:id/vouchers', tags: TAGS, list: true, describe: 'Vouchers', errors: { 404: 'No such event' } },
    handler: ({ input, ctx }) => vouchersService(ctx).list(input.id, input),
  }),
  create: defineOperation({
    summary: 'Add a voucher: a percentage (basis points), an amount off or a set price per ticket, with its categories, limits and window',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams.extend({ voucher: ZVoucherInput }),
    output: ZVoucherDto,
    rest: {
      method: 'post',
      path: '/events/:id/vouchers',
      tags: TAGS,
      status: 201,
      bodyKey: 'voucher',
      describe: 'The voucher',
      errors: { 404: 'No such event', 409: 'svc_voucher_code_taken: the event has that code already (without regard to case)' },
    },
    handler: ({ input, ctx }) => vouchersService(ctx).create(input.id, input.voucher),
  }),
  get: defineOperation({
    summary: 'One voucher',
    access: ADMIN_ONLY,
    kind: 'query',
    input: ZIdParams,
    output: ZVoucherDto,
    rest: { method: 'get', path: '/vouchers/:id', tags: TAGS, describe: 'The voucher', errors: { 404: 'No such voucher' } },
    handler: ({ input, ctx }) => vouchersService(ctx).get(input.id),
  }),
  update: defineOperation({
    summary: "Change a voucher's code, terms, limits or window (a limit below usedCount is refused)",
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams.extend({ patch: ZVoucherPatch }),
    output: ZVoucherDto,
    rest: {
      method: 'patch',
      path: '/vouchers/:id',
      tags: TAGS,
      bodyKey: 'patch',
      describe: 'The voucher',
      errors: { 404: 'No such voucher', 409: 'svc_voucher_code_taken: the event has that code already (without regard to case)' },
    },
    handler: ({ input, ctx }) => vouchersService(ctx).update(input.id, input.patch),
  }),
  delete: defineOperation({
    summary: 'Delete a voucher no order holds uses of',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams,
    rest: {
      method: 'delete',
      path: '/vouchers/:id',
      tags: TAGS,
      describe: 'Deleted',
      errors: { 404: 'No such voucher', 409: 'svc_conflict: orders hold uses of it (data.usedCount); end its validity instead' },
    },
    handler: ({ input, ctx }) => vouchersService(ctx).remove(input.id),
  }),
};
