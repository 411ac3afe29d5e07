/**
 * The built-in provider (docs/api.md#payments): no network at all. Its checkout is svc's own
 * page `/pay/{id}`; Pay makes the server deliver a signed webhook (Standard Webhooks, with a
 * secret derived from the server secret) to its own webhook endpoint, so every paid path runs
 * end to end on a machine with no way out.
 */
import { z } from 'zod';
import { AppError } from '../../../../shared/errors';
import { assertCleanText } from '../../../../shared/validation';
import { randomToken } from '../../../security/crypto';
import { derivedWebhookSecret, signStandardWebhook, verifyStandardWebhook, type SignedHeaders } from '../../../security/standard-webhooks';
import type { PaymentProvider, ProviderEvent, ProviderEventKind } from './provider';

export const LOCAL_WEBHOOK_PURPOSE = 'local-payments';

const ZLocalEvent = z.object({
  type: z.enum(['payment.succeeded', 'payment.failed', 'payment.refunded']),
  data: z.object({
    sessionId: z.string().min(1).max(200),
    amountCents: z.number().int().min(0),
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/)
      .optional(),
  }),
});

const KIND_OF: Record<z.infer<typeof ZLocalEvent>['type'], ProviderEventKind> = {
  'payment.succeeded': 'paid',
  'payment.failed': 'failed',
  'payment.refunded': 'refunded',
};
const TYPE_OF: Record<ProviderEventKind, z.infer<typeof ZLocalEvent>['type']> = {
  paid: 'payment.succeeded',
  failed: 'payment.failed',
  refunded: 'payment.refunded',
};

export interface LocalProvider extends PaymentProvider {
  /** The signed webhook the server delivers to itself for a checkout. */
  webhookFor(kind: ProviderEventKind, sessionId: string, amountCents: number, eventId: string, currency?: string): { body: string; headers: SignedHeaders };
}

export function createLocalProvider(opts: { serverSecret: string; publicUrl: string }): LocalProvider {
  const secret = derivedWebhookSecret(opts.serverSecret, LOCAL_WEBHOOK_PURPOSE);
  return {
    name: 'local',
    async createCheckout(req) {
      // The checkout is our own page: its id is our reference.
      return { sessionId: req.reference, url: `${opts.publicUrl}/pay/${req.reference}` };
    },
    async parseWebhook(rawBody, headers): Promise<ProviderEvent | null> {
      const eventId = verifyStandardWebhook(secret, rawBody, headers);
      let json: unknown;
      let parsed: z.infer<typeof ZLocalEvent>;
      try {
        json = JSON.parse(rawBody);
        parsed = ZLocalEvent.parse(json);
      } catch {
        throw new AppError('svc_invalid_json', 'The webhook body is not a payment event.');
      }
      // Signed does not mean storable: a NUL in the session id answered 500 from its look-up.
      assertCleanText(json);
      const { sessionId, amountCents, currency } = parsed.data;
      return { eventId, kind: KIND_OF[parsed.type], reference: sessionId, sessionId, paymentRef: sessionId, amountCents, ...(currency ? { currency } : {}) };
    },
    async refund() {
      // Nothing left the building, so nothing goes back through a network either.
      return { refundId: `re_local_${randomToken(12)}` };
    },
    webhookFor(kind, sessionId, amountCents, eventId, currency) {
      const body = JSON.stringify({
        type: TYPE_OF[kind],
        timestamp: new Date().toISOString(),
        data: { sessionId, amountCents, ...(currency ? { currency } : {}) },
      });
      return { body, headers: signStandardWebhook(secret, eventId, body) };
    },
  };
}
