/** What svc stores about an email: queued, delivered over SMTP, saved as .eml, failed or withdrawn. */
export type OutboxState = 'queued' | 'sent' | 'saved' | 'failed' | 'cancelled';

/** GET /svc/v1/outbox item (SPEC §4). */
export interface OutboxItem {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  attachments: { filename: string; contentType: string }[];
  state: OutboxState;
  createdUtc: string;
  sentUtc: string | null;
}
