/**
 * Outgoing webhooks (docs/api.md#webhooks), administrators only: endpoints, the secret shown on
 * creation and rotation only, the delivery log, redeliver and a test ping. In the free edition
 * each answers 404.
 */
import {
  ZCreateWebhookInput,
  ZUpdateWebhookInput,
  ZWebhookCatalogueDto,
  ZWebhookDeliveryDetailDto,
  ZWebhookDeliveryDto,
  ZWebhookEndpointDto,
  ZWebhookEndpointWithSecretDto,
} from '../../../shared/webhooks';
import { defineOperation, ZId, ZIdParams, ZListOf, ZPagination } from '../../api/operation';
import { ADMIN_ONLY } from '../../auth/principal';
import { webhooksService } from './webhooks.service';

const WEBHOOKS = ['webhooks'];
const ZDeliveryParams = ZIdParams.extend({ deliveryId: ZId });
const NOT_FOUND = 'No such endpoint, or the free edition';

// Order matters for REST matching: /webhooks/events before /webhooks/:id.
export const webhooksOperations = {
  catalogue: defineOperation({
    summary: 'The event types an endpoint can receive, each with one line on when it fires',
    access: ADMIN_ONLY,
    kind: 'query',
    output: ZWebhookCatalogueDto,
    rest: { method: 'get', path: '/webhooks/events', tags: WEBHOOKS, errors: { 404: 'The free edition' } },
    handler: async ({ ctx }) => webhooksService(ctx).catalogue(),
  }),
  list: defineOperation({
    summary: 'Webhook endpoints (never their secrets)',
    access: ADMIN_ONLY,
    kind: 'query',
    output: ZListOf(ZWebhookEndpointDto),
    rest: { method: 'get', path: '/webhooks', tags: WEBHOOKS, list: true, describe: 'Endpoints, oldest first', errors: { 404: 'The free edition' } },
    handler: ({ ctx }) => webhooksService(ctx).list(),
  }),
  create: defineOperation({
    summary: 'Add an endpoint: http(s) only, no private address; the answer carries its `whsec_` secret, shown this once',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZCreateWebhookInput,
    output: ZWebhookEndpointWithSecretDto,
    rest: { method: 'post', path: '/webhooks', tags: WEBHOOKS, status: 201, describe: 'The endpoint with its secret', errors: { 404: 'The free edition' } },
    handler: ({ input, ctx }) => webhooksService(ctx).create(input),
  }),
  get: defineOperation({
    summary: 'One endpoint (never its secret)',
    access: ADMIN_ONLY,
    kind: 'query',
    input: ZIdParams,
    output: ZWebhookEndpointDto,
    rest: { method: 'get', path: '/webhooks/:id', tags: WEBHOOKS, errors: { 404: NOT_FOUND } },
    handler: ({ input, ctx }) => webhooksService(ctx).get(input.id),
  }),
  update: defineOperation({
    summary: 'Edit url, events, description or active; switching it on again clears its disabled and failing state',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams.extend(ZUpdateWebhookInput.shape),
    output: ZWebhookEndpointDto,
    rest: { method: 'patch', path: '/webhooks/:id', tags: WEBHOOKS, describe: 'The endpoint', errors: { 404: NOT_FOUND } },
    handler: ({ input: { id, ...patch }, ctx }) => webhooksService(ctx).update(id, patch),
  }),
  remove: defineOperation({
    summary: 'Delete an endpoint and its delivery log',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams,
    rest: { method: 'delete', path: '/webhooks/:id', tags: WEBHOOKS, describe: 'Deleted', errors: { 404: NOT_FOUND } },
    handler: ({ input, ctx }) => webhooksService(ctx).remove(input.id),
  }),
  rotate: defineOperation({
    summary: 'A new signing secret (the old one stops at once), shown in this answer only',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams,
    output: ZWebhookEndpointWithSecretDto,
    rest: { method: 'post', path: '/webhooks/:id/rotate', tags: WEBHOOKS, describe: 'The endpoint with its new secret', errors: { 404: NOT_FOUND } },
    handler: ({ input, ctx }) => webhooksService(ctx).rotate(input.id),
  }),
  deliveries: defineOperation({
    summary: 'An endpoint’s delivery log, newest first',
    access: ADMIN_ONLY,
    kind: 'query',
    input: ZIdParams.extend(ZPagination.shape),
    output: ZListOf(ZWebhookDeliveryDto),
    rest: { method: 'get', path: '/webhooks/:id/deliveries', tags: WEBHOOKS, list: true, describe: 'Deliveries, newest first', errors: { 404: NOT_FOUND } },
    handler: ({ input: { id, page, perPage }, ctx }) => webhooksService(ctx).deliveries(id, { page, perPage }),
  }),
  delivery: defineOperation({
    summary: 'One delivery with the body it sends (no secrets by construction)',
    access: ADMIN_ONLY,
    kind: 'query',
    input: ZDeliveryParams,
    output: ZWebhookDeliveryDetailDto,
    rest: { method: 'get', path: '/webhooks/:id/deliveries/:deliveryId', tags: WEBHOOKS, errors: { 404: 'No such endpoint or delivery' } },
    handler: ({ input, ctx }) => webhooksService(ctx).delivery(input.id, input.deliveryId),
  }),
  redeliver: defineOperation({
    summary: 'Send a delivery again: the same `webhook-id` and body, a new series of attempts',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZDeliveryParams,
    output: ZWebhookDeliveryDto,
    rest: {
      method: 'post',
      path: '/webhooks/:id/deliveries/:deliveryId/redeliver',
      tags: WEBHOOKS,
      status: 202,
      describe: 'Accepted: the delivery, queued',
      errors: { 404: 'No such endpoint or delivery', 409: 'The endpoint is switched off' },
    },
    handler: ({ input, ctx }) => webhooksService(ctx).redeliver(input.id, input.deliveryId),
  }),
  test: defineOperation({
    summary: 'Send a `ping` to the endpoint, whatever it subscribes to',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams,
    output: ZWebhookDeliveryDto,
    rest: {
      method: 'post',
      path: '/webhooks/:id/test',
      tags: WEBHOOKS,
      status: 202,
      describe: 'Accepted: the ping delivery, queued',
      errors: { 404: NOT_FOUND, 409: 'The endpoint is switched off' },
    },
    handler: ({ input, ctx }) => webhooksService(ctx).test(input.id),
  }),
};
