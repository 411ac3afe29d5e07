/**
 * Embeds (docs/decisions/052-embeds.md): the pages another website may show in an iframe, the
 * origins allowed to do so, and the query parameters embed.js passes to the framed page.
 */
import { z } from 'zod';

/** `?embed=1` turns a visitor page into its embedded form (no site header, height posted to the host). */
export const EMBED_PARAM = 'embed';
/** The host page's origin, which the framed page posts its height to. */
export const EMBED_HOST_PARAM = 'host';
/** The accent colour the embed is themed with (`#rrggbb`), until the organization's own colour is wired in. */
export const EMBED_ACCENT_PARAM = 'accent';
/** The message type the framed page posts: `{ type, height }`. */
export const EMBED_HEIGHT_MESSAGE = 'svc-embed-height';
/** At most this many allowed origins (the frame-ancestors header stays well under header limits). */
export const EMBED_ORIGINS_MAX = 50;

/** The pages that may be framed: the events list, one event's sign-up, a booking page. */
const EMBEDDABLE_PATHS = [/^\/events\/?$/, /^\/events\/\d+\/?$/, /^\/book\/\d+\/?$/];

/** Whether this request is for an embeddable page in its embedded form. */
export function isEmbeddablePage(pathname: string, search: URLSearchParams): boolean {
  return search.get(EMBED_PARAM) === '1' && EMBEDDABLE_PATHS.some((pattern) => pattern.test(pathname));
}

/**
 * An origin as a browser writes it in `Origin` and frame-ancestors: `https://host[:port]` or
 * `http://…`, lower case, no path, no default port. Null when `value` is not exactly such an origin.
 */
export function normalizeOrigin(value: string): string | null {
  const trimmed = value.trim();
  if (!/^https?:\/\/[^/?#@\s]+\/?$/i.test(trimmed)) return null;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return null;
  }
  if (url.username || url.password || !url.hostname) return null;
  // a frame-ancestors source may not contain these; a host name never does
  if (/[;,'"*]/.test(url.host)) return null;
  return url.origin;
}

export const ZEmbedOrigin = z
  .string()
  .max(300)
  .transform((value, ctx) => {
    const origin = normalizeOrigin(value);
    if (origin === null) {
      ctx.addIssue({ code: 'custom', message: `"${value.slice(0, 80)}" is not an origin like https://example.org or http://localhost:8080` });
      return z.NEVER;
    }
    return origin;
  });

/** Settings → Embeds: the origins allowed to frame the embeddable pages. */
export const ZEmbedSettings = z.object({
  origins: z.array(ZEmbedOrigin).max(EMBED_ORIGINS_MAX),
});
export type EmbedSettings = z.infer<typeof ZEmbedSettings>;

export const ZEmbedSettingsDto = z.object({
  /** Saved by an administrator. */
  origins: z.array(z.string()),
  /** Set by the operator (SVC_EMBED_ORIGINS); shown, not editable. */
  operatorOrigins: z.array(z.string()),
});
export type EmbedSettingsDto = z.infer<typeof ZEmbedSettingsDto>;

/** The accent colour from the query, when it is a plain `#rrggbb`; anything else is ignored. */
export function embedAccent(value: string | null): string | null {
  return value && /^#[0-9a-f]{6}$/i.test(value) ? value.toLowerCase() : null;
}
