import { describe, expect, it } from 'vitest';
import { openSecret, sealSecret } from '../../server/security/crypto';

describe('secrets sealed at rest (AES-256-GCM under an HKDF key from the server secret)', () => {
  it('a sealed secret opens with the same server secret and purpose, and its text shows nothing of it', () => {
    const sealed = sealSecret('server secret A', 'host-calendar-password', 'app-password-123');
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('app-password');
    expect(openSecret('server secret A', 'host-calendar-password', sealed)).toBe('app-password-123');
  });

  it('the same secret sealed twice differs (a fresh IV each time)', () => {
    expect(sealSecret('s', 'p', 'same')).not.toBe(sealSecret('s', 'p', 'same'));
  });

  it('another server secret, another purpose or an altered text does not open it', () => {
    const sealed = sealSecret('server secret A', 'host-calendar-password', 'app-password-123');
    expect(openSecret('server secret B', 'host-calendar-password', sealed)).toBeNull();
    expect(openSecret('server secret A', 'other-purpose', sealed)).toBeNull();
    const [v, iv, tag, body] = sealed.split('.');
    const flipped = body!.slice(0, -2) + (body!.endsWith('AA') ? 'BA' : 'AA');
    expect(openSecret('server secret A', 'host-calendar-password', [v, iv, tag, flipped].join('.'))).toBeNull();
    expect(openSecret('server secret A', 'host-calendar-password', 'garbage')).toBeNull();
  });
});
