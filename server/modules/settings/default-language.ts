/**
 * The organization's default language (Settings), read on every page shell and by every mail
 * without a person's own language (docs/decisions/027-languages.md). It is one row that changes
 * rarely, so it is kept in memory per database: a write through Settings refreshes it at once,
 * and a change made by another process is seen within DEFAULT_LANGUAGE_TTL_MS.
 */
import type { Db } from '../../db/client';
import { DEFAULT_LOCALE, matchLocale, type Locale } from '../../../shared/i18n/locales';
import { SETTING_KEYS, settingsRepository } from './settings.repository';

export const DEFAULT_LANGUAGE_TTL_MS = 30_000;

const cached = new WeakMap<Db, { locale: Locale; readAtMs: number }>();

/** A stored value as a locale svc speaks; anything else (never saved, hand-edited) is English. */
export function asDefaultLanguage(stored: unknown): Locale {
  return (typeof stored === 'string' ? matchLocale(stored) : null) ?? DEFAULT_LOCALE;
}

/** The organization's default language, from memory when read in the last DEFAULT_LANGUAGE_TTL_MS. */
export async function readDefaultLanguage(db: Db, nowMs = Date.now()): Promise<Locale> {
  const known = cached.get(db);
  if (known && nowMs - known.readAtMs < DEFAULT_LANGUAGE_TTL_MS) return known.locale;
  const locale = asDefaultLanguage(await settingsRepository.readOne(db, SETTING_KEYS.defaultLanguage));
  cached.set(db, { locale, readAtMs: nowMs });
  return locale;
}

/** Called after Settings saved a new default: this process answers with it from the next request. */
export function rememberDefaultLanguage(db: Db, locale: Locale, nowMs = Date.now()): void {
  cached.set(db, { locale, readAtMs: nowMs });
}
