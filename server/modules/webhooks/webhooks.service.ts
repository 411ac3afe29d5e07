/**
 * Outgoing webhooks (docs/api.md#webhooks), Standard Webhooks signed.
 *
 * An event becomes one durable delivery per subscribed endpoint, written with its first job in
 * the transaction that dispatches it; the payload is fixed then. Each attempt is a job of its own:
 * the handler sends, then in ONE transaction records the attempt (only if no other run recorded
 * that attempt number first, so a job re-run after a lost lease never counts twice) and queues
 * the next attempt at the schedule below. The runner's own retry is only for a crash of the
 * handler itself, never the schedule. An endpoint failing for five days is disabled, its pending
 * deliveries stop, and every administrator is mailed.
 */
import { randomBytes } from 'node:crypto';
import { AppError } from '../../../shared/errors';
import { toUtcString, utcMs } from '../../../shared/time';
import {
  WEBHOOK_EVENTS,
  WEBHOOK_EVENT_TYPES,
  type WebhookCatalogueDto,
  type WebhookDeliveryDetailDto,
  type WebhookDeliveryDto,
  type WebhookEndpointDto,
  type WebhookEndpointWithSecretDto,
  type WebhookEventType,
} from '../../../shared/webhooks';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import type { Env } from '../../env';
import { cancelQueuedJobs, enqueueJob, OUTBOUND_RECEIVER } from '../../jobs/queue';
import { queueMail } from '../../mail/mailer';
import { assertTargetAllowed, OutboundError, outboundPolicy, postOutbound, type OutboundPolicy } from '../../security/outbound';
import { signStandardWebhook } from '../../security/standard-webhooks';
import { requireExtended } from '../orders/payments.service';
import { webhooksRepository as repo, type DeliveryRow, type EndpointRow } from './webhooks.repository';
import { recipientLanguage } from '../../mail/language';
import { buildEndpointDisabledMail } from './webhooks.mail';

export const WEBHOOK_DELIVER_JOB = 'webhooks.deliver';

/** Wait after the n-th failed attempt of a series (docs/api.md#webhooks); the last step repeats. */
export const RETRY_SCHEDULE_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000] as const;
/** A series is retried this long after its first attempt; the last retry lands at its end. */
export const RETRY_WINDOW_MS = 24 * 3_600_000;
/** An endpoint whose every delivery has failed for this long is disabled. */
export const DISABLE_AFTER_MS = 5 * 86_400_000;
/** The receiver's answer is read only this far (it is shown in lastError, never stored whole). */
const MAX_RESPONSE_BYTES = 16 * 1024;
const ERROR_SNIPPET_CHARS = 200;

/** What one job of the delivery chain carries. */
export interface DeliverJobPayload {
  deliveryId: number;
  /** The attempt number this job makes (the delivery's `attempts` + 1 when it was queued). */
  attempt: number;
  /** Failed attempts so far in this series: the index into RETRY_SCHEDULE_MS after a failure. */
  step: number;
  /** When the series began (first dispatch or a redeliver): it is retried for RETRY_WINDOW_MS. */
  seriesStartMs: number;
}

/** How a server reaches endpoints: the deadline, the answer cap and the resolver (tests set a short deadline and their own resolver). */
export interface DeliveryTransport {
  timeoutMs?: number;
  maxResponseBytes?: number;
  lookup?: OutboundPolicy['lookup'];
}

const transports = new WeakMap<Db, DeliveryTransport>();

/** Sets how the server using `db` sends deliveries (tests: a 300 ms deadline, a resolver of their own). */
export function configureWebhookDelivery(db: Db, transport: DeliveryTransport): void {
  transports.set(db, transport);
}

export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
export const newMessageId = () => `msg_${randomBytes(18).toString('base64url')}`;

export function toEndpointDto(row: EndpointRow): WebhookEndpointDto {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    active: row.active,
    description: row.description,
    disabledUtc: row.disabledUtc,
    failingSinceUtc: row.failingSinceUtc,
    createdUtc: row.createdUtc,
  };
}

export function toDeliveryDto(row: DeliveryRow): WebhookDeliveryDto {
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    attempts: row.attempts,
    lastResponseCode: row.lastResponseCode,
    durationMs: row.durationMs,
    nextAttemptUtc: row.nextAttemptUtc,
    createdUtc: row.createdUtc,
    lastError: row.lastError,
  };
}

function toDeliveryDetailDto(row: DeliveryRow): WebhookDeliveryDetailDto {
  return { ...toDeliveryDto(row), messageId: row.messageId, payload: row.payload as WebhookDeliveryDetailDto['payload'] };
}

