import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import { queryRows, type Db } from '../db/client';
import { nowUtc } from '../db/columns';
import { enqueueJob, type JobRunner } from '../jobs/queue';
import { jobs } from '../jobs/jobs.sql';
import type { OutboxItem } from '../../shared/mail';
import { toUtcString } from '../../shared/time';
import type { Organization } from '../../shared/organization';
import { DEFAULT_LOCALE, matchLocale, type Locale } from '../../shared/i18n/locales';
import { brandMailHtml, MAIL_HEADER_SLOT, mailHtml, mailLogoSize, textToHtml, type MailLink } from './layout';
import { readOrganization } from '../modules/settings/organization.service';
import { readLogoJpeg, type LogoJpeg } from '../modules/images/images.service';
import { outbox, type AttachmentRender, type OutboxState, type StoredAttachment } from './outbox.sql';

/** A file attached as it is when the mail is queued. */
export interface MailFileAttachment {
  filename: string;
  contentType: string;
  content: string | Buffer;
}

/**
 * A file made when the mail is sent (a PDF ticket): the outbox row keeps its name and what to
 * render, not its bytes, so a sign-up pays nothing for it and the row stays small
 * (docs/decisions/035-pdf-ticket.md).
 */
export interface MailRenderedAttachment {
  filename: string;
  contentType: string;
  render: AttachmentRender;
}

export type MailAttachment = MailFileAttachment | MailRenderedAttachment;

/**
 * Makes a rendered attachment's bytes from its id when the mail is sent; null leaves the file out
 * (what it showed is gone: a ticket cancelled since). A throw fails the send, which is retried.
 */
export type AttachmentRenderer = (id: number) => Promise<Buffer | null>;
/** The renderers by kind, given by the modules (server/modules/index.ts). */
export type AttachmentRenderers = Record<string, AttachmentRenderer>;

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The HTML body, when a template composes its own; otherwise it is made from `text`. Either way it gets the shared layout. */
  html?: string;
  attachments?: MailAttachment[];
  /** What the mail is about (e.g. `booking:12`). */
  topic?: string;
  /** Links to this origin (the site's public URL) are clickable in the HTML made from `text`; other URLs stay text. */
  linkOrigin?: string;
  /** Lines of `text` that are a link the template built to another site (a calendar composer): in the HTML, that link under its label. */
  links?: MailLink[];
  /** The language the mail is written in (the recipient's stored one): its Content-Language and `<html lang dir>`. */
  language?: Locale;
}

export const MAIL_SEND_JOB = 'mail.send';

/** The bare address of SVC_MAIL_FROM (`svc <no-reply@svc.local>` → `no-reply@svc.local`). */
export function senderAddress(mailFrom: string): string {
  return (/<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom).trim();
}

/**
 * Every mail's From: SVC_MAIL_FROM's address under the organization's sender name, else its
 * name, else SVC_MAIL_FROM as configured (docs/decisions/050-organization-identity.md).
 */
export function senderOf(mailFrom: string, organization: Pick<Organization, 'name' | 'mailSenderName'>): string | { name: string; address: string } {
  const name = organization.mailSenderName.trim() || organization.name.trim();
  return name ? { name, address: senderAddress(mailFrom) } : mailFrom;
}

export interface QueueMailOptions {
  sendAtUtc?: string;
  /** While a job of this key is queued, nothing is written. */
  dedupeKey?: string;
  /** Ever: a mail with this key is written once, however often its cause is replayed (crash recovery). */
  onceKey?: string;
}

/**
 * Writes a message to the outbox and queues its delivery, both in one transaction (a savepoint
 * inside the caller's). Pass the transaction that causes the mail: it is sent only if that
 * transaction commits. With a dedupe key that is already queued, or a once key already used,
 * nothing is written and null comes back (never an outbox row without its job).
 */
