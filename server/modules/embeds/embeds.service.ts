/**
 * Settings → Embeds (docs/decisions/052-embeds.md): the origins an administrator allows to frame
 * the embeddable pages, joined with the operator's SVC_EMBED_ORIGINS into the pages'
 * `frame-ancestors`. The list is read on every embeddable page, so it is kept in memory per
 * database: a save refreshes it at once, another process's save is seen within EMBED_ORIGINS_TTL_MS.
 */
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { normalizeOrigin, type EmbedSettings, type EmbedSettingsDto } from '../../../shared/embeds';
import { SETTING_KEYS, settingsRepository } from '../settings/settings.repository';

export const EMBED_ORIGINS_TTL_MS = 30_000;

const cached = new WeakMap<Db, { origins: string[]; readAtMs: number }>();

/** A stored value as origins; anything else (never saved, hand-edited) is none. */
function asOrigins(stored: unknown): string[] {
  if (!Array.isArray(stored)) return [];
  return stored.map((value) => (typeof value === 'string' ? normalizeOrigin(value) : null)).filter((origin): origin is string => origin !== null);
}

async function savedOrigins(db: Db, nowMs = Date.now()): Promise<string[]> {
  const known = cached.get(db);
  if (known && nowMs - known.readAtMs < EMBED_ORIGINS_TTL_MS) return known.origins;
  const origins = asOrigins(await settingsRepository.readOne(db, SETTING_KEYS.embedOrigins));
  cached.set(db, { origins, readAtMs: nowMs });
  return origins;
}

/** Every origin allowed to frame the embeddable pages: the operator's and the administrator's, each once. */
export async function allowedEmbedOrigins(ctx: Pick<AppContext, 'db' | 'env'>): Promise<string[]> {
  return [...new Set([...ctx.env.embedOrigins, ...(await savedOrigins(ctx.db))])];
}

export function embedsService(ctx: Pick<AppContext, 'db' | 'env'>) {
  async function get(): Promise<EmbedSettingsDto> {
    return { origins: asOrigins(await settingsRepository.readOne(ctx.db, SETTING_KEYS.embedOrigins)), operatorOrigins: ctx.env.embedOrigins };
  }

  /** Replaces the saved list (the input is already normalized by ZEmbedOrigin); duplicates are kept once. */
  async function update(input: EmbedSettings): Promise<EmbedSettingsDto> {
    const origins = [...new Set(input.origins)];
    await settingsRepository.write(ctx.db, SETTING_KEYS.embedOrigins, origins);
    cached.set(ctx.db, { origins, readAtMs: Date.now() });
    return get();
  }

  return { get, update };
}
