import superjson from 'superjson';
import { describe, expect, it } from 'vitest';
import { isPlainJson, transformer } from '../../shared/transformer';

const wire = (value: unknown) => JSON.parse(JSON.stringify(transformer.serialize(value))) as { json: unknown; meta?: unknown };

describe('tRPC transformer (superjson wire format with a plain-JSON fast path)', () => {
  it('writes a plain JSON payload exactly as superjson does: { json } and no meta', () => {
    const push = { items: [{ clientId: 'a', eventId: 1, scannedUtc: '2030-06-01 18:30:00', ok: true, note: null, tags: ['x'] }], pending: 0 };
    expect(wire(push)).toEqual(JSON.parse(superjson.stringify(push)));
    expect(wire(push)).not.toHaveProperty('meta');
  });

  it('hands every value JSON cannot keep to superjson, so it round-trips: Date, undefined, Map, Set, BigInt, NaN, -0, class instances', () => {
    const values: unknown[] = [
      new Date('2030-06-01T18:30:00Z'),
      { a: undefined },
      new Map([[1, 'x']]),
      new Set([1]),
      10n,
      Number.NaN,
      -0,
      Number.POSITIVE_INFINITY,
      new URL('https://example.org/x'),
      [1, undefined],
    ];
    for (const value of values) {
      expect(isPlainJson(value)).toBe(false);
      const sent = wire(value);
      expect(sent).toEqual(JSON.parse(superjson.stringify(value)));
      expect(transformer.deserialize(sent)).toEqual(value);
    }
  });

  it('finds a non-JSON value however deep it sits', () => {
    expect(isPlainJson({ a: [{ b: { c: [1, 2, { d: new Date(0) }] } }] })).toBe(false);
    expect(isPlainJson({ a: [{ b: { c: [1, 2, { d: 'x' }] } }] })).toBe(true);
  });

  it('reads a payload without meta as is, and one with meta (from any superjson client) through superjson', () => {
    const plain = { json: { items: [1, 2] } };
    expect(transformer.deserialize(plain)).toBe(plain.json);
    const fromSuperjson = JSON.parse(superjson.stringify({ when: new Date('2030-01-01T00:00:00Z'), n: 1 }));
    expect(transformer.deserialize(fromSuperjson)).toEqual({ when: new Date('2030-01-01T00:00:00Z'), n: 1 });
  });

  it('answers what superjson answers for inputs that are not a payload object', () => {
    for (const odd of [5, 'x']) expect(transformer.deserialize(odd as never)).toEqual(superjson.deserialize(odd as never));
    expect(() => superjson.deserialize(null as never)).toThrow();
    expect(() => transformer.deserialize(null as never)).toThrow();
  });
});