const wholeSeconds = (ms: number) => Math.floor(ms / 1000) * 1000;

/**
 * Queues attempt `payload.attempt` at `atMs` (in the caller's transaction); one job per attempt
 * number. The endpoint is the job's receiver: one attempt per endpoint at a time, so an endpoint
 * that never answers holds one slot of the outbound lane (docs/decisions/023-outbound-lane.md).
 */
async function queueAttempt(tx: Db, endpointId: number, payload: DeliverJobPayload, atMs: number): Promise<void> {
  await enqueueJob(
    tx,
    WEBHOOK_DELIVER_JOB,
    { ...payload, [OUTBOUND_RECEIVER]: `webhook:${endpointId}` },
    { runAtUtc: toUtcString(atMs), dedupeKey: `${WEBHOOK_DELIVER_JOB}:${payload.deliveryId}:${payload.attempt}`, maxAttempts: 5 },
  );
}

/** One delivery of a fixed payload to one endpoint, with its first attempt due now. */
async function insertDelivery(tx: Db, endpointId: number, type: WebhookEventType, payload: Record<string, unknown>, nowMs: number): Promise<DeliveryRow> {
  const at = toUtcString(nowMs);
  const row = await repo.insertDelivery(tx, { endpointId, messageId: newMessageId(), type, payload, nextAttemptUtc: at, createdUtc: at, updatedUtc: at });
  await queueAttempt(tx, endpointId, { deliveryId: row.id, attempt: 1, step: 0, seriesStartMs: wholeSeconds(nowMs) }, nowMs);
  return row;
}

/** The body every endpoint receives: `{type, timestamp, data}`. */
export const envelope = (type: WebhookEventType, data: Record<string, unknown>, nowMs: number) => ({ type, timestamp: new Date(nowMs).toISOString(), data });

/**
 * Fires a catalogue event: nothing but one small query when no active endpoint receives `type`;
 * otherwise `data()` builds the payload once and every endpoint's delivery and first job are
 * written in one transaction. `data()` answering null (the subject vanished) sends nothing.
 */
export async function dispatchWebhookEvent(
  db: Db,
  type: WebhookEventType,
  data: () => Promise<Record<string, unknown> | null>,
  nowMs = Date.now(),
): Promise<number> {
  const endpointIds = await repo.subscribedEndpointIds(db, type);
  if (endpointIds.length === 0) return 0;
  const body = await data();
  if (body === null) return 0;
  const payload = envelope(type, body, nowMs);
  await db.transaction(async (tx) => {
    for (const endpointId of endpointIds) await insertDelivery(tx, endpointId, type, payload, nowMs);
  });
  return endpointIds.length;
}

/**
 * When the attempt after `step` failed ones runs, or null when the series is over (24 h). In
 * whole seconds, as run times are stored: the last retry is due exactly at the deadline, so it
 * never runs a few milliseconds before it and asks for another.
 */
export function nextAttemptMs(step: number, seriesStartMs: number, nowMs: number): number | null {
  const deadline = wholeSeconds(seriesStartMs) + RETRY_WINDOW_MS;
  if (nowMs >= deadline) return null;
  const wait = RETRY_SCHEDULE_MS[Math.min(step, RETRY_SCHEDULE_MS.length - 1)]!;
  return Math.min(nowMs + wait, deadline);
}

/** The receiver's answer in a line: status, then the start of its body (capped, control characters out). */
function answerSummary(status: number, body: string): string {
  const snippet = body
    .replace(/\p{Cc}+/gu, ' ')
    .trim()
    .slice(0, ERROR_SNIPPET_CHARS);
  const redirect = status >= 300 && status < 400 ? ' (redirects are not followed)' : '';
  return `HTTP ${status}${redirect}${snippet ? `: ${snippet}` : ''}`;
}

export type AttemptOutcome = 'skipped' | 'delivered' | 'retrying' | 'failed' | 'disabled';

/**
 * Makes attempt `job.attempt` of a delivery at `nowMs` (the runner's clock; the signature's
 * timestamp is always the wall clock, which receivers check). Skips a delivery that moved on.
 */
