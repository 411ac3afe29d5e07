/** Fixtures for payment tests: the payment id behind a checkout URL, signed provider events, the rows they leave. */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../server/db/client';
import { LOCAL_WEBHOOK_PURPOSE } from '../../server/modules/orders/providers/local';
import { derivedWebhookSecret, signStandardWebhook } from '../../server/security/standard-webhooks';
import type { TestServer } from './server';
import { apiClient, type ApiResponse } from './http';

/** The payment id (the visitor's capability) at the end of a `…/pay/{id}` URL. */
export function paymentIdOf(paymentUrl: string): string {
  const match = /\/pay\/([A-Za-z0-9_-]+)$/.exec(new URL(paymentUrl).pathname);
  if (!match) throw new Error(`not a checkout URL: ${paymentUrl}`);
  return match[1]!;
}

export type LocalEventType = 'payment.succeeded' | 'payment.failed' | 'payment.refunded';

export interface SignedEvent {
  body: string;
  headers: Record<string, string>;
}

export const newEventId = () => `evt_test_${randomBytes(9).toString('base64url')}`;

/** A local-provider event signed as the server signs its own (Standard Webhooks, secret derived from the server secret). */
export function signedLocalEvent(
  srv: TestServer,
  type: LocalEventType,
  sessionId: string,
  amountCents: number,
  eventId = newEventId(),
  at = new Date(),
  currency?: string,
): SignedEvent {
  const body = JSON.stringify({ type, timestamp: at.toISOString(), data: { sessionId, amountCents, ...(currency ? { currency } : {}) } });
  const secret = derivedWebhookSecret(srv.server.ctx.secret, LOCAL_WEBHOOK_PURPOSE);
  return { body, headers: { ...signStandardWebhook(secret, eventId, body, at) } };
}

export function postWebhook(srv: TestServer, provider: string, event: SignedEvent): Promise<ApiResponse<any>> {
  return apiClient(srv.url).post(`/payments/${provider}/webhook`, event.body, { 'content-type': 'application/json', ...event.headers });
}

export interface PaymentEventRecord {
  id: number;
  event_id: string;
  kind: string;
  outcome: string | null;
  processed_utc: string | null;
}

export function paymentEvents(srv: TestServer): Promise<PaymentEventRecord[]> {
  return queryRows<PaymentEventRecord>(srv.server.ctx.db, sql`select id, event_id, kind, outcome, processed_utc from svc_payment_events order by id`);
}

export async function paymentStatus(srv: TestServer, paymentId: string): Promise<string | undefined> {
  const [row] = await queryRows<{ status: string }>(srv.server.ctx.db, sql`select status from svc_payments where id = ${paymentId}`);
  return row?.status;
}

export interface OutboxRecord {
  id: number;
  subject: string;
  text: string;
  attachments: Array<{ filename: string; contentType: string; content: string }>;
}

/** Every email written for one address, oldest first. */
export function outboxTo(srv: TestServer, email: string): Promise<OutboxRecord[]> {
  return queryRows<OutboxRecord>(srv.server.ctx.db, sql`select id, subject, text, attachments from svc_outbox where to_address = ${email} order by id`);
}

export async function countRows(srv: TestServer, table: 'svc_payment_events' | 'svc_payments' | 'svc_orders' | 'svc_jobs'): Promise<number> {
  const [row] = await queryRows<{ n: number }>(srv.server.ctx.db, sql`select count(*)::int as n from ${sql.identifier(table)}`);
  return Number(row!.n);
}