export async function queueMail(db: Db, message: MailMessage, opts: QueueMailOptions = {}): Promise<number | null> {
  const attachments: StoredAttachment[] = (message.attachments ?? []).map((a) =>
    'render' in a
      ? { filename: a.filename, contentType: a.contentType, content: '', render: a.render }
      : {
          filename: a.filename,
          contentType: a.contentType,
          content: Buffer.isBuffer(a.content) ? a.content.toString('base64') : Buffer.from(a.content, 'utf8').toString('base64'),
        },
  );
  // Every mail is multipart: text and HTML from the same content (docs/decisions/026-mail-html-layout.md).
  const language = message.language ?? DEFAULT_LOCALE;
  const html = mailHtml(message.html ?? textToHtml(message.text, message.linkOrigin, message.links), language);
  if (!opts.dedupeKey) {
    // The usual case, one statement (a sign-up's ticket mail in a rush): the mail and its send job
    // together or neither; without a dedupe key the job's insert cannot conflict.
    const [row] = await queryRows<{ id: number }>(
      db,
      sql`with mail as (
            insert into ${outbox} (to_address, subject, text, html, language, attachments, topic, once_key)
            values (${message.to}, ${message.subject}, ${message.text}, ${html}, ${language}, ${JSON.stringify(attachments)}::jsonb,
                    ${message.topic ?? null}, ${opts.onceKey ?? null})
            on conflict do nothing
            returning id),
          job as (
            insert into ${jobs} (type, payload, run_at_utc)
            select ${MAIL_SEND_JOB}, jsonb_build_object('outboxId', mail.id), ${opts.sendAtUtc ? sql`${opts.sendAtUtc}::timestamp` : nowUtc} from mail
            returning id)
          select mail.id from mail, job`,
    );
    return row ? Number(row.id) : null;
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(outbox)
      .values({
        toAddress: message.to,
        subject: message.subject,
        text: message.text,
        html,
        language,
        attachments,
        topic: message.topic ?? null,
        onceKey: opts.onceKey ?? null,
      })
      .onConflictDoNothing()
      .returning({ id: outbox.id });
    if (!row) return null;
    const jobId = await enqueueJob(tx, MAIL_SEND_JOB, { outboxId: row.id }, { runAtUtc: opts.sendAtUtc, dedupeKey: opts.dedupeKey });
    if (jobId === null) {
      await tx.delete(outbox).where(eq(outbox.id, row.id));
      return null;
    }
    return row.id;
  });
}

/** Withdraws queued, unsent mail of a topic (e.g. a cancelled booking's reminders). */
export async function cancelQueuedMail(db: Db, topic: string): Promise<number> {
  const rows = await db
    .update(outbox)
    .set({ state: 'cancelled' })
    .where(and(eq(outbox.topic, topic), eq(outbox.state, 'queued')))
    .returning({ id: outbox.id });
  return rows.length;
}

/**
 * Cancel and manage tokens, invite tokens and ticket codes are long opaque runs (24 characters
 * and more); the outbox view shows them masked, so an administrator's screen or an API token
 * never reads a visitor's capability. The mail itself (SMTP, the .eml file) keeps them.
 */
const SECRET_RUN = /[A-Za-z0-9_-]{24,}/g;
export const MASK = '••••••';
export function maskSecrets(text: string): string {
  return text.replace(SECRET_RUN, MASK);
}

export async function listOutbox(
  db: Db,
  page: number,
  perPage: number,
  filter: { to?: string; topic?: string } = {},
): Promise<{ items: OutboxItem[]; total: number }> {
  const where = and(filter.to ? sql`lower(${outbox.toAddress}) = lower(${filter.to})` : undefined, filter.topic ? eq(outbox.topic, filter.topic) : undefined);
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(outbox)
      .where(where)
      .orderBy(desc(outbox.id))
      .limit(perPage)
      .offset((page - 1) * perPage),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(outbox)
      .where(where),
  ]);
  return {
    total: count!.n,
    items: rows.map((r) => ({
      id: r.id,
      to: r.toAddress,
      subject: r.subject,
      text: maskSecrets(r.text),
      html: r.html === null ? null : maskSecrets(r.html),
      attachments: r.attachments.map(({ filename, contentType }) => ({ filename, contentType })),
      state: r.state,
      createdUtc: r.createdUtc,
      sentUtc: r.sentUtc,
    })),
  };
}

export const PRUNE_OUTBOX_JOB = 'mail.prune_outbox';
/** Sent mail is kept this long by default (SVC_OUTBOX_RETENTION_DAYS), then dropped; failed mail is kept. */
export const DEFAULT_OUTBOX_RETENTION_DAYS = 30;

