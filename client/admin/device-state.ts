/**
 * A door device's state in words, one rule for every admin page that shows devices (the
 * devices page and the event dashboard), so the two never disagree.
 */
import type { DeviceDto } from '../../shared/checkin';
import { t } from '../i18n/i18n';

export interface DeviceState {
  /** What staff read, in their language: Revoked, Paired, Waiting for pairing. */
  label: string;
  /** The `state-*` class that colours it (admin.css). */
  tone: 'failed' | 'paired' | 'waiting';
}

/** Revoked wins; a device that has paired once is Paired; else it waits for its pairing code to be used. */
export function deviceState(d: Pick<DeviceDto, 'revokedUtc' | 'pairedUtc'>): DeviceState {
  if (d.revokedUtc) return { label: t('admin.devices.state.revoked'), tone: 'failed' };
  if (d.pairedUtc) return { label: t('admin.devices.state.paired'), tone: 'paired' };
  return { label: t('admin.devices.state.waiting'), tone: 'waiting' };
}
