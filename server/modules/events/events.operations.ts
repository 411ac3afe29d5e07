/** The events domain's operations (docs/api.md): list, read and administer events. Sign-up lives with the attendees. */
import { eventsService } from './events.service';
import { ZCreateEventInput, ZEventDto, ZEventListQuery, ZUpdateEventInput } from '../../../shared/events';
import { defineOperation, ZIdParams, ZListOf } from '../../api/operation';
import { ADMIN_ONLY } from '../../auth/principal';

const TAGS = ['events'];

export const eventsOperations = {
  list: defineOperation({
    summary: 'List events: published ones for the public, all for administrators',
    access: 'public',
    kind: 'query',
    input: ZEventListQuery,
    output: ZListOf(ZEventDto),
    rest: { method: 'get', path: '/events', tags: TAGS, list: true, describe: 'Events by start time' },
    handler: ({ input, principal, ctx }) => eventsService(ctx).list(input, principal),
  }),
  get: defineOperation({
    summary: 'Get an event (a draft is 404 to the public)',
    access: 'public',
    kind: 'query',
    input: ZIdParams,
    output: ZEventDto,
    rest: { method: 'get', path: '/events/:id', tags: TAGS, describe: 'The event', errors: { 404: 'No such event' } },
    handler: ({ input, principal, ctx }) => eventsService(ctx).get(input.id, principal),
  }),
  create: defineOperation({
    summary: 'Create an event',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZCreateEventInput,
    output: ZEventDto,
    rest: { method: 'post', path: '/events', tags: TAGS, status: 201, describe: 'The event' },
    handler: ({ input, ctx }) => eventsService(ctx).create(input),
  }),
  duplicate: defineOperation({
    summary: 'Copy an event as a draft titled "<title> (copy)": its settings, sign-up questions and ticket categories, no attendees',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams,
    output: ZEventDto,
    rest: { method: 'post', path: '/events/:id/duplicate', tags: TAGS, status: 201, describe: 'The new draft', errors: { 404: 'No such event' } },
    handler: ({ input, ctx }) => eventsService(ctx).duplicate(input.id),
  }),
  update: defineOperation({
    summary: 'Update an event',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams.extend({ patch: ZUpdateEventInput }),
    output: ZEventDto,
    rest: { method: 'patch', path: '/events/:id', tags: TAGS, bodyKey: 'patch', describe: 'The event', errors: { 404: 'No such event' } },
    handler: ({ input, ctx }) => eventsService(ctx).update(input.id, input.patch),
  }),
  delete: defineOperation({
    summary: 'Delete an event without attendees',
    access: ADMIN_ONLY,
    kind: 'mutation',
    trpc: false,
    input: ZIdParams,
    rest: { method: 'delete', path: '/events/:id', tags: TAGS, describe: 'Deleted', errors: { 404: 'No such event', 409: 'The event has attendees' } },
    handler: ({ input, ctx }) => eventsService(ctx).delete(input.id),
  }),
};
