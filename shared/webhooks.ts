/** Outgoing webhook schemas shared by the server (REST + tRPC) and the admin app (docs/api.md#webhooks). */
import { z } from 'zod';

/** The event catalogue, each with the one line the admin's event picker shows. */
export const WEBHOOK_EVENTS = {
  'attendee.created': 'Someone signed up (one per ticket on paid sign-ups)',
  'attendee.status_changed': 'An admin changed an attendee’s status (new and old status)',
  'attendee.cancelled': 'A visitor cancelled, or a paid order was refunded',
  'attendee.deleted': 'An attendee was deleted (id and event id only)',
  'attendee.checked_in': 'An attendee was checked in at the door (every scan)',
  'booking.created': 'A booking was made',
  'booking.confirmed': 'A booking was confirmed',
  'booking.cancelled': 'A booking was cancelled',
  'booking.rescheduled': 'A booking moved to another time',
  'booking.approved': 'An admin approved a booking',
  'booking.declined': 'An admin declined a booking',
  'booking.paid': 'A booking’s payment arrived',
  'booking.payment_abandoned': 'A booking’s payment hold ran out unpaid',
  'order.paid': 'A paid sign-up or shop order was paid',
  'order.refunded': 'An order was refunded',
  ping: 'A test message (the Test button); always delivered, whatever is subscribed',
} as const;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as WebhookEventType[];

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const ZWebhookDeliveryStatus = z.enum(WEBHOOK_DELIVERY_STATUSES);

const isEventType = (name: string): name is WebhookEventType => Object.hasOwn(WEBHOOK_EVENTS, name);

/** Event names: each must be in the catalogue; an unknown one is named under `events` itself. */
export const ZWebhookEvents = z
  .array(z.string().max(100), { message: 'must be a list of event types' })
  .min(1, 'choose at least one event')
  .max(WEBHOOK_EVENT_TYPES.length * 2)
  .superRefine((names, ctx) => {
    const unknown = names.filter((n) => !isEventType(n));
    if (unknown.length > 0) ctx.addIssue({ code: 'custom', message: `unknown event type: ${unknown.join(', ')}` });
  })
  .transform((names) => [...new Set(names)] as WebhookEventType[]);

/** The endpoint's address: http(s) only; the server also refuses private addresses (docs/api.md#webhooks). */
export const ZWebhookUrl = z
  .string()
  .trim()
  .min(1)
  .max(2000)
  .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), 'must be an http(s) URL');

export const ZWebhookDescription = z.string().trim().max(500);

export const ZCreateWebhookInput = z.object({
  url: ZWebhookUrl,
  events: ZWebhookEvents,
  description: ZWebhookDescription.default(''),
  active: z.boolean().default(true),
});
export type CreateWebhookInput = z.input<typeof ZCreateWebhookInput>;

/** PATCH: any of the fields; turning `active` on again clears the disabled and failing state. */
export const ZUpdateWebhookInput = z.object({
  url: ZWebhookUrl.optional(),
  events: ZWebhookEvents.optional(),
  description: ZWebhookDescription.optional(),
  active: z.boolean().optional(),
});
export type UpdateWebhookInput = z.input<typeof ZUpdateWebhookInput>;

/** An endpoint as the list and detail show it: never its secret. */
export const ZWebhookEndpointDto = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(z.string()),
  active: z.boolean(),
  description: z.string(),
  /** When it was disabled for failing five days (UTC `Y-m-d H:i:s`); null otherwise. */
  disabledUtc: z.string().nullable(),
  /** Since when every delivery has failed; null while it answers. */
  failingSinceUtc: z.string().nullable(),
  createdUtc: z.string(),
});
export type WebhookEndpointDto = z.infer<typeof ZWebhookEndpointDto>;

/** The creation and rotate answers: the only places the `whsec_…` secret is shown. */
export const ZWebhookEndpointWithSecretDto = ZWebhookEndpointDto.extend({ secret: z.string() });
export type WebhookEndpointWithSecretDto = z.infer<typeof ZWebhookEndpointWithSecretDto>;

export const ZWebhookDeliveryDto = z.object({
  id: z.number().int(),
  type: z.string(),
  status: ZWebhookDeliveryStatus,
  attempts: z.number().int(),
  lastResponseCode: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  /** When the next attempt runs; null once delivered or failed. */
  nextAttemptUtc: z.string().nullable(),
  createdUtc: z.string(),
  lastError: z.string().nullable(),
});
export type WebhookDeliveryDto = z.infer<typeof ZWebhookDeliveryDto>;

/** One delivery with the body it sends (fixed when the action fired; no secrets by construction). */
export const ZWebhookDeliveryDetailDto = ZWebhookDeliveryDto.extend({
  /** The `webhook-id` header: the same on every retry and redelivery. */
  messageId: z.string(),
  payload: z.object({ type: z.string(), timestamp: z.string(), data: z.record(z.string(), z.unknown()) }),
});
export type WebhookDeliveryDetailDto = z.infer<typeof ZWebhookDeliveryDetailDto>;

export const ZWebhookCatalogueEntry = z.object({ type: z.string(), description: z.string() });
export const ZWebhookCatalogueDto = z.array(ZWebhookCatalogueEntry);
export type WebhookCatalogueDto = z.infer<typeof ZWebhookCatalogueDto>;
