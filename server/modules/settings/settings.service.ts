import type { AppContext } from '../../context';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client';
import { AppError } from '../../../shared/errors';
import { DEFAULT_LOCALE } from '../../../shared/i18n/locales';
import type { SettingsDto, SettingsPatch } from '../../../shared/booking';
import {
  applyContractFilter,
  DEFAULT_CURRENCY,
  DEFAULT_LOCATION_LABELS,
  DEFAULT_PAYMENT_HOLD_HOURS,
  normalizeCurrency,
  type LocationLabels,
} from '../../hooks';
import { assertTargetAllowed, outboundPolicy } from '../../security/outbound';
import { SETTING_KEYS, settingsRepository, type StoredSettings } from './settings.repository';
import { asDefaultLanguage, rememberDefaultLanguage } from './default-language';
import { forgetOrganization } from './organization.service';
import { isValidTimeZone } from '../../../shared/time';

/**
 * Site settings (Settings > General): currency, location labels, payment hold window; in the
 * extended edition (`env` given and extended) also the team chat's default address.
 */
export function settingsService(ctx: Pick<AppContext, 'db' | 'hooks'> & Partial<Pick<AppContext, 'env'>>) {
  const { db, hooks } = ctx;
  const extended = ctx.env?.SVC_EDITION === 'extended';
  async function stored() {
    return settingsRepository.read(db);
  }

  /** The currency every amount is printed in: stored value (default USD) through `svc_currency`. */
  async function currency(given?: Awaited<ReturnType<typeof stored>>): Promise<string> {
    const s = given ?? (await stored());
    return applyContractFilter(hooks, 'svc_currency', normalizeCurrency(s.currency ?? DEFAULT_CURRENCY));
  }

  /** Defaults, overridden by the saved labels, then `svc_booking_location_labels`. */
  async function locationLabels(): Promise<LocationLabels> {
    const s = await stored();
    const saved = isRecord(s.locationLabels) ? s.locationLabels : {};
    return applyContractFilter(hooks, 'svc_booking_location_labels', { ...DEFAULT_LOCATION_LABELS, ...saved } as LocationLabels);
  }

  async function paymentHoldHours(): Promise<number> {
    const s = await stored();
    const saved = typeof s.paymentHoldHours === 'number' ? s.paymentHoldHours : DEFAULT_PAYMENT_HOLD_HOURS;
    return applyContractFilter(hooks, 'svc_booking_payment_hold_hours', saved);
  }

  /**
   * Whether anything already carries a price or took money: its amounts are in the current
   * currency, so that currency counts as chosen and the form never proposes another one, which a
   * save would relabel without converting (docs/decisions/048-first-run.md).
   */
  async function currencyInUse(): Promise<boolean> {
    const [row] = await queryRows<{ used: boolean }>(
      db,
      sql`select (exists (select 1 from svc_events where price_cents > 0)
               or exists (select 1 from svc_ticket_categories where price_cents > 0)
               or exists (select 1 from svc_booking_types where price_cents > 0)
               or exists (select 1 from svc_payments)) as used`,
    );
    return Boolean(row?.used);
  }

  async function get(): Promise<SettingsDto> {
    const [c, labels, hold, s, inUse] = await Promise.all([currency(), locationLabels(), paymentHoldHours(), stored(), currencyInUse()]);
    const dto: SettingsDto = {
      currency: c,
      locationLabels: labels,
      paymentHoldHours: hold,
      defaultLanguage: asDefaultLanguage(s.defaultLanguage),
      ...sellerOf(s),
      ...regionalOf(s, inUse),
    };
    if (extended) {
      const chat = (await stored()).chatWebhookUrl;
      dto.chatWebhookUrl = typeof chat === 'string' ? chat : '';
    }
    return dto;
  }

  async function update(patch: SettingsPatch): Promise<SettingsDto> {
    // The free edition has no team chat: the key is ignored like any unknown one.
    if (extended && patch.chatWebhookUrl) assertTargetAllowed(patch.chatWebhookUrl, outboundPolicy(ctx.env!), 'chatWebhookUrl');
    if (patch.currency !== undefined) await settingsRepository.write(db, SETTING_KEYS.currency, normalizeCurrency(patch.currency));
    if (patch.locationLabels !== undefined) {
      // A PATCH merges into the saved overrides; an empty object resets them to the defaults.
      const current = await stored();
      const saved = isRecord(current.locationLabels) ? current.locationLabels : {};
      const next = Object.keys(patch.locationLabels).length === 0 ? {} : { ...saved, ...patch.locationLabels };
      await settingsRepository.write(db, SETTING_KEYS.locationLabels, next);
    }
    if (patch.paymentHoldHours !== undefined) {
      if (patch.paymentHoldHours < 1) throw new AppError('svc_invalid_param', undefined, { params: { paymentHoldHours: 'must be at least 1' } });
      await settingsRepository.write(db, SETTING_KEYS.paymentHoldHours, patch.paymentHoldHours);
    }
    if (extended && patch.chatWebhookUrl !== undefined) await settingsRepository.write(db, SETTING_KEYS.chatWebhookUrl, patch.chatWebhookUrl);
    for (const field of ['sellerName', 'sellerAddress', 'sellerTaxId'] as const) {
      if (patch[field] !== undefined) await settingsRepository.write(db, SETTING_KEYS[field], patch[field]);
    }
    // the seller's name is the organization's (docs/decisions/050-organization-identity.md)
    if (patch.sellerName !== undefined) forgetOrganization();
    if (patch.defaultTimeZone !== undefined) await settingsRepository.write(db, SETTING_KEYS.defaultTimeZone, patch.defaultTimeZone);
    if (patch.defaultLanguage !== undefined) {
      // null puts English back, the language every page falls back to
      const language = patch.defaultLanguage ?? DEFAULT_LOCALE;
      await settingsRepository.write(db, SETTING_KEYS.defaultLanguage, language);
      rememberDefaultLanguage(db, language);
    }
    return get();
  }

  /** The seller receipts and mails name (each '' when not set). */
  async function seller(): Promise<Seller> {
    return sellerOf(await stored());
  }

  /** Both, from one read of the settings (a mail's price lines). */
  async function currencyAndSeller(): Promise<{ currency: string; seller: Seller }> {
    const s = await stored();
    return { currency: await currency(s), seller: sellerOf(s) };
  }

  return { get, update, currency: () => currency(), locationLabels, paymentHoldHours, seller, currencyAndSeller };
}

