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
} as const;

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
}

export const settingsRepository = {
  async read(db: Db): Promise<StoredSettings> {
    const rows = await db
      .select()
      .from(settings)
      .where(inArray(settings.key, Object.values(SETTING_KEYS)));
    const byKey = new Map(rows.map((r) => [r.key, r.value]));
    return {
      currency: byKey.get(SETTING_KEYS.currency),
      locationLabels: byKey.get(SETTING_KEYS.locationLabels),
      paymentHoldHours: byKey.get(SETTING_KEYS.paymentHoldHours),
      chatWebhookUrl: byKey.get(SETTING_KEYS.chatWebhookUrl),
      defaultLanguage: byKey.get(SETTING_KEYS.defaultLanguage),
      sellerName: byKey.get(SETTING_KEYS.sellerName),
      sellerAddress: byKey.get(SETTING_KEYS.sellerAddress),
      sellerTaxId: byKey.get(SETTING_KEYS.sellerTaxId),
      defaultTimeZone: byKey.get(SETTING_KEYS.defaultTimeZone),
    };
  },

  /** One key's stored value (undefined when never saved). */
  async readOne(db: Db, key: (typeof SETTING_KEYS)[keyof typeof SETTING_KEYS]): Promise<unknown> {
    const rows = await db.select().from(settings).where(eq(settings.key, key));
    return rows[0]?.value;
  },

  async write(db: Db, key: (typeof SETTING_KEYS)[keyof typeof SETTING_KEYS], value: unknown): Promise<void> {
    await db
      .insert(settings)
      .values({ key, value })
      .onConflictDoUpdate({ target: settings.key, set: { value: sql`excluded.value` } });
  },
};
