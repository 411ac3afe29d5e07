/**
 * Cover images and the organization's logo (docs/api.md#images, docs/decisions/049-cover-images.md).
 * An upload is judged by its bytes (not its name or Content-Type), bounded in size and pixels,
 * and re-encoded by sharp into WebP variants of a few widths plus one JPEG — re-encoding keeps
 * no EXIF (camera, GPS position) or anything else hidden in the file. The variants are stored
 * in the same transaction that points the event, booking type or logo at them.
 */
import { forgetOrganization } from '../settings/organization.service';
import { SETTING_KEYS } from '../settings/settings.repository';
import { createHash } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { AppError } from '../../../shared/errors';
import { IMAGE_MAX_BYTES, IMAGE_MAX_SIDE, IMAGE_MIN_SIDE, IMAGE_WIDTHS, imageDto, type ImageDto, type StoredImage } from '../../../shared/images';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { nowUtc } from '../../db/columns';
import { events } from '../events/events.sql';
import { bookingTypes } from '../booking/booking.sql';
import { settings } from '../../security/security.sql';
import { imageVariants } from './images.sql';

/** The svc_settings key of the organization's logo (a StoredImage). */
export const LOGO_SETTING_KEY = SETTING_KEYS.logo;

const WEBP_QUALITY = 80;
const JPEG_QUALITY = 82;
/** sharp refuses to decode more pixels than this (a small file can claim a huge canvas). */
const MAX_INPUT_PIXELS = 50_000_000;

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** What the first bytes say the file is; anything else is refused whatever its name or header. */
export function sniffImage(bytes: Uint8Array): 'image/jpeg' | 'image/png' | 'image/webp' | null {
  const at = (i: number, ...values: number[]) => values.every((v, k) => bytes[i + k] === v);
  if (at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp';
  return null;
}

const notAnImage = (problem: string) => new AppError('svc_unsupported_media_type', `The image ${problem}.`, { params: { image: problem } });

const badImage = (problem: string) => new AppError('svc_invalid_param', 'Invalid parameter(s): image', { params: { image: problem } });

interface Variant {
  width: number;
  height: number;
  format: 'webp' | 'jpg';
  bytes: Buffer;
}

/**
 * The upload checked and made into its variants (nothing stored yet). A logo (`smallJpeg`) also
 * gets a JPEG at the smallest width: mails attach it and PDF tickets embed it, where WebP is not
 * read and the largest JPEG would weigh a mail down (docs/decisions/050-organization-identity.md).
 */
export async function makeVariants(bytes: Uint8Array, opts: { smallJpeg?: boolean } = {}): Promise<{ stored: StoredImage; variants: Variant[] }> {
  if (bytes.length === 0) throw badImage('is empty');
  if (bytes.length > IMAGE_MAX_BYTES) throw new AppError('svc_payload_too_large', 'The image is larger than 8 MB.', { maxBytes: IMAGE_MAX_BYTES });
  if (!sniffImage(bytes)) throw notAnImage('must be a JPEG, PNG or WebP file (judged by its content)');
  const input = () => sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
  let side: { width: number; height: number };
  try {
    const meta = await input().metadata();
    // orientations 5–8 turn the picture a quarter: its sides swap once rotated upright
    const turned = (meta.orientation ?? 1) >= 5;
    side = turned ? { width: meta.height, height: meta.width } : { width: meta.width, height: meta.height };
  } catch (err) {
    throw new AppError('svc_unsupported_media_type', 'The image could not be read.', { params: { image: 'could not be read as an image' } }, { cause: err });
  }
  if (Math.min(side.width, side.height) < IMAGE_MIN_SIDE) throw badImage(`must be at least ${IMAGE_MIN_SIDE} pixels on each side`);
  if (Math.max(side.width, side.height) > IMAGE_MAX_SIDE) throw badImage(`must be at most ${IMAGE_MAX_SIDE} pixels on each side`);

  const widths: number[] = IMAGE_WIDTHS.filter((w) => w <= side.width);
  if (widths.length === 0) widths.push(side.width);
  const heightAt = (w: number) => Math.max(1, Math.round((side.height * w) / side.width));
  const variants: Variant[] = [];
  try {
    for (const width of widths) {
      const out = await input()
        .rotate()
        .resize({ width, height: heightAt(width), fit: 'fill' })
        .webp({ quality: WEBP_QUALITY })
        .toBuffer();
      variants.push({ width, height: heightAt(width), format: 'webp', bytes: out });
    }
    const largest = widths[widths.length - 1]!;
    const jpegWidths = opts.smallJpeg && widths[0] !== largest ? [widths[0]!, largest] : [largest];
    for (const width of jpegWidths) {
      const jpeg = await input()
        .rotate()
        .resize({ width, height: heightAt(width), fit: 'fill' })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: JPEG_QUALITY, mozjpeg: true })
        .toBuffer();
      variants.push({ width, height: heightAt(width), format: 'jpg', bytes: jpeg });
    }
  } catch (err) {
    throw new AppError('svc_unsupported_media_type', 'The image could not be read.', { params: { image: 'could not be read as an image' } }, { cause: err });
  }
  const largest = widths[widths.length - 1]!;
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
  return { stored: { hash, width: largest, height: heightAt(largest), widths }, variants };
}

async function storeVariants(tx: Tx, hash: string, variants: Variant[]): Promise<void> {
  await tx
    .insert(imageVariants)
    .values(variants.map((v) => ({ hash, ...v })))
    .onConflictDoNothing();
}

