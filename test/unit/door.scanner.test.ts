/** Scanner input without a camera: the 3 s same-code rule, keyboard-wedge bursts, pairing links, the code hash. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSameCodeFilter, createWedgeReader, pairingCodeFrom, sha256Hex } from '../../client/door/scanner/input';

describe('same code ignored for 3 s', () => {
  it('takes a code once while it is held up, and again after a 3 s pause', () => {
    let t = 0;
    const filter = createSameCodeFilter(3000, () => t);
    expect(filter.accept('A')).toBe(true);
    const seen = [];
    for (t = 100; t <= 10_000; t += 100) seen.push(filter.accept('A'));
    expect(seen.every((s) => s === false)).toBe(true);
    t += 3000;
    expect(filter.accept('A')).toBe(true);
  });

  it('takes another code at once', () => {
    let t = 0;
    const filter = createSameCodeFilter(3000, () => t);
    expect(filter.accept('A')).toBe(true);
    t = 10;
    expect(filter.accept('B')).toBe(true);
    t = 20;
    expect(filter.accept('A')).toBe(true);
  });
});

describe('keyboard wedge', () => {
  const type = (reader: ReturnType<typeof createWedgeReader>, text: string, start: number, gap: number, editable = false) => {
    let out: string | null = null;
    [...text, 'Enter'].forEach((key, i) => {
      const r = reader.push({ key: key === 'Enter' && i === text.length ? 'Enter' : key, time: start + i * gap, editable });
      if (r) out = r;
    });
    return out;
  };

  it('reads a fast burst ending in Enter as a code', () => {
    expect(type(createWedgeReader(), 'Abc-123_xyz', 1000, 8)).toBe('Abc-123_xyz');
  });

  it('ignores a person typing slowly, short bursts, and keys going to a form field', () => {
    expect(type(createWedgeReader(), 'Abc-123_xyz', 1000, 150)).toBeNull();
    expect(type(createWedgeReader(), 'ab', 1000, 5)).toBeNull();
    expect(type(createWedgeReader(), 'Abc-123_xyz', 1000, 5, true)).toBeNull();
  });

  it('starts a new code after a pause', () => {
    const reader = createWedgeReader();
    reader.push({ key: 'x', time: 0, editable: false });
    expect(type(reader, 'CODE1234', 5000, 5)).toBe('CODE1234');
  });
});

describe('pairing link and code hash', () => {
  it('reads the code from the pairing QR link fragment', () => {
    expect(pairingCodeFrom('https://door.example/door#pair=abcd-efgh')).toBe('ABCD-EFGH');
    expect(pairingCodeFrom('https://door.example/door')).toBeNull();
    expect(pairingCodeFrom('ticket-code-123')).toBeNull();
  });

  it('hashes a ticket code with SHA-256 like the server', async () => {
    expect(await sha256Hex('bench-1-42')).toBe(createHash('sha256').update('bench-1-42').digest('hex'));
  });
});
