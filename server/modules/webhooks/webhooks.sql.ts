import { boolean, index, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { nowUtc, utcTimestamp } from '../../db/columns';

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Outgoing webhook endpoints (docs/api.md#webhooks). The secret is `whsec_` + base64 of the HMAC key. */
export const webhookEndpoints = pgTable('svc_webhook_endpoints', {
  id: serial('id').primaryKey(),
  url: text('url').notNull(),
  /** Catalogue event types this endpoint receives (`ping` always). */
  events: jsonb('events').$type<string[]>().notNull().default([]),
  active: boolean('active').notNull().default(true),
  description: text('description').notNull().default(''),
  secret: text('secret').notNull(),
  /** Since when every delivery has failed; null while the endpoint answers. Five days of it disables the endpoint. */
  failingSinceUtc: utcTimestamp('failing_since_utc'),
  /** When it was disabled for failing (null: active, or switched off by an admin). */
  disabledUtc: utcTimestamp('disabled_utc'),
  createdUtc: utcTimestamp('created_utc').notNull().default(nowUtc),
  updatedUtc: utcTimestamp('updated_utc').notNull().default(nowUtc),
});

/**
 * One durable delivery per endpoint and event: the payload is fixed when the action fires, and
 * `message_id` (the `webhook-id` header) stays the same on every retry and redelivery.
 */
export const webhookDeliveries = pgTable(
  'svc_webhook_deliveries',
  {
    id: serial('id').primaryKey(),
    endpointId: integer('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    messageId: text('message_id').notNull(),
    type: text('type').notNull(),
    /** The whole body `{type, timestamp, data}` as sent. */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status').$type<DeliveryStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastResponseCode: integer('last_response_code'),
    lastError: text('last_error'),
    durationMs: integer('duration_ms'),
    nextAttemptUtc: utcTimestamp('next_attempt_utc'),
    createdUtc: utcTimestamp('created_utc').notNull().default(nowUtc),
    updatedUtc: utcTimestamp('updated_utc').notNull().default(nowUtc),
  },
  (t) => [index('svc_webhook_deliveries_endpoint').on(t.endpointId, t.id), index('svc_webhook_deliveries_message').on(t.messageId)],
);
