/** What svc stores about an email: queued, delivered over SMTP, saved as .eml, failed or withdrawn. */
import { z } from './validation';

export const OUTBOX_STATES = ['queued', 'sent', 'saved', 'failed', 'cancelled'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

/** GET /svc/v1/outbox item (docs/api.md#rest). */
export const ZOutboxItem = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  attachments: z.array(z.object({ filename: z.string(), contentType: z.string() })),
  state: z.enum(OUTBOX_STATES),
  createdUtc: z.string(),
  sentUtc: z.string().nullable(),
});
export type OutboxItem = z.infer<typeof ZOutboxItem>;
