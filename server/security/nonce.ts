import { AppError } from '../../shared/errors';
import { toUtcString } from '../../shared/time';
import { hmacHex, safeEqual } from './crypto';

// Nonces are HMACs over action and a 12-hour bucket; the current and previous bucket
// are accepted, so a nonce lives between 12 and 24 hours and no state is stored.
const BUCKET_MS = 12 * 60 * 60 * 1000;

/** The nonce action shared by POST /bookings and sign-up posts (docs/api.md#errors); GET /nonce hands out its nonces. */
export const PUBLIC_FORM_NONCE_ACTION = 'svc_public_form';

export interface Nonce {
  nonce: string;
  expiresUtc: string;
}

export function createNonce(secret: string, action: string, nowMs = Date.now()): Nonce {
  const bucket = Math.floor(nowMs / BUCKET_MS);
  return {
    nonce: `${bucket.toString(36)}.${hmacHex(secret, `nonce|${action}|${bucket}`).slice(0, 32)}`,
    expiresUtc: toUtcString((bucket + 2) * BUCKET_MS),
  };
}

export function isValidNonce(secret: string, action: string, nonce: string | undefined | null, nowMs = Date.now()): boolean {
  if (!nonce || nonce.length > 64) return false;
  const [bucketText, mac] = nonce.split('.', 2);
  if (!bucketText || !mac) return false;
  const bucket = parseInt(bucketText, 36);
  const current = Math.floor(nowMs / BUCKET_MS);
  if (!(bucket === current || bucket === current - 1)) return false;
  return safeEqual(mac, hmacHex(secret, `nonce|${action}|${bucket}`).slice(0, 32));
}

/** Throws svc_invalid_nonce (403) unless the nonce is valid for the action. */
export function assertNonce(secret: string, action: string, nonce: string | undefined | null, nowMs = Date.now()): void {
  if (!isValidNonce(secret, action, nonce, nowMs)) throw new AppError('svc_invalid_nonce');
}

/** A signed value (e.g. a form's render time) that the client posts back unchanged. */
export function signValue(secret: string, purpose: string, value: string): string {
  return `${value}.${hmacHex(secret, `signed|${purpose}|${value}`).slice(0, 32)}`;
}

/** The value inside a signed token, or null when the signature does not match. */
export function readSigned(secret: string, purpose: string, token: string | undefined | null): string | null {
  if (!token || token.length > 200) return null;
  const dot = token.lastIndexOf('.');
  if (dot <= 0) return null;
  const value = token.slice(0, dot);
  return safeEqual(token.slice(dot + 1), hmacHex(secret, `signed|${purpose}|${value}`).slice(0, 32)) ? value : null;
}
