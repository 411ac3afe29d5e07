import { authService } from './auth/auth.service';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { getConnInfo } from '@hono/node-server/conninfo';
import { isIP } from 'node:net';
import { AppError } from '../shared/errors';
import type { Principal } from './auth/principal';
import type { AppContext } from './context';

export const SESSION_COOKIE = 'svc_session';
const PRINCIPAL_KEY = 'svcPrincipal';

function bearerToken(c: Context): string | null {
  const header = c.req.header('authorization');
  if (!header) return null;
  const match = /^Bearer\s+(\S{1,512})$/i.exec(header.trim());
  return match ? match[1]! : null;
}

/** The caller of this request, resolved once (cookie or Bearer token); null when anonymous. */
export async function resolvePrincipal(c: Context, ctx: AppContext): Promise<Principal | null> {
  const cached = c.get(PRINCIPAL_KEY as never) as Principal | null | undefined;
  if (cached !== undefined) return cached;
  const principal = await authService(ctx).authenticate({ bearerToken: bearerToken(c), sessionToken: getCookie(c, SESSION_COOKIE) ?? null });
  c.set(PRINCIPAL_KEY as never, principal as never);
  return principal;
}

/**
 * Cookie-authenticated writes must come from our own pages: the Origin header has to
 * name this server (or SVC_PUBLIC_URL). A missing Origin is refused too.
 */
export function assertSameOrigin(c: Context, ctx: AppContext): void {
  const origin = c.req.header('origin');
  if (!origin) throw new AppError('svc_forbidden', 'Missing Origin header.');
  if (!isOwnOrigin(c, ctx, origin)) throw new AppError('svc_forbidden', 'Cross-origin request refused.');
}

/**
 * Any write a browser sends from another site is refused, signed in or not: a cross-site form
 * could otherwise sign a victim into the attacker's account (login CSRF). Callers without a
 * browser send no Origin and pass; the public sign-up, which other sites' forms post to on
 * purpose, does not ask (its nonce and throttles guard it).
 */
export function assertNotCrossSite(c: Context, ctx: AppContext): void {
  const origin = c.req.header('origin');
  if (origin && !isOwnOrigin(c, ctx, origin)) throw new AppError('svc_forbidden', 'Cross-origin request refused.');
}

function isOwnOrigin(c: Context, ctx: AppContext, origin: string): boolean {
  const allowed = new Set([new URL(c.req.url).origin, new URL(ctx.env.publicUrl).origin]);
  const host = c.req.header('host');
  if (host) allowed.add(`${isSecure(c, ctx) ? 'https' : 'http'}://${host}`);
  return allowed.has(origin);
}

export function isSecure(c: Context, ctx: AppContext): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  return ctx.env.SVC_TRUST_PROXY === '1' && c.req.header('x-forwarded-proto') === 'https';
}

/** REMOTE_ADDR after IP validation, or '' — X-Forwarded-For is deliberately ignored. */
export function clientIp(c: Context): string {
  try {
    const address = getConnInfo(c).remote.address ?? '';
    const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
    return isIP(plain) ? plain : '';
  } catch {
    return '';
  }
}

/**
 * The Content-Security-Policy of every answer (docs/api.md#auth): scripts only from our origin
 * (the built PWA has no inline script) — and WebAssembly compiled from our own .wasm (the
 * door's QR decoder; 'wasm-unsafe-eval' allows no JS eval), no framing, no plugins; inline style attributes stay
 * allowed (the camera library positions its overlay with them); images may be data:/blob: URLs
 * (QR codes drawn in the page), and a page may read a blob it made itself (the calendar file it offers).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob: mediastream:",
  "connect-src 'self' blob:",
  "worker-src 'self'",
  "manifest-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The policy of an embeddable page in its embedded form (docs/decisions/052-embeds.md): framed by
 * the allowed origins only, or by nobody when none is allowed.
 */
export function embeddablePagePolicy(allowedOrigins: readonly string[]): string {
  return CONTENT_SECURITY_POLICY.replace("frame-ancestors 'none'", `frame-ancestors ${allowedOrigins.length > 0 ? allowedOrigins.join(' ') : "'none'"}`);
}

/**
 * Security headers on every answer. Referrer-Policy `no-referrer`: cancel and manage links carry
 * their token in the path, and a referrer would hand it to any site they link to. The camera is
 * allowed to our own pages only (the door scanner). HSTS only when the request came over TLS.
 * `frameAncestors` is given for an embeddable page only (the origins that may frame it, maybe
 * none); every other answer refuses framing, by CSP and by X-Frame-Options for older browsers.
 */
export function setSecurityHeaders(c: Context, ctx: AppContext, frameAncestors: readonly string[] | null = null): void {
  const set: Array<[string, string]> = [
    ['content-security-policy', frameAncestors ? embeddablePagePolicy(frameAncestors) : CONTENT_SECURITY_POLICY],
    ['referrer-policy', 'no-referrer'],
    ['permissions-policy', 'camera=(self), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()'],
    ['x-content-type-options', 'nosniff'],
    ['cross-origin-opener-policy', 'same-origin'],
  ];
  // X-Frame-Options has no list of origins: an embeddable page that some origin may frame goes without it
  if (!frameAncestors || frameAncestors.length === 0) set.push(['x-frame-options', 'DENY']);
  if (isSecure(c, ctx)) set.push(['strict-transport-security', 'max-age=31536000; includeSubDomains']);
  // Onto the finished answer's own headers: hono's `c.header` after the handler copies the whole
  // Response for each header (seven copies an answer, ~3 % of a sign-up rush's CPU). A Response
  // whose headers are immutable (Response.redirect's) is copied once.
  let headers = c.res.headers;
  try {
    headers.set(set[0]![0], set[0]![1]);
  } catch {
    c.res = new Response(c.res.body, c.res);
    headers = c.res.headers;
  }
  for (const [name, value] of set) headers.set(name, value);
}
