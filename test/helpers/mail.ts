/**
 * The mail as the outbox table holds it, secrets included (the REST outbox view masks them): for
 * tests that follow a link from an email, as the recipient would.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../server/db/client';

export interface StoredMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  state: string;
}

/** Every mail to `to` (any case), newest first; every mail when `to` is omitted. */
export function storedMails(db: Db, to?: string): Promise<StoredMail[]> {
  return queryRows<StoredMail>(
    db,
    sql`select id, to_address as "to", subject, text, html, state from svc_outbox
        where ${to === undefined ? sql`true` : sql`lower(to_address) = lower(${to})`} order by id desc`,
  );
}
