/** Answers of the system endpoints (health, the public-form nonce), shared by the server and the PWA. */
import { z } from './validation';

export const ZHealthDto = z.object({ ok: z.literal(true) });
export type HealthDto = z.infer<typeof ZHealthDto>;

/** `GET /ready`: the database answers; the job queue's figures say whether background work keeps up. */
export const ZReadinessDto = z.object({
  ok: z.literal(true),
  database: z.literal(true),
  jobs: z.object({
    /** Jobs due now and not yet claimed. */
    due: z.number().int(),
    /** Seconds the oldest due job has waited (healthy: a few seconds). */
    lagSeconds: z.number().int(),
    /** Jobs that gave up. */
    failed: z.number().int(),
    /** Whether this instance runs jobs (SVC_JOBS). */
    running: z.boolean(),
  }),
  outboxPending: z.number().int(),
});
export type ReadinessDto = z.infer<typeof ZReadinessDto>;

/** The public-form nonce (header X-Svc-Nonce), valid 12–24 h. */
export const ZNonceDto = z.object({ nonce: z.string(), expiresUtc: z.string() });
export type NonceDto = z.infer<typeof ZNonceDto>;
