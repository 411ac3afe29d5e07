/**
 * The admin app's calls for outgoing webhooks (extended edition, docs/api.md#webhooks), through
 * the typed client like `data.ts`: endpoints, the event catalogue, deliveries and their actions.
 * A failure is the `ApiError` / `NetworkError` pages show.
 */
import { ApiError } from '../ui/errors';
import { call, rpc } from '../ui/trpc';
import { t } from '../i18n/i18n';
import type {
  CreateWebhookInput,
  UpdateWebhookInput,
  WebhookCatalogueDto,
  WebhookDeliveryDetailDto,
  WebhookDeliveryDto,
  WebhookEndpointDto,
  WebhookEndpointWithSecretDto,
} from '../../shared/webhooks';
import type { Listing } from './data';

export type { WebhookCatalogueDto, WebhookDeliveryDetailDto, WebhookDeliveryDto, WebhookEndpointDto, WebhookEndpointWithSecretDto };

/** Every endpoint (an admin keeps a handful; the operation answers them all at once). */
export const listWebhooks = async (): Promise<WebhookEndpointDto[]> => (await call(rpc().webhooks.list.query())).items;
export const getWebhook = (id: number): Promise<WebhookEndpointDto> => call(rpc().webhooks.get.query({ id }));
export const createWebhook = (input: CreateWebhookInput): Promise<WebhookEndpointWithSecretDto> => call(rpc().webhooks.create.mutate(input));
export const updateWebhook = (id: number, patch: UpdateWebhookInput): Promise<WebhookEndpointDto> => call(rpc().webhooks.update.mutate({ id, ...patch }));
export const removeWebhook = (id: number): Promise<unknown> => call(rpc().webhooks.remove.mutate({ id }));
export const rotateWebhookSecret = (id: number): Promise<WebhookEndpointWithSecretDto> => call(rpc().webhooks.rotate.mutate({ id }));
export const sendTestPing = (id: number): Promise<WebhookDeliveryDto> => call(rpc().webhooks.test.mutate({ id }));
export const webhookCatalogue = (): Promise<WebhookCatalogueDto> => call(rpc().webhooks.catalogue.query());

/** One page of an endpoint's deliveries, newest first. */
export async function listDeliveries(id: number, page = 1, perPage = 25): Promise<Listing<WebhookDeliveryDto>> {
  const answer = await call(rpc().webhooks.deliveries.query({ id, page, perPage }));
  return { items: answer.items, total: answer.total, source: 'server', asOfMs: Date.now() };
}
export const getDelivery = (id: number, deliveryId: number): Promise<WebhookDeliveryDetailDto> => call(rpc().webhooks.delivery.query({ id, deliveryId }));
export const redeliver = (id: number, deliveryId: number): Promise<WebhookDeliveryDto> => call(rpc().webhooks.redeliver.mutate({ id, deliveryId }));

const FIELD_NOUNS: Record<string, () => string> = {
  url: () => t('admin.webhook.noun.url'),
  events: () => t('admin.webhook.noun.events'),
  description: () => t('admin.webhook.noun.description'),
  active: () => t('admin.webhook.noun.active'),
};

/**
 * The fields the server refused (`svc_invalid_param` params, "must be an http(s) URL") as
 * sentences to show at each field ("The address must be an http(s) URL."); empty for any other error.
 */
export function refusedFields(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.code !== 'svc_invalid_param') return {};
  const refused: Record<string, string> = {};
  for (const [key, problem] of Object.entries(error.data?.params ?? {})) {
    const field = key.split('.')[0] ?? key;
    const noun = FIELD_NOUNS[field]?.() ?? field;
    if (typeof problem !== 'string') {
      refused[field] = t('admin.webhook.fieldInvalid', { field: noun });
      continue;
    }
    // the server words its problems in English; the field's name is the reader's
    const said = problem.trim().replace(/\.$/, '');
    refused[field] = /^(must|is|are|cannot|may)\b/i.test(said)
      ? t('admin.webhook.refusedField', { field: noun, problem: said })
      : `${said.charAt(0).toUpperCase() + said.slice(1)}.`;
  }
  return refused;
}
