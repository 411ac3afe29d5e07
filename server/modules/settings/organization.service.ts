/**
 * The organization's identity (docs/decisions/050-organization-identity.md): name, accent colour,
 * contact address, privacy and imprint links, the mail sender's name. The name is the seller's
 * name of Settings (one setting, key `seller_name`), so receipts, tickets, passes, mails and the
 * first-run checklist all read the same value.
 *
 * Every page shell and every mail sent reads it, and it changes rarely: like the default language
 * it is kept in memory per database, refreshed at once by a save through this process and within
 * ORGANIZATION_TTL_MS after a save by another one.
 */
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { AppError } from '../../../shared/errors';
import { ACCENT_COLOR_RE, accentVerdict, MIN_ACCENT_CONTRAST, ACCENT_BACKGROUNDS, type Organization } from '../../../shared/organization';
import { imageDto, type StoredImage } from '../../../shared/images';
import { SETTING_KEYS, settingsRepository, type StoredSettings } from './settings.repository';

export const ORGANIZATION_TTL_MS = 30_000;

/** A stored logo as the images module writes it (anything else reads as none). */
function isStoredImage(value: unknown): value is StoredImage {
  const v = value as Partial<StoredImage> | null;
  return (
    typeof v === 'object' && v !== null && typeof v.hash === 'string' && Array.isArray(v.widths) && typeof v.width === 'number' && typeof v.height === 'number'
  );
}

const cached = new WeakMap<Db, { organization: Organization; readAtMs: number; generation: number }>();
// a save counts up: a request's database handle may not be the one the shells read through
let generation = 0;

/** The identity as stored; anything not a string (never saved, hand-edited) reads as not set. */
export function organizationOf(s: StoredSettings): Organization {
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const accent = text(s.accentColor).toLowerCase();
  return {
    name: text(s.sellerName),
    accentColor: ACCENT_COLOR_RE.test(accent) ? accent : null,
    contactEmail: text(s.contactEmail),
    privacyUrl: text(s.privacyUrl),
    imprintUrl: text(s.imprintUrl),
    mailSenderName: text(s.mailSenderName),
    logo: isStoredImage(s.logo) ? imageDto(s.logo) : null,
  };
}

/** The organization's identity, from memory when read in the last ORGANIZATION_TTL_MS. */
export async function readOrganization(db: Db, nowMs = Date.now()): Promise<Organization> {
  const known = cached.get(db);
  if (known && known.generation === generation && nowMs - known.readAtMs < ORGANIZATION_TTL_MS) return known.organization;
  const readGeneration = generation;
  const organization = organizationOf(await settingsRepository.read(db));
  cached.set(db, { organization, readAtMs: nowMs, generation: readGeneration });
  return organization;
}

/** After a save (here or through PATCH /settings' sellerName): this process answers with it from the next request. */
export function forgetOrganization(): void {
  generation += 1;
}

export function organizationService(ctx: Pick<AppContext, 'db'>) {
  const { db } = ctx;

  async function get(): Promise<Organization> {
    return organizationOf(await settingsRepository.read(db));
  }

  /** Replaces the identity; an accent under AA against the light backgrounds is refused, nothing stored. */
  async function put(input: Omit<Organization, 'logo'>): Promise<Organization> {
    if (input.accentColor) {
      const verdict = accentVerdict(input.accentColor);
      if (!verdict.passes) {
        throw new AppError('svc_invalid_param', undefined, {
          params: {
            accentColor: `contrast ${verdict.ratio}:1 is below ${MIN_ACCENT_CONTRAST}:1 (WCAG AA) against the page backgrounds ${ACCENT_BACKGROUNDS.join(', ')} and as a button under white text: choose a darker colour`,
          },
        });
      }
    }
    await db.transaction(async (tx) => {
      await settingsRepository.write(tx, SETTING_KEYS.sellerName, input.name);
      await settingsRepository.write(tx, SETTING_KEYS.accentColor, input.accentColor ?? ''); // '' = the theme's accent
      await settingsRepository.write(tx, SETTING_KEYS.contactEmail, input.contactEmail);
      await settingsRepository.write(tx, SETTING_KEYS.privacyUrl, input.privacyUrl);
      await settingsRepository.write(tx, SETTING_KEYS.imprintUrl, input.imprintUrl);
      await settingsRepository.write(tx, SETTING_KEYS.mailSenderName, input.mailSenderName);
    });
    forgetOrganization();
    return get();
  }

  return { get, put };
}