export async function attemptDelivery(ctx: Pick<AppContext, 'db' | 'env' | 'logger'>, job: DeliverJobPayload, nowMs: number): Promise<AttemptOutcome> {
  const { db } = ctx;
  const delivery = await repo.findDeliveryById(db, job.deliveryId);
  if (!delivery || delivery.status !== 'pending' || delivery.attempts !== job.attempt - 1) return 'skipped';
  const endpoint = await repo.findEndpoint(db, delivery.endpointId);
  if (!endpoint) return 'skipped';
  const atUtc = toUtcString(nowMs);
  if (!endpoint.active) {
    await repo.failPendingDeliveries(db, endpoint.id, 'the endpoint is switched off', atUtc);
    return 'failed';
  }

  const transport = transports.get(db) ?? {};
  const body = JSON.stringify(delivery.payload);
  const headers = signStandardWebhook(endpoint.secret, delivery.messageId, body, new Date());
  let status: number | null = null;
  let error: string | null = null;
  let durationMs: number | null = null;
  const started = performance.now();
  try {
    const answer = await postOutbound(
      endpoint.url,
      body,
      { ...headers },
      { ...outboundPolicy(ctx.env), lookup: transport.lookup },
      {
        timeoutMs: transport.timeoutMs,
        maxResponseBytes: transport.maxResponseBytes ?? MAX_RESPONSE_BYTES,
      },
    );
    status = answer.status;
    durationMs = answer.durationMs;
    if (status < 200 || status >= 300) error = answerSummary(status, answer.body);
  } catch (err) {
    durationMs = Math.round(performance.now() - started);
    error = err instanceof OutboundError ? (err.refused ? `refused: ${err.message}` : err.message) : 'the request failed';
    if (!(err instanceof OutboundError)) ctx.logger.warn({ err, deliveryId: delivery.id }, 'webhook delivery failed unexpectedly');
  }

  if (error === null) {
    return db.transaction(async (tx) => {
      const recorded = await repo.recordAttempt(tx, delivery.id, job.attempt, {
        status: 'delivered',
        lastResponseCode: status,
        lastError: null,
        durationMs,
        nextAttemptUtc: null,
        atUtc,
      });
      if (!recorded) return 'skipped';
      await repo.clearFailing(tx, endpoint.id);
      return 'delivered';
    });
  }

  const next = nextAttemptMs(job.step, job.seriesStartMs, nowMs);
  return db.transaction(async (tx) => {
    const recorded = await repo.recordAttempt(tx, delivery.id, job.attempt, {
      status: next === null ? 'failed' : 'pending',
      lastResponseCode: status,
      lastError: error,
      durationMs,
      nextAttemptUtc: next === null ? null : toUtcString(next),
      atUtc,
    });
    if (!recorded) return 'skipped';
    const failingSince = await repo.markFailing(tx, endpoint.id, atUtc);
    if (failingSince !== null && utcMs(failingSince) <= nowMs - DISABLE_AFTER_MS) {
      const disabled = await repo.disableFailing(tx, endpoint.id, atUtc);
      if (disabled) {
        await repo.failPendingDeliveries(tx, endpoint.id, 'the endpoint was disabled after failing for 5 days', atUtc);
        await mailAdministrators(tx, ctx.env, disabled);
        return 'disabled';
      }
    }
    if (next === null) return 'failed';
    await queueAttempt(tx, endpoint.id, { ...job, attempt: job.attempt + 1, step: job.step + 1 }, next);
    return 'retrying';
  });
}

/** Tells every administrator, each in their own language, in the transaction that disabled the endpoint. */
async function mailAdministrators(tx: Db, env: Pick<Env, 'publicUrl'>, endpoint: EndpointRow): Promise<void> {
  for (const admin of await repo.administratorRecipients(tx)) {
    const locale = await recipientLanguage(tx, admin.language);
    await queueMail(tx, buildEndpointDisabledMail(locale, admin.email, endpoint, env.publicUrl), {
      dedupeKey: `webhook-disabled:${endpoint.id}:${admin.email.toLowerCase()}`,
    });
  }
}

