import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { nowUtc, utcTimestamp } from '../db/columns';

import type { OutboxState } from '../../shared/mail';

export type { OutboxState };

/** What to make a file from when its mail is sent: a renderer's kind and the row it reads (server/mail/mailer.ts). */
export interface AttachmentRender {
  kind: string;
  id: number;
}

export interface StoredAttachment {
  filename: string;
  contentType: string;
  /** base64; '' for a file rendered when the mail is sent */
  content: string;
  render?: AttachmentRender;
}

/** Every email is written here first, in the transaction that caused it. */
export const outbox = pgTable(
  'svc_outbox',
  {
    id: serial('id').primaryKey(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    /** The language the mail is written in, sent as its Content-Language (null = older rows). */
    language: text('language'),
    attachments: jsonb('attachments').$type<StoredAttachment[]>().notNull().default([]),
    state: text('state').$type<OutboxState>().notNull().default('queued'),
    /** What the mail is about, e.g. `booking:12`, so reminders can be cleared. */
    topic: text('topic'),
    error: text('error'),
    /** A mail that must go out once whatever retries its cause: a second queueing with the key writes nothing. */
    onceKey: text('once_key'),
    createdUtc: utcTimestamp('created_utc').notNull().default(nowUtc),
    sentUtc: utcTimestamp('sent_utc'),
  },
  (t) => [
    index('svc_outbox_topic').on(t.topic),
    uniqueIndex('svc_outbox_once_key')
      .on(t.onceKey)
      .where(sql`${t.onceKey} is not null`),
  ],
);
