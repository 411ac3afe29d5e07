/**
 * Scanner input that is not the camera's: the same-code filter ("one held-up ticket is one
 * scan"), keyboard-wedge bursts (USB/Bluetooth scanners type fast and end with Enter), the
 * pairing link, and SHA-256 of a code as the device stores it (docs/api.md#sync).
 */

/** UX: the same code is ignored for 3 s. */
export const SAME_CODE_IGNORE_MS = 3000;

/**
 * Ignores a code seen again within `windowMs` of its LAST sighting: a ticket held in front of
 * the camera is decoded many times a second and stays one scan however long it is held; a
 * deliberate re-scan after the pause is a new scan.
 */
export function createSameCodeFilter(windowMs = SAME_CODE_IGNORE_MS, now: () => number = () => performance.now()) {
  let lastCode: string | null = null;
  let lastSeen = -Infinity;
  return {
    accept(code: string): boolean {
      const t = now();
      const repeat = code === lastCode && t - lastSeen < windowMs;
      lastCode = code;
      lastSeen = t;
      return !repeat;
    },
    reset(): void {
      lastCode = null;
    },
  };
}

export interface WedgeKey {
  key: string;
  /** Milliseconds (event.timeStamp). */
  time: number;
  /** True when the key went to an editable field, which handles its own Enter. */
  editable: boolean;
}

/** Keys of a scanner come this close together; a person types slower. */
export const WEDGE_MAX_GAP_MS = 60;
export const WEDGE_MIN_LENGTH = 4;

/**
 * Collects keyboard-wedge bursts: printable keys less than WEDGE_MAX_GAP_MS apart, ended by
 * Enter. `push` answers the code when a burst ends (the caller then prevents the Enter's default).
 */
export function createWedgeReader(maxGapMs = WEDGE_MAX_GAP_MS, minLength = WEDGE_MIN_LENGTH) {
  let buffer = '';
  let last = -Infinity;
  return {
    push(k: WedgeKey): string | null {
      if (k.editable) {
        buffer = '';
        return null;
      }
      const gap = k.time - last;
      last = k.time;
      if (k.key === 'Enter') {
        const code = gap <= maxGapMs && buffer.length >= minLength ? buffer : null;
        buffer = '';
        return code;
      }
      if (k.key.length !== 1) return null;
      buffer = gap <= maxGapMs ? buffer + k.key : k.key;
      return null;
    },
  };
}

/** The pairing code in a door link (`…/door#pair=ABCD-EFGH`), or null. */
export function pairingCodeFrom(text: string): string | null {
  const match = /#pair=([A-Za-z0-9-]{4,32})$/.exec(text.trim());
  return match ? match[1]!.toUpperCase() : null;
}

/** What a scanned or typed ticket code looks like to the lookup: the payload trimmed. */
export function normalizeTicketCode(text: string): string {
  return text.trim();
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** SHA-256 hex of a ticket code via WebCrypto (the device never stores codes in clear). */
export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let out = '';
  for (const byte of digest) out += HEX[byte];
  return out;
}
