/**
 * Which language a person is written to (docs/decisions/027-languages.md, "Mails"): the language
 * is chosen once, when they sign up, book or order, negotiated from that request exactly as the
 * pages are, and stored on the row. Every later mail (a job, an admin's action, a plugin) reads
 * it from the row, never from whoever's request causes the mail.
 */
import { eq, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { settings } from '../security/security.sql';
import { matchLocale, negotiateLocale, type Locale } from '../../shared/i18n/locales';
import { namesSpokenLocale, type RequestLanguage } from '../i18n/request-language';

export { requestLanguage, type RequestLanguage } from '../i18n/request-language';

/** The organization's default language setting (Settings); until the settings API reads it, read here. */
export const DEFAULT_LANGUAGE_SETTING = 'default_language';

/** The organization's default language, or null when none (or none svc speaks) is set. */
export async function organizationLanguage(db: Db): Promise<Locale | null> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, DEFAULT_LANGUAGE_SETTING));
  return typeof row?.value === 'string' ? matchLocale(row.value) : null;
}

/**
 * The language to store on a new sign-up, booking or order: the request's own choice, then the
 * event's language, then the organization's default, then English. Without a request (an
 * administrator entering it) only the last three speak.
 */
export async function languageForNewRow(db: Db, request: RequestLanguage | undefined, eventLanguage?: string | null): Promise<Locale> {
  // the organization's default is read only when nothing before it decides (a sign-up rush pays no extra query)
  const orgDefault = namesSpokenLocale(request, eventLanguage) ? null : await organizationLanguage(db);
  return negotiateLocale({ ...request, eventLocale: eventLanguage, orgDefault });
}

/** The language a mail to a stored row is written in: the row's, then the event's, then the organization's, then English. */
export async function recipientLanguage(db: Db, stored: string | null | undefined, eventLanguage?: string | null): Promise<Locale> {
  const own = matchLocale(stored) ?? matchLocale(eventLanguage);
  if (own) return own;
  return negotiateLocale({ orgDefault: await organizationLanguage(db) });
}

/**
 * The language of the person at `email`, for a mail that is not about one stored row (a plugin's
 * own message): the language of their newest sign-up, booking, order or account, then the
 * organization's default, then English. The address is the person, as everywhere in svc.
 */
export async function languageOfAddress(db: Db, email: string): Promise<Locale> {
  const [row] = await queryRows<{ language: string }>(
    db,
    sql`select language from (
          select language, created_utc from svc_attendees where lower(email) = lower(${email}) and language is not null
          union all select language, created_utc from svc_bookings where lower(customer_email) = lower(${email}) and language is not null
          union all select language, created_utc from svc_orders where lower(email) = lower(${email}) and language is not null
          union all select language, created_utc from svc_users where lower(email) = lower(${email}) and language is not null
        ) known order by created_utc desc limit 1`,
  );
  return recipientLanguage(db, row?.language ?? null);
}
