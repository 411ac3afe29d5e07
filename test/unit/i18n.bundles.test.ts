/** The client's catalogue bundles: an area's words added while the page's own are loading keep both. */
import { describe, expect, it, vi } from 'vitest';

describe('useBundle', () => {
  it("the admin's words asked for while the public catalogue is still loading are added to it, not put in its place", async () => {
    vi.resetModules();
    const i18n = await import('../../client/i18n/i18n');
    // the public catalogue is at hand (as the shell preloads it); the admin's must still load
    await import('../../client/i18n/messages/en.json');
    const starting = i18n.useLocale('en');
    const admin = i18n.useBundle('admin');
    await Promise.all([starting, admin]);
    expect(i18n.t('common.startPage', { name: 'svc' })).toBe('svc, start page');
    expect(i18n.t('admin.language.defaultLabel')).not.toBe('admin.language.defaultLabel');
  });

  it("the admin's words asked for while another language's catalogue is loading arrive in that language", async () => {
    vi.resetModules();
    const i18n = await import('../../client/i18n/i18n');
    const ar = (await import('../../client/i18n/admin/ar.json')).default as Record<string, string>;
    // the page starts in Arabic; its admin chunk asks for its words before the Arabic catalogue is current
    const starting = i18n.useLocale('ar');
    const admin = i18n.useBundle('admin');
    await Promise.all([starting, admin]);
    expect(i18n.locale()).toBe('ar');
    expect(i18n.t('admin.bookings.newHeading')).toBe(ar['admin.bookings.newHeading']);
  });
});
