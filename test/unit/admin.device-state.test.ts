import { beforeAll, describe, expect, it } from 'vitest';
import { deviceState } from '../../client/admin/device-state';
import { useBundle, useLocale } from '../../client/i18n/i18n';

// the labels are the admin catalogue's words
beforeAll(async () => {
  await useLocale('en');
  await useBundle('admin');
});

describe('a door device’s state, as the devices page and the dashboard both say it', () => {
  it('revoked wins over paired; paired once is Paired; otherwise it waits for pairing', () => {
    expect(deviceState({ revokedUtc: '2030-01-02 10:00:00', pairedUtc: '2030-01-01 10:00:00' })).toEqual({ label: 'Revoked', tone: 'failed' });
    expect(deviceState({ revokedUtc: null, pairedUtc: '2030-01-01 10:00:00' })).toEqual({ label: 'Paired', tone: 'paired' });
    expect(deviceState({ revokedUtc: null, pairedUtc: null })).toEqual({ label: 'Waiting for pairing', tone: 'waiting' });
  });

  it('says it in the reader’s language', async () => {
    await useLocale('de');
    expect(deviceState({ revokedUtc: '2030-01-02 10:00:00', pairedUtc: null }).label).not.toBe('Revoked');
    await useLocale('en');
  });
});
