/**
 * Cover images and the organization's logo (docs/api.md#images, docs/decisions/049-cover-images.md):
 * what an upload may be, and the shape events, booking types and the logo are answered with.
 */
import { z } from 'zod';

/** The media types an upload may declare; its bytes decide what it really is. */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/** The largest upload. */
export const IMAGE_MAX_BYTES = 8 * 1024 * 1024;
/** The widths of the stored WebP variants (an image narrower than the first gets one at its own width). */
export const IMAGE_WIDTHS = [320, 640, 1280] as const;
/** The bounds of an upload's sides, in pixels. */
export const IMAGE_MIN_SIDE = 16;
export const IMAGE_MAX_SIDE = 10_000;

/** An image as pages show it: the largest variant, every variant for `srcset`, and its size for `width`/`height`. */
export const ZImageDto = z.object({
  /** `/media/{hash}-{w}.webp`, the largest variant. */
  url: z.string(),
  /** `"/media/{hash}-320.webp 320w, …"`. */
  srcset: z.string(),
  /** The largest variant's size in pixels (its aspect ratio is every variant's). */
  width: z.number().int(),
  height: z.number().int(),
  /** A description; when absent, pages use the event's or booking type's title. */
  alt: z.string().optional(),
});
export type ImageDto = z.infer<typeof ZImageDto>;

/** What an event, booking type or the logo setting keeps of its image; the variants live in svc_image_variants. */
export interface StoredImage {
  /** The content hash of the upload (hex): the variants' key and the stable part of their addresses. */
  hash: string;
  /** The largest variant's size. */
  width: number;
  height: number;
  /** The stored WebP widths, ascending. */
  widths: number[];
}

/**
 * The `sizes` of the covers the pages show: full width on an event page, half on the booking page
 * and the list's cards (the server's preload of a page's cover names the same).
 */
export const COVER_SIZES = {
  page: '(min-width: 48rem) 48rem, 100vw',
  half: '(min-width: 48rem) 24rem, 100vw',
} as const;

/** A variant's same-origin address (the content policy keeps img-src 'self'). */
export function mediaPath(hash: string, width: number, format: 'webp' | 'jpg' = 'webp'): string {
  return `/media/${hash}-${width}.${format}`;
}

/** The answer shape of a stored image, or null. */
export function imageDto(stored: StoredImage | null | undefined): ImageDto | null {
  if (!stored || stored.widths.length === 0) return null;
  const largest = stored.widths[stored.widths.length - 1]!;
  return {
    url: mediaPath(stored.hash, largest),
    srcset: stored.widths.map((w) => `${mediaPath(stored.hash, w)} ${w}w`).join(', '),
    width: stored.width,
    height: stored.height,
  };
}
