/** Ticket categories (docs/api.md#tickets): the public lists what is on sale; administrators edit them. */
import { ZCreateTicketCategoryInput, ZTicketCategoryDto, ZTicketOfferDto, ZUpdateTicketCategoryInput } from '../../../shared/tickets';
import { z } from '../../../shared/validation';
import { defineOperation, ZIdParams, ZListOf } from '../../api/operation';
import { ADMIN_ONLY } from '../../auth/principal';
import { ticketCategoriesService } from './ticket-categories.service';
import { ticketOfferService } from './ticket-offer.service';

const TAGS = ['tickets'];

export const ticketsOperations = {
  listCategories: defineOperation({
    summary: "An event's ticket categories: the listed ones on sale for the public (published events), all for administrators",
    access: 'public',
    kind: 'query',
    input: ZIdParams,
    output: ZListOf(ZTicketCategoryDto),
    rest: {
      method: 'get',
      path: '/events/:id/ticket-categories',
      tags: TAGS,
      list: true,
      describe: 'Categories in their display order, each with its seats sold',
      errors: { 404: 'No such event (a draft is 404 to the public)' },
    },
    handler: ({ input, principal, ctx }) => ticketCategoriesService(ctx).list(input.id, principal),
  }),
  offer: defineOperation({
    summary:
      "What the sign-up form sells: the categories on sale, the hidden ones a code unlocks and the code's terms, and whether paid tickets are paid online",
    access: 'public',
    kind: 'query',
    input: ZIdParams.extend({ voucher: z.string().max(64).optional() }),
    output: ZTicketOfferDto,
    rest: {
      method: 'get',
      path: '/events/:id/ticket-offer',
      tags: TAGS,
      describe: 'The offer; `voucher` (query) checks a code and adds its terms',
      errors: {
        404: 'No such event (a draft is 404 to the public), or the code is not valid for it (svc_voucher_unknown)',
        409: 'The code is outside its window or used up (svc_voucher_expired, svc_voucher_used_up; data.params.voucher)',
        429: 'Too many codes checked from this address',
      },
    },
    handler: ({ input, ip, ctx }) => ticketOfferService(ctx).offer(input.id, input.voucher, ip),
  }),
  createCategory: defineOperation({
    summary: 'Add a ticket category to an event',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams.extend({ category: ZCreateTicketCategoryInput }),
    output: ZTicketCategoryDto,
    rest: {
      method: 'post',
      path: '/events/:id/ticket-categories',
      tags: TAGS,
      status: 201,
      bodyKey: 'category',
      describe: 'The category',
      errors: { 404: 'No such event' },
    },
    handler: ({ input, ctx }) => ticketCategoriesService(ctx).create(input.id, input.category),
  }),
  updateCategory: defineOperation({
    summary: 'Change a ticket category',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams.extend({ patch: ZUpdateTicketCategoryInput }),
    output: ZTicketCategoryDto,
    rest: {
      method: 'patch',
      path: '/ticket-categories/:id',
      tags: TAGS,
      bodyKey: 'patch',
      describe: 'The category',
      errors: { 404: 'No such ticket category' },
    },
    handler: ({ input, ctx }) => ticketCategoriesService(ctx).update(input.id, input.patch),
  }),
  deleteCategory: defineOperation({
    summary: 'Delete a ticket category no ticket or order names',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams,
    rest: {
      method: 'delete',
      path: '/ticket-categories/:id',
      tags: TAGS,
      describe: 'Deleted',
      errors: { 404: 'No such ticket category', 409: 'Tickets or orders name the category (svc_ticket_category_in_use)' },
    },
    handler: ({ input, ctx }) => ticketCategoriesService(ctx).delete(input.id),
  }),
};
