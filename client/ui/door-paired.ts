/**
 * Whether this browser is a paired door device, for the shell's header: a door shows only what
 * the door needs (no Events or Admin links). The door page says so when its device record is
 * read; kept in localStorage so a reload does not flash the links before the record is read.
 */
import { createSignal } from 'solid-js';

const KEY = 'svc-door-paired';

function stored(): boolean {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

const [paired, setPaired] = createSignal(stored());

/** True on a browser paired as a door device (until it is forgotten). */
export const doorPaired = paired;

export function setDoorPaired(on: boolean): void {
  try {
    if (on) localStorage.setItem(KEY, '1');
    else localStorage.removeItem(KEY);
  } catch {
    /* storage refused: the header follows this visit only */
  }
  setPaired(on);
}