/** The admin's endpoints and deliveries (extended edition only). */
export function webhooksService(ctx: Pick<AppContext, 'db' | 'env'>, clock: () => number = Date.now) {
  const { db } = ctx;
  const policy = () => outboundPolicy(ctx.env);

  async function existing(id: number): Promise<EndpointRow> {
    requireExtended(ctx);
    const row = await repo.findEndpoint(db, id);
    if (!row) throw new AppError('svc_not_found', 'No such webhook endpoint.');
    return row;
  }

  async function existingDelivery(id: number, deliveryId: number): Promise<DeliveryRow> {
    await existing(id);
    const row = await repo.findDelivery(db, id, deliveryId);
    if (!row) throw new AppError('svc_not_found', 'No such delivery.');
    return row;
  }

  function assertActive(endpoint: EndpointRow): void {
    if (!endpoint.active) throw new AppError('svc_conflict', 'The endpoint is switched off; switch it on first.');
  }

  return {
    catalogue(): WebhookCatalogueDto {
      requireExtended(ctx);
      return WEBHOOK_EVENT_TYPES.map((type) => ({ type, description: WEBHOOK_EVENTS[type] }));
    },

    async list(): Promise<{ items: WebhookEndpointDto[]; total: number }> {
      requireExtended(ctx);
      const rows = await repo.listEndpoints(db);
      return { items: rows.map(toEndpointDto), total: rows.length };
    },

    async get(id: number): Promise<WebhookEndpointDto> {
      return toEndpointDto(await existing(id));
    },

    async create(input: { url: string; events: WebhookEventType[]; description: string; active: boolean }): Promise<WebhookEndpointWithSecretDto> {
      requireExtended(ctx);
      const url = assertTargetAllowed(input.url, policy(), 'url').href;
      const secret = newWebhookSecret();
      const row = await repo.insertEndpoint(db, { url, events: input.events, description: input.description, active: input.active, secret });
      return { ...toEndpointDto(row), secret };
    },

    /** Any of url, events, description, active; switching it on again clears the disabled and failing state. */
    async update(id: number, patch: { url?: string; events?: WebhookEventType[]; description?: string; active?: boolean }): Promise<WebhookEndpointDto> {
      const before = await existing(id);
      const url = patch.url === undefined ? undefined : assertTargetAllowed(patch.url, policy(), 'url').href;
      const reactivated = patch.active === true && (!before.active || before.disabledUtc !== null);
      const row = await repo.updateEndpoint(db, id, {
        ...(url !== undefined ? { url } : {}),
        ...(patch.events !== undefined ? { events: patch.events } : {}),
        ...(patch.description !== undefined ? { description: patch.description } : {}),
        ...(patch.active !== undefined ? { active: patch.active } : {}),
        ...(reactivated ? { disabledUtc: null, failingSinceUtc: null } : {}),
        updatedUtc: toUtcString(clock()),
      });
      if (!row) throw new AppError('svc_not_found', 'No such webhook endpoint.');
      return toEndpointDto(row);
    },

    /** Deletes the endpoint and its delivery log (their queued jobs find nothing and end). */
    async remove(id: number): Promise<void> {
      await existing(id);
      if (!(await repo.deleteEndpoint(db, id))) throw new AppError('svc_not_found', 'No such webhook endpoint.');
    },

    /** A new secret (the old one stops at once); shown here and never again. */
    async rotate(id: number): Promise<WebhookEndpointWithSecretDto> {
      await existing(id);
      const secret = newWebhookSecret();
      const row = await repo.updateEndpoint(db, id, { secret, updatedUtc: toUtcString(clock()) });
      if (!row) throw new AppError('svc_not_found', 'No such webhook endpoint.');
      return { ...toEndpointDto(row), secret };
    },

    async deliveries(id: number, page: { page: number; perPage: number }): Promise<{ items: WebhookDeliveryDto[]; total: number }> {
      await existing(id);
      const { rows, total } = await repo.listDeliveries(db, id, page.perPage, (page.page - 1) * page.perPage);
      return { items: rows.map(toDeliveryDto), total };
    },

    async delivery(id: number, deliveryId: number): Promise<WebhookDeliveryDetailDto> {
      return toDeliveryDetailDto(await existingDelivery(id, deliveryId));
    },

    /** The same message (same `webhook-id` and body) again, as a new series of attempts starting now. */
    async redeliver(id: number, deliveryId: number): Promise<WebhookDeliveryDto> {
      const endpoint = await existing(id);
      assertActive(endpoint);
      await existingDelivery(id, deliveryId);
      const nowMs = clock();
      const row = await db.transaction(async (tx) => {
        const restarted = await repo.restartDelivery(tx, deliveryId, toUtcString(nowMs));
        // a retry still queued from the old series gives way to the new one (one job per attempt number)
        await cancelQueuedJobs(tx, `${WEBHOOK_DELIVER_JOB}:${deliveryId}:`);
        await queueAttempt(tx, id, { deliveryId, attempt: restarted.attempts + 1, step: 0, seriesStartMs: wholeSeconds(nowMs) }, nowMs);
        return restarted;
      });
      return toDeliveryDto(row);
    },

    /** Sends `ping` to this endpoint, whatever it subscribes to. */
    async test(id: number): Promise<WebhookDeliveryDto> {
      const endpoint = await existing(id);
      assertActive(endpoint);
      const nowMs = clock();
      const payload = envelope('ping', { endpointId: endpoint.id }, nowMs);
      const row = await db.transaction((tx) => insertDelivery(tx, endpoint.id, 'ping', payload, nowMs));
      return toDeliveryDto(row);
    },
  };
}
