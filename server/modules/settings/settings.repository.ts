import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { settings } from '../../security/security.sql';

/**
 * Site settings an administrator edits, stored as rows of `svc_settings`. Only these keys are
 * read or written here: the same table holds the server secret, which must never leave it.
 */
export const SETTING_KEYS = {
  currency: 'currency',
  locationLabels: 'location_labels',
  paymentHoldHours: 'payment_hold_hours',
  chatWebhookUrl: 'chat_webhook_url',
  defaultLanguage: 'default_language',
  sellerName: 'seller_name',
  sellerAddress: 'seller_address',
  sellerTaxId: 'seller_tax_id',
  defaultTimeZone: 'default_time_zone',
  embedOrigins: 'embed_origins',
  // the organization's identity (docs/decisions/050-organization-identity.md); its name is sellerName
  accentColor: 'organization_accent_color',
  contactEmail: 'organization_contact_email',
  privacyUrl: 'organization_privacy_url',
  imprintUrl: 'organization_imprint_url',
  mailSenderName: 'organization_mail_sender_name',
  // its image is written by the images module (PUT /settings/organization/logo)
  logo: 'organization_logo',
} as const;

export type SettingKey = (typeof SETTING_KEYS)[keyof typeof SETTING_KEYS];

/** The team chat's default address (extended edition), read by the chat listener and jobs too. */
export const CHAT_SETTING_KEY = SETTING_KEYS.chatWebhookUrl;

export interface StoredSettings {
  currency?: unknown;
  locationLabels?: unknown;
  paymentHoldHours?: unknown;
  chatWebhookUrl?: unknown;
  defaultLanguage?: unknown;
  sellerName?: unknown;
  sellerAddress?: unknown;
  sellerTaxId?: unknown;
  defaultTimeZone?: unknown;
  accentColor?: unknown;
  contactEmail?: unknown;
  privacyUrl?: unknown;
  imprintUrl?: unknown;
  mailSenderName?: unknown;
  logo?: unknown;
}

export const settingsRepository = {
  async read(db: Db): Promise<StoredSettings> {
    const rows = await db
      .select()
      .from(settings)
      .where(inArray(settings.key, Object.values(SETTING_KEYS)));
    const byKey = new Map(rows.map((r) => [r.key, r.value]));
    return Object.fromEntries(Object.entries(SETTING_KEYS).map(([field, key]) => [field, byKey.get(key)])) as StoredSettings;
  },

  /** One key's stored value (undefined when never saved). */
  async readOne(db: Db, key: SettingKey): Promise<unknown> {
    const rows = await db.select().from(settings).where(eq(settings.key, key));
    return rows[0]?.value;
  },

  async write(db: Db, key: SettingKey, value: unknown): Promise<void> {
    await db
      .insert(settings)
      .values({ key, value })
      .onConflictDoUpdate({ target: settings.key, set: { value: sql`excluded.value` } });
  },
};
