import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

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
