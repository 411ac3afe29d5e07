/** Answers of the system endpoints (health, the public-form nonce), shared by the server and the PWA. */
import { z } from './validation';

export const ZHealthDto = z.object({ ok: z.literal(true) });
export type HealthDto = z.infer<typeof ZHealthDto>;

/** The public-form nonce (header X-Svc-Nonce), valid 12–24 h. */
export const ZNonceDto = z.object({ nonce: z.string(), expiresUtc: z.string() });
export type NonceDto = z.infer<typeof ZNonceDto>;
