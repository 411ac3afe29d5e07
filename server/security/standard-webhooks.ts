/**
 * Standard Webhooks signing and verification (docs/api.md#payments): `webhook-id`,
 * `webhook-timestamp` and `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`,
 * keyed by the base64 decoding of what follows `whsec_`. The `standardwebhooks` package does
 * the cryptography and the five-minute timestamp tolerance.
 */
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { AppError } from '../../shared/errors';

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/** A `whsec_` secret derived from the server secret for one purpose (the local provider signs its own webhooks with it). */
export function derivedWebhookSecret(serverSecret: string, purpose: string): string {
  return `whsec_${createHmac('sha256', serverSecret).update(`standard-webhooks|${purpose}`).digest('base64')}`;
}

export function signStandardWebhook(secret: string, id: string, body: string, at = new Date()): SignedHeaders {
  const webhook = new Webhook(secret);
  return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': webhook.sign(id, at, body) };
}

/**
 * Checks the signature over the raw body before anything parses it; a missing, stale or wrong
 * signature is 400 `svc_invalid_signature`. Answers the `webhook-id`.
 */
export function verifyStandardWebhook(secret: string, rawBody: string, headers: Record<string, string>): string {
  const id = headers['webhook-id'];
  if (!id || !headers['webhook-timestamp'] || !headers['webhook-signature']) throw new AppError('svc_invalid_signature');
  try {
    // jsonParse off: a well-signed body that is not JSON is the caller's svc_invalid_json, not a bad signature.
    new Webhook(secret).verify(
      rawBody,
      { 'webhook-id': id, 'webhook-timestamp': headers['webhook-timestamp'], 'webhook-signature': headers['webhook-signature'] },
      { jsonParse: false },
    );
  } catch {
    throw new AppError('svc_invalid_signature');
  }
  return id;
}
