/**
 * Which edition the server runs, from `payments.status` (it answers in the free edition too):
 * the extended edition's pages (Orders) and sections (Settings › Payments) show only there.
 * Asked once per app load; the last answer is kept in localStorage so the navigation does not
 * jump when the next visit starts.
 */
import { createSignal } from 'solid-js';
import { getPaymentStatus, type PaymentStatusDto } from './data';

type Edition = PaymentStatusDto['edition'];

const STORAGE_KEY = 'svc-admin-edition';

function storedEdition(): Edition | null {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return value === 'free' || value === 'extended' ? value : null;
  } catch {
    return null;
  }
}

const [edition, setEdition] = createSignal<Edition | null>(storedEdition());

/** The edition as last seen (null: not known yet on this device); reactive. */
export { edition };

let pending: Promise<PaymentStatusDto> | null = null;

/** `payments.status`, asked once per app load (a failure is not kept, so the next page asks again). */
export function loadPaymentStatus(): Promise<PaymentStatusDto> {
  pending ??= getPaymentStatus().then(
    (status) => {
      setEdition(status.edition);
      try {
        localStorage.setItem(STORAGE_KEY, status.edition);
      } catch {
        // private mode: the nav waits for the answer each visit
      }
      return status;
    },
    (error: unknown) => {
      pending = null;
      throw error;
    },
  );
  return pending;
}
