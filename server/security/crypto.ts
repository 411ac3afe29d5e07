import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random secret from the CSPRNG, base64url; 32 bytes → 43 chars, 48 bytes → 64 chars. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** The 64-character cancel token of the contract (48 random bytes, base64url). */
export function newCancelToken(): string {
  return randomToken(48);
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function hmacHex(secret: string, value: string): string {
  return createHmac('sha256', secret).update(value).digest('hex');
}

/** Constant-time string comparison (length leaks, content does not). */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  if (ab.length !== bb.length) return false;
  return timingSafeEqual(ab, bb);
}

const SEAL_VERSION = 'v1';
const SEAL_IV_BYTES = 12;
const SEAL_TAG_BYTES = 16;

/** A 256-bit key for one purpose, derived from the server secret with HKDF-SHA-256. */
function sealKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'svc-sealed-secrets', purpose, 32));
}

/**
 * Encrypts a secret kept at rest (a calendar's password) with AES-256-GCM under a key derived
 * from the server secret for `purpose`: `v1.<iv>.<tag>.<ciphertext>`, base64url. The database
 * alone cannot open it; a changed SVC_SECRET makes it unreadable (docs/decisions/041-external-calendars.md).
 */
export function sealSecret(secret: string, purpose: string, plaintext: string): string {
  const iv = randomBytes(SEAL_IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', sealKey(secret, purpose), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [SEAL_VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
}

/** The plaintext of {@link sealSecret}'s output, or null when it was sealed under another key or altered. */
export function openSecret(secret: string, purpose: string, sealed: string): string | null {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== SEAL_VERSION || iv === undefined || tag === undefined || ciphertext === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealKey(secret, purpose), Buffer.from(iv, 'base64url'), { authTagLength: SEAL_TAG_BYTES });
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
