/**
 * The visitor's way into and through the checkout page `/pay/{id}` (docs/api.md#payments):
 * where a booking's or sign-up's `paymentUrl` leads, the page to come back to, and the polling
 * that waits for the server's job to process a payment.
 */
import type { CheckoutDto, PaymentStatus } from '../../shared/payments';
import { utcMs } from '../../shared/time';
import { navigate } from '../router';
import { call, rpc } from '../ui/trpc';

/** The checkout page's path (`/pay/{id}`) when `paymentUrl` is svc's own page, else null. */
export function checkoutPath(paymentUrl: string | undefined | null): string | null {
  if (!paymentUrl) return null;
  let url: URL;
  try {
    url = new URL(paymentUrl, window.location.href);
  } catch {
    return null;
  }
  // The server names its own checkout as `${SVC_PUBLIC_URL}/pay/{id}`; that public address may be
  // another host than the one serving this page (a proxy, a test server), so the path decides.
  const match = /^\/pay\/([A-Za-z0-9_-]{16,64})\/?$/.exec(url.pathname);
  return match ? `/pay/${match[1]}` : null;
}

/** The payment id of a `/pay/{id}` URL, or null. */
export function paymentIdOf(paymentUrl: string | undefined | null): string | null {
  return checkoutPath(paymentUrl)?.slice('/pay/'.length) ?? null;
}

/**
 * Opens the checkout: in the app for our own page (the URL stays `/pay/{id}`, so a reload or a
 * shared link shows it again), otherwise the browser goes to the other site.
 */
export function goToCheckout(paymentUrl: string, returnTo: string): void {
  const path = checkoutPath(paymentUrl);
  if (!path) {
    window.location.assign(paymentUrl);
    return;
  }
  rememberReturnPath(path.slice('/pay/'.length), returnTo);
  navigate(path);
}

const RETURN_KEY = (id: string) => `svc-pay-return:${id}`;

/** Where "pick another time" leads from this checkout (the booking or event page it came from). */
export function rememberReturnPath(paymentId: string, path: string): void {
  try {
    sessionStorage.setItem(RETURN_KEY(paymentId), path);
  } catch {
    // private mode: the page falls back to /events
  }
}

export function returnPath(paymentId: string): string | null {
  try {
    const path = sessionStorage.getItem(RETURN_KEY(paymentId));
    return path && path.startsWith('/') && !path.startsWith('//') ? path : null;
  } catch {
    return null;
  }
}

/** Statuses after which nothing changes without someone acting (the page stops polling). */
const FINAL: readonly PaymentStatus[] = ['cancelled', 'expired', 'refunding', 'refunded'];

/** The checkout is over for the visitor: paid and confirmed, or released, or refunded. */
export function isFinished(checkout: CheckoutDto): boolean {
  return checkout.settled || FINAL.includes(checkout.status);
}

export const fetchCheckout = (id: string): Promise<CheckoutDto> => call(rpc().payments.checkout.query({ id }));

export interface PollOptions {
  intervalMs?: number;
  timeoutMs?: number;
  /** Each answer, as it comes (the page shows it). */
  onUpdate?: (checkout: CheckoutDto) => void;
  /** True once the caller is gone (page left, another poll started). */
  stopped?: () => boolean;
}

/**
 * Asks for the checkout every `intervalMs` until `done(checkout)` or the time is up. Answers
 * the last checkout seen and whether `done` was reached. A failed request (a network blip) is
 * retried on the next tick; the last error is thrown only when nothing was ever read.
 */
export async function pollCheckout(
  id: string,
  done: (checkout: CheckoutDto) => boolean,
  opts: PollOptions = {},
): Promise<{ checkout: CheckoutDto | null; reached: boolean }> {
  const interval = opts.intervalMs ?? 1_000;
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  let last: CheckoutDto | null = null;
  let lastError: unknown = null;
  for (;;) {
    if (opts.stopped?.()) return { checkout: last, reached: false };
    try {
      last = await fetchCheckout(id);
      if (opts.stopped?.()) return { checkout: last, reached: false };
      opts.onUpdate?.(last);
      if (done(last)) return { checkout: last, reached: true };
    } catch (error) {
      lastError = error;
    }
    if (Date.now() + interval > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
  if (!last && lastError) throw lastError;
  return { checkout: last, reached: false };
}

/** Whole hours from `fromMs` until the hold ends (at least 1), for "released after N hours". */
export function holdHours(holdUntilUtc: string, fromMs: number): number {
  return Math.max(1, Math.round((utcMs(holdUntilUtc) - fromMs) / 3_600_000));
}