export type SettingsService = ReturnType<typeof settingsService>;

/** The seller's name, address and tax id as Settings hold them. */
export interface Seller {
  sellerName: string;
  sellerAddress: string;
  sellerTaxId: string;
}

function sellerOf(s: StoredSettings): Seller {
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return { sellerName: text(s.sellerName), sellerAddress: text(s.sellerAddress), sellerTaxId: text(s.sellerTaxId) };
}

/**
 * The organization's zone and whether the currency and the zone were ever saved: a key is written
 * only by a save, so its presence is the administrator's choice; a currency that prices are
 * already in counts as chosen too (docs/decisions/048-first-run.md).
 */
export function regionalOf(s: StoredSettings, currencyInUse = false): { defaultTimeZone: string; currencyChosen: boolean; defaultTimeZoneChosen: boolean } {
  const zone = typeof s.defaultTimeZone === 'string' && isValidTimeZone(s.defaultTimeZone) ? s.defaultTimeZone : null;
  return { defaultTimeZone: zone ?? DEFAULT_TIME_ZONE, currencyChosen: typeof s.currency === 'string' || currencyInUse, defaultTimeZoneChosen: zone !== null };
}

/** The organization's zone until an administrator chooses one. */
export const DEFAULT_TIME_ZONE = 'UTC';

function isRecord(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
