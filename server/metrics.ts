/**
 * The operator's view (docs/api.md#operations): Prometheus metrics of one server — requests per
 * route, their latency, the job queue's depth and lag, mail waiting in the outbox, the slot
 * cache's bytes, sync push rows — and the readiness figures. Each app context has its own
 * registry, so several servers in one process (tests) do not share counters.
 */
import { sql } from 'drizzle-orm';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AppContext } from './context';
import { queryRows } from './db/client';
import { slotCacheOf } from './modules/booking/slot.service';

export interface QueueFigures {
  /** Jobs due now and not yet claimed. */
  due: number;
  /** Seconds the oldest due job has waited (0 when none waits). */
  lagSeconds: number;
  /** Jobs that gave up. */
  failed: number;
  /** Mails queued and not yet sent. */
  outboxPending: number;
}

/** One query for the queue's figures (the readiness probe and the scrape). */
export async function queueFigures(ctx: Pick<AppContext, 'db'>): Promise<QueueFigures> {
  const [row] = await queryRows<{ due: number; lag: number | string | null; failed: number; outbox: number }>(
    ctx.db,
    sql`select count(*) filter (where state = 'queued' and run_at_utc <= now() at time zone 'utc')::int as due,
               extract(epoch from (now() at time zone 'utc') - min(run_at_utc) filter (where state = 'queued' and run_at_utc <= now() at time zone 'utc'))::float8 as lag,
               count(*) filter (where state = 'failed')::int as failed,
               (select count(*)::int from svc_outbox where state = 'queued') as outbox
        from svc_jobs`,
  );
  return { due: row?.due ?? 0, lagSeconds: Math.max(0, Number(row?.lag ?? 0)), failed: row?.failed ?? 0, outboxPending: row?.outbox ?? 0 };
}

export interface Metrics {
  registry: Registry;
  requests: Counter<'method' | 'route' | 'status'>;
  duration: Histogram<'method' | 'route'>;
  syncPushRows: Counter<'result'>;
}

const byContext = new WeakMap<AppContext, Metrics>();

/** The process's own figures (memory, CPU, event-loop delay), collected once per process. */
let processRegistry: Registry | null = null;

/** The exposition of one server: its own metrics and the process's. */
export async function exposition(ctx: AppContext): Promise<{ body: string; contentType: string }> {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: 'svc_' });
  }
  const merged = Registry.merge([processRegistry, metricsOf(ctx).registry]);
  return { body: await merged.metrics(), contentType: merged.contentType };
}

export function metricsOf(ctx: AppContext): Metrics {
  let metrics = byContext.get(ctx);
  if (!metrics) {
    metrics = createMetrics(ctx);
    byContext.set(ctx, metrics);
  }
  return metrics;
}

function createMetrics(ctx: AppContext): Metrics {
  const registry = new Registry();
  const requests = new Counter({
    name: 'svc_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'Time to answer, by method and route template',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const syncPushRows = new Counter({
    name: 'svc_sync_push_rows_total',
    help: 'Scans pushed by door devices, by result (inserted, duplicate, rejected, failed)',
    labelNames: ['result'] as const,
    registers: [registry],
  });
  // Read at scrape time, one query for the queue figures.
  let pending: Promise<QueueFigures> | null = null;
  const figures = () => (pending ??= queueFigures(ctx).finally(() => setTimeout(() => (pending = null), 0)));
  const queueGauge = (name: string, help: string, pick: (f: QueueFigures) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        this.set(pick(await figures()));
      },
    });
  queueGauge('svc_jobs_due', 'Jobs due now and not yet claimed (queue depth)', (f) => f.due);
  queueGauge('svc_jobs_lag_seconds', 'Seconds the oldest due job has waited', (f) => f.lagSeconds);
  queueGauge('svc_jobs_failed', 'Jobs that gave up after their last attempt', (f) => f.failed);
  queueGauge('svc_outbox_pending', 'Mails queued and not yet sent', (f) => f.outboxPending);
  new Gauge({
    name: 'svc_slot_cache_bytes',
    help: 'Bytes held by the slot display cache',
    registers: [registry],
    collect() {
      this.set(slotCacheOf(ctx).stats().bytes);
    },
  });
  new Gauge({
    name: 'svc_slot_cache_max_bytes',
    help: 'The slot display cache bound',
    registers: [registry],
    collect() {
      this.set(slotCacheOf(ctx).stats().maxBytes);
    },
  });
  return { registry, requests, duration, syncPushRows };
}

/** Records one answered request under its route template (never the raw path: ids and tokens stay out). */
export function observeRequest(ctx: AppContext, method: string, route: string, status: number, seconds: number): void {
  const m = metricsOf(ctx);
  m.requests.inc({ method, route, status: String(status) });
  m.duration.observe({ method, route }, seconds);
}
