import { z } from 'zod';
import { ZCreateEventInput, ZEventDto, ZEventListQuery, ZUpdateEventInput } from '../../../shared/events';
import { ADMIN_ONLY } from '../../auth/principal';
import { defineRoute, listResult, ZIdParams, type AnyRouteDef } from '../../rest/route';

export const eventRoutes: AnyRouteDef[] = [
  defineRoute({
    method: 'get',
    path: '/events',
    summary: 'List events: published ones for the public, all for administrators',
    tags: ['events'],
    access: 'public',
    query: ZEventListQuery,
    responses: { 200: { description: 'Events by start time', schema: z.array(ZEventDto) } },
    async handler({ query, principal, ctx }) {
      const { items, total } = await ctx.services.events.list(query, principal);
      return listResult(items, total);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/events/:id',
    summary: 'Get an event (a draft is 404 to the public)',
    tags: ['events'],
    access: 'public',
    params: ZIdParams,
    responses: { 200: { description: 'The event', schema: ZEventDto }, 404: { description: 'No such event' } },
    handler: async ({ params, principal, ctx }) => ({ body: await ctx.services.events.get(params.id, principal) }),
  }),
  defineRoute({
    method: 'post',
    path: '/events',
    summary: 'Create an event',
    tags: ['events'],
    access: ADMIN_ONLY,
    body: ZCreateEventInput,
    responses: { 201: { description: 'The event', schema: ZEventDto } },
    handler: async ({ body, ctx }) => ({ status: 201, body: await ctx.services.events.create(body) }),
  }),
  defineRoute({
    method: 'patch',
    path: '/events/:id',
    summary: 'Update an event',
    tags: ['events'],
    access: ADMIN_ONLY,
    params: ZIdParams,
    body: ZUpdateEventInput,
    responses: { 200: { description: 'The event', schema: ZEventDto }, 404: { description: 'No such event' } },
    handler: async ({ params, body, ctx }) => ({ body: await ctx.services.events.update(params.id, body) }),
  }),
  defineRoute({
    method: 'delete',
    path: '/events/:id',
    summary: 'Delete an event without attendees',
    tags: ['events'],
    access: ADMIN_ONLY,
    params: ZIdParams,
    responses: { 204: { description: 'Deleted' }, 404: { description: 'No such event' }, 409: { description: 'The event has attendees' } },
    async handler({ params, ctx }) {
      await ctx.services.events.delete(params.id);
      return { status: 204 };
    },
  }),
];
