/** Zod building blocks every domain's schemas share (server and PWA alike). */
import { z } from 'zod';
import { isUtcString, isValidTimeZone, parseUtcDate } from './time';
import { LOCALES } from './i18n/locales';

/** The contract's time format: UTC `Y-m-d H:i:s`. */
export const ZUtcDateTime = z.string().refine(isUtcString, 'must be a UTC time in Y-m-d H:i:s format');
/** A UTC day `Y-m-d`. */
export const ZUtcDay = z.string().refine((v) => parseUtcDate(v) !== null, 'must be a Y-m-d day');
export const ZTimeZone = z.string().max(64).refine(isValidTimeZone, 'must be an IANA time zone');
/** An integer id as JSON carries it (path ids are coerced by the REST layer's ZId). */
export const ZPositiveId = z.number().int().positive().max(2_147_483_647);
/** The same id in a query string, where it arrives as text. */
export const ZQueryId = z.coerce.number().int().positive().max(2_147_483_647);
export const ZEmail = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email({ message: 'must be a valid email address' }));

/** A language svc speaks (shared/i18n/locales.ts), exactly as listed: `de`, `pt-BR` (docs/decisions/027-languages.md). */
export const ZLanguage = z.enum(LOCALES, { error: `must be one of ${LOCALES.join(', ')}` });
