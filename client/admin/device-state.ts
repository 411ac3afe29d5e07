/**
 * A door device's state in words, one rule for every admin page that shows devices (the
 * devices page and the event dashboard), so the two never disagree.
 */
import type { DeviceDto } from '../../shared/checkin';

export interface DeviceState {
  /** What staff read: Revoked, Paired, Waiting for pairing. */
  label: string;
  /** The `state-*` class that colours it (admin.css). */
  tone: 'failed' | 'paired' | 'waiting';
}

/** Revoked wins; a device that has paired once is Paired; else it waits for its pairing code to be used. */
export function deviceState(d: Pick<DeviceDto, 'revokedUtc' | 'pairedUtc'>): DeviceState {
  if (d.revokedUtc) return { label: 'Revoked', tone: 'failed' };
  if (d.pairedUtc) return { label: 'Paired', tone: 'paired' };
  return { label: 'Waiting for pairing', tone: 'waiting' };
}