/** Drops mail sent, saved or withdrawn more than `keepDays` ago; answers how many. Failed and queued mail stay. */
export async function pruneOutbox(db: Db, keepDays: number, nowMs = Date.now()): Promise<number> {
  const rows = await db
    .delete(outbox)
    .where(
      and(
        inArray(outbox.state, ['sent', 'saved', 'cancelled']),
        sql`coalesce(${outbox.sentUtc}, ${outbox.createdUtc}) < ${toUtcString(nowMs - keepDays * 86_400_000)}::timestamp`,
      ),
    )
    .returning({ id: outbox.id });
  return rows.length;
}

/** Hourly, on whichever instance claims it: the outbox keeps what is pending, failed or recent. */
export function registerOutboxPruning(runner: JobRunner, db: Db, keepDays: number): void {
  runner.every(PRUNE_OUTBOX_JOB, 3_600_000, async (_payload, job) => {
    const dropped = await pruneOutbox(db, keepDays);
    if (dropped) job.logger.info({ dropped }, 'old mail pruned from the outbox');
  });
}

/** A stored mail's files as they go out: stored bytes decoded, rendered ones made now (and left out when their renderer says so). */
async function attachmentsToSend(stored: StoredAttachment[], renderers: AttachmentRenderers) {
  const files: Array<{ filename: string; contentType: string; content: Buffer }> = [];
  for (const a of stored) {
    if (!a.render) {
      files.push({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content, 'base64') });
      continue;
    }
    const renderer = renderers[a.render.kind];
    if (!renderer) throw new Error(`no renderer for the attachment kind "${a.render.kind}"`);
    const content = await renderer(a.render.id);
    if (content) files.push({ filename: a.filename, contentType: a.contentType, content });
  }
  return files;
}

/** The Content-ID the mail's header names the logo by (`cid:`). */
export const LOGO_CID = 'organization-logo@svc';

/** The logo as a file of the mail, shown inline where the header names it, not as an attachment to save. */
function logoAttachment(logo: LogoJpeg) {
  return { filename: 'logo.jpg', contentType: 'image/jpeg', content: logo.bytes, cid: LOGO_CID, contentDisposition: 'inline' as const };
}

/** Delivers outbox rows: over SMTP when SMTP_URL is set, else as .eml files under the data dir. */
export function registerMailJobs(
  runner: JobRunner,
  opts: { smtpUrl?: string; from: string; mailDir: string; renderers?: AttachmentRenderers },
): { close(): void } {
  const transport: Transporter = opts.smtpUrl
    ? nodemailer.createTransport(opts.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  runner.register(MAIL_SEND_JOB, async (payload, { db }) => {
    const id = Number(payload.outboxId);
    const [row] = await db.select().from(outbox).where(eq(outbox.id, id));
    // A message already delivered (a retried job) or withdrawn is not sent again.
    if (row?.state !== 'queued') return;
    const attachments = await attachmentsToSend(row.attachments, opts.renderers ?? {});
    // older rows have no language: they were written in English
    const language = matchLocale(row.language) ?? DEFAULT_LOCALE;
    const organization = await readOrganization(db);
    // the logo, like the name, is the one of the day the mail leaves: read now, not stored in the
    // row (docs/decisions/050-organization-identity.md); a row without the header slot gets none
    const logo = row.html?.includes(MAIL_HEADER_SLOT) ? await readLogoJpeg(db) : null;
    const html =
      row.html === null
        ? undefined
        : brandMailHtml(row.html, organization, language, logo && { src: `cid:${LOGO_CID}`, ...mailLogoSize(logo.width, logo.height) });
    const info = await transport.sendMail({
      from: senderOf(opts.from, organization),
      to: row.toAddress,
      subject: row.subject,
      text: row.text,
      html,
      headers: { 'Content-Language': language },
      attachments: logo ? [logoAttachment(logo), ...attachments] : attachments,
    });
    let state: OutboxState = 'sent';
    if (!opts.smtpUrl) {
      await mkdir(opts.mailDir, { recursive: true });
      await writeFile(path.join(opts.mailDir, `${id}.eml`), (info as unknown as { message: Buffer }).message);
      state = 'saved';
    }
    await db.update(outbox).set({ state, sentUtc: nowUtc, error: null }).where(eq(outbox.id, id));
  });
  return { close: () => transport.close() };
}