/**
 * Removes the variants no event, booking type or logo names any longer (a replaced or removed
 * image, or one of a deleted event). A variant inserted by a transaction still open is not seen
 * here, so an upload in flight never loses its variants.
 */
async function dropUnnamed(tx: Tx): Promise<void> {
  await tx.execute(sql`
    delete from ${imageVariants} v
    where not exists (select 1 from ${events} e where e.cover_image ->> 'hash' = v.hash)
      and not exists (select 1 from ${bookingTypes} b where b.cover_image ->> 'hash' = v.hash)
      and not exists (select 1 from ${settings} s where s.key = ${LOGO_SETTING_KEY} and s.value ->> 'hash' = v.hash)`);
}

/** The logo as mails and PDF tickets carry it: its smallest stored JPEG, with that JPEG's size in pixels. */
export interface LogoJpeg {
  bytes: Buffer;
  width: number;
  height: number;
}

/**
 * The organization's logo as a JPEG, or null when it has none. Read when a mail is sent or a
 * ticket rendered, so both show the logo of that moment (docs/decisions/050-organization-identity.md).
 * The smallest JPEG stored: a logo uploaded before logos got a small one has only its largest.
 */
export async function readLogoJpeg(db: Db): Promise<LogoJpeg | null> {
  const [row] = await db
    .select({ bytes: imageVariants.bytes, width: imageVariants.width, height: imageVariants.height })
    .from(settings)
    .innerJoin(imageVariants, and(eq(imageVariants.hash, sql`${settings.value} ->> 'hash'`), eq(imageVariants.format, 'jpg')))
    .where(eq(settings.key, LOGO_SETTING_KEY))
    .orderBy(asc(imageVariants.width))
    .limit(1);
  return row ?? null;
}

/** Apple's logo box on a pass: at most 160 × 50 points; the file at 1× and at 2×. */
const WALLET_LOGO_BOX = { width: 160, height: 50 };

/**
 * The organization's logo as a Wallet pass's `logo.png` and `logo@2x.png` (a pass takes PNG
 * only), fitted into Apple's logo box from the logo's smallest JPEG; null without a logo
 * (docs/decisions/050-organization-identity.md).
 */
export async function walletLogo(db: Db): Promise<{ png: Buffer; png2x: Buffer } | null> {
  const logo = await readLogoJpeg(db);
  if (!logo) return null;
  const fitted = (scale: number) =>
    sharp(logo.bytes)
      .resize({ width: WALLET_LOGO_BOX.width * scale, height: WALLET_LOGO_BOX.height * scale, fit: 'inside', withoutEnlargement: true })
      .png()
      .toBuffer();
  const [png, png2x] = await Promise.all([fitted(1), fitted(2)]);
  return { png, png2x };
}

export type ImageOwner = 'event' | 'bookingType';

async function setOwnerImage(tx: Tx, owner: ImageOwner, id: number, stored: StoredImage | null): Promise<void> {
  const rows =
    owner === 'event'
      ? await tx.update(events).set({ coverImage: stored, updatedUtc: nowUtc }).where(eq(events.id, id)).returning({ id: events.id })
      : await tx.update(bookingTypes).set({ coverImage: stored, updatedUtc: nowUtc }).where(eq(bookingTypes.id, id)).returning({ id: bookingTypes.id });
  if (rows.length === 0) throw new AppError('svc_not_found', owner === 'event' ? 'No such event.' : 'No such booking type.');
}

export function imagesService(ctx: AppContext) {
  const { db } = ctx;

  return {
    /** PUT /events/{id}/image, /booking-types/{id}/image: the new cover replaces the old one. */
    async setCover(owner: ImageOwner, id: number, bytes: Uint8Array): Promise<ImageDto> {
      const { stored, variants } = await makeVariants(bytes);
      await db.transaction(async (tx) => {
        await storeVariants(tx, stored.hash, variants);
        await setOwnerImage(tx, owner, id, stored);
        await dropUnnamed(tx);
      });
      return imageDto(stored)!;
    },

    /** DELETE …/image: no cover (also when there was none). */
    async removeCover(owner: ImageOwner, id: number): Promise<void> {
      await db.transaction(async (tx) => {
        await setOwnerImage(tx, owner, id, null);
        await dropUnnamed(tx);
      });
    },

    /** PUT /settings/organization/logo. */
    async setLogo(bytes: Uint8Array): Promise<ImageDto> {
      const { stored, variants } = await makeVariants(bytes, { smallJpeg: true });
      await db.transaction(async (tx) => {
        await storeVariants(tx, stored.hash, variants);
        await tx
          .insert(settings)
          .values({ key: LOGO_SETTING_KEY, value: stored })
          .onConflictDoUpdate({ target: settings.key, set: { value: stored } });
        await dropUnnamed(tx);
      });
      // every page shell and mail reads the identity from memory: this one carries the new logo
      forgetOrganization();
      return imageDto(stored)!;
    },

    async removeLogo(): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(settings).where(eq(settings.key, LOGO_SETTING_KEY));
        await dropUnnamed(tx);
      });
      forgetOrganization();
    },

    /** One stored variant's bytes, or null. */
    async variant(hash: string, width: number, format: 'webp' | 'jpg'): Promise<Buffer | null> {
      const [row] = await db
        .select({ bytes: imageVariants.bytes })
        .from(imageVariants)
        .where(and(eq(imageVariants.hash, hash), eq(imageVariants.width, width), eq(imageVariants.format, format)));
      return row?.bytes ?? null;
    },
  };
}
