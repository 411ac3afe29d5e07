/**
 * The public-form nonce (docs/api.md#errors, header X-Svc-Nonce), fetched whenever a visitor form is
 * shown online and kept with the page's copies (copies.ts), so a submission made offline later
 * still has one.
 */
import type { NonceDto } from '../../shared/system';
import { parseUtcString } from '../../shared/time';
import { call, rpc } from '../ui/trpc';
import { storeCopy, storedCopy } from './copies';

/** `system.nonce`'s answer: the nonce and its expiry (UTC `Y-m-d H:i:s`). */
export type NonceValue = NonceDto;

const NONCE_KEY = 'nonce';

export async function fetchNonce(): Promise<NonceValue> {
  const value = await call(rpc().system.nonce.query());
  storeCopy(NONCE_KEY, value);
  return value;
}

/** The stored nonce if it is still valid for a while; otherwise null. */
export async function storedNonce(now = Date.now()): Promise<NonceValue | null> {
  const value = storedCopy<NonceValue>(NONCE_KEY)?.value;
  if (!value) return null;
  const expires = parseUtcString(value.expiresUtc);
  return expires && expires.getTime() - now > 10 * 60_000 ? value : null;
}

/** Refreshes the stored nonce when online; never throws (offline keeps the stored one). */
export async function prefetchNonce(): Promise<void> {
  try {
    if ((await storedNonce(Date.now() + 60 * 60_000)) === null) await fetchNonce();
  } catch {
    /* offline: the stored one (or a fresh one at send time) will do */
  }
}
